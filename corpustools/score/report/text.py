"""The score report as plain text, for a terminal (the default format), read the way ruff and pytest
are: the failing fixtures first, each reason in words with its evidence and its code beside it,
then a short summary, and the verdict line LAST, where the terminal leaves the reader. No Markdown,
no HTML, and no line is wrapped by the program (a terminal wraps long lines itself)."""

from __future__ import annotations

from corpustools.io.positions import printable_lines
from corpustools.reporting.formatting import (
    corpus_line,
    formats_hint,
    fraction,
    manifest_fields,
    percent,
    plural,
    proportion,
    run_spread,
    run_value,
)
from corpustools.score.aggregate import METRICS
from corpustools.score.fixture import FixtureScore
from corpustools.score.reasons import Verdict
from corpustools.score.report.drilldown import json_text, quoted, reason_details, reason_words
from corpustools.score.report.formatting import (
    field_text,
    phantom_count,
    recall_text,
    repeated_verdict_parts,
    shown_f1_text,
    verdict_parts,
)
from corpustools.score.scoring import RunScore, ScoreReport, WarningKind, since_lines

# What the summary says about how a run was made (run.yaml); the rest is in the other formats.
RUN_FIELDS = ("prompt", "model", "temperature", "date")


def reason_lines(fixture: FixtureScore, indent: str) -> list[str]:
    """One line per reason, words and evidence first, the reason's code in brackets beside them;
    then the fixture's advisory diagnostics. An item's title is always quoted: it is prose, never
    a name."""
    lines = [f"{indent}{reason_words(d, quoted, str, title=json_text)}  [{d.reason}]" for d in reason_details(fixture)]
    return lines + [f"{indent}diagnostic: {d}" for d in fixture.advisories]


def failing_indexes(runs: tuple[RunScore, ...]) -> list[int]:
    """The fixtures that did not pass in at least one run, in fixture order."""
    return [i for i in range(len(runs[0].fixtures)) if any(run.fixtures[i].verdict is not Verdict.PASS for run in runs)]


def failing_section(report: ScoreReport) -> list[str]:
    """Each fixture that failed in some run, with its reasons (with several runs: in each run it failed)."""
    runs = report.runs
    lines = []
    for i in failing_indexes(runs):
        first = runs[0].fixtures[i]
        if len(runs) == 1:
            lines += [f"{first.verdict} {first.id} ({first.category})"] + reason_lines(first, "  ")
            continue
        passed = sum(run.fixtures[i].verdict is Verdict.PASS for run in runs)
        worst = next(run.fixtures[i].verdict for run in runs if run.fixtures[i].verdict is not Verdict.PASS)
        lines.append(f"{worst} {first.id} ({first.category}): passed in {passed}/{len(runs)} runs")
        lines += across_runs_text(runs, i, "  ")
    return lines


def across_runs_text(runs, index: int, indent: str) -> list[str]:
    """Fixture `index` in each run it did not pass: the run, then its reasons."""
    lines = []
    for number, run in enumerate(runs, 1):
        fixture = run.fixtures[index]
        if fixture.verdict is not Verdict.PASS:
            lines.append(f"{indent}run {number} ({run.folder}): {fixture.verdict}")
            lines += reason_lines(fixture, indent + "  ")
    return lines


def run_summary(run: RunScore) -> str:
    """`fixtures/.../v5-run6: prompt ...; model ...; temperature ...; date ...` (run.yaml's words)."""
    fields = dict(manifest_fields(run.manifest))
    return f"{run.folder}: " + "; ".join(f"{label} {' '.join(fields[label].split())}" for label in RUN_FIELDS)


def categories_line(run: RunScore) -> str:
    return "categories passed: " + ", ".join(f"{c.category} {c.passed}/{c.total}" for c in run.categories)


def taxonomy_words(run: RunScore) -> str:
    """`missed-point 2, phantom-over-budget 1`, or `none`."""
    return ", ".join(f"{kind} {count}" for kind, count in run.taxonomy) or "none"


def taxonomy_line(run: RunScore) -> str:
    return f"failure taxonomy: {taxonomy_words(run)}"


def precision_lines(a) -> list[str]:
    """Precision and F1 overall, then recall, precision and F1 of each item type."""
    return [f"precision (items matching a point): {proportion(a.precision)}; F1 {shown_f1_text(a)}"] + [
        f"  {t.type}: recall {recall_text(t)}; precision {proportion(t.precision)}; F1 {shown_f1_text(t)}"
        for t in a.types]


def field_lines(a) -> list[str]:
    return [f"field {f.pointer}: {field_text(f)}" for f in a.fields]


