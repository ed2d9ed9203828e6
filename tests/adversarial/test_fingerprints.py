"""Issue 31, item 11: a fingerprint covers the whole secret.

An allow-list entry for the fingerprint of `-----BEGIN RSA PRIVATE KEY-----` (a session explaining
PEM files) silenced every private key pasted later, because CT501's private-key shape matched only
the header: every key's fingerprint was the header's. Now a key's match is its whole block, header
through END line (or, cut short, through its last line of base64), so each key has a fingerprint of
its own; a header alone is no finding; and an entry naming the fingerprint of a constant part of a
secret shape (every PEM header and footer, every vendor prefix) is refused with the reason, one
line naming corpus.yaml's line. Fake keys are assembled at run time (secrets_cases.private_key)."""

from __future__ import annotations

import pytest

from corpustools.cli import main
from corpustools.lint.secrets.findings import fingerprint
from corpustools.lint.secrets.tokens import PEM_CONSTANTS
from tests.support.corpus import ADMIT_ID, SPEC_TEXT, session_text
from tests.support.lint import lint_run
from tests.support.secrets_cases import private_key

SESSION = f"sessions/{ADMIT_ID}.md"
HEADER = "-----BEGIN RSA PRIVATE KEY-----"
EXPLAINED = f"[USER]: A PEM key file starts with {HEADER} and ends with its END line.\n"


def session(*blocks: str) -> str:
    """The admit session: a turn explaining PEM files, then each block pasted in a turn of its own."""
    body = EXPLAINED + "".join(f"[USER]: Here is the key:\n{block}[AGENT]: Noted.\n" for block in blocks)
    return session_text(body=body)


def allowing(digest: str, file: str | None = SESSION) -> str:
    entry = (f"      - file: {file}\n        fingerprint: {digest}\n" if file
             else f"      - fingerprint: {digest}\n")
    return SPEC_TEXT + "lint:\n  secrets:\n    allow:\n" + entry + "        reason: a session explains PEM files\n"


def private_keys(root) -> list[tuple[int, str]]:
    """(line, fingerprint) of every CT501 private-key finding."""
    return [(d.line, d.message.rsplit(" ", 1)[1]) for d in lint_run(root).diagnostics
            if d.code == "CT501" and d.message.startswith("private key")]


class TestTheReproduction:
    def test_an_entry_for_the_header_no_longer_allows_a_key_pasted_later(self, make_corpus, capsys):
        # Before: lint said "All checks passed." and exit 0, the key allowed by its header.
        root = make_corpus({"corpus.yaml": allowing(fingerprint(HEADER)), SESSION: session(private_key())})
        code = main(["lint", str(root)])
        out, err = capsys.readouterr()
        entry_line = SPEC_TEXT.count("\n") + 5  # lint:, secrets:, allow:, file:, then fingerprint:
        assert code == 2 and "All checks passed." not in out
        [line] = err.splitlines()
        assert f"corpus.yaml:{entry_line}:" in line
        assert f"the SHA-256 of `{HEADER}` alone" in line and "allow each one by the fingerprint its finding" in line

    def test_nor_anywhere_without_file(self, make_corpus, capsys):
        root = make_corpus({"corpus.yaml": allowing(fingerprint(HEADER), file=None), SESSION: session(private_key())})
        assert main(["lint", str(root)]) == 2
        assert "alone" in capsys.readouterr().err


class TestEachKeyHasItsOwnFingerprint:
    def test_two_keys_of_one_kind_differ_and_neither_is_the_header(self, make_corpus):
        root = make_corpus({SESSION: session(private_key(offset=0), private_key(offset=3))})
        found = private_keys(root)
        assert [line for line, _ in found] == [9, 18]  # each at its header; the explaining turn is no finding
        assert len({digest for _, digest in found}) == 2 and fingerprint(HEADER) not in {d for _, d in found}

    def test_the_fingerprint_covers_the_whole_block(self, make_corpus):
        block = private_key(offset=0)
        root = make_corpus({SESSION: session(block)})
        [(_, digest)] = private_keys(root)
        assert digest == fingerprint(" ".join(block.split("\n")).strip())  # its lines, joined by spaces

    def test_an_entry_for_one_key_allows_that_key_only(self, make_corpus):
        first, second = private_key(offset=0), private_key(offset=3)
        [(_, digest)] = private_keys(make_corpus({SESSION: session(first)}, name="one"))
        root = make_corpus({"corpus.yaml": allowing(digest), SESSION: session(first, second)}, name="both")
        assert [line for line, _ in private_keys(root)] == [18]
        assert not [d for d in lint_run(root).diagnostics if d.code == "CT509"]

    def test_a_key_in_a_json_string_is_its_whole_block_too(self, make_corpus):
        one_line = private_key().replace("\n", "\\n")
        root = make_corpus({f"gold/{ADMIT_ID}.json": '{"key": "' + one_line + '"}\n'})
        [(line, digest)] = private_keys(root)
        assert line == 1 and digest not in {fingerprint(HEADER), fingerprint(HEADER + "\\n")}

    @pytest.mark.parametrize("kind", ["", "RSA", "EC", "OPENSSH", "ENCRYPTED", "DSA"])
    def test_every_kind(self, make_corpus, kind):
        root = make_corpus({SESSION: session(private_key(kind))})
        assert [line for line, _ in private_keys(root)] == [9]

    def test_indented_and_quoted_blocks(self, make_corpus):
        yaml_block = "notes: |\n" + "".join(f"  {line}\n" for line in private_key().splitlines())
        quoted = "".join(f"> {line}\n" for line in private_key("OPENSSH").splitlines())
        root = make_corpus({f"expected/{ADMIT_ID}.yaml": None, "notes/key.yaml": yaml_block,
                            SESSION: session_text(body=f"[USER]: Here:\n{quoted}[AGENT]: Noted.\n")})
        assert len(private_keys(root)) == 2


class TestHeadersAndCutBlocks:
    """Decided where the issue is silent: a block cut short before its END line is still a key
    (its match runs through its last line of base64); a header with no base64 after it holds no
    secret and is no finding, so a session explaining PEM files needs no allow-list entry."""

    def test_an_unterminated_block_is_reported_through_its_last_base64_line(self, make_corpus):
        block = private_key(end=False)
        root = make_corpus({SESSION: session(block)})
        [(line, digest)] = private_keys(root)
        assert line == 9 and digest == fingerprint(" ".join(block.split("\n")).strip())

    def test_a_header_alone_is_no_finding(self, make_corpus):
        root = make_corpus({SESSION: session_text(body=EXPLAINED + f"[USER]: {HEADER}\n[AGENT]: [redacted]\n")})
        assert private_keys(root) == []

    @pytest.mark.parametrize("constant", [*PEM_CONSTANTS[:3], "-----BEGIN PGP PRIVATE KEY BLOCK-----",
                                          "gh" + "p_", "AK" + "IA", "sk" + "_live_", "xox" + "b-"])
    def test_an_entry_for_a_constant_part_of_a_secret_shape_is_refused(self, make_corpus, capsys, constant):
        root = make_corpus({"corpus.yaml": allowing(fingerprint(constant))})
        assert main(["lint", str(root)]) == 2
        [line] = capsys.readouterr().err.splitlines()
        assert "corpus.yaml:" in line and "alone" in line
