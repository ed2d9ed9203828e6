"""Too few distinct session lengths for the corpus size: the sessions were written to one mould.

What: the turn count of every parsed session is collected. A corpus of at least `min_fixtures`
(default 8) sessions should show at least one distinct length per `fixtures_per_length`
(default 4) sessions, up to `min_lengths` (default 6) and never more than the spec's turn range
allows. When it shows fewer, one warning is reported at corpus.yaml with the distribution and
the fixtures of the most common length.

Why: real sessions end when the work ends, so their lengths scatter. A real LLM-authored corpus
of 24 sessions used only 4 lengths: it was written to a recipe, and a prompt evaluated on it
learns the recipe. Vary the number of turns.

Example (flagged):

    corpus.yaml:1:1: CT404 [warning] only 4 distinct session lengths among 24 fixtures (at
    least 6 expected): 10 turns x9, 12 turns x8, 14 turns x5, 16 turns x2; the most common,
    10 turns: admit-convention-01, ... and 1 more; vary the number of turns
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.monotone import corpus_pos, distribution, named, session_shapes
from corpustools.lint.options import Option

CODE = "CT404"
NAME = "session-lengths-few"
SEVERITY = Severity.WARNING
OPTIONS = (
    Option("min_fixtures", int, 8, "corpora with fewer parsed sessions are not checked", min=0),
    Option("fixtures_per_length", int, 4, "one distinct length is wanted per this many sessions (under 1 "
           "counts as 1)", min=0),
    Option("min_lengths", int, 6, "at most this many distinct lengths are ever wanted", min=0),
)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    min_fixtures: int
    fixtures_per_length: int
    min_lengths: int


SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    shapes = session_shapes(ctx)
    if len(shapes) < options.min_fixtures:
        return
    per_length = max(1, options.fixtures_per_length)
    wanted = min(math.ceil(len(shapes) / per_length), options.min_lengths)
    spec = ctx.corpus.spec
    if spec is not None:
        wanted = min(wanted, max(1, spec.turns_max - spec.turns_min + 1))
    lengths = Counter(shape.turns for shape in shapes.values())
    if len(lengths) >= wanted:
        return
    common = min(lengths, key=lambda length: (-lengths[length], length))
    fixtures = [f for f, shape in shapes.items() if shape.turns == common]
    yield Problem(corpus_pos(ctx, shapes),
                  f"only {len(lengths)} distinct session length{'s' if len(lengths) != 1 else ''} among "
                  f"{len(shapes)} fixtures (at least {wanted} expected): {distribution(lengths, ' turns')}; "
                  f"the most common, {common} turns: {named(fixtures)}; vary the number of turns")
