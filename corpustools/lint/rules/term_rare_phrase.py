"""A multi-word term the transcript says only once, in only that wording.

What: each term of either list with two or more words (as CT610 counts them; an identifier is
one word) is counted in the session's normalized turns, found as the scorer finds it (the
corpus's matching: docs/scoring.md). A term that occurs exactly once is reported at the term (a
term that never occurs is CT601's). A number and its unit (`400 mg`, `2.5 ml`, `90mcg`: a number
and a unit of at most three letters) is a value, not a wording: it is never reported when the
corpus's matching finds both its spellings with it (under the default matching `400 mg` already
finds `400mg` and `400 MG`); under `matching: substring` it is reported until its entry lists
both (`[400 mg, 400mg]`). A `must_match_all` entry of alternatives is one term whose alternatives
together are its wording: it is reported, at the entry, only when no alternative is
paraphrase-safe (a single word, or a value whose spellings the entry covers) and the transcript
says them, together, that rarely (a place two alternatives both match is said once). The parts
of a forbidden combination are each counted on their own.

Why: a phrase said once is the author's wording of the moment, not a name the session keeps
using, and a model that restates the rule rewrites it: "the UUID of the content" for
`content uuid`, "must first be declared" for `declared there first`. A phrase the session
repeats is how its people name the thing, and outputs repeat it too. Keep the one distinctive
word of a rare phrase, or use the phrase the session repeats. A value is different: an answer
copies a dose or an amount rather than rewording it, and the scorer already finds it however an
answer spaces or cases it, so a value said once is no risk. A number is not a distinctive word
on its own (`400` alone would match any 400), so the advice for a phrase holding one is not to
keep it alone: a phrase holding a value (`ibuprofen 400 mg`) is two terms, the value one of them
(`[ibuprofen, 400 mg]`), each found wherever the answer writes it; any other phrase with a number
(`10 business days`) is an entry listing the wordings an answer may write (`[10 business days,
ten business days]`).

Example (flagged), in a session that says "declared there first" once:

    must_match_all: [declared there first]   # use: [declared]

and in one that says "ibuprofen 400 mg" once:

    must_match_all: [ibuprofen 400 mg]       # use: [ibuprofen, 400 mg]
    must_match_all: [ibuprofen, 400 mg]      # not flagged: a value (it finds 400mg too)
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
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
from corpustools.model.normalize import Matching, normalize_words
from corpustools.model.sidecar import MUST_MATCH_ALL, Term

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

# A value: a number (digits joined by `.` or `,`, as words matching reads one) and a unit symbol.
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_UNIT = re.compile(r"[^\W\d_]{1,3}")


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    most = options.max_occurrences
    by = matching(ctx)
    for point, turns in points_with_turns(ctx):
        for field, entry in all_entries(point):
            if field == MUST_MATCH_ALL and len(entry.terms) > 1:  # one term, its alternatives its wording
                phrases = [t for t in entry.terms if normalized(t)]
                if not phrases or any(_paraphrase_safe(t, phrases, by) for t in phrases):
                    continue
                count = _said(by, turns.everything, phrases)
                if 1 <= count <= most:
                    yield Problem(entry.pos, f"{field} {entry_named(entry)} occurs {_times(count)} in the transcript, "
                                             "only in these wordings; a paraphrase will miss every one")
                continue
            for term in entry.terms:
                if not normalized(term) or _paraphrase_safe(term, [term], by):
                    continue
                count = by.count(turns.everything, term.text)
                if 1 <= count <= most:
                    yield Problem(term.pos, f"{field} term {quoted(term.text)} occurs {_times(count)} in the "
                                            f"transcript, only in this wording; a paraphrase will miss it"
                                            + (_number_advice(term.text, by) if field == MUST_MATCH_ALL else ""))


def _paraphrase_safe(term: Term, alternatives: Sequence[Term], by: Matching) -> bool:
    """A single word, or a value whose spellings `alternatives` (an entry's, or the term alone) cover."""
    if len(term_words(term.text)) < 2:
        return True
    value = _value(normalize_words(term.text).split())
    return value is not None and not _spellings_missed(value, [t.text for t in alternatives], by)


def _value(words: Sequence[str]) -> tuple[str, str] | None:
    """(number, unit) when `words` (words matching's) are a number and a unit symbol: `400 mg`."""
    if len(words) == 2 and _NUMBER.fullmatch(words[0]) and _UNIT.fullmatch(words[1]):
        return words[0], words[1]
    return None


def _spellings_missed(value: tuple[str, str], alternatives: Sequence[str], by: Matching) -> list[str]:
    """The spellings of a value (apart, joined: `400 mg`, `400mg`) that no alternative finds under
    the corpus's matching: none under words matching, the joined one for `400 mg` under substring."""
    number, unit = value
    return [spelling for spelling in (f"{number} {unit}", f"{number}{unit}")
            if not any(by.contains(by.normalize(spelling), text) for text in alternatives)]


def _said(by: Matching, normalized_text: str, alternatives: Sequence[Term]) -> int:
    """How many places of the text some alternative is found at, a place two of them share (or
    overlap at) counted once: `[ibuprofen 400 mg, ibuprofen 400mg]` said once is said once."""
    spans = sorted(span for t in alternatives for span in by.occurrences(normalized_text, t.text))
    places, end = 0, -1
    for start, stop in spans:
        if start >= end:
            places += 1
        end = max(end, stop)
    return places


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _number_advice(text: str, by: Matching) -> str:
    """For a term holding a number: what to write instead, never a no-op under the corpus's
    matching (listing `400mg` beside `400 mg` changes nothing under words matching)."""
    words = normalize_words(text).split()
    numbers = [at for at, word in enumerate(words) if _NUMBER.fullmatch(word)]
    if not numbers:
        return ""
    value = _value(words)
    if value is not None:  # a value whose spellings the matching does not all find (substring)
        missed = _spellings_missed(value, [text], by)
        return (f" (a number and its unit, which {by.name} matching finds only as written: list the spellings as "
                f"one entry, [{quoted(text)}, {', '.join(quoted(s) for s in missed)}])")
    inside = _value(words[numbers[0]:numbers[0] + 2]) if len(numbers) == 1 else None
    if inside is not None:  # `ibuprofen 400 mg`: the value and the word are two terms
        shown = " ".join(inside)
        spaced = "" if _spellings_missed(inside, [shown], by) else ", found however an answer spaces it"
        return f" (a number and its unit are one value{spaced}: make {quoted(shown)} a term of its own)"
    return (" (a number alone is no distinctive word: list the wordings an answer may write as one entry of "
            "alternatives)")
