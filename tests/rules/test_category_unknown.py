"""CT302 category-unknown: its failing samples, each at its file, line and column, and near-misses that stay clean (the rule:
corpustools/lint/rules/category_unknown.py). Samples are the shared valid corpus (tests/support/corpus.py,
which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import REJECT_ID, SPEC_TEXT, sidecar_text
from tests.support.lint import ADMIT_SIDECAR, REJECT_SIDECAR, in_corpus, lint_run, sample_found_at, where

CODE = "CT302"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({REJECT_SIDECAR: sidecar_text(REJECT_ID, "reject-nosie", expect_empty=True)}, [(REJECT_SIDECAR, 2, 1)]),
]

# corpus.yaml with a third category, declared last
THIRD = SPEC_TEXT + "  - id: admit-tooling\n    count: 1\n    expect: practice\n    tests: a tooling convention\n"

PASSING = [  # near-misses: like the failing samples, and clean
    # a declared category the file name does not start with: the sidecar's key names it (the name is CT204's)
    {"corpus.yaml": THIRD, ADMIT_SIDECAR: sidecar_text(category="admit-tooling")},
    # the same id quoted
    {REJECT_SIDECAR: sidecar_text(REJECT_ID, '"reject-noise"', expect_empty=True)},
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []


def test_a_category_that_is_not_a_string_is_the_schemas_not_unknown(make_corpus):
    """`category: [reject-noise]` is CT005's (a string is required), said once."""
    run = lint_run(make_corpus({REJECT_SIDECAR: sidecar_text(REJECT_ID, "[reject-noise]", expect_empty=True)}))
    assert where(run, "CT005") == [(f"corpus/{REJECT_SIDECAR}", 2, 1)] and where(run, CODE) == []
