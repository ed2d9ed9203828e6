"""The comparison as Markdown, for the pull request that bumps a prompt's Version."""

from __future__ import annotations

import html
import shlex

from corpustools.io.positions import printable_lines
from corpustools.reporting.formatting import (
    code,
    fraction,
    manifest_fields,
    md,
    percent,
    plural,
    run_spread,
    table,
)
from corpustools.score.aggregate import Proportion
from corpustools.score.compare import Comparison, Transition
from corpustools.score.reasons import Verdict
from corpustools.score.report.drilldown import details
from corpustools.score.report.markdown import across_runs

# Shared with the text comparison (text.py): the plain words of each part.
DRIFT_CAVEAT = "Fixture transitions may reflect changed sessions, not a changed prompt."
NOISE_RULE = "when it exceeds twice the larger side's run-to-run sample standard deviation."


def drift_line(comparison: Comparison) -> list[str]:
    """The input drift allowed, then the label-drift line(s)."""
    labels = [line for text in comparison.since_lines for line in (md(text), "")]
    if not comparison.drift:
        return labels
    return [f"> **CORPUS DRIFT ALLOWED (--allow-corpus-drift):** {md('; '.join(comparison.drift))}. {DRIFT_CAVEAT}",
            ""] + labels


def verdict_block(comparison: Comparison) -> list[str]:
    """The headline as a heading, then the blocking metrics that decided it."""
    return [f"## {md(comparison.headline_text)}", "",
            f"**Blocking metrics** ({comparison.blocking_rule}): {comparison.blocking_moves}.", ""]


def metric_label(comparison: Comparison, m) -> str:
    """`recall (blocking)`, `phantoms (lower is better)`."""
    notes = ([] if m.metric.higher_is_better else ["lower is better"]) + (
        ["blocking"] if m.metric.key in comparison.blocking else [])
    return m.metric.label + (f" ({', '.join(notes)})" if notes else "")


PAIRED_LABEL = "McNemar exact test (two-sided):"


def paired_text(comparison: Comparison) -> str:
    """The McNemar line after its label: b, c, p and the flips this corpus size needs."""
    t = comparison.paired
    if t.flips_needed is None:
        need = f"a corpus of {t.fixtures} fixtures cannot reach p < 0.05 however many flip"
    else:
        need = (f"this corpus of {t.fixtures} fixtures needs at least {t.flips_needed} one-directional flips "
                "for p < 0.05")
    return f"b = {t.b} (base pass, candidate fail), c = {t.c} (the reverse), p = {t.p_value:.4f}; {need}."


def paired_line(comparison: Comparison) -> str:
    return f"**{PAIRED_LABEL}** {paired_text(comparison)}"


def transition_counts(changes) -> str:
    """`8 gained, 1 lost, 15 same` over FixtureChanges or PointChanges."""
    counts = {kind: sum(c.transition is kind for c in changes) for kind in Transition}
    return f"{counts[Transition.GAINED]} gained, {counts[Transition.LOST]} lost, {counts[Transition.SAME]} same"


def transitions_line(comparison: Comparison) -> str:
    return f"**Fixtures:** {transition_counts(comparison.fixtures)}."


def sides_table(comparison: Comparison) -> list[str]:
    rows = []
    for side, runs in (("base", comparison.base), ("candidate", comparison.candidate)):
        for run in runs:
            fields = dict(manifest_fields(run.manifest))
            rows.append([side, code(run.folder), md(fields["prompt"]), md(fields["model"]), md(fields["temperature"]),
                         md(fields["date"])])
    return table(["side", "results", "prompt", "model", "temperature", "date"], rows)


def noise_text(m) -> str:
    """`beyond noise (base sd 2.9 pp, candidate sd 5.9 pp)`; empty with one run a side."""
    if m.noise is None:
        return ""
    stds = ", ".join(f"{name} sd {run_spread(std, is_rate=m.metric.is_rate)}" for name, std
                     in (("base", m.base_std), ("candidate", m.candidate_std)) if std is not None)
    return f"{m.noise.value} ({stds})" if stds else m.noise.value


def metrics_table(comparison: Comparison) -> list[str]:
    rows = []
    for m in comparison.metrics:
        rows.append([metric_label(comparison, m), comparison.number(m, m.base), comparison.number(m, m.candidate),
                     comparison.delta_text(m), m.direction.value, noise_text(m)])
    return table(["metric", "base", "candidate", "delta", "change", "noise"], rows)


def side_verdicts(verdicts: tuple[Verdict, ...]) -> str:
    if len(verdicts) == 1:
        return verdicts[0].value
    return f"{verdicts.count(Verdict.PASS)}/{len(verdicts)} PASS"


def fixtures_table(comparison: Comparison) -> list[str]:
    rows = [[md(f.id), md(f.category), side_verdicts(f.base), side_verdicts(f.candidate),
             f"**{f.transition.value}**" if f.transition is not Transition.SAME else f.transition.value] for f in comparison.fixtures]
    return table(["fixture", "category", "base", "candidate", "transition"], rows)


