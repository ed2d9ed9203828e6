"""The score report as plain text, for a terminal."""

from __future__ import annotations

from corpustools.positions import printable_lines
from corpustools.score.aggregate import METRICS, PROPORTIONS
from corpustools.score.formatting import (
    fraction,
    manifest_fields,
    metric_number,
    metric_spread,
    percent,
    proportion,
    run_value,
)
from corpustools.score.scoring import RunScore, ScoreReport


def run_lines(run: RunScore) -> list[str]:
    lines = [f"WARNING: CORPUS DRIFT: {run.drift}"] if run.drift else []
    lines.append(f"results: {run.folder}")
    lines += [f"{label}: {' '.join(value.split())}" for label, value in manifest_fields(run.manifest)]
    lines += [f"warning: {w}" for w in run.warnings]
    lines.append("")
    width = max((len(f.id) for f in run.fixtures), default=0)
    for f in run.fixtures:
        lines.append(f"{f.verdict:<9} {f.id:<{width}}  {f.category}")
        lines += [f"          reason: {r}" for r in f.reasons]
        lines += [f"          diagnostic: {d}" for d in f.advisories]
    lines += ["", "categories:"]
    lines += [f"  {c.category}: {c.passed}/{c.total}" for c in run.categories]
    a = run.aggregate
    lines += ["", "aggregate:"]
    lines += [f"  {label}: {proportion(getattr(a, attr))}" for _, label, attr in PROPORTIONS]
    if a.optional_points_total:
        lines.append(f"  optional points matched (never in recall): {fraction(a.optional_matched)}")
    lines += [f"  phantoms: {a.phantoms}", f"  fixtures failed: {a.fixtures_failed}",
              f"  fixtures unchecked: {a.fixtures_unchecked}", f"  missing results: {a.missing_results}",
              f"  invalid results: {a.invalid_results}", f"  invalid sidecars: {a.invalid_sidecars}"]
    lines += ["", "failure taxonomy:"] + ([f"  {kind}: {count}" for kind, count in run.taxonomy] or ["  none"])
    return lines


def repeated_lines(report: ScoreReport) -> list[str]:
    s = report.repeated
    lines = [f"repeated runs (k = {s.runs}):"]
    lines += [f"WARNING: {a} and {b} have byte-identical result files: a cache, not an independent run"
              for a, b in s.identical]
    for metric in METRICS:
        spread = s.spread_of(metric.key)
        lines.append(f"  {metric.label}: mean {metric_number(spread.mean, metric.is_rate)}, sample std "
                     f"{metric_spread(spread.std, metric.is_rate)} "
                     f"(per run: {', '.join(run_value(v, metric.is_rate) for v in spread.values)})")
    lines += [f"  flaky: {f.id} passed in {f.passed}/{f.runs}" for f in s.flaky] or ["  flaky: none"]
    stability = s.stability
    lines.append(f"  point stability: {stability.successes} of {stability.total} points matched at least once were "
                 f"matched in every run ({percent(stability.rate)})")
    lines += [f"  point {p.fixture_id}:{p.point_id} matched in {p.matched}/{p.runs}" for p in s.points]
    return lines


def score_text(report: ScoreReport) -> str:
    c = report.corpus
    version = "unknown" if c.version is None else str(c.version)
    lines = [f"corpustools score: {c.name}, version {version}", f"corpus: {c.path} (sha256 {c.sha256})"]
    lines += [f"warning: {w}" for w in report.corpus_warnings]
    for i, run in enumerate(report.runs, 1):
        lines += [""] + ([f"== run {i} =="] if len(report.runs) > 1 else []) + run_lines(run)
    if report.repeated is not None:
        lines += [""] + repeated_lines(report)
    return printable_lines(lines)
