"""A sidecar disagrees with its category's `expect`, or expect_empty disagrees with its points.

What, by the category's `expect` in corpus.yaml:
- `empty`: `expect_empty: true` and no expected points;
- an item type of the output contract (`practice` / `map` in the built-in one; see
  docs/contracts.md): at least one point of that type;
- a list of item types (`expect: [medication, allergy]`, a scenario that may yield either): at
  least one point of one of them;
- `subset`: at least one point, and at least one `must_not_match` term (what must not survive);
- always: `expect_empty` is true exactly when there are no expected points, and an
  `expect_empty: true` sidecar has no optional points either.

Why: the category says what the fixture tests, a scenario; a reject fixture with a point, or an admit fixture
with none, tests the opposite of its name. A non-empty fixture with no points checks nothing.
On an expect-empty fixture every proposal is a phantom, so an optional point there means nothing.

Example (a practice category with only a map point):

    category: admit-convention
    expected_points:
      - id: branch-entity
        type: map

    expected/admit-convention-01.yaml:3:1: CT303 [error] category admit-convention expects a practice point; there is none
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.model.contract import EXPECT_EMPTY, EXPECT_SUBSET
from corpustools.model.sidecar import Sidecar

CODE = "CT303"
NAME = "category-shape"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def shape_problems(sidecar: Sidecar, expect: str | tuple[str, ...] | None,
                   ) -> Iterator[tuple[tuple[str, ...], str]]:
    """(keypath, message) for each way `sidecar` disagrees with `expect` (an item type, `empty`,
    `subset` or a list of item types: the spec checked it against the output contract)."""
    points = sidecar.points
    category = sidecar.category
    if expect == EXPECT_EMPTY:
        if points:
            yield ("expected_points",), f"category {category} expects an empty output; remove the points"
    elif expect == EXPECT_SUBSET:
        if not points:
            yield ("expected_points",), f"category {category} expects the salvaged point; there is none"
        elif not any(p.must_not_match for p in points):
            yield ("expected_points",), (f"category {category} expects a must_not_match term for what "
                                         "must not survive; there is none")
    elif isinstance(expect, tuple) and len(expect) > 1:
        if not any(p.type in expect for p in points):
            yield ("expected_points",), (f"category {category} expects a point of one of its item types "
                                         f"({', '.join(expect)}); there is none")
    elif expect is not None:
        wanted = expect[0] if isinstance(expect, tuple) else expect
        if not any(p.type == wanted for p in points):
            yield ("expected_points",), f"category {category} expects a {wanted} point; there is none"
    if sidecar.expect_empty and points:
        yield ("expect_empty",), "expect_empty is true but there are expected points"
    elif not sidecar.expect_empty and not points:
        yield ("expect_empty",), "expect_empty is false but there are no expected points, so nothing is checked"
    if sidecar.expect_empty and sidecar.optional_points:
        yield ("optional_points",), ("expect_empty is true but there are optional points; every proposal of an "
                                     "expect-empty fixture is a phantom, so remove them")


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    spec = ctx.corpus.spec
    for _fixture_id, sidecar in sorted(ctx.corpus.sidecars.items()):
        # An unknown category is CT302's; only the expect_empty check applies to it.
        category = spec.category(sidecar.category) if spec else None
        for keypath, message in shape_problems(sidecar, category.expect if category else None):
            yield Problem(sidecar.doc.pos(keypath), message)
