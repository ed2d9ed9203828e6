"""The structural rules (CT0xx-CT4xx) together: what one file's breakage does to the others'
findings. Each rule's own samples (code, line and column) are in tests/rules/test_<name>.py; the
shared valid corpus passes them all (test_lint_engine.py)."""

from __future__ import annotations

import os

import pytest

from tests.support.lint import ADMIT_SESSION, ADMIT_SIDECAR, REJECT_SIDECAR, lint_run, messages, where

pytestmark = pytest.mark.usefixtures("in_tmp")


def test_stray_links_are_reported_under_their_folder(make_corpus, tmp_path):
    root = make_corpus()
    if not hasattr(os, "symlink"):
        pytest.skip("no symbolic links on this platform")
    os.symlink(root / ADMIT_SESSION, root / "sessions" / "linked-01.md")
    os.symlink(root / ADMIT_SIDECAR, root / "expected" / "linked-01.yaml")
    run = lint_run(root)
    assert where(run, "CT001") == [("corpus/sessions/linked-01.md", 1, 1)]
    assert where(run, "CT002") == [("corpus/expected/linked-01.yaml", 1, 1)]
    assert "symbolic link" in messages(run, "CT001")[0]


def test_missing_sidecar_does_not_also_miscount_its_category(make_corpus):
    run = lint_run(make_corpus({ADMIT_SIDECAR: "not: [valid\n"}))
    assert where(run, "CT002") == [(f"corpus/{ADMIT_SIDECAR}", 2, 1)]
    assert where(run, "CT301") == [] and where(run, "CT201") == []


def test_broken_files_do_not_stop_the_rest(make_corpus):
    run = lint_run(make_corpus({ADMIT_SESSION: b"\xff\xfe garbage", REJECT_SIDECAR: "a: [\n",
                                "corpus.yaml": "corpus_version: 1\n"}))
    codes = {d.code for d in run.diagnostics}
    assert {"CT001", "CT002", "CT003"} <= codes
    assert run.crashes == ()
