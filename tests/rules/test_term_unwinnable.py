"""CT601 term-unwinnable: its failing samples (reported at the term), its near-misses and its
options (the rule: corpustools/lint/rules/term_unwinnable.py). Samples are tests/support/labels.py's:
the shared valid corpus with the admit sidecar's points changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, session_text
from tests.support.labels import SHOWN, SIDECAR, at, found, labels, optional_found_at, point, single, with_optional
from tests.support.lint import lint_run, messages, where

CODE = "CT601"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (points, (line, col) of each finding)
    ([point("p", "practice", ["queue worker", "cron schedule table"])], [(9, 9)]),
]

PASSING = [  # near-misses: they look like the failing ones but are fine
    [point("p", "practice", ["Queue-Worker", "expired  signups"])],  # normalization matches
]

MESSAGES = [  # (points, the messages)
    ([point("branch-rule", "practice", ["queue worker", "cron schedule table"])], [
        "must_match_all term 'cron schedule table' of point 'branch-rule' never occurs in the transcript; "
        "no faithful extraction can match it"]),
]


@pytest.mark.parametrize("points, expected", FAILING)
def test_failing_sample_is_reported_at_the_term(make_corpus, points, expected):
    assert where(found(make_corpus, CODE, *points), CODE) == at(expected)


@pytest.mark.parametrize("points", PASSING)
def test_near_miss_passes(make_corpus, points):
    assert where(found(make_corpus, CODE, *points), CODE) == []



@pytest.mark.parametrize("failing, expected", single(FAILING))
def test_an_optional_point_is_checked_like_an_expected_one(make_corpus, failing, expected):
    assert optional_found_at(make_corpus, CODE, failing) == at((line + 6, col) for line, col in expected)


@pytest.mark.parametrize("points, expected", MESSAGES)
def test_messages(make_corpus, points, expected):
    assert messages(found(make_corpus, CODE, *points), CODE) == expected


def test_a_phrase_split_across_two_turns_is_unwinnable(make_corpus):
    # "...clears expired signups." ends a user turn and "I read..." starts the next one
    run = found(make_corpus, CODE, point("p", "practice", ["queue worker", "expired signups i read"]))
    assert where(run, CODE) == [(SHOWN, 9, 9)]


def test_the_message_says_optional_point(make_corpus):
    run = lint_run(make_corpus(with_optional(point("o", "map", ["queue worker", "cron schedule table"]))),
                   select=frozenset({CODE}))
    assert messages(run, CODE) == [
        "must_match_all term 'cron schedule table' of optional point 'o' never occurs in the transcript; "
        "no faithful extraction can match it"]


def test_a_possessive_in_the_transcript_matches_the_plain_term(make_corpus):
    # "...the mailing vendor's unsubscribe call": normalization drops the 's, so the plain
    # phrase `vendor unsubscribe call` occurs and is winnable
    turns = ADMIT_TURNS[:2] + (("USER", "Never delete rows directly here. Expired signups go through the "
                                        "queue worker, because of the mailing vendor's unsubscribe call."),) + ADMIT_TURNS[3:]
    overrides = labels(point("p", "practice", ["queue worker", "vendor unsubscribe call"]))
    overrides[f"sessions/{ADMIT_ID}.md"] = session_text(ADMIT_UUID, turns)
    run = lint_run(make_corpus(overrides), select=frozenset({CODE}))
    assert where(run, CODE) == [] and run.crashes == ()
    overrides = labels(point("p", "practice", ["queue worker", "vendor unsubscribe calls"]))
    overrides[f"sessions/{ADMIT_ID}.md"] = session_text(ADMIT_UUID, turns)
    assert where(lint_run(make_corpus(overrides, "other"), select=frozenset({CODE})), CODE) == [
        ("other/" + SIDECAR, 9, 9)]
