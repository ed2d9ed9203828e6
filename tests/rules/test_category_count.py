"""CT301 category-count: its failing samples, each at its file, line and column, and near-misses that
stay clean (the rule: corpustools/lint/rules/category_count.py). Samples are the shared valid corpus
(tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import ADMIT_TURNS, REJECT_TURNS, SPEC_TEXT, session_text, sidecar_text
from tests.support.lint import in_corpus, lint_run, messages, sample_found_at, where

CODE = "CT301"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({"corpus.yaml": SPEC_TEXT.replace("count: 1\n    expect: empty", "count: 3\n    expect: empty")},
     [("corpus.yaml", 16, 5)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {"corpus.yaml": SPEC_TEXT.replace("count: 1\n    expect: empty", "count: 2\n    expect: empty"),
     "sessions/reject-noise-02.md": session_text("0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a", REJECT_TURNS),
     "expected/reject-noise-02.yaml": sidecar_text("reject-noise-02", "reject-noise", expect_empty=True)},
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []


def test_category_count_counts_by_sidecar_category(make_corpus):
    extra = {"sessions/admit-convention-02.md": session_text("0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a", ADMIT_TURNS),
             "expected/admit-convention-02.yaml": sidecar_text("admit-convention-02")}
    run = lint_run(make_corpus(extra))
    assert where(run, CODE) == [("corpus/corpus.yaml", 12, 5)]
    assert "has 2 fixtures, the spec says 1" in messages(run, CODE)[0]
