"""The secret-disguise matrix (issue 23, item 10): every disguise of tests/support/disguises.py is
planted in a corpus and linted once; each case is one test, and the last test prints how many
disguises pass the scan (the target: at most 5 of them, and the matrix is at least the audit's 204).
Splits of a secret across lines are not in the matrix: they may pass, and the rule docs say so."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.corpus import write_corpus
from tests.support.disguises import cases
from tests.support.lint import lint_run

CASES = cases()
TARGET = 5


def plant(base: Path) -> dict[str, Path]:
    """Every corpus of the matrix under `base`, by name; the outside file every link points at."""
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("nothing to see\n", encoding="utf-8")
    files: dict[str, dict] = {}
    for case in CASES:
        files.setdefault(case.corpus, {}).update(case.files)
    roots = {name: write_corpus(base / name, planted) for name, planted in files.items()}
    for case in CASES:
        for relative in case.links:
            link = roots[case.corpus] / relative
            link.parent.mkdir(parents=True, exist_ok=True)
            if link.is_dir():
                os.rmdir(link)
            os.symlink(outside, link)
    return roots


def caught_markers(base: Path) -> set[str]:
    """The markers (case-NNN) of the cases some secret rule reported, over every corpus (a case
    with a corpus of its own is named after it, so its marker is in every path reported there)."""
    caught: set[str] = set()
    for root in plant(base).values():
        for diagnostic in lint_run(root).diagnostics:
            caught.update(case.marker for case in CASES
                          if diagnostic.code in case.caught_by and case.marker in diagnostic.path)
    return caught


@pytest.fixture(scope="module")
def caught(tmp_path_factory) -> set[str]:
    return caught_markers(tmp_path_factory.mktemp("matrix"))


def test_the_matrix_covers_every_family_the_audit_names():
    assert len(CASES) >= 204
    assert {case.family for case in CASES} == {"invisible", "lookalike", "escape", "encoding", "placement",
                                               "assignment", "markup"}
    assert len({case.id for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_disguise_is_caught(caught, case):
    assert case.marker in caught, f"{case.id} ({case.family}) passed the secret scan"


def test_at_most_five_disguises_pass(caught, capsys):
    passed = [case.id for case in CASES if case.marker not in caught]
    with capsys.disabled():
        print(f"\nsecret-disguise matrix: {len(passed)} of {len(CASES)} disguises pass the scan"
              + (f": {', '.join(passed)}" if passed else ""))
    assert len(passed) <= TARGET