def diagnostics_line(runs: tuple[RunScore, ...]) -> list[str]:
    """How many advisory diagnostics there are: a failing fixture's are listed above, every one in
    the Markdown report."""
    count = sum(len(f.advisories) for run in runs for f in run.fixtures)
    fixtures = len({f.id for run in runs for f in run.fixtures if f.advisories})
    if not count:
        return []
    shown = any(f.advisories and f.verdict is not Verdict.PASS for run in runs for f in run.fixtures)
    return [f"diagnostics: {count} on {plural(fixtures, 'fixture')} (advisory, never a verdict; "
            + ("the failing fixtures' are above; " if shown else "") + "--format markdown lists every one)"]


def single_summary(report: ScoreReport) -> list[str]:
    run = report.runs[0]
    return ([corpus_line(report.corpus), f"run: {run_summary(run)}", categories_line(run), taxonomy_line(run)]
            + precision_lines(run.aggregate) + field_lines(run.aggregate) + diagnostics_line(report.runs))


def per_run_line(number: int, run: RunScore) -> list[str]:
    a = run.aggregate
    return [f"run {number}: {run_summary(run)}",
            f"  passed {fraction(a.pass_rate)}, recall {fraction(a.recall)}, precision {fraction(a.precision)}, "
            f"{phantom_count(a)}, gate accuracy {fraction(a.gate_accuracy)}, false rejects {a.false_rejects}"
            + (f", optional points matched {fraction(a.optional_matched)}" if a.optional_points_total else "")
            + f"; failures: {taxonomy_words(run)}"]


def repeated_lines(report: ScoreReport) -> list[str]:
    s = report.repeated
    assert s is not None  # callers ask only when there are two or more runs
    lines = [corpus_line(report.corpus)]
    for number, run in enumerate(report.runs, 1):
        lines += per_run_line(number, run)
    lines.append("noise floor (the same prompt run again):")
    for metric in METRICS:
        spread = s.spread_of(metric.key)
        lines.append(f"  {metric.label}: mean {run_value(spread.mean, is_rate=metric.is_rate)}, sample std "
                     f"{run_spread(spread.std, is_rate=metric.is_rate)} "
                     f"(per run: {', '.join(run_value(v, is_rate=metric.is_rate) for v in spread.values)})")
    lines.append("flaky: " + (", ".join(f"{f.id} passed in {f.passed}/{f.runs}" for f in s.flaky) or "none"))
    stability = s.stability
    unstable = [p for p in s.points if p.matched < p.runs]
    lines.append(f"point stability: {stability.successes} of {stability.total} points matched at least once were "
                 f"matched in every run ({percent(stability.rate)})"
                 + ("; not in every run: " + ", ".join(f"{p.fixture_id}:{p.point_id} {p.matched}/{p.runs}"
                                                       for p in unstable) if unstable else ""))
    return lines + diagnostics_line(report.runs)


# How each kind of warning opens here: the loud ones in capitals.
WARNING_HEADS = {WarningKind.CORPUS_DRIFT: "WARNING: CORPUS DRIFT: ", WarningKind.MIXED_RUNS: "WARNING: MIXED RUNS "
                 "(--allow-mixed): ", WarningKind.CACHED_REPEAT: "WARNING: ", WarningKind.SKIPPED: "warning: "}


def warning_lines(report: ScoreReport) -> list[str]:
    return [WARNING_HEADS[warning.kind] + warning.text() for warning in report.warnings]


def report_verdict_parts(report: ScoreReport) -> tuple[str, str]:
    """The verdict line of one run or of k runs, as (headline, the rest); whole means as whole
    numbers (the text and HTML reports)."""
    runs = report.runs
    if len(runs) == 1:
        return verdict_parts(runs[0].aggregate)
    return repeated_verdict_parts(report.repeated, [run.aggregate for run in runs], run_value)


def verdict_line(report: ScoreReport) -> str:
    head, rest = report_verdict_parts(report)
    return f"{head} {rest}"


def render(report: ScoreReport) -> str:
    """The label-drift line (when the labels were revised since a run), failing fixtures, then the
    summary, warnings and the other formats, then the verdict line."""
    runs = report.runs
    revised = list(since_lines(runs))
    failing = failing_section(report)
    lines = revised + ([""] if revised else []) + failing + ([""] if failing else [])
    lines += single_summary(report) if len(runs) == 1 else repeated_lines(report)
    lines += warning_lines(report)
    lines.append(formats_hint("report.html"))
    lines.append(verdict_line(report))
    return printable_lines(lines)
