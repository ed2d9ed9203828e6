"""A term that normalizes to nothing.

What: each term of either list whose normalized form (corpustools.model.normalize: punctuation and
spacing removed) is empty — "", "   ", "--", "`" — is reported at the term; in an entry written as
a list (alternatives, or a forbidden combination) each term on its own.

Why: an empty term matches nothing, by design of the matcher: a `must_match_all` point with one
can never be captured, and a `must_not_match` guard made of punctuation guards nothing. It is
always a typo or a placeholder left behind.

Example (flagged):

    must_not_match: ["--"]
"""

from __future__ import annotations

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import labelled_terms, normalized, point_name, quoted
from corpustools.lint.fixes import UNSAFE, Fix, Planned, Unfixable, drop_term, term_at
from corpustools.lint.options import NoOptions


def _drop(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    term = term_at(ctx, problem.pos)
    return drop_term(term) if term is not None else None


CODE = "CT606"
NAME = "term-empty"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = (Fix(UNSAFE, "drops the term (from its entry's list when the list has other terms, else the entry; never a "
             "point's only must_match_all entry)", _drop),)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    for point, field, term in labelled_terms(ctx):
        if not normalized(term):
            yield Problem(term.pos, f"{field} term {quoted(term.text)} of {point_name(point)} "
                                    f"is empty after normalization; it can never match")
