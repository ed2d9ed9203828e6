"""The comparison as plain text, for a terminal: the verdict (REGRESSED, improved, or no change
beyond noise) with the McNemar line, the lost fixtures with the candidate's evidence, the gained
fixtures and the changed points first; then the plain sections (no <details>: a terminal cannot fold).
The words and numbers are the Markdown comparison's (compare_markdown), without its markup."""

from __future__ import annotations

from corpustools.io.positions import printable_lines
from corpustools.score.compare import Comparison, Transition, improvement_reasons
from corpustools.score.compare_markdown import (
    DRIFT_CAVEAT,
    NOISE_RULE,
    PAIRED_LABEL,
    REGRESSED_ADVICE,
    comparison_warnings,
    noise_text,
    optional_sides,
    paired_text,
    side_verdicts,
    transition_counts,
)
from corpustools.score.formatting import metric_number, signed
from corpustools.score.report_text import across_runs_text, manifest_lines


def verdict_line(comparison: Comparison) -> str:
    if comparison.regressed:
        return f"REGRESSED: {'; '.join(comparison.regressed_because)}. {REGRESSED_ADVICE}"
    improved = improvement_reasons(comparison)
    if improved:
        return f"improved: {'; '.join(improved)}."
    if comparison.several_runs:
        return "no change beyond noise: recall and gate accuracy neither worsened nor improved beyond noise."
    return "no change beyond noise: no fixture lost or gained."


def head_lines(comparison: Comparison) -> list[str]:
    lines = [verdict_line(comparison), f"{PAIRED_LABEL} {paired_text(comparison)}",
             f"fixtures: {transition_counts(comparison.fixtures)}."]
    optional = optional_sides(comparison)
    lines += [f"optional points matched (never in recall): {optional}."] if optional else []
    lines += [f"WARNING: CORPUS DRIFT ALLOWED (--allow-corpus-drift): {drift}. {DRIFT_CAVEAT}"
              for drift in comparison.drift]
    lines += list(comparison.labels_revised)
    return lines + [f"warning: {w}" for w in comparison_warnings(comparison)]


def changed_lines(comparison: Comparison) -> list[str]:
    """Lost fixtures with the candidate's evidence run by run, gained fixtures one line each, then
    the expected points whose match share changed."""
    def heading(f) -> str:
        return f"{f.id} ({f.category}): base {side_verdicts(f.base)}, candidate {side_verdicts(f.candidate)}"

    lines: list[str] = []
    lost = [(i, f) for i, f in enumerate(comparison.fixtures) if f.transition is Transition.LOST]
    if lost:
        lines += ["", f"lost fixtures ({len(lost)}):"]
        for i, f in lost:
            lines += [f"  {heading(f)}", "    candidate:"] + across_runs_text(comparison.candidate, i, "      ")
    gained = [f for f in comparison.fixtures if f.transition is Transition.GAINED]
    if gained:
        lines += ["", f"gained fixtures ({len(gained)}):"] + [f"  {heading(f)}" for f in gained]
    lines += ["", f"expected points: {transition_counts(comparison.points)}."]
    lines += [f"  {p.transition.value}: {p.fixture_id} {p.point_id}: base matched {p.base_matched}/{p.base_runs}, "
              f"candidate {p.candidate_matched}/{p.candidate_runs}" for p in comparison.changed_points]
    return lines


def metric_lines(comparison: Comparison) -> list[str]:
    lines = ["metrics:"]
    for m in comparison.metrics:
        rate = m.metric.is_rate
        noise = noise_text(m)
        lines.append(f"  {m.metric.label}{'' if m.metric.higher_is_better else ' (lower is better)'}: "
                     f"base {metric_number(m.base, rate)}, candidate {metric_number(m.candidate, rate)}, "
                     f"delta {signed(m.delta, rate)}, {m.direction.value}" + (f", {noise}" if noise else ""))
    if comparison.several_runs:
        lines.append(f"  a delta is beyond noise {NOISE_RULE}")
    return lines


def sides_lines(comparison: Comparison) -> list[str]:
    c = comparison.corpus
    lines = [f"corpustools compare: {c.name}, version {'unknown' if c.version is None else c.version}",
             f"corpus: {c.path} (sha256 {c.sha256})"]
    for side, runs in (("base", comparison.base), ("candidate", comparison.candidate)):
        for number, run in enumerate(runs, 1):
            lines += [f"{side} run {number}: {run.folder}"] + manifest_lines(run, "  ")
    return lines


def fixture_lines(comparison: Comparison) -> list[str]:
    width = max((len(f.id) for f in comparison.fixtures), default=0)
    return [f"fixtures ({transition_counts(comparison.fixtures)}):"] + [
        f"  {f.transition.value:<6} {f.id:<{width}}  {f.category}: base {side_verdicts(f.base)}, "
        f"candidate {side_verdicts(f.candidate)}" for f in comparison.fixtures]


def compare_text(comparison: Comparison) -> str:
    lines = head_lines(comparison) + changed_lines(comparison)
    for section in (sides_lines, metric_lines, fixture_lines):
        lines += [""] + section(comparison)
    return printable_lines(lines)
