"""The score report as one self-contained HTML page (see docs/html-report.md).

It leads with what failed: the prompt and its version as the heading, the verdict line as a
banner, then the failing fixtures, each with its reasons in words (the code beside them) and, on a
click, its evidence (see html_fixture) and transcript; the passing fixtures after them. Then the
tables: headline metrics with their Wilson intervals drawn as bars, per item type and field,
categories, taxonomy (with several runs: the noise floor, flaky fixtures and per-point stability
first), the history, how the runs were made, and every fixture in one filterable table."""

from __future__ import annotations

from corpustools.model.corpus import ScoringCorpus
from corpustools.reporting.formatting import fraction, manifest_fields, percent, run_spread, run_value
from corpustools.reporting.page import (
    anchor,
    banner,
    corpus_header,
    corpus_text,
    drawn,
    esc,
    filter_bar,
    folded,
    heading,
    interval_bar,
    metric_rows,
    page,
    prompt_label,
    prompts_of,
    table,
    warnings,
)
from corpustools.score.aggregate import METRICS
from corpustools.score.history import history_rows
from corpustools.score.reasons import Verdict
from corpustools.score.report.drilldown import json_text
from corpustools.score.report.formatting import f1_text, phantom_count, proportion_rows
from corpustools.score.report.history_html import history_section
from corpustools.score.report.html_fixture import fixture_block, fixture_filters, fixture_rows
from corpustools.score.report.text import failing_indexes, report_verdict_parts
from corpustools.score.scoring import RunScore, ScoreReport, WarningKind, since_lines


def run_header(run: RunScore) -> list[list[str]]:
    return ([["results", f"<code>{esc(run.folder)}</code>"]]
            + [[esc(label), folded(value) if label == "notes" else esc(value)]
               for label, value in manifest_fields(run.manifest)])


def run_metrics(run: RunScore, *, several: bool) -> list[str]:
    """One run's numbers: the proportions with their intervals, the counts, per item type, per
    field, categories and the failure taxonomy (with several runs, its own verdict line first)."""
    a = run.aggregate
    proportions = proportion_rows(a)
    if a.optional_points_total:
        proportions.append(("optional points matched (never in recall)", a.optional_matched))
    proportions.append(("precision (items matching an expected or optional point)", a.precision))
    counts = [("phantoms (unexpected proposals)", a.phantoms if a.phantoms_apply else "n/a (text answers)"),
              ("F1 (precision and recall)", f1_text(a.f1)), ("fixtures failed", a.fixtures_failed),
              ("fixtures unchecked", a.fixtures_unchecked), ("missing results", a.missing_results)]
    counts += [("unreadable results", a.unreadable_results)] if a.unreadable_results else []
    counts += [("invalid results", a.invalid_results), ("invalid sidecars", a.invalid_sidecars)]
    lines = [f'<p class="headline"><strong>{esc(fraction(a.pass_rate))} fixtures passed</strong> '
             f'({esc(percent(a.pass_rate.rate))}); recall {esc(fraction(a.recall))}; '
             f'{esc(phantom_count(a))}</p>'] if several else []
    lines += table(["metric", "count", "rate", "95% interval (Wilson), 0% – 100%"], metric_rows(proportions),
                   "metrics")
    lines += table(["count", ""], [[esc(label), esc(str(n))] for label, n in counts], "counts")
    lines += type_rows(a) + field_rows(run)
    return lines + ["<h3>Categories</h3>"] + categories(run) + ["<h3>Failure taxonomy</h3>"] + taxonomy(run)


def type_rows(a) -> list[str]:
    """Recall, precision and F1 of each item type of the output contract."""
    rows = [[f"<code>{esc(t.type)}</code>", esc(fraction(t.recall)), esc(percent(t.recall.rate)),
             esc(fraction(t.precision)), esc(percent(t.precision.rate)), esc(f1_text(t.f1))] for t in a.types]
    return ["<h3>Per item type</h3>"] + table(["type", "recall", "", "precision", "", "F1"], rows, "types")


