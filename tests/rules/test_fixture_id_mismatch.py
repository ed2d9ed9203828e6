"""CT203 fixture-id-mismatch: its failing samples, each at its file, line and column, and near-misses
that stay clean (the rule: corpustools/lint/rules/fixture_id_mismatch.py). Samples are the shared
valid corpus (tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with
files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import ADMIT_ID, sidecar_text
from tests.support.lint import ADMIT_SIDECAR, in_corpus, lint_run, sample_found_at, where

CODE = "CT203"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SIDECAR: sidecar_text("admit-convention-02")}, [(ADMIT_SIDECAR, 1, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {ADMIT_SIDECAR: sidecar_text(ADMIT_ID)},  # the id the file is named for
    # the same id in other YAML spellings: quoted, or with trailing blanks YAML drops
    {ADMIT_SIDECAR: sidecar_text(ADMIT_ID).replace(f"fixture_id: {ADMIT_ID}", f'fixture_id: "{ADMIT_ID}"')},
    {ADMIT_SIDECAR: sidecar_text(ADMIT_ID).replace(f"fixture_id: {ADMIT_ID}", f"fixture_id: {ADMIT_ID}   ")},
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []


def test_a_fixture_id_that_is_not_a_string_is_the_schemas_not_a_mismatch(make_corpus):
    """`fixture_id: 42` is CT005's (a string is required), said once: CT203 compares names only."""
    run = lint_run(make_corpus({ADMIT_SIDECAR: sidecar_text(ADMIT_ID).replace(f"fixture_id: {ADMIT_ID}",
                                                                              "fixture_id: 42")}))
    assert where(run, "CT005") == [(f"corpus/{ADMIT_SIDECAR}", 1, 1)] and where(run, CODE) == []
