"""The score report as Markdown, written to be pasted into a pull request."""

from __future__ import annotations

import html
import shlex

from corpustools.io.positions import printable_lines
from corpustools.reporting.formatting import (
    code,
    fraction,
    interval,
    manifest_fields,
    md,
    metric_number,
    metric_spread,
    percent,
    run_value,
    scalar,
    table,
)
from corpustools.score.aggregate import METRICS
from corpustools.score.fixture import FixtureScore
from corpustools.score.reasons import AdvisoryKind, Verdict
from corpustools.score.report.drilldown import details, json_text, proposals_markdown, reasons_markdown
from corpustools.score.report.formatting import proportion_rows, repeated_verdict_parts, verdict_parts
from corpustools.score.scoring import ReportWarning, RunScore, ScoreReport, WarningKind, since_lines


def summary_line(run: RunScore) -> str:
    head, rest = verdict_parts(run.aggregate)
    return f"**{head}** {rest}"


def warnings_of(report: ScoreReport, kind: WarningKind) -> list[ReportWarning]:
    """The report's warnings of one kind: this format gives each kind its own place."""
    return [warning for warning in report.warnings if warning.kind is kind]


def drift_notes(report: ScoreReport) -> list[str]:
    """Every input-drift banner, then the runs pooled with --allow-mixed and the label-drift line(s)."""
    lines = [line for warning in warnings_of(report, WarningKind.CORPUS_DRIFT)
             for line in (f"> **WARNING: CORPUS DRIFT.** {md(warning.text())}.", "")]
    mixed = [f"> **MIXED RUNS (--allow-mixed):** {md(warning.text())}."
             for warning in warnings_of(report, WarningKind.MIXED_RUNS)]
    lines += mixed + ([""] if mixed else [])
    return lines + [line for text in since_lines(report.runs) for line in (md(text), "")]


def corpus_rows(report: ScoreReport) -> list[list[str]]:
    c = report.corpus
    version = "unknown" if c.version is None else str(c.version)
    return [["corpus", f"{md(c.name)}, version {version} ({code(c.path)})"], ["corpus sha256", code(c.sha256)]]


def run_rows(run: RunScore) -> list[list[str]]:
    return [["results", code(run.folder)]] + [[label, md(value)] for label, value in manifest_fields(run.manifest)]


def warnings_block(warnings: tuple[str, ...]) -> list[str]:
    if not warnings:
        return []
    return ["**Warnings**", ""] + [f"- {md(w)}" for w in warnings] + [""]


def fixture_table(run: RunScore) -> list[str]:
    rows = [[md(f.id), md(f.category), f"**{f.verdict}**" if f.verdict is not Verdict.PASS else f.verdict.value,
             ", ".join(code(str(r)) for r in f.reasons)] for f in run.fixtures]
    return table(["fixture", "category", "verdict", "reasons"], rows)


def category_table(run: RunScore) -> list[str]:
    return table(["category", "passed", "total"], [[md(c.category), str(c.passed), str(c.total)]
                                                   for c in run.categories])


def aggregate_table(run: RunScore) -> list[str]:
    a = run.aggregate
    rows = [[label, fraction(figure), percent(figure.rate), interval(figure)] for label, figure in proportion_rows(a)]
    if a.optional_points_total:
        rows.append(["optional points matched (never in recall)", fraction(a.optional_matched),
                     percent(a.optional_matched.rate), ""])
    rows += [["phantoms (unexpected proposals)", str(a.phantoms) if a.phantoms_apply else "n/a (text answers)", "", ""],
             ["fixtures failed", str(a.fixtures_failed), "", ""],
             ["fixtures unchecked (expect output, list no points)", str(a.fixtures_unchecked), "", ""],
             ["missing results", str(a.missing_results), "", ""]]
    # shown when there are some (an unreadable result is rare; the table of every report stays as it was)
    rows += [["unreadable results", str(a.unreadable_results), "", ""]] if a.unreadable_results else []
    rows += [["invalid results", str(a.invalid_results), "", ""],
             ["invalid sidecars", str(a.invalid_sidecars), "", ""]]
    return table(["metric", "count", "rate", "95% interval (Wilson)"], rows)


def fields_tables(run: RunScore) -> list[str]:
    """Accuracy per declared field, then per field the expected value and what each fixture's
    result held (only when the output contract declares fields)."""
    a = run.aggregate
    lines = table(["field", "matched", "rate", "95% interval (Wilson)"],
                  [[code(f.pointer), fraction(f.accuracy), percent(f.accuracy.rate), interval(f.accuracy)]
                   if not f.invalid else
                   [code(f.pointer), f"{fraction(f.accuracy_valid_only)} of valid results, {f.invalid} invalid",
                    percent(f.accuracy_valid_only.rate), interval(f.accuracy_valid_only)]
                   for f in a.fields])
    for declared in a.fields:
        rows = [[f.id, " or ".join(code(json_text(v)) for v in field.expected),
                 code(json_text(field.got)) if field.present else ("absent" if field.read else f"({f.status})"),
                 "yes" if field.matched else "**no**"]
                for f in run.fixtures for field in f.fields if field.pointer == declared.pointer]
        lines += ["", f"{code(declared.pointer)}: expected and got", ""]
        lines += table(["fixture", "expected", "got", "matched"], rows) if rows else ["No fixture pins it."]
    return lines


