"""A term of three or more words: the label depends on one exact wording.

What: each term of either list with more than `max_words` (default 2) words is reported at the
term (each alternative or part of an entry written as a list on its own). Words are what whitespace separates (punctuation alone is not a word), so an identifier is
one word however many parts it has: `views.view.branch_events` is one word, not four.

Why: a long phrase matches only an output that repeats it word for word. Real runs show phrase
terms failing on faithful paraphrases ("declared there first" vs "must first be declared",
three-word noun phrases reordered or shortened); identifiers, names and single distinctive
nouns survive rewording. Split the phrase into the one or two words every paraphrase must keep.

Example (flagged):

    must_match_all: [branch location code]   # use: [branch, location code]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import labelled_terms, quoted, term_words
from corpustools.lint.options import Option

CODE = "CT610"
NAME = "term-brittle"
SEVERITY = Severity.WARNING
OPTIONS = (
    Option("max_words", int, 2, "a term with more words is reported", min=0),
)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    max_words: int


SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    max_words = options.max_words
    for _, field, term in labelled_terms(ctx):
        words = len(term_words(term.text))
        if words > max_words:
            yield Problem(term.pos, f"{field} term {quoted(term.text)} has {words} words "
                                    f"(more than {max_words}); a paraphrase will miss it")
