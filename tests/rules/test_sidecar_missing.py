"""CT201 sidecar-missing: its failing samples, each at its file, line and column, and near-misses that stay clean (the rule:
corpustools/lint/rules/sidecar_missing.py). Samples are the shared valid corpus (tests/support/corpus.py,
which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.lint import ADMIT_SESSION, ADMIT_SIDECAR, in_corpus, sample_found_at

CODE = "CT201"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SIDECAR: None}, [(ADMIT_SESSION, 1, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {ADMIT_SIDECAR: "fixture_id: [unclosed\n"},  # the sidecar is there, broken: CT002's, not missing
    {f"sessions/.{ADMIT_SESSION[len('sessions/'):]}": "a hidden draft\n"},  # hidden: not a session
    {"sessions/notes.txt": "not a session\n"},  # another extension: not a session
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
