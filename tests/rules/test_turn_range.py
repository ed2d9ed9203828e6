"""CT401 turn-range: its failing samples, each at its file, line and column, and near-misses that stay
clean (the rule: corpustools/lint/rules/turn_range.py). Samples are the shared valid corpus
(tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import SPEC_TEXT
from tests.support.lint import ADMIT_SESSION, REJECT_SESSION, in_corpus, sample_found_at

CODE = "CT401"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({"corpus.yaml": SPEC_TEXT.replace("min: 2", "min: 5")}, [(ADMIT_SESSION, 7, 1), (REJECT_SESSION, 7, 1)]),
    ({"corpus.yaml": SPEC_TEXT.replace("max: 10", "max: 3")}, [(ADMIT_SESSION, 7, 1), (REJECT_SESSION, 7, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {"corpus.yaml": SPEC_TEXT.replace("min: 2", "min: 4")},  # the sessions have exactly 4 turns
    {"corpus.yaml": SPEC_TEXT.replace("max: 10", "max: 4")},
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
