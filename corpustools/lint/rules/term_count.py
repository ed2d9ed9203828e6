"""A point with too few or too many `must_match_all` terms.

What: a point (expected or optional) that says fewer things about its item than its minimum, or
has more than `max` (default 4) `must_match_all` entries, is reported at the point. An entry of
alternatives (`- [tracking sync, trackingsync]`) counts as one: it is one thing the output must
say; so does each `item_fields` entry (`dose: "5 mg"`). The minimum depends on the point's item
type: `min` (default 2) for a type whose items are objects matched on prose fields, 1 for a type
whose items are strings (an allergy, a tag: one word is the whole item) and for a point with
`item_fields` (an exact value pins it); `min_by_type` sets it for the types it names, whatever
their kind, e.g.

    lint:
      rules:
        CT604: {min: 3, min_by_type: {allergy: 2, medication: 1}}

Why: one term matches too much (any output mentioning "branch" passes); many terms make a
faithful paraphrase likely to miss one. Two to four distinctive terms — an identifier, a name,
a key noun — pin a point of prose down and survive rewording; a string item, or an item whose
value is checked exactly, is pinned by one.

Example (flagged, one term on a practice, whose items are prose):

    - id: branch-id-is-location-code
      type: practice
      must_match_all: [branch]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import labelled_points, point_name
from corpustools.lint.options import Option
from corpustools.model.contract import DEFAULT
from corpustools.model.sidecar import ExpectedPoint

CODE = "CT604"
NAME = "term-count"
SEVERITY = Severity.WARNING
OPTIONS = (
    Option("min", int, 2, "a point of an object item type matched on prose fields, without item_fields, that says "
                          "fewer things (must_match_all entries) is reported", min=0),
    Option("min_by_type", dict, (), "item type -> the minimum for its points, replacing the default one (`min`, "
                                    "or 1 for string items and points with item_fields)", min=0),
    Option("max", int, 4, "a point with more must_match_all terms is reported", min=0),
)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    min: int
    min_by_type: tuple[tuple[str, int], ...]
    max: int


SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def _minimum(point: ExpectedPoint, options: Options, strings: set[str]) -> int:
    by_type = dict(options.min_by_type)
    if point.type in by_type:
        return by_type[point.type]
    return 1 if point.type in strings or point.item_fields else options.min


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    contract = ctx.corpus.contract or DEFAULT
    strings = {t.type for t in contract.items if t.strings}  # a text answer is prose: not one of them
    high = options.max
    for _, _, point in labelled_points(ctx):
        if point.type not in contract.item_types:
            continue  # its type is unknown while the contract is broken (CT003 says why): no minimum to hold
        terms, fields = len(point.must_match_all), len(point.item_fields)
        low = _minimum(point, options, strings)
        if terms + fields >= low and terms <= high:
            continue
        said = f"{terms} must_match_all term{'s' if terms != 1 else ''}"
        if fields:
            said += f" and {fields} item field{'s' if fields != 1 else ''}"
        bound = f"at least {low}" if terms + fields < low else f"at most {high}"
        yield Problem(point.pos, f"{point_name(point)} has {said}; use {bound} ({low}-{high})")
