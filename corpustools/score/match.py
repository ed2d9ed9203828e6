"""One fixture's verdict: which expected (and optional) points a result matched, which proposals
are phantoms, and the reasons a fixture fails. This module is the scoring contract of
docs/scoring.md."""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.model.contract import proposals as named_proposals
from corpustools.model.normalize import contains_term, normalize
from corpustools.model.sidecar import ExpectedPoint, Sidecar
from corpustools.model.spec import category_from_name
from corpustools.model.status import INVALID, MISSING, OK
from corpustools.score.evidence import ForbiddenHit, PointEvidence, forbidden_hits, point_evidence
from corpustools.score.results import ResultFile

PASS, FAIL, UNCHECKED = "PASS", "FAIL", "UNCHECKED"
# What stood between a fixture and being scored (`ok` when nothing did).
SIDECAR_INVALID, MISSING_RESULT, INVALID_RESULT = "sidecar-invalid", "missing-result", "invalid-result"
UNKNOWN_CATEGORY = "unknown"


@dataclass(frozen=True)
class Proposal:
    name: str  # practice[i] | map[i]
    type: str  # the array it sits in: practice | map
    title: str
    description: str
    body: str
    tags: tuple[str, ...]
    match_text: str  # normalized title + "\n" + body: what must_match_all terms are looked for in


@dataclass(frozen=True)
class PointScore:
    id: str
    type: str
    matched: bool
    matched_by: tuple[str, ...]  # names of the proposals that matched it


@dataclass(frozen=True)
class FixtureScore:
    id: str
    category: str
    verdict: str  # PASS | FAIL | UNCHECKED
    reasons: tuple[str, ...]
    advisories: tuple[str, ...]  # reported as "diagnostics" (corpustools.score.advisories)
    points: tuple[PointScore, ...]  # the expected points: what recall counts
    proposals: tuple[Proposal, ...]
    unexpected: tuple[str, ...]  # names of the phantoms
    expect_empty: bool | None  # None when the sidecar is invalid
    status: str  # ok | sidecar-invalid | missing-result | invalid-result
    optional_points: tuple[PointScore, ...] = ()  # never a miss, never in recall
    evidence: tuple[PointEvidence, ...] = ()  # per expected then optional point: each proposal's terms
    forbidden: tuple[ForbiddenHit, ...] = ()  # where each forbidden-match reason's term was found

    @property
    def came_back_empty(self) -> bool:
        return self.status == OK and not self.proposals

    @property
    def gate_correct(self) -> bool:
        return self.expect_empty is True and self.came_back_empty

    @property
    def false_reject(self) -> bool:
        return self.expect_empty is False and self.came_back_empty


def read_proposals(output: dict) -> tuple[Proposal, ...]:
    found = []
    for name, item in named_proposals(output):
        title, body = item["title"], item["body"]
        found.append(Proposal(name, name.split("[", 1)[0], title, item["description"], body,
                              tuple(item["tags"]), normalize(title + "\n" + body)))
    return tuple(found)


def contains_all(proposal: Proposal, point: ExpectedPoint) -> bool:
    return all(contains_term(proposal.match_text, term.text) for term in point.must_match_all)


def point_score(evidence: PointEvidence) -> PointScore:
    """A point is matched by every proposal of its type that contains all its terms."""
    return PointScore(evidence.point_id, evidence.type, evidence.matched,
                      tuple(p.proposal for p in evidence.proposals if p.matched))


def unexpected_proposals(sidecar: Sidecar, proposals: tuple[Proposal, ...],
                         points: tuple[PointScore, ...]) -> tuple[str, ...]:
    """The phantoms: proposals matching no point, expected or optional (`points` holds both);
    on an expect-empty fixture, every proposal."""
    if sidecar.expect_empty:
        return tuple(p.name for p in proposals)
    expected = {name for point in points for name in point.matched_by}
    return tuple(p.name for p in proposals if p.name not in expected)


def forbidden_matches(sidecar: Sidecar, hits: tuple[ForbiddenHit, ...]) -> list[str]:
    """`forbidden-match:<id>:<term>` for every must_not_match term of an expected or optional point
    found in any field of any proposal (`hits`: evidence.forbidden_hits says where)."""
    hit = {(h.point_id, h.term) for h in hits}
    return [f"forbidden-match:{point.id}:{term.text}"
            for point in sidecar.all_points for term in point.must_not_match if (point.id, term.text) in hit]


def fixture_reasons(sidecar: Sidecar, proposals: tuple[Proposal, ...], points: tuple[PointScore, ...],
                    unexpected: tuple[str, ...], hits: tuple[ForbiddenHit, ...]) -> list[str]:
    reasons = [f"missed-point:{p.id}" for p in points if not p.matched]
    reasons += forbidden_matches(sidecar, hits)
    if sidecar.expect_empty and proposals:
        reasons.append("non-empty-where-empty")
    if len(unexpected) > sidecar.max_unexpected_proposals:
        reasons.append(f"phantom-over-budget:{len(unexpected)}>{sidecar.max_unexpected_proposals}")
    return reasons


def verdict(sidecar: Sidecar, reasons: list[str]) -> str:
    """For a valid result. A fixture that expects output but names no point cannot tell a good
    output from a bad one (every proposal is a phantom there): UNCHECKED, whatever the reasons."""
    if not sidecar.expect_empty and not sidecar.points:
        return UNCHECKED
    return FAIL if reasons else PASS


def invalid_sidecar_score(fixture_id: str, categories: list[str], problem: str | None) -> FixtureScore:
    reason = f"{SIDECAR_INVALID}:{problem}" if problem else SIDECAR_INVALID
    category = category_from_name(fixture_id, categories) or UNKNOWN_CATEGORY
    return FixtureScore(fixture_id, category, FAIL, (reason,), (), (), (), (),
                        None, SIDECAR_INVALID)


def score_fixture(sidecar: Sidecar, result: ResultFile, transcript: str | None) -> FixtureScore:
    """Score one fixture with a schema-valid sidecar (rules 2-6 of docs/scoring.md)."""
    from corpustools.score.advisories import advisory  # advisories builds on this module

    fixture_id = result.fixture_id
    if result.status in (MISSING, INVALID):
        points, optional = (tuple(PointScore(p.id, p.type, False, ()) for p in listed)
                            for listed in (sidecar.points, sidecar.optional_points))
        reason = MISSING_RESULT if result.status == MISSING else f"{INVALID_RESULT}:{result.error}"
        status = MISSING_RESULT if result.status == MISSING else INVALID_RESULT
        return FixtureScore(fixture_id, sidecar.category, FAIL, (reason,), (), points, (), (), sidecar.expect_empty,
                            status, optional)
    output = result.output
    assert output is not None  # an ok result holds its schema-valid output
    proposals = read_proposals(output)
    evidence = point_evidence(sidecar, proposals)
    points, optional = (tuple(point_score(e) for e in evidence if e.optional == wanted) for wanted in (False, True))
    unexpected = unexpected_proposals(sidecar, proposals, points + optional)
    hits = forbidden_hits(sidecar, proposals)
    reasons = fixture_reasons(sidecar, proposals, points, unexpected, hits)
    advisories = advisory(sidecar, proposals, points, output, transcript)
    return FixtureScore(fixture_id, sidecar.category, verdict(sidecar, reasons), tuple(reasons), tuple(advisories),
                        points, proposals, unexpected, sidecar.expect_empty, OK, optional, evidence, hits)