def field_rows(run: RunScore) -> list[str]:
    """Accuracy per declared field, then each field's expected and got, fixture by fixture."""
    a = run.aggregate
    if not a.fields:
        return []
    lines = ["<h3>Fields</h3>"] + table(["field", "count", "rate", "95% interval (Wilson), 0% – 100%"],
                                        metric_rows([(f.pointer, f.accuracy) if not f.invalid else
                                                     (f"{f.pointer}, of valid results ({f.invalid} invalid)",
                                                      f.accuracy_valid_only) for f in a.fields]), "metrics")
    for declared in a.fields:
        rows = [[esc(f.id), " or ".join(f"<code>{esc(json_text(v))}</code>" for v in field.expected),
                 f"<code>{esc(json_text(field.got))}</code>" if field.present
                 else f'<span class="muted">{"absent" if field.read else esc(str(f.status))}</span>',
                 "matched" if field.matched else "<strong>mismatch</strong>"]
                for f in run.fixtures for field in f.fields if field.pointer == declared.pointer]
        lines += [f"<h4><code>{esc(declared.pointer)}</code>: expected and got</h4>"]
        lines += table(["fixture", "expected", "got", ""], rows, "fields") if rows else [
            '<p class="muted">No fixture pins it.</p>']
    return lines


def categories(run: RunScore) -> list[str]:
    return table(["category", "passed", "total"],
                 [[esc(c.category), str(c.passed), str(c.total)] for c in run.categories])


def taxonomy(run: RunScore) -> list[str]:
    if not run.taxonomy:
        return ["<p>No failures.</p>"]
    return table(["reason", "count"], [[f"<code>{esc(kind)}</code>", str(n)] for kind, n in run.taxonomy])


def repeated(report: ScoreReport) -> list[str]:
    summary = report.repeated
    assert summary is not None  # asked only when there are two or more runs
    lines = [f"<h2>Repeated runs (k = {summary.runs})</h2>"]
    per_run = [[str(i), f"<code>{esc(run.folder)}</code>", drawn(fraction(run.aggregate.pass_rate), run.aggregate.pass_rate),
                drawn(fraction(run.aggregate.recall), run.aggregate.recall),
                str(run.aggregate.phantoms) if run.aggregate.phantoms_apply else "n/a"]
               for i, run in enumerate(report.runs, 1)]
    lines += ["<h3>Per run</h3>"] + table(["run", "results", "passed (95% CI)", "recall (95% CI)", "phantoms"], per_run,
                                          "metrics")
    spread = []
    for metric in METRICS:
        s = summary.spread_of(metric.key)
        spread.append([esc(metric.label), esc(run_value(s.mean, is_rate=metric.is_rate)),
                       esc(run_spread(s.std, is_rate=metric.is_rate)),
                       esc(", ".join(run_value(v, is_rate=metric.is_rate) for v in s.values))])
    lines += ["<h3>Noise floor (run-to-run spread of the same prompt)</h3>"]
    lines += table(["metric", "mean", "sample std", "per run"], spread)
    flaky = summary.flaky
    lines += ["<h3>Flaky fixtures</h3>"]
    lines += (table(["fixture", "category", "passed in"],
                    [[f'<a href="#{fixture_anchor(f.id)}">{esc(f.id)}</a>', esc(f.category), f"{f.passed}/{f.runs}"]
                     for f in flaky], "flaky") if flaky else ["<p>No flaky fixtures.</p>"])
    stability = summary.stability
    lines += ["<h3>Expected-point stability</h3>",
              f"<p>{stability.successes} of the {stability.total} points matched in at least one run were matched "
              f"in every run ({esc(percent(stability.rate))}).</p>", interval_bar(stability)]
    unstable = [p for p in summary.points if 0 < p.matched < p.runs]
    never = [p for p in summary.points if p.matched == 0]
    rows = [[esc(p.fixture_id), f"<code>{esc(p.point_id)}</code>", f"{p.matched}/{p.runs}"] for p in unstable + never]
    if rows:
        lines += ["<p>Points not matched in every run (unstable first, then never matched):</p>"]
        lines += table(["fixture", "point", "matched in"], rows, "stability")
    return lines


def fixture_anchor(fixture_id: str) -> str:
    return anchor("fixture", fixture_id)


