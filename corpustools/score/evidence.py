"""Why a fixture failed, in the scorer's own terms: for each point, which of its terms each
proposal of its type holds (for an entry of alternatives, which one) and what it holds in each of
the point's item_fields; for each must_not_match entry, which proposal field holds it (for a
combination, each part's field).

Pure functions over a valid sidecar and one result's proposals. The scorer's verdicts and
reasons are built from the same tests (match.py), so a report's drill-down can never disagree
with the reason it explains.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corpustools.model.contract import ABSENT, Item
from corpustools.model.sidecar import ExpectedPoint, ItemField, Sidecar, TermEntry


@dataclass(frozen=True)
class TermCheck:
    term: str  # the must_match_all entry as written on one line (TermEntry.text)
    found: bool  # TermEntry.found_in(proposal.match_text, ...): the scorer's own test
    alternatives: tuple[str, ...] = ()  # an entry written as a list: its terms (none for a plain term)
    found_term: str | None = None  # of those, the one found (the first in sidecar order)


@dataclass(frozen=True)
class FieldCheck:
    """One of a point's item_fields against an item's value there."""

    field: str  # the item's key
    expected: tuple  # the acceptable values, as the sidecar gives them
    got: Any  # the item's value; ABSENT when the item has no such key (or no item was there)
    matched: bool

    @property
    def present(self) -> bool:
        return self.got is not ABSENT


@dataclass(frozen=True)
class ProposalEvidence:
    proposal: str  # the item's name: <type>[i]
    title: str
    terms: tuple[TermCheck, ...]  # one per must_match_all term, in sidecar order
    fields: tuple[FieldCheck, ...] = ()  # one per item_fields entry, in sidecar order
    shown: tuple[tuple[str, Any], ...] = ()  # the item's match fields other than its title: what it says

    @property
    def absent(self) -> tuple[str, ...]:
        return tuple(check.term for check in self.terms if not check.found)

    @property
    def wrong_fields(self) -> tuple[FieldCheck, ...]:
        return tuple(check for check in self.fields if not check.matched)

    @property
    def misses(self) -> int:
        """How many of the point's terms and item fields the item does not hold."""
        return sum(not check.found for check in self.terms) + sum(not check.matched for check in self.fields)

    @property
    def matched(self) -> bool:
        return not self.misses


@dataclass(frozen=True)
class PointEvidence:
    point_id: str
    type: str  # an item type of the output contract
    optional: bool
    matched: bool
    proposals: tuple[ProposalEvidence, ...]  # every proposal of the point's type, in output order

    @property
    def closest(self) -> ProposalEvidence | None:
        """The proposal holding most of the point's terms and item fields, the first in output
        order on a tie; None when the output has no proposal of the point's type."""
        return min(self.proposals, key=lambda candidate: candidate.misses, default=None)  # min keeps the first


@dataclass(frozen=True)
class ForbiddenHit:
    point_id: str
    term: str  # the must_not_match entry as written on one line (a combination: its parts joined by " + ")
    proposal: str  # the item's name: <type>[i]
    title: str
    field: str  # one of the item type's forbid fields, `name[i]` for an element of a list
    part: str = ""  # for an entry written as a list: the part of it found in `field`

    @property
    def found(self) -> str:
        """What `field` holds: the term, or one part of a combination."""
        return self.part or self.term


def term_check(entry: TermEntry, proposal: Item) -> TermCheck:
    found = entry.found_in(proposal.match_text, proposal.matching)
    if not entry.listed:
        return TermCheck(entry.text, found is not None)
    return TermCheck(entry.text, found is not None, entry.texts, found.text if found is not None else None)


def field_check(item_field: ItemField, proposal: Item) -> FieldCheck:
    """Whether the proposal's value at the field is one of the acceptable ones, compared as
    expected_fields are (Matching.same_value)."""
    raw = proposal.raw
    got = raw.get(item_field.name, ABSENT) if isinstance(raw, dict) else ABSENT
    return FieldCheck(item_field.name, item_field.values, got,
                      got is not ABSENT and any(proposal.matching.same_value(v, got) for v in item_field.values))


def proposal_evidence(proposal: Item, point: ExpectedPoint) -> ProposalEvidence:
    """Which of the point's must_match_all entries and item_fields the proposal holds (whatever
    its type)."""
    fields = tuple(field_check(f, proposal) for f in point.item_fields)
    shown = tuple(pair for pair in proposal.fields if pair[0] != proposal.title_field and pair[0] in proposal.match_fields)
    return ProposalEvidence(proposal.name, proposal.title,
                            tuple(term_check(entry, proposal) for entry in point.must_match_all), fields, shown)


def holds(proposal: Item, point: ExpectedPoint) -> bool:
    """Whether the proposal holds every must_match_all entry (one alternative of each) and every
    item_fields value of the point: the scorer's one test of a match."""
    return (all(entry.found_in(proposal.match_text, proposal.matching) is not None for entry in point.must_match_all)
            and all(field_check(f, proposal).matched for f in point.item_fields))


def point_evidence(sidecar: Sidecar, proposals: tuple[Item, ...]) -> tuple[PointEvidence, ...]:
    """One entry per point: expected points, then optional points, each in sidecar order."""
    found = []
    for point in sidecar.all_points:
        checked = tuple(proposal_evidence(p, point) for p in proposals if p.type == point.type)
        found.append(PointEvidence(point.id, point.type, point.optional, any(e.matched for e in checked), checked))
    return tuple(found)


def forbidden_hits(sidecar: Sidecar, proposals: tuple[Item, ...]) -> tuple[ForbiddenHit, ...]:
    """Every (point, must_not_match entry, proposal, field) where the field holds the entry, in
    that nesting order. Fields are searched apart: a term only found across a field boundary was
    never written by the model. A combination fires only when each of its parts is in some forbid
    field of one proposal; it then has one hit per (part, field) holding it, parts in sidecar order."""
    if not any(point.must_not_match for point in sidecar.all_points):
        return ()  # nothing to look for: no field needs normalizing
    fields = [_guarded_fields(p) for p in proposals]
    hits = []
    for point in sidecar.all_points:
        for entry in point.must_not_match:
            for proposal, named in zip(proposals, fields, strict=True):
                found = [ForbiddenHit(point.id, entry.text, proposal.name, proposal.title, field,
                                      part.text if entry.listed else "")
                         for part in entry.terms for field, text in named
                         if proposal.matching.contains(text, part.text)]
                if {hit.found for hit in found} == set(entry.texts):
                    hits += found
    return tuple(hits)


def _guarded_fields(proposal: Item) -> tuple[tuple[str, str], ...]:
    """(field name, normalized text) for each field must_not_match looks in (the output
    contract's `forbid`), each list element apart."""
    return tuple((field, proposal.matching.normalize(text)) for field, text in proposal.forbid_fields)
