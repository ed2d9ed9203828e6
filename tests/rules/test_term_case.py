"""CT603 term-case: its failing samples (reported at the term), its near-misses and its
options (the rule: corpustools/lint/rules/term_case.py). Samples are tests/support/labels.py's:
the shared valid corpus with the admit sidecar's points changed."""

from __future__ import annotations

import pytest

from tests.support.labels import at, found, optional_found_at, point, single
from tests.support.lint import where

CODE = "CT603"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (points, (line, col) of each finding)
    ([point("p", "practice", ["Queue Worker", "expired signups"], ["Delete Query"])], [(8, 9), (11, 9)]),
]

PASSING = [  # near-misses: they look like the failing ones but are fine
    [point("p", "practice", ["queue worker", "expired signups"], ["delete query"])],
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
