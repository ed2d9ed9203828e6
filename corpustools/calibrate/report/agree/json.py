"""The agreement report as JSON (schema: `corpustools schema agreement-report`). Keys in a fixed
order, statistics rounded to 4 decimals, `null` beside the reason when a statistic is undefined."""

from __future__ import annotations

from corpustools.calibrate.agree import LEVELS, Agreement, LevelAgreement, PairAgreement, Side
from corpustools.calibrate.agreement import Coefficient
from corpustools.calibrate.report.agree.markdown import table_rows
from corpustools.reporting.formatting import corpus_dict, dumps, proportion_dict, rounded


def coefficient_dict(c: Coefficient) -> dict:
    return {"value": rounded(c.value), "low": rounded(c.low), "high": rounded(c.high), "undefined": c.undefined}


def level_dict(level: LevelAgreement) -> dict:
    agreement = proportion_dict(level.percent)
    data = {"agreed": agreement["successes"], "total": agreement["total"], "rate": agreement["rate"],
            "low": agreement["low"], "high": agreement["high"], "ac1": coefficient_dict(level.ac1),
            "kappa": coefficient_dict(level.kappa), "alpha": coefficient_dict(level.alpha)}
    # the counts, rows the first rater: a yes/no level's 2x2; proposal classes by kind (point:<id>
    # as point), with how many diagonal pairs named two different points of one kind
    categories, counts, other_point = table_rows(level)
    data["table"] = {"categories": list(categories), "counts": [list(row) for row in counts]}
    if level.level.answers is None:
        data["table"]["other_point"] = other_point
    return data


def side_dict(side: Side) -> dict:
    return {"worksheet": side.worksheet, "rater": side.rater, "reconciled": list(side.reconciled)}


def pair_dict(pair: PairAgreement) -> dict:
    return {"first": side_dict(pair.first), "second": side_dict(pair.second), "results": pair.results,
            "prompt": pair.prompt, "fixtures": pair.fixtures, "left_out": list(pair.left_out),
            "agreement": {level.key: level_dict(pair.level(level.key)) for level in LEVELS}}


def render(agreement: Agreement) -> str:
    threshold = agreement.threshold
    return dumps({
        "corpus": corpus_dict(agreement.corpus),
        "raters": list(agreement.raters),
        "levels": [{"level": level.key, "label": level.label,
                    "answers": None if level.answers is None else list(level.answers)} for level in LEVELS],
        "agreement": {level.key: level_dict(agreement.level(level.key)) for level in LEVELS},
        "threshold": None if threshold is None else threshold.as_dict(),
        "gates": [{"level": g.level, "statistic": g.statistic, "min": g.min, "value": rounded(g.value),
                   "undefined": g.undefined, "passed": g.passed} for g in agreement.gates],
        "pairs": [pair_dict(pair) for pair in agreement.pairs],
        "disagreements": [{
            "pair": d.pair, "fixture": d.fixture, "category": d.category,
            "first": {"verdict": d.first_verdict, "why": d.first_why},
            "second": {"verdict": d.second_verdict, "why": d.second_why},
            "answers": [{"level": a.level, "item": a.item, "title": a.title, "first": a.first, "second": a.second}
                        for a in d.answers],
        } for d in agreement.disagreements],
        "warnings": list(agreement.warnings),
    })
