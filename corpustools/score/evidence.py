"""Why a fixture failed, in the scorer's own terms: for each point, which of its terms each
proposal of its type holds (for an entry of alternatives, which one); for each must_not_match
entry, which proposal field holds it (for a combination, each part's field).

Pure functions over a valid sidecar and one result's proposals. The scorer's verdicts and
reasons are built from the same tests (match.py), so a report's drill-down can never disagree
with the reason it explains.
"""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.model.contract import Item
from corpustools.model.normalize import contains_term, normalize
from corpustools.model.sidecar import ExpectedPoint, Sidecar, TermEntry


@dataclass(frozen=True)
class TermCheck:
    term: str  # the must_match_all entry as written on one line (TermEntry.text)
    found: bool  # TermEntry.found_in(proposal.match_text): the scorer's own test
    alternatives: tuple[str, ...] = ()  # an entry written as a list: its terms (none for a plain term)
    found_term: str | None = None  # of those, the one found (the first in sidecar order)


@dataclass(frozen=True)
class ProposalEvidence:
    proposal: str  # the item's name: <type>[i]
    title: str
    terms: tuple[TermCheck, ...]  # one per must_match_all term, in sidecar order

    @property
    def absent(self) -> tuple[str, ...]:
        return tuple(check.term for check in self.terms if not check.found)

    @property
    def matched(self) -> bool:
        return all(check.found for check in self.terms)


@dataclass(frozen=True)
class PointEvidence:
    point_id: str
    type: str  # an item type of the output contract
    optional: bool
    matched: bool
    proposals: tuple[ProposalEvidence, ...]  # every proposal of the point's type, in output order

    @property
    def closest(self) -> ProposalEvidence | None:
        """The proposal holding most terms, the first in output order on a tie; None when the
        output has no proposal of the point's type."""
        best = None
        for candidate in self.proposals:
            if best is None or len(candidate.absent) < len(best.absent):
                best = candidate
        return best


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


def term_check(entry: TermEntry, match_text: str) -> TermCheck:
    found = entry.found_in(match_text)
    if not entry.listed:
        return TermCheck(entry.text, found is not None)
    return TermCheck(entry.text, found is not None, entry.texts, found.text if found is not None else None)


def proposal_evidence(proposal: Item, point: ExpectedPoint) -> ProposalEvidence:
    """Which of the point's must_match_all entries the proposal holds (whatever its type)."""
    return ProposalEvidence(proposal.name, proposal.title,
                            tuple(term_check(entry, proposal.match_text) for entry in point.must_match_all))


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
                         for part in entry.terms for field, text in named if contains_term(text, part.text)]
                if {hit.found for hit in found} == set(entry.texts):
                    hits += found
    return tuple(hits)


def _guarded_fields(proposal: Item) -> tuple[tuple[str, str], ...]:
    """(field name, normalized text) for each field must_not_match looks in (the output
    contract's `forbid`), each list element apart."""
    return tuple((field, normalize(text)) for field, text in proposal.forbid_fields)
