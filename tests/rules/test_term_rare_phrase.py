"""CT612 term-rare-phrase: its failing samples (reported at the term), its near-misses and its
options (the rule: corpustools/lint/rules/term_rare_phrase.py). Samples are tests/support/labels.py's:
the shared valid corpus with the admit sidecar's points changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import SPEC_TEXT
from tests.support.labels import SHOWN, at, found, optional_found_at, point, single
from tests.support.lint import messages, where

CODE = "CT612"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (points, (line, col) of each finding)
    ([point("p", "practice", ["queue worker", "mailing vendor"], ["delete query"])], [(9, 9), (11, 9)]),
]

PASSING = [  # near-misses: they look like the failing ones but are fine
    [point("p", "practice", ["queue worker", "expired signups"], ["mailing"])],  # said twice; one word
    [point("p", "practice", ["queue worker", "cron schedule table"])],  # never said: CT601's
]

MESSAGES = [  # (points, the messages)
    ([point("p", "practice", ["queue worker", "mailing vendor"])], [
        "must_match_all term 'mailing vendor' occurs once in the transcript, only in this wording; "
        "a paraphrase will miss it"]),
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


def test_max_occurrences_is_an_option(make_corpus):
    spec = SPEC_TEXT + "lint:\n  rules:\n    CT612:\n      max_occurrences: 2\n"
    run = found(make_corpus, CODE, point("p", "practice", ["queue worker", "expired signups"]), spec=spec)
    assert where(run, CODE) == [(SHOWN, 8, 9), (SHOWN, 9, 9)]
