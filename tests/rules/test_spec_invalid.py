"""CT003 spec-invalid: its failing samples, each at its file, line and column, and near-misses that
stay clean (the rule: corpustools/lint/rules/spec_invalid.py). Samples are the shared valid corpus
(tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import SPEC_TEXT
from tests.support.lint import in_corpus, sample_found_at

CODE = "CT003"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({"corpus.yaml": None}, [("corpus.yaml", 1, 1)]),
    ({"corpus.yaml": SPEC_TEXT.replace("count: 1\n    expect: practice", "count: two\n    expect: practice")},
     [("corpus.yaml", 12, 5)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {"corpus.yaml": SPEC_TEXT.replace("count: 1\n    expect: practice", "count: 1  # one for now\n    expect: practice")},
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
