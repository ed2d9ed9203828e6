"""A point with too few or too many `must_match_all` terms.

What: a point (expected or optional) whose `must_match_all` list has fewer than `min` (default
2) or more than `max` (default 4) entries is reported at the point. An entry of alternatives
(`- [tracking sync, trackingsync]`) counts as one: it is one thing the output must say.

Why: one term matches too much (any output mentioning "branch" passes); many terms make a
faithful paraphrase likely to miss one. Two to four distinctive terms — an identifier, a name,
a key noun — pin a point down and survive rewording.

Example (flagged, one term):

    - id: branch-id-is-location-code
      type: practice
      must_match_all: [branch]
"""

from __future__ import annotations

from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import labelled_points, point_name
from corpustools.lint.options import Option

CODE = "CT604"
NAME = "term-count"
SEVERITY = Severity.WARNING
OPTIONS = (
    Option("min", int, 2, "a point with fewer must_match_all terms is reported", min=0),
    Option("max", int, 4, "a point with more must_match_all terms is reported", min=0),
)
SUPPRESSIBLE = True


def check(ctx, options):
    low, high = options.min, options.max
    for _, _, point in labelled_points(ctx):
        count = len(point.must_match_all)
        if count < low or count > high:
            bound = f"at least {low}" if count < low else f"at most {high}"
            yield Problem(point.pos, f"{point_name(point)} has {count} must_match_all "
                                     f"term{'s' if count != 1 else ''}; use {bound} ({low}-{high})")