def points_section(comparison: Comparison) -> list[str]:
    changed = comparison.changed_points
    lines = [f"{transition_counts(comparison.points)}.", ""]
    if changed:
        lines += table(["fixture", "point", "base matched", "candidate matched", "transition"],
                       [[md(p.fixture_id), code(p.point_id), f"{p.base_matched}/{p.base_runs}",
                         f"{p.candidate_matched}/{p.candidate_runs}", f"**{p.transition.value}**"] for p in changed])
        lines.append("")
    return lines


def optional_sides(comparison: Comparison) -> str:
    """Optional points matched on each side (summed over its runs), apart from recall; empty when
    the corpus has none."""
    sides = [(name, Proportion(sum(r.aggregate.optional_points_matched for r in runs),
                               sum(r.aggregate.optional_points_total for r in runs)))
             for name, runs in (("base", comparison.base), ("candidate", comparison.candidate))]
    if not any(p.total for _, p in sides):
        return ""
    return ", ".join(f"{name} {fraction(p)} ({percent(p.rate)})" for name, p in sides)


def optional_line(comparison: Comparison) -> list[str]:
    sides = optional_sides(comparison)
    return [f"**Optional points matched** (never in recall): {sides}.", ""] if sides else []


def comparison_warnings(comparison: Comparison) -> list[str]:
    runs = comparison.base + comparison.candidate
    invalid = [f"{run.folder}: {plural(run.aggregate.invalid_results, 'invalid result')}, compared strictly (as "
               "missed points, wrong fields and gate errors: a format failure counts against the prompt); `corpustools "
               "score` shows each figure over the valid results too" for run in runs if run.aggregate.invalid_results]
    return list(comparison.corpus_warnings) + [w for run in runs for w in run.warnings] + invalid


def changed_fixtures(comparison: Comparison) -> list[str]:
    """Lost fixtures with the candidate's evidence run by run, then gained fixtures, one line each."""
    lines = []
    lost = [(i, f) for i, f in enumerate(comparison.fixtures) if f.transition is Transition.LOST]
    if lost:
        lines += [f"## Lost fixtures ({len(lost)})", ""]
        for i, f in lost:
            lines += [f"### {md(f.id)} ({md(f.category)}): base {side_verdicts(f.base)}, candidate "
                      f"{side_verdicts(f.candidate)}", "", "Candidate:", ""] + across_runs(comparison.candidate, i)
    gained = [f for f in comparison.fixtures if f.transition is Transition.GAINED]
    if gained:
        lines += [f"## Gained fixtures ({len(gained)})", ""]
        lines += [f"- {md(f.id)} ({md(f.category)}): base {side_verdicts(f.base)}, candidate {side_verdicts(f.candidate)}"
                  for f in gained] + [""]
    return lines


def html_hint(comparison: Comparison) -> str:
    """The last line: the command that writes the interactive HTML comparison (paths as given)."""
    argv = ["corpustools", "compare", comparison.corpus.path]
    for option, runs in (("--base", comparison.base), ("--candidate", comparison.candidate)):
        argv += [part for run in runs for part in (option, run.folder)]
    argv += ["--allow-corpus-drift"] if comparison.drift else []
    argv += ["--format", "html", "--output", "compare.html"]
    return f"Full report: {code(shlex.join(argv))}, then open compare.html in a browser."


def render(comparison: Comparison) -> str:
    """Compact: the verdict, the lost and gained fixtures with evidence first (a drift banner
    above them), every table collapsed below."""
    c = comparison.corpus
    version = "" if c.version is None else f" v{c.version}"
    lines = drift_line(comparison)
    lines += verdict_block(comparison)
    lines += [transitions_line(comparison), ""] + optional_line(comparison)
    warnings = comparison_warnings(comparison)
    if warnings:
        lines += ["**Warnings**", ""] + [f"- {md(w)}" for w in warnings] + [""]
    lines += changed_fixtures(comparison) + ["## Expected points", ""] + points_section(comparison)
    metrics = [paired_line(comparison), ""] + metrics_table(comparison)
    if comparison.several_runs:
        metrics += ["", f"A delta is *beyond noise* {NOISE_RULE}"]
    lines += details("Metrics and the McNemar test", metrics)
    lines += details(html.escape(f"Corpus {c.name}{version} and the runs compared"),
                     table(["", ""], [["corpus", f"{md(c.name)}, version {'unknown' if c.version is None else c.version} "
                                                 f"({code(c.path)})"], ["corpus sha256", code(c.sha256)]])
                     + [""] + sides_table(comparison))
    lines += details(f"All fixtures ({transition_counts(comparison.fixtures)})",
                     fixtures_table(comparison))
    lines.append(html_hint(comparison))
    return printable_lines(lines)
