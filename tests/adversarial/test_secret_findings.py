"""Issue 23's secret-scan findings, one class each, reproduced from the issue's text: each test
plants what the audit planted and asserts what a user now sees. (The disguise matrix is
test_secret_disguises.py.) Fake secrets are assembled at run time, never written literally."""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path

import pytest

from corpustools.cli import main
from corpustools.lint.secrets import findings as secret_findings_module
from corpustools.lint.secrets.findings import FINDERS, fingerprint
from tests.support.corpus import ADMIT_ID, SPEC_TEXT, session_text, sidecar_text
from tests.support.lint import lint_run
from tests.support.secrets_cases import AWS_ID, GITHUB, HEX, fake

SESSION = f"sessions/{ADMIT_ID}.md"
SIDECAR = f"expected/{ADMIT_ID}.yaml"
SECRET_CODES = ("CT501", "CT502", "CT503", "CT508")
DATA = Path(__file__).resolve().parent.parent / "data"


def session_with(line: str) -> str:
    return session_text(body=f"[USER]: {line}\n[AGENT]: Noted, I will keep that in mind.\n")


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["lint", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def secret_paths(root, code=SECRET_CODES) -> list[str]:
    """Paths (inside the corpus) of every diagnostic of the secret codes, sorted."""
    return sorted(d.path.split("/corpus/", 1)[1] for d in lint_run(root).diagnostics if d.code in code)


class TestInvisibleCharactersNoLongerPass:
    """36 of 36 invisible characters that are not default-ignorable let a key through `--strict`."""

    @pytest.mark.parametrize("char", ["\u0301", "\x7f", "\x01", "\ufff9", "\u2800", "\u2028", "\u00a0",
                                      "\u20dd", "\u3000", "\u2029"])
    def test_strict_lint_reports_the_key(self, make_corpus, capsys, char):
        root = make_corpus({SESSION: session_with(f"The key {AWS_ID[:6]}{char}{AWS_ID[6:]} is set.")})
        code, out, _ = cli(capsys, str(root), "--strict")
        assert code == 1 and "CT501" in out and "All checks passed." not in out


class TestEscapedKeysAreDecoded:
    """Keys written as YAML or JSON escapes, which the parsers turn back into the real key."""

    def test_yaml_hex_escape(self, make_corpus):
        root = make_corpus({SIDECAR: sidecar_text(notes=f'"\\x41{AWS_ID[1:]}"')})
        assert secret_paths(root, ("CT501",)) == [SIDECAR]

    def test_json_unicode_escape(self, make_corpus):
        root = make_corpus({f"gold/{ADMIT_ID}.json": '{"note": "\\u0067' + GITHUB[1:] + '"}\n'})
        assert secret_paths(root, ("CT501",)) == [f"gold/{ADMIT_ID}.json"]

    def test_yaml_string_continued_across_lines(self, make_corpus):
        root = make_corpus({SIDECAR: sidecar_text(notes=f'"{AWS_ID[:9]}\\\n  {AWS_ID[9:]}"')})
        assert secret_paths(root, ("CT501",)) == [SIDECAR]


class TestUtf16AndUtf32Sessions:
    """A UTF-16 or UTF-32 session got only CT001, which can be ignored per file."""

    @pytest.mark.parametrize("encoding,bom", [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
                                              ("utf-32-le", codecs.BOM_UTF32_LE), ("utf-32-be", codecs.BOM_UTF32_BE)])
    def test_the_key_is_found(self, make_corpus, encoding, bom):
        root = make_corpus({SESSION: bom + session_with(f"The key is {AWS_ID}.").encode(encoding)})
        run = lint_run(root, ignore={"CT001"})
        assert [(d.code, d.line) for d in run.diagnostics if d.code in SECRET_CODES] == [("CT501", 7)]

    def test_a_byte_order_mark_that_contradicts_the_text_is_ct508_and_the_text_is_scanned(self, make_corpus):
        text = session_with(f"The key is {AWS_ID}.").encode("utf-16-le")
        root = make_corpus({SESSION: codecs.BOM_UTF16_BE + text})
        run = lint_run(root, ignore={"CT001"})
        codes = sorted(d.code for d in run.diagnostics if d.code in SECRET_CODES)
        assert codes == ["CT501", "CT508"]
        assert "byte-order mark says UTF-16-BE but the text is UTF-16-LE" in \
            [d.message for d in run.diagnostics if d.code == "CT508"][0]


class TestFilesTheScanNeverRead:
    """sessions/notes.txt, gold/x.txt, a gold/ subfolder, sessions/.x.md, the corpus README and a
    file named like a key were never read."""

    @pytest.mark.parametrize("relative", ["sessions/notes.txt", "gold/x.txt", "gold/sub/x.json", "sessions/.x.md",
                                          "README.md", "runs/v1/admit-convention-01.json", "calibration/w.yaml"])
    def test_a_key_in_any_file_is_found(self, make_corpus, relative):
        root = make_corpus({relative: f"The key is {AWS_ID}.\n"})
        assert secret_paths(root) == [relative]

    def test_a_file_named_like_a_key_is_reported_with_its_name_redacted(self, make_corpus, capsys):
        root = make_corpus({f"sessions/{GITHUB}.txt": "nothing to see\n"})
        code, out, _ = cli(capsys, str(root), "--format", "json")
        found = [d for d in json.loads(out) if d["code"] == "CT501"]
        assert code == 1 and len(found) == 1
        assert GITHUB not in out and GITHUB[:8] not in out and found[0]["path"].endswith("ghp_….txt")


class TestUnreadableFoldersAndFiles:
    """A symlinked or unreadable gold/ folder, or a bad BOM, is CT508, which nothing silences."""

    def test_a_symlinked_gold_folder(self, make_corpus, tmp_path):
        outside = tmp_path / "elsewhere"
        outside.mkdir()
        (outside / "x.json").write_text(f'{{"k": "{AWS_ID}"}}\n', encoding="utf-8")
        root = make_corpus()
        os.symlink(outside, root / "gold")
        run = lint_run(root)
        ct508 = [(d.path.split("/corpus/", 1)[1], d.message) for d in run.diagnostics if d.code == "CT508"]
        assert ct508 == [("gold", "the secret scan could not read this file in full: is a symbolic link; "
                                  "links are not followed")]
        assert not [d for d in run.diagnostics if d.code == "CT501"]  # never followed

    def test_an_unlistable_gold_folder(self, make_corpus, monkeypatch):
        root = make_corpus({"gold/x.json": "{}\n"})
        real_scandir = os.scandir

        def refusing(path):  # as chmod 000 would, for a user who is not root
            if os.path.basename(str(path)) == "gold":
                raise PermissionError(13, "Permission denied")
            return real_scandir(path)

        monkeypatch.setattr("corpustools.lint.secrets.scan.os.scandir", refusing)
        run = lint_run(root)
        assert [d.message for d in run.diagnostics if d.code == "CT508"] == [
            "the secret scan could not read this file in full: cannot list folder: Permission denied"]

    def test_ct508_cannot_be_ignored_or_allowed(self, make_corpus, capsys):
        root = make_corpus({SESSION: codecs.BOM_UTF16_LE + session_with("x").encode("utf-16-le") + b"\x00"})
        assert cli(capsys, str(root), "--ignore", "CT508")[0] == 2
        code, out, _ = cli(capsys, str(root))
        assert code == 1 and "CT508" in out


class TestNoRulePrintsASecret:
    """CT601/CT603 printed in full, in text, SARIF and GitHub annotations, the token CT501 redacts."""

    POINTS = ("\n  - id: expire-via-queue\n    type: practice\n    must_match_all:\n"
              f"      - {GITHUB}\n      - Token {AWS_ID}\n")

    @pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
    def test_terms_are_redacted_in_every_format(self, make_corpus, capsys, fmt):
        root = make_corpus({SIDECAR: sidecar_text(points=self.POINTS)})
        code, out, err = cli(capsys, str(root), "--format", fmt)
        assert code == 1
        assert {"CT601", "CT603"} <= {c for c in ("CT601", "CT603") if c in out}
        for secret in (GITHUB, AWS_ID):
            assert secret not in out + err and secret[: len(secret) // 2 + 1] not in out + err

    def test_a_fixture_id_named_like_a_key_is_redacted(self, make_corpus, capsys):
        fixture = "admit-convention-" + AWS_ID
        root = make_corpus({f"expected/{fixture}.yaml": sidecar_text(fixture_id=fixture)})
        code, out, _ = cli(capsys, str(root))
        assert code == 1 and "CT202" in out and AWS_ID not in out

    def test_configuration_errors_are_redacted(self, make_corpus, capsys):
        root = make_corpus({"corpus.yaml": SPEC_TEXT + f"lint:\n  ignore: [{GITHUB}]\n"})
        code, out, err = cli(capsys, str(root))  # not a rule name: corpus.yaml is invalid (CT003)
        assert code == 1 and "CT003" in out and GITHUB not in out + err
        code, out, err = cli(capsys, str(root), "--select", GITHUB)
        assert code == 2 and "unknown rule" in err and GITHUB not in out + err


class TestPasswordAssignmentsByShape:
    """27 of 35 password-assignment variants passed: `_DB_PASSWORD=...`, wide alignment,
    `--password x`, `-px`, dotted values. (All 35 of the matrix's are caught.)"""

    @pytest.mark.parametrize("line", ["_DB_PASSWORD=Tr0ub4dor9x", "DB_PASSWORD                  =   Tr0ub4dor9x",
                                      "dbPassword: Tr0ub4dor9x", "DB-PASSWORD: Tr0ub4dor9x",
                                      "--password Tr0ub4dor9x", "--password=Tr0ub4dor9x",
                                      "mysql -uroot -pTr0ub4dor9x site", "password: p4ss.w0rd",
                                      "password=correct.horse.battery.staple"])
    def test_flagged(self, make_corpus, line):
        assert secret_paths(make_corpus({SESSION: session_with(line)}), ("CT502",)) == [SESSION]

    @pytest.mark.parametrize("line", ["password = self.password", "api_key=settings.API_KEY",
                                      "use --password instead of -p", "mysql -u root -p site",
                                      "mysql -u root -p$DB_PASS site", "--token $TOKEN", "Token: see the docs",
                                      "password_policy: strict", "max_tokens: 512"])
    def test_documented_exceptions_stay_unflagged(self, make_corpus, line):
        assert secret_paths(make_corpus({SESSION: session_with(line)}), ("CT502",)) == []


SENTENCES = [line.rstrip("\n") for line in (DATA / "engineering-sentences.txt").read_text(encoding="utf-8")
             .splitlines() if line and not line.startswith("#")]
AUDIT_FALSE_POSITIVES = [
    "git checkout sk-refactor-payment-module-cleanup",
    "The cache entry key-" + fake(32, HEX) + " expired.",
    "at OrganizationMembershipSvc.factory.handleExpiredInvitationsBatchJob(Svc.java:42)",
]


class TestFalsePositivesNoOneCouldSilence:
    """A branch name as an OpenAI key, `key-<32 hex>` as a Mailgun key, a dotted Java class name as
    a Discord token: each blocked every commit."""

    @pytest.mark.parametrize("line", AUDIT_FALSE_POSITIVES)
    def test_the_audit_lines_are_not_flagged(self, line):
        assert [(code, f.message) for code, (finder, _) in FINDERS.items() for f in finder(line)] == []

    def test_two_hundred_ordinary_sentences_are_not_flagged(self):
        assert len(SENTENCES) == 200
        flagged = [(code, line) for line in SENTENCES for code, (finder, _) in FINDERS.items() if finder(line)]
        assert flagged == []

    def test_the_real_shapes_are_still_flagged(self):
        mailgun_named = "MAILGUN_API_KEY is key-" + fake(32, HEX)
        mailgun_base36 = "key-" + fake(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        openai = "sk-" + fake(48)
        for line in (mailgun_named, mailgun_base36, openai):
            assert FINDERS["CT501"][0](line), line


class TestPreciseAllowList:
    """`lint: secrets: allow:` lists fingerprints with a reason; only that exact text in that file
    is allowed; an unused entry is a warning; nothing else silences a secret rule."""

    LINE = "Rebased sk-tidy-" + fake(24) + " onto main."

    def allowing(self, file: str, text: str, reason: str = "a branch name, not a key") -> str:
        return SPEC_TEXT + (f"lint:\n  secrets:\n    allow:\n      - file: {file}\n"
                            f"        fingerprint: {fingerprint(text)}\n        reason: {reason}\n")

    def matched(self) -> str:
        return "sk-tidy-" + fake(24)

    def test_the_finding_prints_its_fingerprint(self, make_corpus):
        root = make_corpus({SESSION: session_with(self.LINE)})
        [message] = [d.message for d in lint_run(root).diagnostics if d.code == "CT501"]
        assert message.endswith(f"; fingerprint {fingerprint(self.matched())}")

    def test_only_that_text_in_that_file_is_allowed(self, make_corpus):
        other = "sessions/reject-noise-01.md"
        root = make_corpus({"corpus.yaml": self.allowing(SESSION, self.matched()),
                            SESSION: session_with(self.LINE),
                            other: session_with(self.LINE)})
        run = lint_run(root)
        assert [d.path.split("/corpus/", 1)[1] for d in run.diagnostics if d.code == "CT501"] == [other]
        assert not [d for d in run.diagnostics if d.code == "CT509"]

    def test_changed_text_is_reported_again_and_the_entry_is_unused(self, make_corpus):
        root = make_corpus({"corpus.yaml": self.allowing(SESSION, self.matched()),
                            SESSION: session_with(self.LINE.replace("sk-tidy-", "sk-tidz-"))})
        run = lint_run(root)
        assert [d.code for d in run.diagnostics if d.code in ("CT501", "CT509")] == ["CT509", "CT501"]
        [warning] = [d for d in run.diagnostics if d.code == "CT509"]
        entry_line = SPEC_TEXT.count("\n") + 4  # lint:, secrets:, allow:, then the entry
        assert warning.severity == "warning" and warning.path.endswith("corpus.yaml") and warning.line == entry_line

    def test_a_reason_is_required(self, make_corpus, capsys):
        root = make_corpus({"corpus.yaml": self.allowing(SESSION, self.matched(), reason="' '")})
        code, _, err = cli(capsys, str(root))
        assert code == 2 and "reason" in err

    def test_an_entry_without_file_allows_that_text_in_every_file(self, make_corpus):
        other = "sessions/reject-noise-01.md"
        spec = SPEC_TEXT + (f"lint:\n  secrets:\n    allow:\n      - fingerprint: {fingerprint(self.matched())}\n"
                            "        reason: a branch name, not a key\n")
        root = make_corpus({"corpus.yaml": spec, SESSION: session_with(self.LINE), other: session_with(self.LINE)})
        assert not [d for d in lint_run(root).diagnostics if d.code in ("CT501", "CT509")]
        unused = make_corpus({"corpus.yaml": spec, SESSION: session_with(self.LINE.replace("sk-tidy-", "sk-tidz-"))})
        [warning] = [d for d in lint_run(unused).diagnostics if d.code == "CT509"]
        assert "no finding in this corpus" in warning.message

    @pytest.mark.parametrize("entry", ["file: sessions/x.md\n        reason: r",
                                       "file: x\n        fingerprint: " + "ab" * 32,
                                       "file: x\n        fingerprint: nothex\n        reason: r"])
    def test_an_incomplete_entry_is_a_configuration_error(self, make_corpus, capsys, entry):
        root = make_corpus({"corpus.yaml": SPEC_TEXT + f"lint:\n  secrets:\n    allow:\n      - {entry}\n"})
        assert cli(capsys, str(root))[0] == 1  # corpus.yaml does not follow its schema: CT003

    def test_secret_rules_stay_unignorable_otherwise(self, make_corpus, capsys):
        root = make_corpus({"corpus.yaml": SPEC_TEXT + "lint:\n  per_file_ignores:\n    - files: ['*']\n"
                                                       "      codes: [CT501]\n      reason: no\n"})
        assert cli(capsys, str(root))[0] == 2


class TestSchemaUriIsNotAHost:
    """A JSON Schema file in a corpus carries `"$schema": "https://json-schema.org/..."`."""

    def test_schema_uri(self, make_corpus):
        root = make_corpus({"schemas/output.json": '{\n  "$schema": "https://json-schema.org/draft/2020-12/schema"\n}\n'})
        assert secret_paths(root, ("CT504",)) == []


def test_the_views_are_computed_once_per_file(make_corpus, monkeypatch):
    """Every finder reads the views of a file computed once per run (lint speed)."""
    root = make_corpus({SESSION: session_with("caf\u00e9 &amp; %41 " + "QUJDREVGR0hJSktMTU5PUFFSU1RV")})
    calls = []
    real = secret_findings_module.scan.__globals__["scanned_file"]

    def counting(path, text, name=None):
        calls.append(path)
        return real(path, text, name)

    monkeypatch.setitem(secret_findings_module.scan.__globals__, "scanned_file", counting)
    lint_run(root)
    files = [path for path in calls if path]  # "" is a message being redacted
    assert files and len(files) == len(set(files))
