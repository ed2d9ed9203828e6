"""CT004 frontmatter-schema: its failing samples, each at its file, line and column, and near-misses
that stay clean (the rule: corpustools/lint/rules/frontmatter_schema.py). Samples are the shared
valid corpus (tests/support/corpus.py, which every rule passes: tests/test_lint_engine.py) with
files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import ADMIT_TURNS, ADMIT_UUID, session_text
from tests.support.lint import ADMIT_SESSION, in_corpus, lint_run, sample_found_at, where

CODE = "CT004"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SESSION: session_text(captured_at="2026-01-05 10:00")}, [(ADMIT_SESSION, 5, 1)]),
    ({ADMIT_SESSION: session_text(captured_at="'2026-01-05T10:00:00+02:00'")}, [(ADMIT_SESSION, 5, 1)]),
    ({ADMIT_SESSION: session_text(captured_at="'2026-13-05T10:00:00Z'")}, [(ADMIT_SESSION, 5, 1)]),
    ({ADMIT_SESSION: session_text(extra_frontmatter="model: some-model\n")}, [(ADMIT_SESSION, 6, 1)]),
    ({ADMIT_SESSION: session_text(harness="codex")}, [(ADMIT_SESSION, 4, 1)]),
    ({ADMIT_SESSION: session_text(schema_version="'1'")}, [(ADMIT_SESSION, 2, 1)]),
    ({ADMIT_SESSION: "---\nschema_version: 1\nsession_id: " + ADMIT_UUID + "\nharness: claude\n---\n"
      + "".join(f"[{t}]: {x}\n" for t, x in ADMIT_TURNS)}, [(ADMIT_SESSION, 1, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    {ADMIT_SESSION: session_text(captured_at="'2026-01-05T10:00:00Z'")},  # UTC, quoted or not
    {ADMIT_SESSION: session_text(captured_at="2026-01-05T10:00:00Z")},
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []


def test_fractional_utc_timestamps_pass(make_corpus):
    for stamp in ("'2026-02-17T09:41:26.000Z'", "2026-02-17T09:41:26+00:00"):
        run = lint_run(make_corpus({ADMIT_SESSION: session_text(captured_at=stamp)}, name=f"c{len(stamp)}"))
        assert where(run, CODE) == []
