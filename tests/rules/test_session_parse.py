"""CT001 session-parse: its failing samples, each at its file, line and column, and near-misses that
stay clean (the rule: corpustools/lint/rules/session_parse.py). Samples are the shared valid corpus
(tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import session_text
from tests.support.lint import ADMIT_SESSION, in_corpus, sample_found_at

CODE = "CT001"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SESSION: "[USER]: no frontmatter here\n"}, [(ADMIT_SESSION, 1, 1)]),
    ({ADMIT_SESSION: "---\nschema_version: 1\n[USER]: never closed\n"}, [(ADMIT_SESSION, 1, 1)]),
    ({ADMIT_SESSION: b"---\nschema_version: 1\n---\n[USER]: caf\xe9\n"}, [(ADMIT_SESSION, 4, 12)]),
    ({ADMIT_SESSION: "---\nsession_id: [unclosed\n---\n[USER]: x\n"}, [(ADMIT_SESSION, 3, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {ADMIT_SESSION: session_text(body="[USER]: The line --- inside a turn is text.\n[AGENT]: Noted.\n")},  # a rule inside a turn
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