def taxonomy_table(run: RunScore) -> list[str]:
    if not run.taxonomy:
        return ["No failures."]
    return table(["reason", "count"], [[code(kind), str(count)] for kind, count in run.taxonomy])


def advisories_table(run: RunScore) -> list[str]:
    rows = [[md(f.id), code(str(d))] for f in run.fixtures for d in f.advisories]
    if not rows:
        return ["None."]
    return table(["fixture", "diagnostic"], rows)


def repeated_summary_line(report: ScoreReport) -> str:
    head, rest = repeated_verdict_parts(report.repeated, [run.aggregate for run in report.runs])
    return f"**{head}** {rest}"


def identical_warnings(report: ScoreReport) -> list[str]:
    return [line for warning in warnings_of(report, WarningKind.CACHED_REPEAT)
            for line in (f"> **WARNING:** {warning.text(code)}.", "")]


def across_runs(runs, index: int) -> list[str]:
    """Fixture `index` in each run: its verdict, the evidence where it failed, and its proposals
    (collapsed)."""
    lines, proposals = [], []
    for number, run in enumerate(runs, 1):
        fixture = run.fixtures[index]
        label = f"run {number} ({code(run.folder)})"
        lines.append(f"- {label}: {fixture.verdict}")
        if fixture.verdict is not Verdict.PASS:
            lines += reasons_markdown(fixture, "  ")
        if fixture.proposals:
            proposals += [f"- {label}"] + proposals_markdown(fixture, "  ")
    lines.append("")
    return lines + (details("Proposals in each run", proposals) if proposals else [])


def repeated_failing_section(report: ScoreReport) -> list[str]:
    """Each fixture that failed in some run: its evidence in every run it failed in."""
    summary = report.repeated
    assert summary is not None  # callers ask only when there are two or more runs
    failing = [i for i, f in enumerate(summary.fixtures) if f.passed < f.runs]
    if not failing:
        return ["Every fixture passed in every run.", ""]
    lines = [f"## Failing fixtures ({len(failing)} of {len(report.runs[0].fixtures)} failed in at least one run)", ""]
    for i in failing:
        stability = summary.fixtures[i]
        lines += [f"### {md(stability.id)} ({md(stability.category)}): passed in {stability.passed}/{stability.runs} "
                  "runs", ""]
        lines += across_runs(report.runs, i)
    return lines


def per_run_table(report: ScoreReport) -> list[str]:
    optional = any(run.aggregate.optional_points_total for run in report.runs)
    header = ["run", "results", "passed", "recall", "phantoms", "gate accuracy", "false rejects"]
    rows = [[str(i), code(run.folder), fraction(run.aggregate.pass_rate), fraction(run.aggregate.recall),
             str(run.aggregate.phantoms) if run.aggregate.phantoms_apply else "n/a", fraction(run.aggregate.gate_accuracy), str(run.aggregate.false_rejects)]
            + ([fraction(run.aggregate.optional_matched)] if optional else [])
            for i, run in enumerate(report.runs, 1)]
    return table(header + (["optional points matched"] if optional else []), rows)


def repeated_tables(report: ScoreReport) -> list[str]:
    """The run-to-run tables of k runs, each collapsed."""
    summary = report.repeated
    assert summary is not None  # callers ask only when there are two or more runs
    rows = []
    for metric in METRICS:
        spread = summary.spread_of(metric.key)
        rows.append([metric.label, metric_number(spread.mean, is_rate=metric.is_rate),
                     metric_spread(spread.std, is_rate=metric.is_rate),
                     ", ".join(run_value(v, is_rate=metric.is_rate) for v in spread.values)])
    lines = details("Per run", per_run_table(report))
    lines += details("Noise floor (run-to-run spread of the same prompt)",
                     table(["metric", "mean", "sample std", "per run"], rows))
    flaky = summary.flaky
    fixtures = ["**Flaky** (passed in some runs, not in others): "
                + ", ".join(f"{md(f.id)} ({f.passed}/{f.runs})" for f in flaky) if flaky else "No flaky fixtures.", ""]
    fixtures += table(["fixture", "category", "passed in"],
                      [[md(f.id), md(f.category), f"{f.passed}/{f.runs}"] for f in summary.fixtures])
    lines += details(f"Fixtures across runs ({len(flaky)} flaky)", fixtures)
    stability = summary.stability
    points = [f"**Stability:** {stability.successes} of the {stability.total} points matched in at least one run "
              f"were matched in every run ({percent(stability.rate)})."]
    if summary.points:
        points += [""] + table(["fixture", "point", "matched in"],
                               [[md(p.fixture_id), code(p.point_id), f"{p.matched}/{p.runs}"] for p in summary.points])
    lines += details("Expected points across runs", points)
    return lines


