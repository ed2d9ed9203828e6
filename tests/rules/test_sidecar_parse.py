"""CT002 sidecar-parse: its failing samples, each at its file, line and column, and near-misses that
stay clean (the rule: corpustools/lint/rules/sidecar_parse.py). Samples are the shared valid corpus
(tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import VALID_FILES
from tests.support.lint import ADMIT_SIDECAR, in_corpus, sample_found_at

CODE = "CT002"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SIDECAR: VALID_FILES[ADMIT_SIDECAR] + "category: again\n"}, [(ADMIT_SIDECAR, 12, 1)]),
    ({ADMIT_SIDECAR: "- just\n- a list\n"}, [(ADMIT_SIDECAR, 1, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {ADMIT_SIDECAR: VALID_FILES[ADMIT_SIDECAR] + "# notes: a comment, not a second key\n"},  # a commented-out key
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
