"""CT203 fixture-id-mismatch: its failing samples, each at its file, line and column, and near-misses
that stay clean (the rule: corpustools/lint/rules/fixture_id_mismatch.py). Samples are the shared
valid corpus (tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with
files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import ADMIT_ID, sidecar_text
from tests.support.lint import ADMIT_SIDECAR, in_corpus, sample_found_at

CODE = "CT203"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SIDECAR: sidecar_text("admit-convention-02")}, [(ADMIT_SIDECAR, 1, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {ADMIT_SIDECAR: sidecar_text(ADMIT_ID)},  # the id the file is named for
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
