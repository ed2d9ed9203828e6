"""CT101 uuid-invalid: its failing samples, each at its file, line and column, and near-misses that
stay clean (the rule: corpustools/lint/rules/uuid_invalid.py). Samples are the shared valid corpus
(tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import ADMIT_UUID, session_text
from tests.support.lint import ADMIT_SESSION, in_corpus, sample_found_at

CODE = "CT101"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SESSION: session_text(ADMIT_UUID.upper())}, [(ADMIT_SESSION, 3, 1)]),
    ({ADMIT_SESSION: session_text("3f2b8c1e-9a4d-1e7b-8c21-5d6f7a8b9c0d")}, [(ADMIT_SESSION, 3, 1)]),
    ({ADMIT_SESSION: session_text("3f2b8c1e-9a4d-4e7b-7c21-5d6f7a8b9c0d")}, [(ADMIT_SESSION, 3, 1)]),
    ({ADMIT_SESSION: session_text("not-a-uuid")}, [(ADMIT_SESSION, 3, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {ADMIT_SESSION: session_text("3f2b8c1e-9a4d-4e7b-bc21-5d6f7a8b9c0d")},  # the variant may be 8, 9, a or b
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
