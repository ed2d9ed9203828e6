"""The score and compare reports as JSON (schemas: `corpustools schema score-report`,
`corpustools schema compare-report`). Keys are written in a fixed order, floats at fixed precision."""

from __future__ import annotations

from corpustools.reporting.formatting import corpus_dict, dumps, proportion_dict, public_manifest, rounded
from corpustools.score.aggregate import PROPORTIONS, Aggregate
from corpustools.score.evidence import ForbiddenHit, PointEvidence
from corpustools.score.fixture import FixtureScore
from corpustools.score.match import FieldScore, PointScore
from corpustools.score.report.drilldown import reason_details
from corpustools.score.scoring import RunScore, ScoreReport


def point_dict(p: PointScore, evidence: PointEvidence | None) -> dict:
    """A point, and its item_fields against its closest item (the one that matched it, for a
    matched point; none without an item of its type)."""
    closest = evidence.closest if evidence is not None else None
    return {"id": p.id, "type": p.type, "matched": p.matched, "matched_by": list(p.matched_by),
            "item_fields": [{"field": c.field, "expected": list(c.expected), "got": c.got if c.present else None,
                             "matched": c.matched} for c in (closest.fields if closest is not None else ())]}


def _evidence_of(f: FixtureScore, *, optional: bool) -> list[PointEvidence | None]:
    """The evidence of the fixture's expected (or optional) points, in their order; None for each
    when the result was not read."""
    found: list[PointEvidence | None] = [e for e in f.evidence if e.optional == optional]
    return found or [None] * len(f.optional_points if optional else f.points)


def fixture_dict(f: FixtureScore) -> dict:
    return {
        "id": f.id, "category": f.category, "verdict": f.verdict.value, "status": f.status.value, "expect_empty": f.expect_empty,
        "reasons": [str(r) for r in f.reasons], "diagnostics": [str(d) for d in f.advisories],
        "points": [point_dict(p, e) for p, e in zip(f.points, _evidence_of(f, optional=False), strict=True)],
        "proposals": [{"name": p.name, "type": p.type, "title": p.title} for p in f.proposals],
        "unexpected": list(f.unexpected),
        "optional_points": [point_dict(p, e) for p, e in zip(f.optional_points, _evidence_of(f, optional=True), strict=True)],
        "missed": [missed_dict(d.missed) for d in reason_details(f) if d.missed is not None],
        "forbidden": [forbidden_dict(h) for h in f.forbidden],
        "fields": [field_dict(field) for field in f.fields],
    }


def forbidden_dict(hit: ForbiddenHit) -> dict:
    """Where a must_not_match entry was found; a forbidden combination's hit also names the part
    found in that field (`part`), one hit per (part, field)."""
    data = {"point": hit.point_id, "term": hit.term, "proposal": hit.proposal, "field": hit.field}
    if hit.part:
        data = {"point": hit.point_id, "term": hit.term, "part": hit.part, "proposal": hit.proposal, "field": hit.field}
    return data


def field_dict(field: FieldScore) -> dict:
    """A pinned field: the acceptable values, what the result holds there (null and `present`
    false when it holds nothing, or was not read) and whether they agree."""
    return {"field": field.pointer, "expected": list(field.expected), "got": field.got if field.present else None,
            "present": field.present, "matched": field.matched}


def missed_dict(point: PointEvidence) -> dict:
    """A missed expected point and its closest same-type proposal (null when there is none)."""
    closest = point.closest
    return {"point": point.point_id, "type": point.type,
            "closest": None if closest is None else {"proposal": closest.proposal, "title": closest.title,
                                                     "absent": list(closest.absent)}}


