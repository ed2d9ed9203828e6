"""CT605 term-generic: its failing samples (reported at the term), its near-misses and its
options (the rule: corpustools/lint/rules/term_generic.py). Samples are tests/support/labels.py's:
the shared valid corpus with the admit sidecar's points changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import SPEC_TEXT
from tests.support.labels import SHOWN, at, found, optional_found_at, point, single
from tests.support.lint import where

CODE = "CT605"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (points, (line, col) of each finding)
    ([point("p", "practice", ["queue worker", "never", "db"])], [(9, 9), (10, 9)]),
    ([point("p", "practice", ["queue worker", "expired signups"], ["module"])], [(11, 9)]),
]

PASSING = [  # near-misses: they look like the failing ones but are fine
    [point("p", "practice", ["queue worker", "cron"])],  # "cron": 4 characters, not generic
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


def test_generic_words_and_min_length_are_options(make_corpus):
    spec = SPEC_TEXT + "lint:\n  rules:\n    CT605:\n      generic_words: [signups]\n      min_length: 5\n"
    points = [point("p", "practice", ["expired signups", "never", "cron"])]
    assert where(found(make_corpus, CODE, *points, spec=spec), CODE) == [(SHOWN, 10, 9)]  # cron < 5
    generic = SPEC_TEXT + "lint:\n  rules:\n    CT605:\n      generic_words: [Expired Signups]\n"
    assert where(found(make_corpus, CODE, *points, spec=generic), CODE) == [(SHOWN, 8, 9)]
