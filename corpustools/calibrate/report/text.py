"""The calibration report as plain text, for a terminal, in the Markdown report's words."""

from __future__ import annotations

from corpustools.calibrate.calibration import Calibration
from corpustools.calibrate.report.markdown import (
    all_warnings,
    disagreeing,
    disagreement_rest,
    fixture_heading,
    kappa_text,
    prompt_text,
    run_status,
    shown_levels,
    summary_parts,
)
from corpustools.io.positions import printable_lines
from corpustools.reporting.formatting import corpus_line, formats_hint, proportion


def render(calibration: Calibration) -> str:
    """For a terminal: the disagreeing fixtures first, each disagreement with its cause, then the
    runs, the agreement of each level and the causes counted, and the verdict line LAST."""
    lines = []
    several = len(calibration.runs) > 1
    for i, run in enumerate(calibration.runs, 1):
        fixtures = disagreeing(run)
        indent = "  " if several else ""
        if several and fixtures:
            lines.append(f"run {i} ({run.results}):")
        for f in fixtures:
            lines.append(f"{indent}{fixture_heading(f)}")
            lines += [f"{indent}  {d.cause} {disagreement_rest(d, None)}" for d in f.disagreements]
    lines += [""] if lines else []
    lines.append(corpus_line(calibration.corpus))
    for i, run in enumerate(calibration.runs, 1):
        lines.append(f"run {i}: {run.results} judged in {run.verdicts}{run.judged_by}; prompt {prompt_text(run.prompt)}"
                     + ("; the judge saw the terms" if run.shows_terms else "")
                     + (f"; {run_status(run)}" if run.held_out is not None else ""))
    lines.append("agreement (scorer vs human):")
    for level in shown_levels(calibration):
        t = calibration.table(level.key)
        lines.append(f"  {level.label}: {proportion(t.agreement)}, kappa {kappa_text(t.kappa)}; "
                     f"{level.scorer_yes}/{level.human_yes} {t.both_yes}, {level.scorer_yes}/not {t.scorer_only}, "
                     f"not/{level.human_yes} {t.human_only}, not/not {t.both_no}")
    causes = ", ".join(f"{cause} {count}" for cause, count in calibration.cause_counts if count)
    lines.append(f"disagreements by cause: {causes or 'none'}")
    lines += [f"warning: {w}" for w in all_warnings(calibration)]
    head, tail = summary_parts(calibration)
    lines += [formats_hint("calibration.html"), head + tail]
    return printable_lines(lines)
