"""The score report as plain text, for a terminal: the verdict line and the failing fixtures with
their evidence first, then the plain sections (no <details>: a terminal cannot fold)."""

from __future__ import annotations

from corpustools.io.positions import printable_lines
from corpustools.score.aggregate import METRICS, PROPORTIONS
from corpustools.score.drilldown import proposals_text, reasons_text
from corpustools.score.formatting import (
    f1_text,
    fraction,
    manifest_fields,
    metric_number,
    metric_spread,
    percent,
    phantom_count,
    proportion,
    repeated_verdict_parts,
    run_value,
    verdict_parts,
)
from corpustools.score.reasons import Verdict
from corpustools.score.scoring import RunScore, ScoreReport, label_lines


def failing_lines(fixture, indent: str) -> list[str]:
    lines = reasons_text(fixture, indent)
    if fixture.proposals:
        lines += [f"{indent}proposals:"] + proposals_text(fixture, indent + "  ")
    return lines


def failing_section(report: ScoreReport) -> list[str]:
    """Fixtures that failed in any run, with each failing run's reasons, evidence and proposals."""
    runs = report.runs
    several = len(runs) > 1
    failing = [i for i, f in enumerate(runs[0].fixtures) if any(run.fixtures[i].verdict is not Verdict.PASS for run in runs)]
    if not failing:
        return ["every fixture passed" + (" in every run" if several else "")]
    lines = [f"failing fixtures ({len(failing)} of {len(runs[0].fixtures)}"
             + (" failed in at least one run):" if several else "):")]
    for i in failing:
        first = runs[0].fixtures[i]
        if not several:
            lines += [f"  {first.id} ({first.category}): {first.verdict}"] + failing_lines(first, "    ")
            continue
        passed = sum(run.fixtures[i].verdict is Verdict.PASS for run in runs)
        lines.append(f"  {first.id} ({first.category}): passed in {passed}/{len(runs)} runs")
        lines += across_runs_text(runs, i, "    ")
    return lines


def across_runs_text(runs, index: int, indent: str) -> list[str]:
    """Fixture `index` in each run: its verdict, and its reasons, evidence and proposals where it failed."""
    lines = []
    for number, run in enumerate(runs, 1):
        fixture = run.fixtures[index]
        lines.append(f"{indent}run {number} ({run.folder}): {fixture.verdict}")
        if fixture.verdict is not Verdict.PASS:
            lines += failing_lines(fixture, indent + "  ")
    return lines


def manifest_lines(run: RunScore, indent: str = "") -> list[str]:
    """How the run was produced (run.yaml), one `label: value` line each."""
    return [f"{indent}{label}: {' '.join(value.split())}" for label, value in manifest_fields(run.manifest)]


def run_lines(run: RunScore) -> list[str]:
    lines = [f"results: {run.folder}"] + manifest_lines(run) + [""]
    width = max((len(f.id) for f in run.fixtures), default=0)
    lines.append("fixtures:")
    for f in run.fixtures:
        lines.append(f"  {f.verdict:<9} {f.id:<{width}}  {f.category}")
        lines += [f"            diagnostic: {d}" for d in f.advisories]
    lines += ["", "categories:"]
    lines += [f"  {c.category}: {c.passed}/{c.total}" for c in run.categories]
    a = run.aggregate
    lines += ["", "aggregate:"]
    lines += [f"  {label}: {proportion(getattr(a, attr))}" for attr, label in PROPORTIONS]
    if a.optional_points_total:
        lines.append(f"  optional points matched (never in recall): {fraction(a.optional_matched)}")
    lines += precision_lines(a)
    lines += [f"  phantoms: {a.phantoms if a.phantoms_apply else 'n/a (text answers)'}",
              f"  fixtures failed: {a.fixtures_failed}",
              f"  fixtures unchecked: {a.fixtures_unchecked}", f"  missing results: {a.missing_results}"]
    lines += [f"  unreadable results: {a.unreadable_results}"] if a.unreadable_results else []
    lines += [f"  invalid results: {a.invalid_results}", f"  invalid sidecars: {a.invalid_sidecars}"]
    lines += ["", "failure taxonomy:"] + ([f"  {kind}: {count}" for kind, count in run.taxonomy] or ["  none"])
    return lines


def precision_lines(a) -> list[str]:
    """Precision and F1 overall and per item type; accuracy per declared field."""
    lines = [f"  precision (items matching a point): {proportion(a.precision)}", f"  F1: {f1_text(a.f1)}"]
    lines += [f"  {t.type}: recall {proportion(t.recall)}; precision {proportion(t.precision)}; F1 {f1_text(t.f1)}"
              for t in a.types]
    lines += [f"  field {f.pointer}: {proportion(f.accuracy)}" for f in a.fields]
    return lines


def repeated_lines(report: ScoreReport) -> list[str]:
    s = report.repeated
    assert s is not None  # callers ask only when there are two or more runs
    lines = [f"repeated runs (k = {s.runs}):"]
    for i, run in enumerate(report.runs, 1):
        a = run.aggregate
        lines.append(f"  run {i}: passed {fraction(a.pass_rate)}, recall {fraction(a.recall)}, "
                     f"precision {fraction(a.precision)}, {phantom_count(a)}, "
                     f"gate accuracy {fraction(a.gate_accuracy)}, false rejects {a.false_rejects}"
                     + (f", optional points matched {fraction(a.optional_matched)}" if a.optional_points_total else ""))
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
    runs = report.runs
    if len(runs) == 1:
        head, rest = verdict_parts(runs[0].aggregate)
    else:
        head, rest = repeated_verdict_parts(report.repeated, [run.aggregate for run in runs])
    lines = [f"{head} {rest}"]
    lines += [f"WARNING: CORPUS DRIFT: {run.drift}" for run in runs if run.drift]
    lines += [f"WARNING: MIXED RUNS (--allow-mixed): {line}: the means and the noise floor pool them"
              for line in report.mixed]
    lines += list(label_lines(runs))
    if report.repeated is not None:
        lines += [f"WARNING: {a} and {b} have byte-identical result files: a cache, not an independent run"
                  for a, b in report.repeated.identical]
    lines += [f"warning: {w}" for w in report.corpus_warnings + tuple(w for run in runs for w in run.warnings)]
    lines += [""] + failing_section(report) + [""]
    version = "unknown" if c.version is None else str(c.version)
    lines += [f"corpustools score: {c.name}, version {version}", f"corpus: {c.path} (sha256 {c.sha256})"]
    for i, run in enumerate(runs, 1):
        lines += [""] + ([f"== run {i} =="] if len(runs) > 1 else []) + run_lines(run)
    if report.repeated is not None:
        lines += [""] + repeated_lines(report)
    return printable_lines(lines)
