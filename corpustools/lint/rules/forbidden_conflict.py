"""A `must_not_match` term contained in one of the same point's `must_match_all` terms.

What: for each point, each `must_not_match` term that occurs, normalized, inside one of the
point's normalized `must_match_all` terms is reported at the forbidden term, naming the first
such required term. An entry of alternatives forces a term only when every alternative contains
it; a forbidden combination is reported (at the entry) when each of its terms is forced so.

Why: a term is found in a required term's wording as it is in an output (the corpus's matching:
docs/scoring.md), so any output containing the required term also contains the forbidden one: the
point is unwinnable by construction.

Example (flagged — every output with "render cache" contains "cache"):

    must_match_all: [render cache, bravo_pii]
    must_not_match: [cache]
"""

from __future__ import annotations

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import entry_named, entry_shown, labelled_points, matching, point_name, quoted
from corpustools.lint.fixes import UNSAFE, Fix, Planned, Unfixable, drop_term, term_at
from corpustools.lint.options import NoOptions
from corpustools.model.normalize import Matching
from corpustools.model.sidecar import TermEntry


def _drop(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    term = term_at(ctx, problem.pos)
    return drop_term(term) if term is not None and term.field == "must_not_match" else None


CODE = "CT608"
NAME = "forbidden-conflict"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = (Fix(UNSAFE, "drops the must_not_match term (the point then guards against one term fewer)", _drop),)


def _forcing(required: tuple[TermEntry, ...], part: str, by: Matching) -> TermEntry | None:
    """The first must_match_all entry every alternative of which contains `part` (both normalized
    by `by`): an output matching the point always holds `part`."""
    return next((entry for entry in required if all(by.contains(by.normalize(t.text), part) for t in entry.terms)),
                None)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    by = matching(ctx)
    for _, _, point in labelled_points(ctx):
        for forbidden in point.must_not_match:
            clashes = [_forcing(point.must_match_all, part.text, by) for part in forbidden.terms]
            if not clashes or any(clash is None for clash in clashes):
                continue
            inside = " and ".join(f"{entry_named(c)} (line {c.pos.line})"
                                  for c in dict.fromkeys(c for c in clashes if c is not None))
            what = (f"term {quoted(forbidden.text)} occurs" if not forbidden.listed
                    else f"combination {entry_shown(forbidden)}: each of its terms occurs")
            yield Problem(forbidden.pos, f"must_not_match {what} inside must_match_all {inside}; "
                                         f"{point_name(point)} can never pass")
