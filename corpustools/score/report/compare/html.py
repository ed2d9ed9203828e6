"""The comparison as one self-contained HTML page (see docs/html-report.md). It leads with the
headline (improved, regressed or no change beyond noise, as every format says it) as a banner, then
the fixtures, lost first (each with the candidate's reasons in words), gained (with the reasons the
base failed for) and the same; each opens to the base and candidate evidence side by side in time
(base runs, then candidate runs). Then the metric deltas with each run's interval bars, McNemar,
the expected points that changed, the runs compared and every fixture in one table."""

from __future__ import annotations

from corpustools.model.corpus import ScoringCorpus
from corpustools.reporting.page import (
    anchor,
    banner,
    corpus_header,
    corpus_text,
    esc,
    filter_bar,
    heading,
    interval_bar,
    page,
    prompts_of,
    table,
    verdict_badge,
    versus_label,
    warnings,
)
from corpustools.score.compare import Comparison, Headline, Transition
from corpustools.score.reasons import Verdict
from corpustools.score.report.compare.markdown import (
    DRIFT_CAVEAT,
    NOISE_RULE,
    comparison_warnings,
    metric_label,
    noise_text,
    optional_sides,
    paired_line,
    side_verdicts,
    transition_counts,
)
from corpustools.score.report.html_fixture import filter_data, fixture_block, fixture_filters
from corpustools.score.report.text import run_summary

ORDER = (Transition.LOST, Transition.GAINED, Transition.SAME)  # what a reviewer reads first
MOOD = {Headline.IMPROVED: "good", Headline.REGRESSED: "bad", Headline.NO_CHANGE: "neutral"}


def plain(markdown: str) -> str:
    """One of the Markdown comparison's lines without its bold markers, escaped."""
    return esc(markdown.replace("**", ""))


def verdict_block(comparison: Comparison) -> list[str]:
    """The headline as a banner, the blocking metrics' moves under it."""
    return [banner(MOOD[comparison.headline], comparison.headline_text, detail=comparison.blocking_text)]


def sides_list(comparison: Comparison) -> list[str]:
    """Each run compared, one line each: its side, folder and run.yaml's prompt, model and date."""
    items = [f"<li><strong>{side}</strong>{f' {i}' if len(runs) > 1 else ''}: {esc(run_summary(run))}</li>"
             for side, runs in (("base", comparison.base), ("candidate", comparison.candidate))
             for i, run in enumerate(runs, 1)]
    return ['<ul class="runs">'] + items + ["</ul>"]


def bars(runs, key: str) -> str:
    """Each run's Wilson interval bar of the proportion `key`, one under the other."""
    return "".join(interval_bar(getattr(run.aggregate, key)) for run in runs)


def metrics_table(comparison: Comparison) -> list[str]:
    rows = []
    for m in comparison.metrics:
        drawn = m.metric.is_rate and m.metric.key != "false_rejects"
        rows.append([esc(metric_label(comparison, m)),
                     esc(comparison.number(m, m.base)) + (bars(comparison.base, m.metric.key) if drawn else ""),
                     esc(comparison.number(m, m.candidate)) + (bars(comparison.candidate, m.metric.key) if drawn else ""),
                     esc(comparison.delta_text(m)),
                     f'<span class="change-{esc(m.direction.value)}">{esc(m.direction.value)}</span>']
                    + ([esc(noise_text(m))] if comparison.several_runs else []))
    return table(["metric", "base (95% CI of each run)", "candidate (95% CI of each run)", "delta", "change"]
                 + (["noise"] if comparison.several_runs else []), rows, "metrics")


def fixtures_table(comparison: Comparison, order: list[int]) -> list[str]:
    lines = ['<table class="fixtures">', "<tr><th>fixture</th><th>category</th><th>base</th><th>candidate</th>"
             "<th>transition</th></tr>"]
    for index in order:
        f = comparison.fixtures[index]
        same = [run.fixtures[index] for run in comparison.base + comparison.candidate]
        lines.append(f"<tr {filter_data(same, flaky=False, transition=f.transition.value)}>"
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


def side_labels(comparison: Comparison) -> tuple[list[str], list[str]]:
    def labels(side: str, runs) -> list[str]:
        return [f"{side} {i}" if len(runs) > 1 else side for i in range(1, len(runs) + 1)]

    return labels("base", comparison.base), labels("candidate", comparison.candidate)


def fixture_sections(comparison: Comparison, corpus: ScoringCorpus, order: list[int]) -> list[str]:
    """Lost, gained, then the same, each fixture a `<details>` block: a lost one explained by the
    candidate runs it failed in, a gained one by the base runs it failed in."""
    base, candidate = side_labels(comparison)
    labelled = list(zip(base, comparison.base, strict=True)) + list(zip(candidate, comparison.candidate, strict=True))
    explained = {Transition.LOST: tuple(candidate), Transition.GAINED: tuple(base), Transition.SAME: ()}
    lines = []
    for transition in ORDER:
        chosen = [i for i in order if comparison.fixtures[i].transition is transition]
        if chosen:
            lines.append(f"<h3>{transition.value.capitalize()} ({len(chosen)})</h3>")
        for index in chosen:
            lines += fixture_block(index, labelled, corpus, flaky=False, explained=explained[transition],
                                   sides=len(comparison.base), transition=transition.value)
    return lines


def render(comparison: Comparison) -> str:
    corpus = comparison.loaded
    assert corpus is not None, "compare_runs loads the corpus the page shows"
    c = comparison.corpus
    title = versus_label(prompts_of(comparison.candidate), prompts_of(comparison.base), c.prompt)
    counts = (f"{len(comparison.candidate)} candidate run{'s' if len(comparison.candidate) > 1 else ''} against "
              f"{len(comparison.base)} base run{'s' if len(comparison.base) > 1 else ''}")
    body = heading(title, f"corpustools compare: {counts}, {corpus_text(c)}") + verdict_block(comparison)
    body += warnings([f"CORPUS DRIFT ALLOWED (--allow-corpus-drift): {'; '.join(comparison.drift)}. {DRIFT_CAVEAT}"]
                     if comparison.drift else [])
    body += warnings(comparison_warnings(comparison))
    body += [f'<p class="labels-revised">{esc(line)}</p>' for line in comparison.since_lines]
    order = sorted(range(len(comparison.fixtures)), key=lambda i: ORDER.index(comparison.fixtures[i].transition))
    runs = comparison.base + comparison.candidate
    filters = [("transition", [t.value for t in ORDER if any(f.transition is t for f in comparison.fixtures)])]
    body += [f"<h2>Fixtures ({esc(transition_counts(comparison.fixtures))})</h2>",
             filter_bar(filters + fixture_filters(runs, flaky=False))]
    body += fixture_sections(comparison, corpus, order)
    body += ["<h2>Metrics</h2>"] + metrics_table(comparison)
    if comparison.several_runs:
        body.append(f"<p>A delta is <em>beyond noise</em> {esc(NOISE_RULE)}</p>")
    optional = optional_sides(comparison)
    body += [f"<p>Optional points matched (never in recall): {esc(optional)}.</p>"] if optional else []
    body += [f"<p>{plain(paired_line(comparison))}</p>"]
    body += ["<h2>Expected points</h2>"] + points_section(comparison)
    body += ["<h2>The runs compared</h2>"]
    body += table(["", ""], corpus_header(c), "about")
    body += sides_list(comparison)
    body += ["<h2>Every fixture</h2>"] + fixtures_table(comparison, order)
    return page(f"{title} · corpustools compare · {corpus_text(c)}", body)