def aggregate_dict(run: RunScore) -> dict:
    a = run.aggregate
    data = {key: getattr(a, key) for key in (
        "fixtures_passed", "fixtures_failed", "fixtures_unchecked", "fixtures_total", "points_matched",
        "points_total", "phantoms", "gate_correct", "gate_total", "false_rejects", "expecting_output",
        "missing_results", "unreadable_results", "invalid_results", "invalid_sidecars", "optional_points_matched",
        "optional_points_total")}
    for key, _ in PROPORTIONS:
        data[key] = proportion_dict(getattr(a, key))
    # invalid apart from wrong: the strict figures above, and each over the valid results
    data.update({"points_not_judged": a.points_not_judged, "gate_not_judged": a.gate_not_judged,
                 "recall_valid_only": proportion_dict(a.recall_valid_only),
                 "gate_accuracy_valid_only": proportion_dict(a.gate_accuracy_valid_only)})
    if not a.phantoms_apply:
        data["phantoms"] = None  # a text answer is right or wrong, never a phantom
    data.update(precision_dict(a))
    return data


def precision_dict(a: Aggregate) -> dict:
    """Precision and F1 overall and per item type, and accuracy per declared field."""
    return {
        "items_matching": a.items_matching, "items_total": a.items_total,
        "precision": proportion_dict(a.precision), "f1": rounded(a.f1),
        "types": [{"type": t.type, "points_matched": t.points_matched, "points_total": t.points_total,
                   "items_matching": t.items_matching, "items_total": t.items_total,
                   "recall": proportion_dict(t.recall), "points_not_judged": t.points_not_judged,
                   "recall_valid_only": proportion_dict(t.recall_valid_only), "precision": proportion_dict(t.precision),
                   "f1": rounded(t.f1)}
                  for t in a.types],
        "fields": [{"field": f.pointer, "matched": f.matched, "pinned": f.pinned,
                    "accuracy": proportion_dict(f.accuracy), "invalid": f.invalid,
                    "accuracy_valid_only": proportion_dict(f.accuracy_valid_only)} for f in a.fields],
    }


def run_dict(run: RunScore) -> dict:
    return {
        "results": run.folder,
        "run": public_manifest(run.manifest),
        "corpus_drift": run.drift,
        "labels_revised": run.labels,
        "fixtures_added": list(run.added),
        "warnings": list(run.warnings),
        "fixtures": [fixture_dict(f) for f in run.fixtures],
        "categories": [{"category": c.category, "passed": c.passed, "total": c.total} for c in run.categories],
        "aggregate": aggregate_dict(run),
        "taxonomy": [{"reason": kind, "count": count} for kind, count in run.taxonomy],
    }


def repeated_dict(report: ScoreReport) -> dict:
    s = report.repeated
    assert s is not None  # callers ask only when there are two or more runs
    stability = s.stability
    return {
        "runs": s.runs,
        "metrics": [{"metric": m.key, "values": [rounded(v) for v in m.values], "mean": rounded(m.mean),
                     "std": rounded(m.std)} for m in s.spread],
        "fixtures": [{"id": f.id, "category": f.category, "passed": f.passed, "runs": f.runs, "flaky": f.flaky}
                     for f in s.fixtures],
        "flaky": [f.id for f in s.flaky],
        "points": [{"fixture": p.fixture_id, "point": p.point_id, "matched": p.matched, "runs": p.runs}
                   for p in s.points],
        "stability": {"matched_every_run": stability.successes, "matched_at_least_once": stability.total,
                      "rate": rounded(stability.rate)},
        "identical_runs": [list(pair) for pair in s.identical],
    }


def render(report: ScoreReport) -> str:
    if len(report.runs) == 1:
        data = {"corpus": corpus_dict(report.corpus), "corpus_warnings": list(report.corpus_warnings)}
        data.update(run_dict(report.runs[0]))
    else:
        data = {"corpus": corpus_dict(report.corpus), "corpus_warnings": list(report.corpus_warnings),
                "mixed_runs": list(report.mixed), "runs": [run_dict(run) for run in report.runs],
                "repeated": repeated_dict(report)}
    return dumps(data)
