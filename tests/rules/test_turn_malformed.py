"""CT402 turn-malformed: its failing samples, each at its file, line and column, and near-misses that stay clean (the rule:
corpustools/lint/rules/turn_malformed.py). Samples are the shared valid corpus (tests/support/corpus.py,
which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import REJECT_UUID, session_text
from tests.support.lint import ADMIT_SESSION, REJECT_SESSION, in_corpus, lint_run, sample_found_at, where

CODE = "CT402"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({REJECT_SESSION: session_text(REJECT_UUID, body="Hello there\n[USER]: Fix the typo.\n[SYSTEM]: hidden\n"
                                   "[user]: lower\n[AGENT]:\n[AGENT]: Done.\n")},
     [(REJECT_SESSION, 7, 1), (REJECT_SESSION, 9, 1), (REJECT_SESSION, 10, 1), (REJECT_SESSION, 11, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    # a turn's text on the line below its tag: not an empty segment
    {REJECT_SESSION: session_text(REJECT_UUID, body="[USER]:\nFix the typo, please.\n[AGENT]: Done.\n")},
    # a line of a turn that opens with a Markdown link or a bracketed word: text, not a tag
    {REJECT_SESSION: session_text(REJECT_UUID, body="[USER]: Fix the typo.\n[the style guide](docs/style.md) "
                                                    "says so.\n[AGENT]: Done.\n[note] rebuilt the caches.\n")},
    # a tag quoted inside a turn's text
    {REJECT_SESSION: session_text(REJECT_UUID, body="[USER]: The log shows [SYSTEM]: retry, is that a typo?\n"
                                                    "[AGENT]: No, the log prefix is right.\n")},
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


def test_qualified_tags_and_consecutive_agent_segments_are_turns(make_corpus):
    body = ("[USER]: Please review the queue worker.\n[AGENT]: Reading it.\n[AGENT]: Found one issue.\n"
            "[USER /self-review-apply notes/review.xml]: Apply the review.\n"
            "[AGENT NARRATION OF SELF-REVIEW notes/review.xml]: Applied; expired signups now go through the queue worker.\n")
    run = lint_run(make_corpus({ADMIT_SESSION: session_text(body=body)}))
    assert where(run, "CT402") == [] and where(run, "CT401") == [] and where(run, "CT403") == []


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