def fixtures_section(report: ScoreReport, corpus: ScoringCorpus) -> list[str]:
    """The failing fixtures (in any run) first, each with its reasons in words, then the passing ones."""
    runs = report.runs
    labelled = [(f"Run {i}", run) for i, run in enumerate(runs, 1)]
    count = len(runs[0].fixtures)
    failing = failing_indexes(runs)
    passing = [i for i in range(count) if i not in failing]
    lines = [f"<h2>Failing fixtures ({len(failing)} of {count}"
             + (" failed in at least one run)</h2>" if len(runs) > 1 else ")</h2>"),
             '<p class="muted">Each reason in words, its code beside it. A click on a fixture opens its evidence: '
             "every point with its terms marked found or absent (a matched point in the proposal that matched it), "
             "forbidden terms highlighted where they occurred, phantoms, diagnostics and the transcript.</p>",
             filter_bar(fixture_filters(runs))]
    if not failing:
        lines.append("<p>Every fixture passed" + (" in every run.</p>" if len(runs) > 1 else ".</p>"))
    for index in failing:
        lines += fixture_block(index, labelled, corpus)
    lines += [f"<h2>Passing fixtures ({len(passing)})</h2>"]
    for index in passing:
        lines += fixture_block(index, labelled, corpus)
    return lines


def verdict_banner(report: ScoreReport) -> str:
    head, rest = report_verdict_parts(report)
    failed = any(f.verdict is not Verdict.PASS for run in report.runs for f in run.fixtures)
    return banner("bad" if failed else "good", head, " " + rest)


def page_warnings(report: ScoreReport) -> list[str]:
    """Input drift, runs pooled with --allow-mixed, cached repeats and the corpus's and runs'
    warnings; then the label-drift line(s), which are no warning: the score is the current labels'."""
    return (warnings([WARNING_SAYS[warning.kind].format(warning.text()) for warning in report.warnings])
            + [f'<p class="labels-revised">{esc(line)}</p>' for line in since_lines(report.runs)])


# How each kind of warning reads on the page (escaped when drawn).
WARNING_SAYS = {WarningKind.CORPUS_DRIFT: "WARNING: CORPUS DRIFT. {}.", WarningKind.MIXED_RUNS: "MIXED RUNS "
                "(--allow-mixed): {}.", WarningKind.CACHED_REPEAT: "WARNING: {}.", WarningKind.SKIPPED: "{}"}


def render(report: ScoreReport) -> str:
    """The page; the report's history (the table and the file it came from) adds its section."""
    corpus = report.loaded
    assert corpus is not None, "score_report loads the corpus the page shows"
    c = report.corpus
    runs = report.runs
    k = len(runs)
    prompt = prompt_label(prompts_of(runs), c.prompt)
    how = f"corpustools score of {k} run{'s' if k > 1 else ''} ({', '.join(run.folder for run in runs)})"
    body = heading(prompt, f"{how} against {corpus_text(c)}") + [verdict_banner(report)] + page_warnings(report)
    body += fixtures_section(report, corpus)
    if report.repeated is not None:  # the spread over the runs first, each run's own numbers after
        body += repeated(report)
        for i, run in enumerate(runs, 1):
            body += [f'<details class="run" id="run-{i}"><summary><h3>Run {i}: <code>{esc(run.folder)}</code></h3>'
                     "</summary>"] + run_metrics(run, several=True) + table(["", ""], run_header(run), "about") + ["</details>"]
    else:
        body += ["<h2>Metrics</h2>"] + run_metrics(runs[0], several=False)
    if report.history is not None:
        text, source = report.history
        body += history_section(history_rows(text, source), source)
    body += ["<h2>The corpus and the run" + ("s" if k > 1 else "") + "</h2>"]
    body += table(["", ""], corpus_header(c) + (run_header(runs[0]) if k == 1 else []), "about")
    body += ["<h2>Every fixture</h2>"] + fixture_rows(runs)
    title = f"{prompt} · corpustools score" + ("" if k == 1 else f" ({k} runs)") + f" · {corpus_text(c)}"
    return page(title, body)
