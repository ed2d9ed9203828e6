"""The score report as one self-contained HTML page (see docs/html-report.md).

Headline metrics with their Wilson intervals drawn as bars; a fixture table filterable by verdict,
category and reason; per fixture, in a `<details>` block, the evidence of every run (see
html_fixture) and the transcript. With several runs, the noise floor, flaky fixtures and
per-point stability come first."""

from __future__ import annotations

from corpustools.model.corpus import Corpus
from corpustools.score.aggregate import METRICS, PROPORTIONS
from corpustools.score.drilldown import json_text
from corpustools.score.formatting import (
    f1_text,
    fraction,
    manifest_fields,
    metric_number,
    metric_spread,
    percent,
    phantom_count,
    run_value,
)
from corpustools.score.history_html import history_section
from corpustools.score.html_fixture import fixture_block, fixture_filters, fixture_rows
from corpustools.score.html_page import (
    anchor,
    esc,
    filter_bar,
    folded,
    interval_bar,
    metric_rows,
    page,
    table,
    warnings,
)
from corpustools.score.scoring import RunScore, ScoreReport, label_lines


def corpus_header(report: ScoreReport) -> list[list[str]]:
    c = report.corpus
    version = "unknown" if c.version is None else str(c.version)
    return [["corpus", f"{esc(c.name)}, version {esc(version)} (<code>{esc(c.path)}</code>)"],
            ["corpus sha256", f"<code>{esc(c.sha256)}</code>"]]


def run_header(run: RunScore) -> list[list[str]]:
    return ([["results", f"<code>{esc(run.folder)}</code>"]]
            + [[esc(label), folded(value) if label == "notes" else esc(value)]
               for label, value in manifest_fields(run.manifest)])


def headline(run: RunScore) -> list[str]:
    a = run.aggregate
    proportions = [(label, getattr(a, attr)) for attr, label in PROPORTIONS]
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
             f'{esc(phantom_count(a))}</p>']
    lines += table(["metric", "count", "rate", "95% interval (Wilson)", "0% – 100%"], metric_rows(proportions),
                   "metrics")
    lines += table(["count", ""], [[esc(label), esc(str(n))] for label, n in counts])
    return lines + type_rows(a) + field_rows(run)


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
    lines = ["<h3>Fields</h3>"] + table(["field", "count", "rate", "95% interval (Wilson)", "0% – 100%"],
                                        metric_rows([(f.pointer, f.accuracy) for f in a.fields]), "metrics")
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
    lines += warnings(f"WARNING: {a} and {b} have byte-identical result files: a cache, not an independent run."
                      for a, b in summary.identical)
    per_run = [[str(i), f"<code>{esc(run.folder)}</code>", esc(fraction(run.aggregate.pass_rate)),
                interval_bar(run.aggregate.pass_rate), esc(fraction(run.aggregate.recall)),
                interval_bar(run.aggregate.recall), str(run.aggregate.phantoms)]
               for i, run in enumerate(report.runs, 1)]
    lines += ["<h3>Per run</h3>"] + table(["run", "results", "passed", "pass rate (95% CI)", "recall",
                                           "recall (95% CI)", "phantoms"], per_run, "metrics")
    spread = []
    for metric in METRICS:
        s = summary.spread_of(metric.key)
        spread.append([esc(metric.label), esc(metric_number(s.mean, metric.is_rate)),
                       esc(metric_spread(s.std, metric.is_rate)),
                       esc(", ".join(run_value(v, metric.is_rate) for v in s.values))])
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


def fixtures_section(report: ScoreReport, corpus: Corpus) -> list[str]:
    runs = report.runs
    lines = ["<h2>Fixtures</h2>", filter_bar(fixture_filters(runs))]
    lines += fixture_rows(runs)
    lines += ["<h3>Fixture by fixture</h3>",
              '<p class="muted">Each fixture opens to its evidence: every expected point with its terms '
              'marked found or absent in each proposal of its type, forbidden terms highlighted where they '
              'occurred, phantoms, diagnostics and the transcript.</p>']
    for index in range(len(runs[0].fixtures)):
        lines += fixture_block(index, [(f"Run {i}", run) for i, run in enumerate(runs, 1)], corpus)
    return lines


def run_section(run: RunScore) -> list[str]:
    lines = warnings(f"WARNING: CORPUS DRIFT. {run.drift}." for _ in [1] if run.drift)
    lines += table(["", ""], run_header(run)) + warnings(run.warnings) + headline(run)
    return lines + ["<h3>Categories</h3>"] + categories(run) + ["<h3>Failure taxonomy</h3>"] + taxonomy(run)


def score_html(report: ScoreReport, corpus: Corpus, history: tuple[tuple[dict[str, str], ...], str] | None = None) -> str:
    """The page; `history` (rows of the history table, the file they came from) adds its section."""
    c = report.corpus
    version = "" if c.version is None else f" v{c.version}"
    k = len(report.runs)
    title = f"corpustools score: {c.name}{version}" + ("" if k == 1 else f" ({k} runs)")
    body = [f"<h1>{esc(title)}</h1>"] + table(["", ""], corpus_header(report))
    body += warnings(report.corpus_warnings)
    body += warnings(f"MIXED RUNS (--allow-mixed): {line}: the means and the noise floor pool them."
                     for line in report.mixed)
    body += [f'<p class="labels-revised">{esc(line)}</p>' for line in label_lines(report.runs)]
    body += ["<h2>Run</h2>"] if k == 1 else []
    if report.repeated is not None:  # the spread over the runs first, each run's own numbers after
        body += repeated(report)
    for i, run in enumerate(report.runs, 1):
        body += run_section(run) if k == 1 else (
            [f'<details class="run" id="run-{i}"><summary><h2>Run {i}: <code>{esc(run.folder)}</code></h2></summary>']
            + run_section(run) + ["</details>"])
    if history is not None:
        body += history_section(*history)
    body += fixtures_section(report, corpus)
    return page(title, body)

