"""Many sessions open with the same sentence skeleton.

What: a session's opening is the first sentence of its first turn with at least `min_tokens`
(default 4) skeleton tokens and `min_words` (default 2) unmasked words (so a bare "Hello." is
skipped). Openings are compared by skeleton (see CT701: names, identifiers, numbers and code
spans masked). A skeleton that opens at least `min_fixtures` (default 3) sessions is reported
once, at the opening sentence of the first of them by fixture id, naming all of them.

Why: an LLM writing many sessions starts each the same way ("I'm working on the * site and
need to *"), with shorter sentences than CT701 looks at. The opening is what the prompt reads
first; when every fixture opens alike, the corpus tests one situation many times. Vary how
sessions start.

Example (flagged, with three sessions opening alike):

    [USER]: I'm working on the `fern_events` module and need help.
    [USER]: I'm working on the `fern_holds` module and need help.

    sessions/admit-convention-01.md:6:9: CT705 [warning] opening sentence skeleton
    'i m working on the * module and need help' opens 3 sessions: admit-convention-01, ...;
    vary how sessions start
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from corpustools.io.positions import Pos
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import quoted
from corpustools.lint.families.monotone import group_size, group_size_option, named
from corpustools.lint.families.skeleton import Skeleton
from corpustools.lint.families.templates import sentence_options, session_skeletons

CODE = "CT705"
NAME = "opening-skeleton-repeated"
SEVERITY = Severity.WARNING
OPTIONS = (
    group_size_option("an opening shared by this many sessions is reported"),
    *sentence_options(4, 2),
)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    min_fixtures: int
    min_tokens: int
    min_words: int


SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    least = group_size(options)
    min_tokens, min_words = options.min_tokens, options.min_words
    openings: dict[str, list[tuple[str, Skeleton]]] = {}  # skeleton -> [(fixture id, sentence)], by fixture id
    for fixture_id, turns in session_skeletons(ctx).items():
        if not turns:
            continue
        sentence = next((s for s in turns[0][1] if s.counts(min_tokens, min_words)), None)
        if sentence is not None:
            openings.setdefault(sentence.skeleton, []).append((fixture_id, sentence))
    for skeleton, found in sorted(openings.items(), key=lambda item: item[1][0][0]):
        if len(found) < least:
            continue
        fixture_id, sentence = found[0]
        path = ctx.corpus.sessions[fixture_id].path
        yield Problem(Pos(path, sentence.line, sentence.col),
                      f"opening sentence skeleton {quoted(skeleton)} opens {len(found)} sessions: "
                      f"{named(f for f, _ in found)}; vary how sessions start")
