"""CT204 fixture-name: its failing samples, each at its file, line and column, and near-misses that
stay clean (the rule: corpustools/lint/rules/fixture_name.py). Samples are the shared valid corpus
(tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import REJECT_ID, REJECT_TURNS, SPEC_TEXT, session_text, sidecar_text
from tests.support.lint import REJECT_SIDECAR, in_corpus, sample_found_at

CODE = "CT204"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({REJECT_SIDECAR: sidecar_text(REJECT_ID, "admit-convention", expect_empty=True)},
     [(REJECT_SIDECAR, 2, 1)]),
    ({"sessions/stray.md": session_text("0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a", REJECT_TURNS)},
     [("sessions/stray.md", 1, 1)]),
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
