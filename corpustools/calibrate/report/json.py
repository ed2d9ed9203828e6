"""The calibration report as JSON (schema: `corpustools schema calibration-report`). Keys in a
fixed order, rates and kappa rounded to 4 decimals (null when undefined)."""

from __future__ import annotations

from corpustools.calibrate.agreement import LEVELS, Table
from corpustools.calibrate.calibration import Calibration, RunCalibration
from corpustools.reporting.formatting import corpus_dict, dumps, proportion_dict, rounded


def table_dict(table: Table) -> dict:
    agreement = proportion_dict(table.agreement)
    return {"agreed": agreement["successes"], "total": agreement["total"], "rate": agreement["rate"],
            "low": agreement["low"], "high": agreement["high"], "kappa": rounded(table.kappa),
            "table": {"scorer_yes_human_yes": table.both_yes, "scorer_yes_human_no": table.scorer_only,
                      "scorer_no_human_yes": table.human_only, "scorer_no_human_no": table.both_no}}


def agreement_dict(source) -> dict:
    return {level.key: table_dict(source.table(level.key)) for level in LEVELS}


def run_dict(run: RunCalibration) -> dict:
    return {
        "results": run.results,
        "verdicts": run.verdicts,
        "prompt": None if run.prompt is None else run.prompt.identity(),
        "shows_terms": run.shows_terms,
        "rater": run.rater,
        "reconciled": list(run.reconciled),
        "held_out": run.held_out,
        "revision_why": run.revision_why or None,
        "warnings": list(run.warnings),
        "agreement": agreement_dict(run),
        "fixtures": [{
            "id": f.fixture_id, "category": f.category, "scorer_verdict": f.scorer_verdict.value,
            "human_verdict": f.human_verdict.value, "verdicts_agree": f.verdicts_agree, "why": f.why,
            "disagreements": [{"cause": d.cause, "levels": list(d.levels), "point": d.point, "proposal": d.proposal,
                               "proposal_title": d.proposal_title, "detail": d.detail} for d in f.disagreements],
        } for f in run.fixtures],
    }


def render(calibration: Calibration) -> str:
    return dumps({
        "corpus": corpus_dict(calibration.corpus),
        "corpus_warnings": list(calibration.corpus_warnings),
        "levels": [{"level": level.key, "label": level.label, "scorer_yes": level.scorer_yes,
                    "human_yes": level.human_yes, "primary": level.primary} for level in LEVELS],
        "agreement": agreement_dict(calibration),
        "headline": {"held_out_only": bool(calibration.held_out),
                     "agreement": {level.key: table_dict(calibration.headline_table(level.key)) for level in LEVELS}},
        "causes": [{"cause": cause, "count": count} for cause, count in calibration.cause_counts],
        "runs": [run_dict(run) for run in calibration.runs],
    })
