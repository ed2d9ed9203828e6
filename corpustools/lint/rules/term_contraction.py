"""A term written with a possessive or a contraction (`content's uuid`, `don't`, `it's`).

What: each term of either list (each alternative or part of an entry written as a list on its
own) is reported at the term when a word of it has an apostrophe
(`'` or `’`) between letters or digits. Two kinds, with different advice:
- a word-final `'s` (`content's uuid`): normalization drops it (corpustools.model.normalize), so
  the term already means `content uuid`; the apostrophe form is pointless — write the plain
  words;
- any other contraction (`don't`, `can't`, `won't`, `isn't`, `'re`, `'ll`, `'ve`, `'d`,
  `'m`): normalization keeps its letters (`don't` → `don t`), so the term matches only an
  output that contracts the same way, never one that says "do not".

Why: whether a writer contracts is style, not content; a faithful output that writes "does not"
for "doesn't" fails a term that spells the contraction.

Example (flagged):

    must_match_all: [don't edit, content's uuid]   # use: [edit, content uuid]
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import labelled_terms, quoted
from corpustools.lint.fixes import SAFE, Fix, Planned, Unfixable, set_term, term_at
from corpustools.lint.options import NoOptions
from corpustools.model.normalize import normalize

# An apostrophe inside a word, and the ones normalization drops (a word-final 's).
_INSIDE_WORD = re.compile(r"(?<=[^\W_])['\u2019](?=[^\W_])")
_FINAL_S = re.compile(r"(?<=[^\W_])['\u2019][sS](?![^\W_])")


def _possessive_only(text: str) -> bool:
    inside = len(_INSIDE_WORD.findall(text))
    return bool(inside) and len(_FINAL_S.findall(text)) == inside


def _as_normalized(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    term = term_at(ctx, problem.pos)
    if term is None or not _possessive_only(term.text):
        return None  # a contraction (don't): writing it out is a choice of words, not a mechanical fix
    plain = normalize(term.text)
    return set_term(term, plain, f"{quoted(term.text)} written as {quoted(plain)}, as normalization reads it")


CODE = "CT613"
NAME = "term-contraction"
SEVERITY = Severity.WARNING
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = (Fix(SAFE, "rewrites a possessive term as normalization reads it (`content's uuid` -> `content uuid`; "
             "the scorer matches both alike); a contraction has no fix", _as_normalized),)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    for _, field, term in labelled_terms(ctx):
        if not _INSIDE_WORD.search(term.text):
            continue
        plain = normalize(term.text)
        if _possessive_only(term.text):
            yield Problem(term.pos, f"{field} term {quoted(term.text)} is written with 's, which "
                                    f"normalization drops; write {plain!r}")
        else:
            yield Problem(term.pos, f"{field} term {quoted(term.text)} spells a contraction; an "
                                    f"output that writes it out misses it (normalized: {plain!r})")
