"""The score report as Markdown, written to be pasted into a pull request."""

from __future__ import annotations

from corpustools.positions import printable_lines
from corpustools.score.aggregate import METRICS, PROPORTIONS
from corpustools.score.formatting import (
    code,
    fraction,
    interval,
    manifest_fields,
    metric_number,
    metric_spread,
    percent,
    proportion,
    run_value,
    table,
)
from corpustools.score.scoring import RunScore, ScoreReport


def summary_line(run: RunScore) -> str:
    a = run.aggregate
    return (f"**{fraction(a.pass_rate)} fixtures passed** ({percent(a.pass_rate.rate)}, "
            f"95% CI {interval(a.pass_rate)}); "
            f"recall {proportion(a.recall)}; {a.phantoms} phantom{'s' if a.phantoms != 1 else ''}; "
            f"gate accuracy {proportion(a.gate_accuracy)}; false rejects {fraction(a.false_reject_rate)}"
            + (f"; optional points matched {fraction(a.optional_matched)}." if a.optional_points_total else "."))


def drift_banner(run: RunScore) -> list[str]:
    if not run.drift:
        return []
    return [f"> **WARNING: CORPUS DRIFT.** {run.drift}. The score below judges these results against labels "
            "they were not produced for.", ""]


def corpus_rows(report: ScoreReport) -> list[list[str]]:
    c = report.corpus
    version = "unknown" if c.version is None else str(c.version)
    return [["corpus", f"{c.name}, version {version} ({code(c.path)})"], ["corpus sha256", code(c.sha256)]]


def run_rows(run: RunScore) -> list[list[str]]:
    return [["results", code(run.folder)]] + [[label, value] for label, value in manifest_fields(run.manifest)]


def warnings_block(warnings: tuple[str, ...]) -> list[str]:
    if not warnings:
        return []
    return ["**Warnings**", ""] + [f"- {w}" for w in warnings] + [""]


def fixture_table(run: RunScore) -> list[str]:
    rows = [[f.id, f.category, f"**{f.verdict}**" if f.verdict != "PASS" else f.verdict,
             ", ".join(code(r) for r in f.reasons)] for f in run.fixtures]
    return table(["fixture", "category", "verdict", "reasons"], rows)


def category_table(run: RunScore) -> list[str]:
    return table(["category", "passed", "total"], [[c.category, str(c.passed), str(c.total)] for c in run.categories])


def aggregate_table(run: RunScore) -> list[str]:
    a = run.aggregate
    rows = [[label, fraction(getattr(a, attr)), percent(getattr(a, attr).rate), interval(getattr(a, attr))]
            for _, label, attr in PROPORTIONS]
    if a.optional_points_total:
        rows.append(["optional points matched (never in recall)", fraction(a.optional_matched),
                     percent(a.optional_matched.rate), ""])
    rows += [["phantoms (unexpected proposals)", str(a.phantoms), "", ""],
             ["fixtures failed", str(a.fixtures_failed), "", ""],
             ["fixtures unchecked (expect output, list no points)", str(a.fixtures_unchecked), "", ""],
             ["missing results", str(a.missing_results), "", ""],
             ["invalid results", str(a.invalid_results), "", ""],
             ["invalid sidecars", str(a.invalid_sidecars), "", ""]]
    return table(["metric", "count", "rate", "95% interval (Wilson)"], rows)


def taxonomy_table(run: RunScore) -> list[str]:
    if not run.taxonomy:
        return ["No failures."]
    return table(["reason", "count"], [[code(kind), str(count)] for kind, count in run.taxonomy])


def advisories_table(run: RunScore) -> list[str]:
    rows = [[f.id, code(d)] for f in run.fixtures for d in f.advisories]
    if not rows:
        return ["None."]
    return table(["fixture", "diagnostic"], rows)


def run_sections(run: RunScore, level: str) -> list[str]:
    lines = warnings_block(run.warnings) + [summary_line(run), ""]
    for title, body in (("Fixtures", fixture_table(run)), ("Categories", category_table(run)),
                        ("Aggregate", aggregate_table(run)), ("Failure taxonomy", taxonomy_table(run)),
                        ("Advisory diagnostics (never change a verdict)", advisories_table(run))):
        lines += [f"{level} {title}", ""] + body + [""]
    return lines


def repeated_section(report: ScoreReport) -> list[str]:
    summary = report.repeated
    lines = [f"## Repeated runs (k = {summary.runs})", ""]
    for first, second in summary.identical:
        lines += [f"> **WARNING:** {code(first)} and {code(second)} have byte-identical result files: "
                  "a cache, not an independent run.", ""]
    rows = [[str(i), code(run.folder), fraction(run.aggregate.pass_rate), fraction(run.aggregate.recall),
             str(run.aggregate.phantoms), fraction(run.aggregate.gate_accuracy), str(run.aggregate.false_rejects)]
            for i, run in enumerate(report.runs, 1)]
    lines += ["### Per run", ""] + table(["run", "results", "passed", "recall", "phantoms", "gate accuracy",
                                          "false rejects"], rows) + [""]
    rows = []
    for metric in METRICS:
        spread = summary.spread_of(metric.key)
        rows.append([metric.label, metric_number(spread.mean, metric.is_rate),
                     metric_spread(spread.std, metric.is_rate),
                     ", ".join(run_value(v, metric.is_rate) for v in spread.values)])
    lines += ["### Noise floor (run-to-run spread of the same prompt)", ""]
    lines += table(["metric", "mean", "sample std", "per run"], rows) + [""]
    flaky = summary.flaky
    lines += ["### Fixtures", ""]
    lines += [f"**Flaky** (passed in some runs, not in others): "
              + ", ".join(f"{f.id} ({f.passed}/{f.runs})" for f in flaky) if flaky else "No flaky fixtures.", ""]
    lines += table(["fixture", "category", "passed in"],
                   [[f.id, f.category, f"{f.passed}/{f.runs}"] for f in summary.fixtures]) + [""]
    stability = summary.stability
    lines += ["### Expected points", "",
              f"**Stability:** {stability.successes} of the {stability.total} points matched in at least one run "
              f"were matched in every run ({percent(stability.rate)}).", ""]
    if summary.points:
        lines += table(["fixture", "point", "matched in"],
                       [[p.fixture_id, code(p.point_id), f"{p.matched}/{p.runs}"] for p in summary.points]) + [""]
    return lines


def score_markdown(report: ScoreReport) -> str:
    c = report.corpus
    version = "" if c.version is None else f" v{c.version}"
    single = len(report.runs) == 1
    lines = [f"# corpustools score: {c.name}{version}" + ("" if single else f" ({len(report.runs)} runs)"), ""]
    if single:
        run = report.runs[0]
        lines += drift_banner(run) + table(["", ""], corpus_rows(report) + run_rows(run)) + [""]
        lines += warnings_block(report.corpus_warnings) + run_sections(run, "##")
    else:
        lines += table(["", ""], corpus_rows(report)) + [""] + warnings_block(report.corpus_warnings)
        for i, run in enumerate(report.runs, 1):
            lines += [f"## Run {i}: {code(run.folder)}", ""] + drift_banner(run)
            lines += table(["", ""], run_rows(run)) + [""] + run_sections(run, "###")
        lines += repeated_section(report)
    while lines and lines[-1] == "":
        lines.pop()
    return printable_lines(lines)
