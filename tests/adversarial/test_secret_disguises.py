"""The secret-disguise matrix (issue 23, item 10): every disguise of tests/support/disguises.py is
planted in a corpus and linted once; each case is one test, and the last test prints how many
disguises pass the scan (the target: at most 5 of them, and the matrix is at least the audit's 204).
Splits of a secret across lines, by Markdown and by HTML are issue 31's probe set
(tests/adversarial/test_scan_figures.py)."""

from __future__ import annotations

import pytest

from tests.support.disguises import cases, caught_markers

CASES = cases()
TARGET = 5


@pytest.fixture(scope="module")
def caught(tmp_path_factory) -> set[str]:
    return caught_markers(tmp_path_factory.mktemp("matrix"), CASES)


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
