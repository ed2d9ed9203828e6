"""CT403 turn-shape: its failing samples, each at its file, line and column, and near-misses that stay
clean (the rule: corpustools/lint/rules/turn_shape.py). Samples are the shared valid corpus
(tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import REJECT_TURNS, REJECT_UUID, session_text
from tests.support.lint import REJECT_SESSION, in_corpus, sample_found_at

CODE = "CT403"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({REJECT_SESSION: session_text(REJECT_UUID, REJECT_TURNS[1:] + REJECT_TURNS[:1])}, [(REJECT_SESSION, 7, 1)]),
    ({REJECT_SESSION: session_text(REJECT_UUID, [t for t in REJECT_TURNS if t[0] == "AGENT"])},
     [(REJECT_SESSION, 7, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {REJECT_SESSION: session_text(REJECT_UUID, REJECT_TURNS[:3])},  # ends on a user turn
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
