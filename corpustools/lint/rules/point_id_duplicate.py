"""Two points of one sidecar with the same id.

What: every point whose `id` is shared with another point of the same sidecar, expected or
optional (ids are unique across both lists), is reported at its `id`, naming the line of the
other (the first other one, when there are several).

Why: reports, score breakdowns and comparisons name points by id; two points with one id make
a capture of one indistinguishable from a capture of the other, and usually one of them was
copied and not renamed. The schema cannot express "unique by key", so this rule does.

Example (flagged, both points):

    expected_points:
      - id: branch-id
        type: practice
      - id: branch-id
        type: map
"""

from __future__ import annotations

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions

CODE = "CT609"
NAME = "point-id-duplicate"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    for _, sidecar in sorted(ctx.corpus.sidecars.items()):
        points = sidecar.all_points
        first_two: dict[str, list[int]] = {}  # id -> the indexes of its first two points (linear, not pairwise)
        for index, point in enumerate(points):
            holders = first_two.setdefault(point.id, [])
            if len(holders) < 2:
                holders.append(index)
        for index, point in enumerate(points):
            holders = first_two[point.id]
            if len(holders) > 1:
                other = holders[1] if holders[0] == index else holders[0]
                where = sidecar.doc.pos
                yield Problem(where(point.keypath + ("id",)), f"point id {point.id!r} is also used by the point at "
                                                              f"line {where(points[other].keypath + ('id',)).line}; "
                                                              "point ids must be unique")
