"""Every fixture of a category has the same session length.

What: for each category with at least `min_fixtures` (default 3) parsed sessions (the category
is the sidecar's), when all of them have one turn count, a warning is reported at the
category's entry in corpus.yaml (at corpus.yaml's first line when the category is not in the
spec), naming the fixtures and the length.

Why: fixtures of one category written from one outline come out the same length; a real
category's sessions do not. It is the per-category form of CT404, and it catches a corpus that
varies lengths only between categories. Two fixtures sharing a length is common chance, so
the default minimum is three.

Example (flagged):

    corpus.yaml:14:5: CT406 [warning] all 3 fixtures of category admit-gotcha have 12 turns:
    admit-gotcha-01, admit-gotcha-02, admit-gotcha-03; vary their lengths
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.monotone import corpus_pos, group_size, group_size_option, named, session_shapes

CODE = "CT406"
NAME = "category-length-uniform"
SEVERITY = Severity.WARNING
OPTIONS = (
    group_size_option("categories with fewer parsed sessions are not checked"),
)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    min_fixtures: int


SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    least = group_size(options)
    shapes = session_shapes(ctx)
    by_category: dict[str, list[str]] = {}
    for fixture_id, sidecar in sorted(ctx.corpus.sidecars.items()):
        if fixture_id in shapes:
            by_category.setdefault(sidecar.category, []).append(fixture_id)
    spec = ctx.corpus.spec
    for category, fixtures in sorted(by_category.items()):
        lengths = {shapes[f].turns for f in fixtures}
        if len(fixtures) < least or len(lengths) != 1:
            continue
        entry = spec.category(category) if spec is not None else None
        yield Problem(entry.pos if entry is not None else corpus_pos(ctx, fixtures),
                      f"all {len(fixtures)} fixtures of category {category} have {lengths.pop()} turns: "
                      f"{named(fixtures)}; vary their lengths")
