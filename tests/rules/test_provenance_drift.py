"""CT801 provenance-drift: a corpus file or the authoring prompt changed since the provenance record
(the rule: corpustools/lint/rules/provenance_drift.py; the record itself: tests/test_provenance.py).
Each test runs in a repository layout: fixtures/tiny/ (the shared valid corpus), authoring/prompt.md."""

from __future__ import annotations

import pytest

from corpustools.provenance import default_record_path, record
from tests.support.corpus import ADMIT_ID, REJECT_ID, write_provenance_repo
from tests.support.lint import lint_run, messages, where

CODE = "CT801"
RECORD = "authoring/provenance.yaml"


@pytest.fixture
def repo(make_corpus, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return write_provenance_repo(tmp_path, make_corpus)


def test_passes_when_the_corpus_matches_its_record(repo):
    assert default_record_path("fixtures/tiny") == "authoring/provenance.yaml"
    assert where(lint_run("fixtures/tiny"), CODE) == []  # no record: inactive
    record("fixtures/tiny", "authoring/prompt.md", "m", "p", RECORD, "2026-01-05")
    assert where(lint_run("fixtures/tiny"), CODE) == []
    (repo / "authoring/prompt.md").write_text("# Changed prompt\n")  # the same files as `verify`
    result = lint_run("fixtures/tiny")
    assert where(result, CODE) == [(RECORD, 14, 3)]  # authoring_prompt: path
    assert messages(result, CODE) == ["authoring prompt prompt.md is changed since this record; "
                                         "re-review the corpus it authors and re-record"]


def test_warns_at_each_drifted_file(repo):
    record("fixtures/tiny", "authoring/prompt.md", "m", "p", RECORD, "2026-01-05")
    with open(repo / "fixtures/tiny/sessions" / f"{ADMIT_ID}.md", "a") as handle:
        handle.write("[USER]: One more thing about the queue worker.\n")
    (repo / "fixtures/tiny/gold" / f"{REJECT_ID}.json").unlink()
    result = lint_run("fixtures/tiny")
    assert where(result, CODE) == [(RECORD, 21, 3), (f"fixtures/tiny/sessions/{ADMIT_ID}.md", 1, 1)]
    assert {d.severity for d in result.diagnostics if d.code == CODE} == {"warning"}
    assert messages(result, CODE)[1].startswith(f"changed since the provenance record {RECORD}")


def test_uses_a_configured_record_and_ignores_other_corpora(repo, make_corpus):
    record("fixtures/tiny", "authoring/prompt.md", "m", "p", "records/tiny.yaml", "2026-01-05")
    spec = repo / "fixtures/tiny/corpus.yaml"
    spec.write_text(spec.read_text() + "lint:\n  provenance: ../../records/tiny.yaml\n")
    assert where(lint_run("fixtures/tiny"), CODE) == [("fixtures/tiny/corpus.yaml", 1, 1)]
    make_corpus(name="fixtures/other")
    record("fixtures/tiny", "authoring/prompt.md", "m", "p", RECORD, "2026-01-05")
    assert where(lint_run("fixtures/other"), CODE) == []  # authoring/provenance.yaml is tiny's record
