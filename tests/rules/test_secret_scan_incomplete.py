"""CT508 secret-scan-incomplete: a corpus file the secret scan could not read in full, or a link or
folder where a corpus file belongs (the rule: corpustools/lint/rules/secret_scan_incomplete.py);
never suppressible. What the scan still reads of such a file: tests/test_secret_scan_input.py."""

from __future__ import annotations

import os

import pytest

from corpustools.cli import main
from tests.support.corpus import SPEC_TEXT
from tests.support.lint import lint_run, messages
from tests.support.scan_input import AWS_ID, SESSION, session_bytes, where

CODE = "CT508"


def test_links_and_folders_named_like_corpus_files_are_reported(make_corpus, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text(session_bytes(f"The key is {AWS_ID}.").decode(), encoding="utf-8")
    root = make_corpus()
    os.symlink(outside, root / "sessions" / "admit-linked-01.md")
    (root / "gold" / "reject-noise-01.json").mkdir(parents=True)
    run = lint_run(root)
    found = {path: message for (path, _, _), message in zip(where(run, CODE),
                                                                              messages(run, CODE), strict=True)}
    assert "symbolic link" in found.pop("sessions/admit-linked-01.md")
    assert "not a regular file" in found.pop("gold/reject-noise-01.json")
    assert found == {} and where(run, "CT501") == []  # the link is never followed


def test_a_clean_corpus_has_no_ct508(make_corpus):
    assert where(lint_run(make_corpus()), CODE) == []


@pytest.mark.parametrize("argv", [["--ignore", CODE], ["--ignore", "CT5"]])
def test_ct508_cannot_be_ignored_from_the_command_line(make_corpus, capsys, argv):
    make_corpus({SESSION: session_bytes("caf@@", extra=b"\xe9")})
    assert main(["lint", "corpus", *argv]) == 2
    assert "is a secret rule and can never be ignored" in capsys.readouterr().err


def test_ct508_runs_whatever_is_selected_and_cannot_be_ignored_in_config(make_corpus, capsys):
    root = make_corpus({SESSION: session_bytes("caf@@", extra=b"\xe9")})
    assert [c for c in ("CT001", CODE) if where(lint_run(root, select=frozenset({"CT101"})), c)] == [CODE]
    (root / "corpus.yaml").write_text(SPEC_TEXT + "lint:\n  ignore: [CT508]\n", encoding="utf-8")
    assert main(["lint", str(root)]) == 2
    assert "can never be ignored" in capsys.readouterr().err
