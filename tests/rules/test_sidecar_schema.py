"""CT005 sidecar-schema: its failing samples, each at its file, line and column, and near-misses that stay clean (the rule:
corpustools/lint/rules/sidecar_schema.py). Samples are the shared valid corpus (tests/support/corpus.py,
which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import VALID_FILES, sidecar_text
from tests.support.labels import GOOD, point
from tests.support.lint import ADMIT_SIDECAR, in_corpus, sample_found_at

CODE = "CT005"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SIDECAR: VALID_FILES[ADMIT_SIDECAR].replace("must_match_all", "must_match")},
     [(ADMIT_SIDECAR, 7, 5)]),  # must_match unexpected (did you mean must_match_all?): one mistake, said once
    ({ADMIT_SIDECAR: VALID_FILES[ADMIT_SIDECAR].replace("max_unexpected_proposals: 0", "max_unexpected_proposals: -1")},
     [(ADMIT_SIDECAR, 10, 1)]),
]

PASSING = [  # near-misses: like the failing samples, and clean
    # an entry of alternatives: a list one level inside must_match_all (a list inside it is the error)
    {ADMIT_SIDECAR: sidecar_text(points="\n" + point("p", "practice", [["queue worker", "queue workers"]]) + "\n")},
    # one must_match_all entry: the schema's minimum (none is the error)
    {ADMIT_SIDECAR: sidecar_text(points="\n" + point("p", "practice", ["queue worker"]) + "\n")},
    # a forbidden combination: a list inside must_not_match
    {ADMIT_SIDECAR: sidecar_text(points="\n" + point("p", "practice", ["queue worker"],
                                                    [["delete query", "signup table"]]) + "\n")},
    # optional_points, the one optional list, and a point's own notes
    {ADMIT_SIDECAR: sidecar_text(points="\n" + GOOD + "\n", optional="\n" + point("o", "map", ["cron hook"])
                                 + "\n    notes: said in passing\n")},
    # max_unexpected_proposals at its minimum, 0 (-1 is the error)
    {ADMIT_SIDECAR: sidecar_text(max_unexpected=0)},
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


@pytest.mark.parametrize("overrides", PASSING)
def test_near_miss_passes(make_corpus, overrides):
    assert sample_found_at(make_corpus, CODE, overrides) == []
