"""CT509 secret-allow-unused: a `lint: secrets: allow:` entry of corpus.yaml that allows no finding
(the rule: corpustools/lint/rules/secret_allow_unused.py; how an entry allows a finding:
tests/adversarial/test_secret_findings.py)."""

from __future__ import annotations

import pytest

from corpustools.lint.secrets.findings import fingerprint
from tests.support.corpus import SPEC_TEXT, session_text
from tests.support.lint import ADMIT_SESSION, lint_run, messages, where
from tests.support.secrets_cases import fake

CODE = "CT509"
BRANCH = "sk-tidy-" + fake(24)  # a branch name CT501 takes for a key
ENTRY_LINE = SPEC_TEXT.count("\n") + 4  # lint:, secrets:, allow:, then the entry
ALLOWING = SPEC_TEXT + (f"lint:\n  secrets:\n    allow:\n      - file: {ADMIT_SESSION}\n"
                        f"        fingerprint: {fingerprint(BRANCH)}\n        reason: a branch name, not a key\n")

pytestmark = pytest.mark.usefixtures("in_tmp")


def session_saying(line: str) -> str:
    return session_text(body=f"[USER]: {line}\n[AGENT]: Noted, I will keep that in mind.\n")


def test_an_entry_that_allows_nothing_is_reported_at_the_entry(make_corpus):
    run = lint_run(make_corpus({"corpus.yaml": ALLOWING, ADMIT_SESSION: session_saying("Rebased onto main.")}))
    assert where(run, CODE) == [("corpus/corpus.yaml", ENTRY_LINE, 9)]
    assert [d.severity for d in run.diagnostics if d.code == CODE] == ["warning"]
    assert messages(run, CODE) == [f"lint.secrets.allow: no finding in {ADMIT_SESSION} has fingerprint "
                                   f"{fingerprint(BRANCH)[:12]}\u2026; delete this entry"]


def test_an_entry_that_allows_a_finding_is_clean(make_corpus):
    run = lint_run(make_corpus({"corpus.yaml": ALLOWING, ADMIT_SESSION: session_saying(f"Rebased {BRANCH} onto main.")}))
    assert where(run, CODE) == [] and where(run, "CT501") == []
