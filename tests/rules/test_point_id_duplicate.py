"""CT609 point-id-duplicate: its failing samples (reported at the term), its near-misses and its
options (the rule: corpustools/lint/rules/point_id_duplicate.py). Samples are tests/support/labels.py's:
the shared valid corpus with the admit sidecar's points changed."""

from __future__ import annotations

import pytest

from tests.support.labels import SHOWN, at, found, point, with_optional
from tests.support.lint import lint_run, messages, where

CODE = "CT609"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (points, (line, col) of each finding)
    ([point("same", "practice", ["queue worker", "expired signups"]),
      point("other", "map", ["queue worker", "newsletter module"]),
      point("same", "map", ["queue worker", "cron hook"])], [(5, 5), (15, 5)]),
]

PASSING = [  # near-misses: they look like the failing ones but are fine
    [point("one", "practice", ["queue worker", "expired signups"]),
      point("two", "map", ["queue worker", "cron hook"])],
]

MESSAGES = [  # (points, the messages)
    ([point("same", "practice", ["queue worker", "expired signups"]),
      point("same", "map", ["queue worker", "cron hook"])], [
        "point id 'same' is also used by the point at line 10; point ids must be unique",
        "point id 'same' is also used by the point at line 5; point ids must be unique"]),
]


@pytest.mark.parametrize("points, expected", FAILING)
def test_failing_sample_is_reported_at_the_term(make_corpus, points, expected):
    assert where(found(make_corpus, CODE, *points), CODE) == at(expected)


@pytest.mark.parametrize("points", PASSING)
def test_near_miss_passes(make_corpus, points):
    assert where(found(make_corpus, CODE, *points), CODE) == []



@pytest.mark.parametrize("points, expected", MESSAGES)
def test_messages(make_corpus, points, expected):
    assert messages(found(make_corpus, CODE, *points), CODE) == expected


def test_ids_are_unique_across_expected_and_optional_points(make_corpus):
    run = lint_run(make_corpus(with_optional(point("good", "map", ["queue worker", "cron hook"]))),
                   select=frozenset({CODE}))
    assert where(run, CODE) == [(SHOWN, 5, 5), (SHOWN, 11, 5)]
    assert messages(run, CODE) == [
        "point id 'good' is also used by the point at line 11; point ids must be unique",
        "point id 'good' is also used by the point at line 5; point ids must be unique"]
