"""The comparison as plain text, for a terminal (the default format): the lost fixtures first with
the candidate's reasons, the gained fixtures and the changed points, then the metrics, the McNemar
line and how the blocking metrics moved, and the headline LAST (`improved: 7 fixtures gained, 1
lost (reject-noise-01)`), where the terminal leaves the reader. The words and numbers are the
Markdown comparison's (markdown.py), without its markup."""

from __future__ import annotations

from corpustools.io.positions import printable_lines
from corpustools.reporting.formatting import corpus_line, formats_hint
from corpustools.score.compare import Comparison
from corpustools.score.report.compare.markdown import (
    DRIFT_CAVEAT,
    NOISE_RULE,
    PAIRED_LABEL,
    comparison_warnings,
    metric_label,
    noise_text,
    optional_sides,
    paired_text,
    side_verdicts,
    transition_counts,
)
from corpustools.score.report.text import across_runs_text, run_summary


def changed_lines(comparison: Comparison) -> list[str]:
    """Lost fixtures with the candidate's reasons in each run it did not pass, gained fixtures one
    line each, then the expected points whose match share changed."""
    def heading(f) -> str:
        return f"{f.id} ({f.category}): base {side_verdicts(f.base)}, candidate {side_verdicts(f.candidate)}"

    lines: list[str] = []
    index = {f.id: i for i, f in enumerate(comparison.fixtures)}
    if comparison.lost:
        lines.append(f"lost fixtures ({len(comparison.lost)}):")
        for f in comparison.lost:
            lines += [f"  {heading(f)}", "    candidate:"] + across_runs_text(comparison.candidate, index[f.id], "      ")
    if comparison.gained:
        lines += [f"gained fixtures ({len(comparison.gained)}):"] + [f"  {heading(f)}" for f in comparison.gained]
    lines.append(f"expected points: {transition_counts(comparison.points)}")
    lines += [f"  {p.transition.value}: {p.fixture_id} {p.point_id}: base matched {p.base_matched}/{p.base_runs}, "
              f"candidate {p.candidate_matched}/{p.candidate_runs}" for p in comparison.changed_points]
    return lines


def metric_lines(comparison: Comparison) -> list[str]:
    lines = ["metrics:"]
    for m in comparison.metrics:
        noise = noise_text(m)
        lines.append(f"  {metric_label(comparison, m)}: base {comparison.number(m, m.base)}, candidate "
                     f"{comparison.number(m, m.candidate)}, delta {comparison.delta_text(m)}, "
                     f"{m.direction.value}" + (f", {noise}" if noise else ""))
    if comparison.several_runs:
        lines.append(f"  a delta is beyond noise {NOISE_RULE}")
    return lines


def sides_lines(comparison: Comparison) -> list[str]:
    lines = [corpus_line(comparison.corpus)]
    for side, runs in (("base", comparison.base), ("candidate", comparison.candidate)):
        for number, run in enumerate(runs, 1):
            lines.append(f"{side}{f' run {number}' if len(runs) > 1 else ''}: {run_summary(run)}")
    return lines


def warning_lines(comparison: Comparison) -> list[str]:
    lines = [f"WARNING: CORPUS DRIFT ALLOWED (--allow-corpus-drift): {drift}. {DRIFT_CAVEAT}"
             for drift in comparison.drift]
    return lines + [f"warning: {w}" for w in comparison_warnings(comparison)]


def render(comparison: Comparison) -> str:
    """The label-drift line (when the labels were revised since a run: both sides are scored under
    the current ones), what changed, the sides and metrics, warnings, then the headline."""
    revised = list(comparison.since_lines)
    lines = revised + ([""] if revised else []) + changed_lines(comparison) + [""] + sides_lines(comparison)
    lines += metric_lines(comparison)
    optional = optional_sides(comparison)
    lines += [f"optional points matched (never in recall): {optional}"] if optional else []
    lines += [f"{PAIRED_LABEL} {paired_text(comparison)}", comparison.blocking_text]
    lines += warning_lines(comparison)
    lines += [formats_hint("compare.html"), comparison.headline_text]
    return printable_lines(lines)
