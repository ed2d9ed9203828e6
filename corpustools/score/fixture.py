"""Scoring one fixture: its sidecar against its result file (docs/scoring.md rules 1-6). The rules
live in score.match (verdict, reasons) and score.advisories (what never changes a verdict); this
module applies both, so neither imports the other's caller."""

from __future__ import annotations

from dataclasses import dataclass, replace

from corpustools.model.contract import DEFAULT, TEXT_FORMAT, Contract, Item
from corpustools.model.sidecar import Sidecar
from corpustools.model.spec import category_from_name
from corpustools.model.status import FileStatus, FixtureStatus
from corpustools.score.advisories import advisory
from corpustools.score.evidence import ForbiddenHit, PointEvidence, forbidden_hits, point_evidence
from corpustools.score.match import (
    FieldScore,
    PointScore,
    field_scores,
    fixture_reasons,
    point_score,
    unexpected_proposals,
    verdict,
)
from corpustools.score.reasons import Advisory, AdvisoryKind, Reason, ReasonKind, Verdict
from corpustools.score.results import ResultFile

UNKNOWN_CATEGORY = "unknown"


@dataclass(frozen=True, kw_only=True)
class FixtureScore:
    id: str
    category: str
    verdict: Verdict
    status: FixtureStatus
    expect_empty: bool | None  # None when the sidecar is invalid
    reasons: tuple[Reason, ...] = ()
    advisories: tuple[Advisory, ...] = ()  # reported as "diagnostics" (corpustools.score.advisories)
    points: tuple[PointScore, ...] = ()  # the expected points: what recall counts
    proposals: tuple[Item, ...] = ()
    unexpected: tuple[str, ...] = ()  # names of the phantoms
    optional_points: tuple[PointScore, ...] = ()  # never a miss, never in recall
    evidence: tuple[PointEvidence, ...] = ()  # per expected then optional point: each proposal's terms
    forbidden: tuple[ForbiddenHit, ...] = ()  # where each forbidden-match reason's term was found
    fields: tuple[FieldScore, ...] = ()  # each pinned field, in sidecar order

    @property
    def came_back_empty(self) -> bool:
        return self.status is FixtureStatus.OK and not self.proposals

    @property
    def gate_correct(self) -> bool:
        return self.expect_empty is True and self.came_back_empty

    @property
    def false_reject(self) -> bool:
        return self.expect_empty is False and self.came_back_empty


def invalid_sidecar_score(fixture_id: str, categories: list[str], problem: str | None) -> FixtureScore:
    reason = Reason(ReasonKind.SIDECAR_INVALID, detail=problem or None)
    category = category_from_name(fixture_id, categories) or UNKNOWN_CATEGORY
    return FixtureScore(id=fixture_id, category=category, verdict=Verdict.FAIL, status=FixtureStatus.SIDECAR_INVALID,
                        expect_empty=None, reasons=(reason,))


def unscored_result(sidecar: Sidecar, result: ResultFile, contract: Contract = DEFAULT) -> FixtureScore:
    """A missing, unreadable or invalid result: every point missed, no proposals, the one reason."""
    points, optional = (tuple(PointScore(p.id, p.type, False, ()) for p in listed)
                        for listed in (sidecar.points, sidecar.optional_points))
    if result.status == FileStatus.MISSING:
        reason, status = Reason(ReasonKind.MISSING_RESULT), FixtureStatus.MISSING_RESULT
    elif result.status == FileStatus.UNREADABLE:
        reason = Reason(ReasonKind.UNREADABLE_RESULT, detail=result.error)
        status = FixtureStatus.UNREADABLE_RESULT
    else:
        reason, status = Reason(ReasonKind.INVALID_RESULT, detail=result.error), FixtureStatus.INVALID_RESULT
    return FixtureScore(id=result.fixture_id, category=sidecar.category, verdict=Verdict.FAIL, status=status,
                        expect_empty=sidecar.expect_empty, reasons=(reason,), points=points, optional_points=optional,
                        fields=field_scores(sidecar, None, contract.matching))


def content_advisory(found: str, would: FixtureScore) -> Advisory:
    """`invalid-format:content inside the fence would pass` (or `would fail (missed-point:x, ...)`)."""
    outcome = {Verdict.PASS: "would pass", Verdict.UNCHECKED: "would be unchecked"}.get(
        would.verdict, f"would fail ({', '.join(str(r) for r in would.reasons)})")
    return Advisory(AdvisoryKind.INVALID_FORMAT, text=f"content {found} {outcome}")


def score_fixture(sidecar: Sidecar, result: ResultFile, transcript: str | None,
                  contract: Contract = DEFAULT) -> FixtureScore:
    """Score one fixture with a schema-valid sidecar (rules 2-6 of docs/scoring.md), its result
    read through `contract`."""
    if result.status != FileStatus.OK:
        unscored = unscored_result(sidecar, result, contract)
        if result.content is None or result.content_found is None:
            return unscored
        # Invalid only in its format: FAIL all the same, with what its content would have scored.
        would = score_fixture(sidecar, replace(result, status=FileStatus.OK, answer=result.content, content=None),
                              transcript, contract)
        return replace(unscored, advisories=(content_advisory(result.content_found, would),))
    answer = result.answer
    assert answer is not None  # an ok result holds what the contract read from it
    proposals = answer.items
    evidence = point_evidence(sidecar, proposals)
    points, optional = (tuple(point_score(e) for e in evidence if e.optional == wanted) for wanted in (False, True))
    # A text answer is one item: it is right or wrong, never a phantom (docs/contracts.md).
    unexpected = () if contract.format == TEXT_FORMAT else unexpected_proposals(sidecar, proposals, points + optional)
    hits = forbidden_hits(sidecar, proposals)
    fields = field_scores(sidecar, answer.fields, contract.matching)
    reasons = fixture_reasons(sidecar, proposals, points, unexpected, hits, fields)
    advisories = advisory(sidecar, proposals, points, evidence, contract.warnings(answer), transcript)
    return FixtureScore(id=result.fixture_id, category=sidecar.category, verdict=verdict(sidecar, reasons),
                        status=FixtureStatus.OK, expect_empty=sidecar.expect_empty, reasons=tuple(reasons),
                        advisories=tuple(advisories), points=points, proposals=proposals, unexpected=unexpected,
                        optional_points=optional, evidence=evidence, forbidden=hits, fields=fields)
