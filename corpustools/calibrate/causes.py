"""One fixture, scorer against human: the pairs each agreement level counts, and every
disagreement with the label change that would remove it (docs/calibration.md, "Causes")."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from corpustools.calibrate.answers import JudgedFixture
from corpustools.calibrate.worksheet import DURABLE_UNLABELED
from corpustools.model.contract import Item
from corpustools.model.sidecar import ExpectedPoint, Sidecar, TermEntry
from corpustools.model.status import FixtureStatus
from corpustools.score.advisories import close_wording
from corpustools.score.evidence import PointEvidence, proposal_evidence
from corpustools.score.fixture import FixtureScore
from corpustools.score.match import PointScore
from corpustools.score.reasons import ReasonKind, Verdict

BRITTLE, LOOSE, NARROW = "brittle-term", "loose-term", "label-too-narrow"
MISSING_FORBIDDEN, OVER_FORBIDDEN, BUDGET, UNEXPLAINED = ("missing-forbidden", "over-forbidden", "budget",
                                                          "unexplained")
# Every cause, in report order, with the label change it asks for.
CAUSES = (
    (BRITTLE, "the human saw the point, the matcher missed it: a must_match_all term is absent from that wording"),
    (LOOSE, "the matcher counted a point the human did not see: its terms also fit other content"),
    (NARROW, "a proposal the human accepts as durable matches no point: add an optional point"),
    (MISSING_FORBIDDEN, "the human saw task detail leak; no must_not_match term fired: add one"),
    (OVER_FORBIDDEN, "a must_not_match term fired but the human saw no leak: narrow or drop it"),
    (BUDGET, "the classes agree but the verdict does not: revisit max_unexpected_proposals"),
    (UNEXPLAINED, "the verdicts differ for a reason none of the above covers: read the human's why"),
)


@dataclass(frozen=True)
class Disagreement:
    cause: str
    levels: tuple[str, ...]  # the agreement levels it shows at: fixture, point, optional, proposal, leak
    point: str | None
    proposal: str | None
    detail: str
    proposal_title: str | None = None  # the proposal's title, so a reader knows which one without the output


@dataclass(frozen=True)
class FixtureCalibration:
    fixture_id: str
    category: str
    scorer_verdict: Verdict
    human_verdict: Verdict  # PASS | FAIL
    why: str
    points: tuple[tuple[str, bool, bool], ...]  # (expected point id, scorer matched, human captured)
    optional: tuple[tuple[str, bool, bool], ...]
    proposals: tuple[tuple[str, bool, bool], ...]  # (name, scorer phantom, human over-extraction)
    disagreements: tuple[Disagreement, ...]

    @property
    def verdicts_agree(self) -> bool:
        return (self.scorer_verdict is Verdict.PASS) == (self.human_verdict is Verdict.PASS)


def _quoted(terms) -> str:
    return ", ".join(f"'{t}'" for t in terms)


def _capturing(point: ExpectedPoint, evidence: PointEvidence | None, score: FixtureScore,
               judged: JudgedFixture) -> Item | None:
    """The proposal the human classed as carrying `point`; else the scorer's closest one
    (PointEvidence.closest: what the score report's drill-down names too)."""
    named = [p for p in score.proposals if (j := judged.proposal(p.name)) and j.point_id == point.id]
    if named:
        return named[0]
    closest = evidence.closest if evidence is not None else None
    return next((p for p in score.proposals if closest is not None and p.name == closest.proposal), None)


def _brittle(point: ExpectedPoint, proposal: Item | None, levels: tuple[str, ...]) -> Disagreement:
    if proposal is None:
        return Disagreement(BRITTLE, levels, point.id, None, f"the output has no {point.type} proposal to carry it")
    evidence = proposal_evidence(proposal, point)
    absent, wrong = evidence.absent, evidence.wrong_fields
    details = [f"terms absent from {proposal.name}: {_quoted(absent)}"] if absent else []
    details += [f"{proposal.name}'s {c.field} is {json.dumps(c.got, ensure_ascii=False) if c.present else 'absent'}, "
                f"item_fields expects {' or '.join(json.dumps(v, ensure_ascii=False) for v in c.expected)}"
                for c in wrong]
    detail = "; ".join(details) or "every term is present"
    detail += "".join(_alternative(entry, proposal) for entry in point.must_match_all if entry.text in absent)
    if proposal.type != point.type:
        detail = f"{proposal.name} is a {proposal.type} and the point a {point.type}; " + detail
    return Disagreement(BRITTLE, levels, point.id, proposal.name, detail)


def _alternative(entry: TermEntry, proposal: Item) -> str:
    """`; practice[0] says 'trackingsync': write the entry as [tracking sync, trackingsync]` when
    the proposal states an absent entry in a close variant of one of its terms (the wording a
    near-miss flags), else ``: the alternative that would let the label accept that wording."""
    for term in entry.terms:
        wording = close_wording(term.text, proposal)
        if wording is not None:
            written = ", ".join((*entry.texts, wording))
            return f"; {proposal.name} says '{wording}': write the entry as [{written}]"
    return ""


def _held(point: ExpectedPoint, name: str) -> str:
    """`every term is found in x ('a', 'b')`, and `x holds its item_fields (dose)` for a point that
    has them: what made the scorer count the point."""
    said = [f"every term is found in {name} ({_quoted(t.text for t in point.must_match_all)})"] \
        if point.must_match_all else []
    if point.item_fields:
        said.append(f"{name} holds its item_fields ({', '.join(f.name for f in point.item_fields)})")
    return " and ".join(said)


_NOT_READ = {status: f"the result is {words} ({status}), so the scorer read no proposal from it and judged none "
                     "of its points: a format failure, which no label change fixes"
             for status, words in ((FixtureStatus.INVALID_RESULT, "invalid"),
                                   (FixtureStatus.UNREADABLE_RESULT, "unreadable"))}


def _point_disagreements(points: tuple[ExpectedPoint, ...], scores: tuple[PointScore, ...], level: str,
                         score: FixtureScore, judged: JudgedFixture) -> list[Disagreement]:
    # The scorer's evidence, point by point in sidecar order; none for a missing or invalid result.
    evidence: list[PointEvidence | None] = [e for e in score.evidence if e.optional == (level == "optional")]
    evidence = evidence or [None] * len(points)
    out = []
    for point, matched, checked in zip(points, scores, evidence, strict=True):
        captured = judged.captured.get(point.id)
        if captured is None or captured == matched.matched:
            continue
        if captured and score.status in _NOT_READ:
            # the human judged the answer's content; the scorer could not read it, so no term is at fault
            out.append(Disagreement(BRITTLE, (level,), point.id, None, _NOT_READ[score.status]))
        elif captured:
            out.append(_brittle(point, _capturing(point, checked, score, judged), (level,)))
        else:
            out += [Disagreement(LOOSE, (level,), point.id, name, f"{_held(point, name)}; the human says the "
                                 "point is not captured") for name in matched.matched_by]
    return out


def _proposal_disagreements(sidecar: Sidecar, score: FixtureScore, judged: JudgedFixture) -> list[Disagreement]:
    out = []
    by_id = {p.id: p for p in sidecar.all_points}
    counted = {name: [s.id for s in score.points + score.optional_points if name in s.matched_by]
               for name in (p.name for p in score.proposals)}
    for proposal in score.proposals:
        human = judged.proposal(proposal.name)
        phantom = proposal.name in score.unexpected
        if human is None or phantom == human.over_extraction:
            continue
        if not phantom:
            out += [Disagreement(LOOSE, ("proposal",), point_id, proposal.name,
                                 f"{proposal.name} counts for {point_id}; the human classed it over-extraction")
                    for point_id in counted[proposal.name]]
        elif human.point_id in by_id and not sidecar.expect_empty:
            out.append(_brittle(by_id[human.point_id], proposal, ("proposal",)))
        else:
            if human.cls == DURABLE_UNLABELED:
                what = "the human classed it durable-unlabeled"
            elif sidecar.expect_empty:
                what = f"the human classed it {human.cls}, on a fixture whose labels expect empty output"
            else:
                what = f"the human classed it {human.cls}, a point the sidecar no longer has"
            out.append(Disagreement(NARROW, ("proposal",), None, proposal.name, f"a phantom to the scorer; {what}"))
    return out


def _leak_disagreements(score: FixtureScore, judged: JudgedFixture) -> list[Disagreement]:
    fired = [(r.point_id, r.term) for r in score.reasons if r.kind is ReasonKind.FORBIDDEN_MATCH]
    if judged.leak and not fired:
        why = f" (why: {judged.why})" if judged.why else ""
        return [Disagreement(MISSING_FORBIDDEN, ("leak",), None, None,
                             "the human saw a task-detail leak; no must_not_match term fired" + why)]
    if fired and not judged.leak:
        return [Disagreement(OVER_FORBIDDEN, ("leak",), point_id, None,
                             f"must_not_match '{term}' of {point_id} fired; the human saw no leak")
                for point_id, term in fired]
    return []


def _verdict_disagreement(sidecar: Sidecar, score: FixtureScore, judged: JudgedFixture) -> Disagreement:
    over = sum(p.over_extraction for p in judged.proposals)
    budget = sidecar.max_unexpected_proposals
    human_pass = judged.verdict is Verdict.PASS
    why = f"; why: {judged.why}" if judged.why else "; the human gave no why"
    # The budget explains it only when there are over-extractions for it to tolerate or not.
    if human_pass == (over <= budget) or sidecar.expect_empty or over == 0:
        reasons = ", ".join(str(r) for r in score.reasons) or "no reasons"
        return Disagreement(UNEXPLAINED, ("fixture",), None, None,
                            f"scorer {score.verdict} ({reasons}), human {judged.verdict}{why}")
    return Disagreement(BUDGET, ("fixture",), None, None,
                        f"the human classed {over} proposal(s) over-extraction against max_unexpected_proposals "
                        f"{budget} and still said {judged.verdict}{why}")


def _merged(found: list[Disagreement], titles: dict[str, str]) -> tuple[Disagreement, ...]:
    """One entry per (cause, point, proposal), titled: a brittle term shows at the point level and
    again at the proposal level, and it is one thing to fix."""
    merged: dict[tuple, Disagreement] = {}
    for d in found:
        key = (d.cause, d.point, d.proposal)
        if key in merged:
            first = merged[key]
            levels = first.levels + tuple(level for level in d.levels if level not in first.levels)
            merged[key] = Disagreement(first.cause, levels, first.point, first.proposal, first.detail)
        else:
            merged[key] = d
    return tuple(replace(d, proposal_title=titles.get(d.proposal) if d.proposal is not None else None) for d in merged.values())


def calibrate_fixture(sidecar: Sidecar, score: FixtureScore, judged: JudgedFixture) -> FixtureCalibration:
    found = _point_disagreements(sidecar.points, score.points, "point", score, judged)
    found += _point_disagreements(sidecar.optional_points, score.optional_points, "optional", score, judged)
    found += _proposal_disagreements(sidecar, score, judged)
    found += _leak_disagreements(score, judged)
    agree = (score.verdict is Verdict.PASS) == (judged.verdict is Verdict.PASS)
    if not agree and not found:
        found.append(_verdict_disagreement(sidecar, score, judged))
    return FixtureCalibration(
        fixture_id=score.id,
        category=score.category,
        scorer_verdict=score.verdict,
        human_verdict=judged.verdict,
        why=judged.why,
        points=tuple((p.id, p.matched, judged.captured[p.id]) for p in score.points if p.id in judged.captured),
        optional=tuple((p.id, p.matched, judged.captured[p.id]) for p in score.optional_points
                       if p.id in judged.captured),
        proposals=tuple((p.name, p.name in score.unexpected, judgement.over_extraction)
                        for p in score.proposals if (judgement := judged.proposal(p.name)) is not None),
        disagreements=_merged(found, {p.name: p.title for p in score.proposals}),
    )
