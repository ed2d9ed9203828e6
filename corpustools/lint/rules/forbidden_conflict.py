"""A `must_not_match` term contained in one of the same point's `must_match_all` terms.

What: for each point, each `must_not_match` term that occurs, normalized, inside one of the
point's normalized `must_match_all` terms is reported at the forbidden term, naming the first
such required term.

Why: matching is by substring on normalized text, so any output containing the required term
also contains the forbidden one: the point is unwinnable by construction.

Example (flagged — every output with "render cache" contains "cache"):

    must_match_all: [render cache, bravo_pii]
    must_not_match: [cache]
"""

from __future__ import annotations

from corpustools.lint.diagnostic import ERROR, Problem
from corpustools.lint.fixes import UNSAFE, Fix, drop_term, term_at
from corpustools.lint.labels import labelled_points, normalized, point_name, quoted
from corpustools.model.normalize import contains_term


def _drop(ctx, problem):
    term = term_at(ctx, problem.pos)
    return drop_term(term) if term is not None and term.field == "must_not_match" else None


CODE = "CT608"
NAME = "forbidden-conflict"
SEVERITY = ERROR
OPTIONS = ()
SUPPRESSIBLE = True
FIXES = (Fix(UNSAFE, "drops the must_not_match term (the point then guards against one term fewer)", _drop),)


def check(ctx, options):
    for _, _, point in labelled_points(ctx):
        required = [(term, normalized(term)) for term in point.must_match_all]
        for forbidden in point.must_not_match:
            clash = next((term for term, text in required if contains_term(text, forbidden.text)), None)
            if clash is not None:
                yield Problem(forbidden.pos, f"must_not_match term {quoted(forbidden.text)} occurs "
                                             f"inside must_match_all term {quoted(clash.text)} "
                                             f"(line {clash.pos.line}); {point_name(point)} can never "
                                             f"pass")