def failing_fixture(fixture: FixtureScore) -> list[str]:
    # What an invalid result's content would have scored stands beside its reason (the other
    # advisories are in the diagnostics table).
    content = [f"- diagnostic: {code(str(d))}" for d in fixture.advisories if d.kind is AdvisoryKind.INVALID_FORMAT]
    lines = [f"### {md(fixture.id)} ({md(fixture.category)}): {fixture.verdict}", ""] + reasons_markdown(fixture)
    lines += content + [""]
    if fixture.proposals:
        lines += details(f"Proposals ({len(fixture.proposals)})", proposals_markdown(fixture))
    return lines


def failing_section(run: RunScore) -> list[str]:
    failing = [f for f in run.fixtures if f.verdict is not Verdict.PASS]
    if not failing:
        return ["Every fixture passed.", ""]
    lines = [f"## Failing fixtures ({len(failing)} of {len(run.fixtures)})", ""]
    for fixture in failing:
        lines += failing_fixture(fixture)
    return lines


def full_tables(run: RunScore) -> list[str]:
    """Every table of one run, each collapsed."""
    advisories = sum(len(f.advisories) for f in run.fixtures)
    lines = []
    fields = [("Fields (accuracy of each pinned answer)", fields_tables(run))] if run.aggregate.fields else []
    for summary, body in ((f"All fixtures ({run.aggregate.fixtures_passed} of {len(run.fixtures)} passed)",
                           fixture_table(run)),
                          ("Categories", category_table(run)), ("Aggregate", aggregate_table(run)), *fields,
                          ("Failure taxonomy", taxonomy_table(run)),
                          (f"Advisory diagnostics ({advisories}; they never change a verdict)",
                           advisories_table(run))):
        lines += details(summary, body)
    return lines


def html_hint(report: ScoreReport) -> str:
    """The last line: the command that writes the interactive HTML report (paths as given)."""
    argv = ["corpustools", "score", report.corpus.path, *(run.folder for run in report.runs),
            "--format", "html", "--output", "report.html"]
    return f"Full report: {code(shlex.join(argv))}, then open report.html in a browser."


def identity(report: ScoreReport, runs) -> str:
    """What was scored, for a <details> summary (HTML-escaped: names and paths are user text)."""
    c = report.corpus
    prompts = []
    for run in runs:
        prompt = None if run.manifest is None else run.manifest.prompt
        named = f"{prompt.name} v{scalar(prompt.version)}" if prompt is not None else "unrecorded"
        prompts += [] if named in prompts else [named]
    return html.escape(f"Corpus {c.name}" + ("" if c.version is None else f" v{c.version}")
                       + f", prompt {', '.join(prompts)}, results {', '.join(run.folder for run in runs)}")


def top_warnings(report: ScoreReport) -> list[str]:
    return warnings_block(tuple(warning.text() for warning in warnings_of(report, WarningKind.SKIPPED)))


def single_run(report: ScoreReport) -> list[str]:
    run = report.runs[0]
    lines = drift_notes(report) + [summary_line(run), ""] + top_warnings(report) + failing_section(run)
    lines += details(identity(report, (run,)), table(["", ""], corpus_rows(report) + run_rows(run)))
    return lines + full_tables(run)


def several_runs(report: ScoreReport) -> list[str]:
    lines = drift_notes(report)
    lines += [repeated_summary_line(report), ""] + identical_warnings(report) + top_warnings(report)
    lines += repeated_failing_section(report)
    lines += details(identity(report, report.runs), table(["", ""], corpus_rows(report)))
    lines += repeated_tables(report)
    for i, run in enumerate(report.runs, 1):
        body = [summary_line(run), ""] + table(["", ""], run_rows(run)) + [""]
        fields = [("Fields", fields_tables(run))] if run.aggregate.fields else []
        for title, rows in (("Fixtures", fixture_table(run)), ("Categories", category_table(run)),
                            ("Aggregate", aggregate_table(run)), *fields, ("Failure taxonomy", taxonomy_table(run)),
                            ("Advisory diagnostics (never change a verdict)", advisories_table(run))):
            body += [f"#### {title}", ""] + rows + [""]
        lines += details(f"Run {i}: every table", body[:-1])
    return lines


def render(report: ScoreReport) -> str:
    """Compact: the verdict line and the failing fixtures with their evidence first (a drift
    banner above them), every table collapsed below, and how to get the HTML report last."""
    lines = single_run(report) if len(report.runs) == 1 else several_runs(report)
    lines.append(html_hint(report))
    return printable_lines(lines)
