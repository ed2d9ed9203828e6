"""The comparison as one self-contained HTML page (see docs/html-report.md): the verdict, the
metric deltas with each run's interval bars, then the fixtures — lost and gained first — each
opening to the base and candidate evidence side by side in time (base runs, then candidate runs)."""

from __future__ import annotations

from corpustools.model.corpus import Corpus
from corpustools.score.compare import Comparison, Transition
from corpustools.score.compare_markdown import (
    noise_text,
    paired_line,
    side_verdicts,
    transition_counts,
    transitions_line,
)
from corpustools.score.formatting import manifest_fields, metric_number, signed
from corpustools.score.html_fixture import filter_data, fixture_block, fixture_filters
from corpustools.score.html_page import anchor, esc, filter_bar, interval_bar, page, table, verdict_badge, warnings
from corpustools.score.reasons import Verdict

ORDER = (Transition.LOST, Transition.GAINED, Transition.SAME)  # what a reviewer reads first


def plain(markdown: str) -> str:
    """One of compare_markdown's lines without its bold markers, escaped."""
    return esc(markdown.replace("**", ""))


def verdict_block(comparison: Comparison) -> list[str]:
    if comparison.regressed:
        return [f'<div class="warn"><h2>REGRESSED</h2>{esc("; ".join(comparison.regressed_because))}. Read the '
                "lost fixtures before bumping the version (this is advice; the command still exits 0).</div>"]
    why = (" (recall and gate accuracy did not worsen beyond noise)." if comparison.several_runs
           else " (no fixture lost).")
    return [f"<p><strong>Not regressed</strong>{esc(why)}</p>"]


def sides_table(comparison: Comparison) -> list[str]:
    rows = []
    for side, runs in (("base", comparison.base), ("candidate", comparison.candidate)):
        for run in runs:
            fields = dict(manifest_fields(run.manifest))
            rows.append([side, f"<code>{esc(run.folder)}</code>"]
                        + [esc(fields[key]) for key in ("prompt", "model", "temperature", "date")])
    return table(["side", "results", "prompt", "model", "temperature", "date"], rows)


def bars(runs, key: str) -> str:
    """Each run's Wilson interval bar of the proportion `key`, one per line."""
    return "<br>".join(interval_bar(getattr(run.aggregate, key)) for run in runs)


def metrics_table(comparison: Comparison) -> list[str]:
    rows = []
    for m in comparison.metrics:
        rate = m.metric.is_rate
        drawn = rate and m.metric.key != "false_rejects"
        rows.append([esc(m.metric.label + ("" if m.metric.higher_is_better else " (lower is better)")),
                     esc(metric_number(m.base, rate)), bars(comparison.base, m.metric.key) if drawn else "",
                     esc(metric_number(m.candidate, rate)), bars(comparison.candidate, m.metric.key) if drawn else "",
                     esc(signed(m.delta, rate)), f'<span class="change-{esc(m.direction.value)}">{esc(m.direction.value)}</span>',
                     esc(noise_text(m))])
    return table(["metric", "base", "base 95% CI per run", "candidate", "candidate 95% CI per run", "delta",
                  "change", "noise"], rows, "metrics")


def fixtures_table(comparison: Comparison, order: list[int]) -> list[str]:
    lines = ['<table class="fixtures">', "<tr><th>fixture</th><th>category</th><th>base</th><th>candidate</th>"
             "<th>transition</th></tr>"]
    for index in order:
        f = comparison.fixtures[index]
        same = [run.fixtures[index] for run in comparison.base + comparison.candidate]
        lines.append(f"<tr {filter_data(same, False, transition=f.transition.value)}>"
                     f'<td><a href="#{anchor("fixture", f.id)}">{esc(f.id)}</a></td><td>{esc(f.category)}</td>'
                     f"<td>{side_badge(f.base)}</td><td>{side_badge(f.candidate)}</td>"
                     f'<td class="transition-{f.transition.value}">{f.transition.value}</td></tr>')
    return lines + ["</table>"]


def side_badge(verdicts: tuple[Verdict, ...]) -> str:
    return verdict_badge(verdicts[0]) if len(verdicts) == 1 else esc(side_verdicts(verdicts))


def points_section(comparison: Comparison) -> list[str]:
    changed = comparison.changed_points
    lines = [f"<p>{transition_counts(comparison.points)}.</p>"]
    if changed:
        lines += table(["fixture", "point", "base matched", "candidate matched", "transition"],
                       [[esc(p.fixture_id), f"<code>{esc(p.point_id)}</code>", f"{p.base_matched}/{p.base_runs}",
                         f"{p.candidate_matched}/{p.candidate_runs}", p.transition.value] for p in changed], "points")
    return lines


def compare_html(comparison: Comparison, corpus: Corpus) -> str:
    c = comparison.corpus
    version = "" if c.version is None else f" v{c.version}"
    title = f"corpustools compare: {c.name}{version}"
    body = warnings(f"CORPUS DRIFT ALLOWED (--allow-corpus-drift): {'; '.join(comparison.drift)}. Fixture "
                    "transitions may reflect changed sessions, not a changed prompt." for _ in [1] if comparison.drift)
    body += [f'<p class="labels-revised">{esc(line)}</p>' for line in comparison.labels_revised]
    body += [f"<h1>{esc(title)}</h1>"] + verdict_block(comparison)
    body += [f"<p>{plain(transitions_line(comparison))}</p>", f"<p>{plain(paired_line(comparison))}</p>"]
    body += table(["", ""], [["corpus", f"{esc(c.name)}, version {esc('unknown' if c.version is None else c.version)}"
                                        f" (<code>{esc(c.path)}</code>)"], ["corpus sha256", f"<code>{esc(c.sha256)}</code>"]])
    body += sides_table(comparison)
    body += warnings(list(comparison.corpus_warnings) + [w for run in comparison.base + comparison.candidate
                                                         for w in run.warnings])
    body += ["<h2>Metrics</h2>"] + metrics_table(comparison)
    if comparison.several_runs:
        body.append("<p>A delta is <em>beyond noise</em> when it exceeds twice the larger side's run-to-run sample "
                    "standard deviation.</p>")
    order = sorted(range(len(comparison.fixtures)), key=lambda i: ORDER.index(comparison.fixtures[i].transition))
    runs = comparison.base + comparison.candidate
    filters = [("transition", [t.value for t in ORDER if any(f.transition is t for f in comparison.fixtures)])]
    body += ["<h2>Fixtures (lost and gained first)</h2>", filter_bar(filters + fixture_filters(runs, flaky=False))]
    body += fixtures_table(comparison, order)
    labelled = ([(f"base {i}" if len(comparison.base) > 1 else "base", run) for i, run in enumerate(comparison.base, 1)]
                + [(f"candidate {i}" if len(comparison.candidate) > 1 else "candidate", run)
                   for i, run in enumerate(comparison.candidate, 1)])
    for transition in ORDER:
        chosen = [i for i in order if comparison.fixtures[i].transition is transition]
        if chosen:
            body.append(f"<h3>{transition.value.capitalize()} ({len(chosen)})</h3>")
        for index in chosen:
            body += fixture_block(index, labelled, corpus, False, transition=transition.value)
    body += ["<h2>Expected points</h2>"] + points_section(comparison)
    return page(title, body)
