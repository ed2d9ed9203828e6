"""The rules of one fixture's verdict: which expected (and optional) points a result's items
match, which items are phantoms, whether each pinned field holds an expected value, and the
reasons a fixture fails (docs/scoring.md rules 3-5). score.fixture applies them, with
score.advisories, to one fixture."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from corpustools.model.contract import ABSENT, Item
from corpustools.model.normalize import Matching
from corpustools.model.sidecar import Sidecar
from corpustools.score.evidence import ForbiddenHit, PointEvidence
from corpustools.score.reasons import (
    Reason,
    ReasonKind,
    Verdict,
    field_mismatch,
    forbidden_match,
    missed_point,
    phantom_over_budget,
)


@dataclass(frozen=True)
class PointScore:
    id: str
    type: str
    matched: bool
    matched_by: tuple[str, ...]  # names of the proposals that matched it


@dataclass(frozen=True)
class FieldScore:
    """One field a sidecar pins (expected_fields) against the result's value there."""

    pointer: str
    expected: tuple  # the acceptable values, as the sidecar gives them
    got: Any  # the result's value; ABSENT when the result has none there or was not read
    matched: bool
    read: bool = True  # False when the result was missing or invalid (nothing was read)

    @property
    def present(self) -> bool:
        return self.got is not ABSENT


def point_score(evidence: PointEvidence) -> PointScore:
    """A point is matched by every proposal of its type that contains all its terms."""
    return PointScore(evidence.point_id, evidence.type, evidence.matched,
                      tuple(p.proposal for p in evidence.proposals if p.matched))


def unexpected_proposals(sidecar: Sidecar, proposals: tuple[Item, ...],
                         points: tuple[PointScore, ...]) -> tuple[str, ...]:
    """The phantoms: proposals matching no point, expected or optional (`points` holds both);
    on an expect-empty fixture, every proposal."""
    if sidecar.expect_empty:
        return tuple(p.name for p in proposals)
    expected = {name for point in points for name in point.matched_by}
    return tuple(p.name for p in proposals if p.name not in expected)


def field_scores(sidecar: Sidecar, values: Mapping[str, Any] | None, matching: Matching) -> tuple[FieldScore, ...]:
    """Each pinned field against the result's `values` (pointer -> value or ABSENT), compared by
    `matching` (Matching.same_value); None when the result was not read, so every pinned field is
    a mismatch."""
    if values is None:
        return tuple(FieldScore(pointer, expected, ABSENT, False, read=False)
                     for pointer, expected in sidecar.expected_fields)
    scores = []
    for pointer, expected in sidecar.expected_fields:
        got = values.get(pointer, ABSENT)
        scores.append(FieldScore(pointer, expected, got,
                                 got is not ABSENT and any(matching.same_value(e, got) for e in expected)))
    return tuple(scores)


def forbidden_matches(sidecar: Sidecar, hits: tuple[ForbiddenHit, ...]) -> list[Reason]:
    """`forbidden-match:<id>:<term>` for every must_not_match entry of an expected or optional point
    found in any proposal (`hits`: evidence.forbidden_hits says where); a combination is named by
    its parts joined by " + "."""
    hit = {(h.point_id, h.term) for h in hits}
    return [forbidden_match(point.id, entry.text)
            for point in sidecar.all_points for entry in point.must_not_match if (point.id, entry.text) in hit]


def fixture_reasons(sidecar: Sidecar, proposals: tuple[Item, ...], points: tuple[PointScore, ...],
                    unexpected: tuple[str, ...], hits: tuple[ForbiddenHit, ...],
                    fields: tuple[FieldScore, ...] = ()) -> list[Reason]:
    reasons = [missed_point(p.id) for p in points if not p.matched]
    reasons += forbidden_matches(sidecar, hits)
    reasons += [field_mismatch(f.pointer) for f in fields if not f.matched]
    if sidecar.expect_empty and proposals:
        reasons.append(Reason(ReasonKind.NON_EMPTY_WHERE_EMPTY))
    if len(unexpected) > sidecar.max_unexpected_proposals:
        reasons.append(phantom_over_budget(len(unexpected), sidecar.max_unexpected_proposals))
    return reasons


def verdict(sidecar: Sidecar, reasons: list[Reason]) -> Verdict:
    """For a valid result. A fixture that expects output but names no point and pins no field
    cannot tell a good output from a bad one (every item is a phantom there): UNCHECKED,
    whatever the reasons."""
    if not sidecar.expect_empty and not sidecar.points and not sidecar.expected_fields:
        return Verdict.UNCHECKED
    return Verdict.FAIL if reasons else Verdict.PASS


