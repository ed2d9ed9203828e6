"""CT202 session-missing: its failing samples, each at its file, line and column, and near-misses that stay clean (the rule:
corpustools/lint/rules/session_missing.py). Samples are the shared valid corpus (tests/support/corpus.py,
which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.lint import REJECT_SESSION, REJECT_SIDECAR, in_corpus, sample_found_at

CODE = "CT202"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({REJECT_SESSION: None}, [(REJECT_SIDECAR, 1, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {REJECT_SESSION: "[USER]: no front matter at all\n"},  # the session is there, broken: not missing
    {REJECT_SESSION: ""},  # an empty session file is still the session
    {"expected/.reject-noise-02.yaml": "fixture_id: reject-noise-02\n"},  # hidden: not a sidecar
    {f"{REJECT_SIDECAR}.bak": "fixture_id: reject-noise-01\n"},  # a backup copy: not a sidecar
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
