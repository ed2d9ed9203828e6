"""CT611 term-function-words: its failing samples (reported at the term), its near-misses and its
options (the rule: corpustools/lint/rules/term_function_words.py). Samples are tests/support/labels.py's:
the shared valid corpus with the admit sidecar's points changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import SPEC_TEXT
from tests.support.labels import SHOWN, at, found, optional_found_at, point, single
from tests.support.lint import messages, where

CODE = "CT611"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (points, (line, col) of each finding)
    ([point("p", "practice", ["through the queue", "queue worker"], ["a delete"])], [(8, 9), (11, 9)]),
    ([point("p", "practice", ["expired signups", "go through"])], [(9, 9)]),
]

PASSING = [  # near-misses: they look like the failing ones but are fine
    [point("p", "practice", ["queue worker", "expired signups"], ["delete"])],
    [point("p", "practice", ["queue", "the"])],  # one word: CT605's business, not CT611's
    [point("p", "practice", ["expired signups", "queue_worker.the_signups"])],  # identifier
]

MESSAGES = [  # (points, the messages)
    ([point("p", "practice", ["through the queue", "queue worker"])], [
        "must_match_all term 'through the queue' contains function words ('through', 'the'); "
        "a paraphrase rewrites them: keep 'queue'"]),
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


def test_function_words_is_an_option(make_corpus):
    spec = SPEC_TEXT + "lint:\n  rules:\n    CT611:\n      function_words: [worker]\n"
    run = found(make_corpus, CODE, point("p", "practice", ["queue worker", "the signups"]), spec=spec)
    assert where(run, CODE) == [(SHOWN, 8, 9)]
