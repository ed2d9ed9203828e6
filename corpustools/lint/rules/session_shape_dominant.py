"""One (user turns, agent turns) shape is used by too many sessions.

What: each parsed session's shape is its number of user and agent turns (`[USER]` and `[AGENT]`,
or the tags corpus.yaml's `session.roles` maps to each). In a corpus of
at least `min_fixtures` (default 8) sessions, a shape used by more than `max_share` (default
0.25) of them is reported at corpus.yaml, once per such shape, naming its fixtures and the most
common shapes.

Why: in a real LLM-authored corpus 17 of 24 sessions had exactly as many user as agent turns:
strict alternation, ending on the agent, is how a model writes a dialogue, not how people work
(a user sends two messages in a row, an agent reports twice, a session ends on a question).
A prompt evaluated on one shape is not evaluated on the others. Vary who speaks when.

Example (flagged):

    corpus.yaml:1:1: CT405 [warning] 9 of 24 fixtures (38%, more than 25%) have 5 user + 5
    agent turns: admit-convention-01, ...; shapes: 5 user + 5 agent x9, 6 user + 6 agent x5, ...;
    vary who speaks when
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.monotone import corpus_pos, distribution, named, session_shapes
from corpustools.lint.options import Option

CODE = "CT405"
NAME = "session-shape-dominant"
SEVERITY = Severity.WARNING
OPTIONS = (
    Option("min_fixtures", int, 8, "corpora with fewer parsed sessions are not checked", min=0),
    Option("max_share", float, 0.25, "a shape used by more than this share of the sessions is reported",
           min=0, max=1),
)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    min_fixtures: int
    max_share: float


SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    shapes = session_shapes(ctx)
    total = len(shapes)
    if total < options.min_fixtures:
        return
    max_share = options.max_share
    counts = Counter(shapes.values())
    for shape, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        if count <= max_share * total:
            break
        fixtures = [f for f, s in shapes.items() if s == shape]
        yield Problem(corpus_pos(ctx, fixtures),
                      f"{count} of {total} fixtures ({count / total:.0%}, more than {max_share:.0%}) have "
                      f"{shape} turns: {named(fixtures)}; shapes: {distribution(counts)}; vary who speaks when")
