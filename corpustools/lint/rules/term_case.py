"""A term written with capitals, though matching ignores case.

What: each term of either list (`must_match_all`, `must_not_match`; each alternative or part of an
entry written as a list on its own) whose text differs from its lowercase form is reported at the
term, with the lowercase spelling to use.

Why: matching casefolds both sides, so capitals change nothing for the scorer but tell a reader
that case matters, and a sidecar with mixed spellings of one identifier is harder to review and
to grep. Lowercase is the one spelling.

Example (flagged):

    must_match_all: [ILS location code, branch]    # write: ils location code
"""

from __future__ import annotations

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import labelled_terms, quoted
from corpustools.lint.fixes import SAFE, Fix, Planned, Unfixable, set_term, term_at
from corpustools.lint.options import NoOptions


def _lowercase(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    term = term_at(ctx, problem.pos)
    if term is None or term.text == term.text.lower():
        return None
    return set_term(term, term.text.lower(), f"{quoted(term.text)} written as {quoted(term.text.lower())}")


CODE = "CT603"
NAME = "term-case"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = (Fix(SAFE, "writes the term in lowercase (matching ignores case, so the label means the same)", _lowercase),)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    for _, field, term in labelled_terms(ctx):
        if term.text != term.text.lower():
            yield Problem(term.pos, f"{field} term {quoted(term.text)} is not lowercase; "
                                    f"write {quoted(term.text.lower())}")
