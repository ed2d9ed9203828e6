"""A term written with capitals, though matching ignores case.

What: each term of either list (`must_match_all`, `must_not_match`) whose text differs from its
lowercase form is reported at the term, with the lowercase spelling to use.

Why: matching casefolds both sides, so capitals change nothing for the scorer but tell a reader
that case matters, and a sidecar with mixed spellings of one identifier is harder to review and
to grep. Lowercase is the one spelling.

Example (flagged):

    must_match_all: [ILS location code, branch]    # write: ils location code
"""

from __future__ import annotations

from corpustools.lint.diagnostic import ERROR, Problem
from corpustools.lint.labels import labelled_terms, quoted

CODE = "CT603"
NAME = "term-case"
SEVERITY = ERROR
OPTIONS = ()
SUPPRESSIBLE = True


def check(ctx, options):
    for _, field, term in labelled_terms(ctx):
        if term.text != term.text.lower():
            yield Problem(term.pos, f"{field} term {quoted(term.text)} is not lowercase; "
                                    f"write {quoted(term.text.lower())}")
