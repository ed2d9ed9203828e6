"""CT005 sidecar-schema: its failing samples, each at its file, line and column (the rule:
corpustools/lint/rules/sidecar_schema.py). Samples are the shared valid corpus (tests/support/corpus.py,
which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import VALID_FILES
from tests.support.lint import ADMIT_SIDECAR, in_corpus, sample_found_at

CODE = "CT005"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SIDECAR: VALID_FILES[ADMIT_SIDECAR].replace("must_match_all", "must_match")},
     [(ADMIT_SIDECAR, 7, 5)]),  # must_match unexpected (did you mean must_match_all?): one mistake, said once
    ({ADMIT_SIDECAR: VALID_FILES[ADMIT_SIDECAR].replace("max_unexpected_proposals: 0", "max_unexpected_proposals: -1")},
     [(ADMIT_SIDECAR, 10, 1)]),
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)
