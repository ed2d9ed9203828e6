"""CT303 category-shape: its failing samples, each at its file, line and column, and near-misses that stay clean (the rule:
corpustools/lint/rules/category_shape.py). Samples are the shared valid corpus (tests/support/corpus.py,
which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import REJECT_ID, SPEC_TEXT, sidecar_text
from tests.support.labels import GOOD, point
from tests.support.lint import ADMIT_SIDECAR, REJECT_SIDECAR, in_corpus, lint_run, messages, sample_found_at, where

CODE = "CT303"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SIDECAR: sidecar_text(points="\n  - id: signup-table\n    type: map\n    must_match_all:\n"
                                  "      - signup table\n      - newsletter module\n")},
     [(ADMIT_SIDECAR, 4, 1)]),
    ({REJECT_SIDECAR: sidecar_text(REJECT_ID, "reject-noise", points=" []\n")}, [(REJECT_SIDECAR, 3, 1)]),
    ({ADMIT_SIDECAR: sidecar_text(expect_empty=True, points=None).replace(" []", "\n  - id: expire-via-queue\n"
      "    type: practice\n    must_match_all:\n      - queue worker\n      - expired signups")},
     [(ADMIT_SIDECAR, 3, 1)]),
]

EITHER = SPEC_TEXT.replace("    expect: practice\n", "    expect: [practice, map]\n")
SUBSET = SPEC_TEXT.replace("    expect: practice\n", "    expect: subset\n")

PASSING = [  # near-misses: like the failing samples, and clean
    # a category expecting either type, with a point of the second only
    {"corpus.yaml": EITHER, ADMIT_SIDECAR: sidecar_text(points="\n" + point("m", "map", ["signup table"]) + "\n")},
    # a practice category whose fixture also has a map point: the expected type is there
    {ADMIT_SIDECAR: sidecar_text(points="\n" + GOOD + "\n" + point("m", "map", ["signup table"]) + "\n")},
    # subset: a point whose must_not_match is a forbidden combination
    {"corpus.yaml": SUBSET, ADMIT_SIDECAR: sidecar_text(points="\n" + point(
        "p", "practice", ["queue worker"], [["delete query", "signup table"]]) + "\n")},
    # an expect-empty fixture with an empty optional_points list: no optional point
    {REJECT_SIDECAR: sidecar_text(REJECT_ID, "reject-noise", expect_empty=True, optional=" []\n")},
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


def test_optional_points_on_an_expect_empty_fixture_are_a_category_shape_error(make_corpus):
    text = sidecar_text(REJECT_ID, "reject-noise", expect_empty=True,
                        optional=point("o", "map", ["queue worker", "cron hook"]) + "\n")
    run = lint_run(make_corpus({REJECT_SIDECAR: text}), select=frozenset({CODE}))
    assert where(run, CODE) == [(f"corpus/{REJECT_SIDECAR}", 5, 1)]
    assert messages(run, CODE) == [
        "expect_empty is true but there are optional points; every proposal of an expect-empty fixture is a "
        "phantom, so remove them"]


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
