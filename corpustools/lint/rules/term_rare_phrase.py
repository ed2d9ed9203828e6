"""A multi-word term the transcript says only once, in only that wording.

What: each term of either list with two or more words (as CT610 counts them; an identifier is
one word) is counted in the session's normalized turns, found as the scorer finds it (the
corpus's matching: docs/scoring.md). A term that occurs exactly once is reported at the term (a
term that never occurs is CT601's). A `must_match_all` entry of alternatives
(`- [400 mg, 400mg]`) is one term whose alternatives together are its wording: it is reported,
at the entry, only when no alternative is paraphrase-safe: every alternative is a phrase of two
or more words, and together they occur that rarely. The parts of a forbidden combination are
each counted on their own.

Why: a phrase said once is the author's wording of the moment, not a name the session keeps
using, and a model that restates the rule rewrites it: "the UUID of the content" for
`content uuid`, "must first be declared" for `declared there first`. A phrase the session
repeats is how its people name the thing, and outputs repeat it too. Keep the one distinctive
word of a rare phrase, or use the phrase the session repeats. A number with its unit (`400 mg`,
`10 business days`) has no one distinctive word (`400` alone would match any 400): list the
spellings an answer may write as one entry of alternatives, `- [400 mg, 400mg]`; an entry one of
whose alternatives is a single word is never reported.

Example (flagged), in a session that says "declared there first" once:

    must_match_all: [declared there first]   # use: [declared]

and in one that says "400 mg" once:

    must_match_all: [ibuprofen, 400 mg]      # use: [ibuprofen, [400 mg, 400mg]]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import (
    all_entries,
    entry_named,
    matching,
    normalized,
    points_with_turns,
    quoted,
    term_words,
)
from corpustools.lint.options import Option
from corpustools.model.sidecar import MUST_MATCH_ALL

CODE = "CT612"
NAME = "term-rare-phrase"
SEVERITY = Severity.WARNING
OPTIONS = (
    Option("max_occurrences", int, 1, "a term said this many times or fewer in the transcript is rare", min=0),
)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    max_occurrences: int


SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it

# A number and a short unit written apart (`400 mg`, `2 ml`): an answer may well write them together.
_NUMBER_UNIT = re.compile(r"(\d) ([^\W\d_]{1,3})\b")


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    most = options.max_occurrences
    by = matching(ctx)
    for point, turns in points_with_turns(ctx):
        for field, entry in all_entries(point):
            if field == MUST_MATCH_ALL and len(entry.terms) > 1:  # one term, its alternatives its wording
                phrases = [t for t in entry.terms if normalized(t)]
                if not phrases or any(len(term_words(t.text)) < 2 for t in phrases):
                    continue  # a single-word alternative is paraphrase-safe
                count = sum(by.count(turns.everything, t.text) for t in phrases)
                if 1 <= count <= most:
                    yield Problem(entry.pos, f"{field} {entry_named(entry)} occurs {_times(count)} in the transcript, "
                                             "only in these wordings; a paraphrase will miss every one")
                continue
            for term in entry.terms:
                if not normalized(term) or len(term_words(term.text)) < 2:
                    continue
                count = by.count(turns.everything, term.text)
                if 1 <= count <= most:
                    yield Problem(term.pos, f"{field} term {quoted(term.text)} occurs {_times(count)} in the "
                                            f"transcript, only in this wording; a paraphrase will miss it"
                                            + (_number_advice(term.text) if field == MUST_MATCH_ALL else ""))


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _number_advice(text: str) -> str:
    """For a term holding a number: what to write instead (its spellings as alternatives)."""
    if not any(char.isdigit() for char in text):
        return ""
    joined = _NUMBER_UNIT.sub(r"\1\2", text)
    if joined != text:
        return f" (a number and its unit: list the spellings as one entry, [{quoted(text)}, {quoted(joined)}])"
    return " (a number has no one distinctive word: list the spellings an answer may write as one entry of alternatives)"
