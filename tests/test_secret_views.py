"""The secret scan's reader views (corpustools/lint/secrets/markup.py, issue 31 item 17): where a
disguised token is reported, what its fingerprint is, which rules read joined lines, that nothing
printed shows the token, and bounded work. The probe sets and their figures are
tests/adversarial/test_scan_figures.py."""

from __future__ import annotations

import time

import pytest

from corpustools.cli import main
from corpustools.lint.secrets.findings import fingerprint
from corpustools.lint.secrets.redaction import redact_secrets
from tests.support.corpus import ADMIT_ID, session_text, sidecar_text
from tests.support.lint import lint_run
from tests.support.scan_probes import AWS, around, split
from tests.support.secrets_cases import GITHUB, STRIPE_LIVE

SESSION = f"sessions/{ADMIT_ID}.md"
SIDECAR = f"expected/{ADMIT_ID}.yaml"
FIRST = 7  # the file line of a session body's first line


def body(*lines: str) -> str:
    return session_text(body="".join(line + "\n" for line in lines))


def found(root, codes=("CT501", "CT502")) -> list[tuple[int, int, str, str]]:
    """(line, col, code, fingerprint) of every diagnostic of `codes`."""
    return [(d.line, d.col, d.code, d.message.rsplit(" ", 1)[1]) for d in lint_run(root).diagnostics
            if d.code in codes]


def test_a_token_split_by_markup_is_reported_where_it_starts(make_corpus):
    line = f"Use {around('aws', '**')} and {around('stripe', '<!-- -->', '<!-- -->')} here."
    root = make_corpus({SESSION: body(line)})
    assert [(n, col, code) for n, col, code, _ in found(root)] == [
        (FIRST, line.index("AKIA") + 1, "CT501"), (FIRST, line.index("sk_live_") + 1, "CT501")]


def test_a_wrapped_token_is_reported_at_its_first_line_and_has_the_fingerprint_of_what_a_reader_joins(make_corpus):
    head, tail = split("aws", 4)
    root = make_corpus({SESSION: body("[USER]: The key is", f"{head}\\", f"  {tail} in the env.")})
    assert found(root) == [(FIRST + 1, 1, "CT501", fingerprint(AWS))]


def test_a_token_that_ends_its_line_keeps_its_own_fingerprint(make_corpus):
    # The next line starts with a word: joined, the token would run on into it; the line's own
    # finding is kept, so a fingerprint an allow-list names does not change.
    root = make_corpus({SESSION: body(f"[USER]: Pushed with {GITHUB}", "and then it failed.")})
    assert found(root) == [(FIRST, 21, "CT501", fingerprint(GITHUB))]


def test_joined_lines_are_read_for_tokens_and_keys_alone(make_corpus):
    # A token at a line's end and an assignment on the next line are two findings, not a key
    # `ghp_…password` assigned a value; a key whose value is the next line is one assignment.
    root = make_corpus({SESSION: body(f"[USER]: {GITHUB}", "password=Hunter22x", "db_password:", "  Tr0ub4dor9x")})
    assert [(n, col, code) for n, col, code, _ in found(root)] == [
        (FIRST, 9, "CT501"), (FIRST + 1, 1, "CT502"), (FIRST + 2, 1, "CT502")]


def test_the_key_of_an_aws_id_in_small_letters_and_glued_forms(make_corpus):
    lines = [f"term {AWS.lower()}", f"The keyAKIA{AWS[4:]} is set", f"Set STRIPE{STRIPE_LIVE} now",
             f"Set my{GITHUB} now"]
    root = make_corpus({SESSION: body(*lines)})
    assert [(n, code) for n, _, code, _ in found(root)] == [(FIRST + i, "CT501") for i in range(4)]


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_a_disguised_token_quoted_by_another_rule_is_redacted(make_corpus, capsys, fmt):
    terms = [around("aws", "**"), f"_{GITHUB}_", AWS.lower()]
    points = ("\n  - id: expire-via-queue\n    type: practice\n    must_match_all:\n"
              + "".join(f"      - '{term}'\n" for term in terms))
    root = make_corpus({SIDECAR: sidecar_text(points=points)})
    assert main(["lint", str(root), "--format", fmt]) == 1
    out = "".join(capsys.readouterr())
    assert "CT601" in out
    for secret in (AWS, GITHUB):
        rest = secret[len(secret) // 2:]
        assert rest not in out and rest.lower() not in out and rest[4:] not in out


def test_many_short_lines_that_join_are_scanned_in_linear_time(make_corpus):
    # Every line ends with a token-ish word and the next starts with one: each starts a join of at
    # most markup.MAX_JOINED lines, each view made only where a needle is (here: all of them).
    lines = [f"AKIA{i % 10}\\" if i % 2 else f"ghp_{i:06d}Ab" for i in range(40_000)]
    root = make_corpus({SESSION: body(*lines)})
    start = time.process_time()
    lint_run(root)
    assert time.process_time() - start < 30, "40,000 joined lines took too long"


def test_a_wrapped_token_is_redacted_on_every_line_it_spans():
    # A message quoting text with a token wrapped over lines (a term, a configuration value).
    for text in (f"x {GITHUB[:10]}\\\n> {GITHUB[10:]} z", f"x AK\n{AWS[2:]} tail"):
        out = redact_secrets(text)
        assert GITHUB[14:] not in out and AWS[6:] not in out, out
        assert out.endswith((" z", " tail"))
