"""A term so generic or short that almost any output contains it.

What: each term of either list (each alternative or part of an entry written as a list on its
own) is normalized; it is reported at the term when it equals a word
of the generic-word list (option `generic_words`, compared normalized) or is shorter than
`min_length` characters (default 3). Terms that normalize to nothing are CT606's.

Why: matching is by substring, so a `must_match_all` term like "use" or "db" is met by nearly
every output and checks nothing, and a `must_not_match` term like "test" rejects outputs for
words that have nothing to do with the mistake it guards against.

Example (flagged):

    must_match_all: [always, location code]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import labelled_terms, normalized, quoted
from corpustools.lint.options import Option
from corpustools.model.normalize import normalize

CODE = "CT605"
NAME = "term-generic"
SEVERITY = Severity.WARNING
OPTIONS = (
    Option("generic_words", tuple, ("use", "always", "never", "config", "code", "file", "test", "module"),
           "a term equal to one of these words (compared normalized) is reported; replaces the list"),
    Option("min_length", int, 3, "a term with fewer characters once normalized is reported", min=0),
)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    generic_words: tuple[str, ...]
    min_length: int


SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    generic = {normalize(word) for word in options.generic_words}
    min_length = options.min_length
    for _, field, term in labelled_terms(ctx):
        text = normalized(term)
        if not text:
            continue
        if text in generic:
            yield Problem(term.pos, f"{field} term {quoted(term.text)} is a generic word; "
                                    f"almost any output contains it")
        elif len(text) < min_length:
            yield Problem(term.pos, f"{field} term {quoted(term.text)} is shorter than "
                                    f"{min_length} characters once normalized; it matches "
                                    f"inside unrelated words")
