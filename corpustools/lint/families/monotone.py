"""What the monotone-corpus rules (CT404-CT406) share: each session's shape, where a corpus-level
finding is reported, and how a finding names fixtures and a distribution in one line.

Corpus-level findings are reported at corpus.yaml (line 1, or the category's entry for CT406):
the fix is to the corpus as a whole, not to one file. A corpus without corpus.yaml reports
them at its first session involved.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from corpustools.io.positions import Pos
from corpustools.lint.context import CacheKey, LintContext
from corpustools.lint.options import Option
from corpustools.model.contract import AGENT, USER

NAMED_FIXTURES = 8  # how many fixtures a message names before "and N more"
SHOWN_VALUES = 6  # how many values of a distribution a message shows before "..."


@dataclass(frozen=True, order=True)
class Shape:
    """A session's turn counts, by speaker."""

    user: int
    agent: int

    @property
    def turns(self) -> int:
        return self.user + self.agent

    def __str__(self) -> str:
        return f"{self.user} user + {self.agent} agent"


SHAPES: CacheKey[dict[str, Shape]] = CacheKey("monotone.shapes")


def session_shapes(ctx: LintContext) -> Mapping[str, Shape]:
    """fixture id -> the shape of its session, for every session that parsed, by fixture id."""
    def build(c: LintContext) -> dict[str, Shape]:
        return {fixture_id: Shape(sum(1 for t in session.turns if t.speaker == USER),
                                  sum(1 for t in session.turns if t.speaker == AGENT))
                for fixture_id, session in sorted(c.corpus.sessions.items())}

    return ctx.cached(SHAPES, build)


def corpus_pos(ctx: LintContext, fixtures: Iterable[str]) -> Pos:
    """corpus.yaml when there is one, else the first of `fixtures`' sessions."""
    if os.path.isfile(ctx.corpus.spec_path):
        return Pos(ctx.corpus.spec_path, 1, 1)
    first = min(fixtures)
    return Pos(ctx.corpus.sessions[first].path, 1, 1)


def named(fixtures: Iterable[str]) -> str:
    """`a, b, c and 5 more`: sorted fixture ids, the first NAMED_FIXTURES of them."""
    ordered = sorted(fixtures)
    shown = ", ".join(ordered[:NAMED_FIXTURES])
    return shown + (f" and {len(ordered) - NAMED_FIXTURES} more" if len(ordered) > NAMED_FIXTURES else "")


def distribution(counts: Counter, unit: str = "") -> str:
    """`10 turns x9, 12 turns x8, ...`: values by count (most first, then by value)."""
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    shown = ", ".join(f"{value}{unit} x{count}" for value, count in ordered[:SHOWN_VALUES])
    return shown + (", ..." if len(ordered) > SHOWN_VALUES else "")


def group_size_option(doc: str) -> Option:
    """The `min_fixtures` option (default 3) of a rule that reports fixtures alike in a group;
    `doc` says what is counted. Read it with group_size()."""
    return Option("min_fixtures", int, 3, f"{doc} (under 2 counts as 2)", min=0)


def group_size(options) -> int:
    """The least number of fixtures a group_size_option rule reports: alike needs two."""
    return max(2, options.min_fixtures)
