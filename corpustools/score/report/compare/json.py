"""The comparison as JSON (schema: `corpustools schema compare-report`). Keys are written in a fixed
order, floats at fixed precision; each side's runs as the score report's JSON writes them."""

from __future__ import annotations

from corpustools.reporting.formatting import corpus_dict, dumps, public_manifest, rounded
from corpustools.score.aggregate import METRICS
from corpustools.score.compare import Comparison
from corpustools.score.report.json import aggregate_dict


def render(comparison: Comparison) -> str:
    def side(runs):
        return [{"results": r.folder, "run": public_manifest(r.manifest), "aggregate": aggregate_dict(r)} for r in runs]

    rate = {m.key: m.is_rate for m in METRICS}
    data = {
        "corpus_drift_allowed": list(comparison.drift),
        "labels_revised": list(comparison.labels_revised),
        "fixtures_added": list(comparison.fixtures_added),
        "corpus": corpus_dict(comparison.corpus),
        "corpus_warnings": list(comparison.corpus_warnings),
        "headline": comparison.headline_text,
        "verdict": comparison.headline.value,
        "blocking": list(comparison.blocking),
        "lost": [f.id for f in comparison.lost],
        "gained": [f.id for f in comparison.gained],
        "regressed": comparison.regressed,
        "regressed_because": list(comparison.regressed_because),
        "improved_because": list(comparison.improved_because),
        "base": side(comparison.base),
        "candidate": side(comparison.candidate),
        "fixtures": [{"id": f.id, "category": f.category, "base": [v.value for v in f.base],
                      "candidate": [v.value for v in f.candidate],
                      "base_pass_share": rounded(float(f.base_share)),
                      "candidate_pass_share": rounded(float(f.candidate_share)), "transition": f.transition.value}
                     for f in comparison.fixtures],
        "points": [{"fixture": p.fixture_id, "point": p.point_id, "base_matched": p.base_matched,
                    "base_runs": p.base_runs, "candidate_matched": p.candidate_matched,
                    "candidate_runs": p.candidate_runs, "transition": p.transition.value} for p in comparison.points],
        "metrics": [{"metric": m.metric.key, "is_rate": rate[m.metric.key], "base": rounded(m.base),
                     "candidate": rounded(m.candidate), "delta": rounded(m.delta), "direction": m.direction.value,
                     "base_std": rounded(m.base_std), "candidate_std": rounded(m.candidate_std),
                     "noise": m.noise.value if m.noise is not None else None,
                     "blocking": m.metric.key in comparison.blocking}
                    for m in comparison.metrics],
        "mcnemar": {"b": comparison.paired.b, "c": comparison.paired.c, "fixtures": comparison.paired.fixtures,
                    "p_value": rounded(comparison.paired.p_value, 6), "flips_needed": comparison.paired.flips_needed},
    }
    return dumps(data)
