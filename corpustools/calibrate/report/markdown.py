"""The calibration report as Markdown; its pieces are the plain-text report's words too (text.py)."""

from __future__ import annotations

from corpustools.calibrate.agreement import LEVELS, Level, Table
from corpustools.calibrate.calibration import Calibration, RunCalibration
from corpustools.calibrate.causes import CAUSES, Disagreement, FixtureCalibration
from corpustools.io.positions import printable_lines
from corpustools.manifest import PromptRecord
from corpustools.reporting.formatting import (
    code,
    fraction,
    interval,
    markdown_opening,
    md,
    percent,
    proportion,
    table,
)


def quoted(text: str, limit: int | None = 70) -> str:
    """A title on one line, in double quotes; shortened to `limit` characters unless None."""
    one_line = " ".join(text.split())
    return '"' + (one_line if limit is None or len(one_line) <= limit else one_line[: limit - 3] + "...") + '"'


def kappa_text(kappa: float | None) -> str:
    return "n/a" if kappa is None else f"{kappa:.2f}"


def prompt_text(prompt: PromptRecord | None) -> str:
    """The prompt by identity; a report never prints the path run.yaml recorded for it."""
    if prompt is None:
        return "unrecorded (no run.yaml)"
    version = "unknown" if prompt.version is None else prompt.version
    return f"{prompt.name}, version {version} (sha256 {prompt.sha256[:12]})"


def level_summary(level: Level, t: Table) -> str:
    return f"{level.label} {proportion(t.agreement)}, kappa {kappa_text(t.kappa)}"


def shown_levels(source) -> list[Level]:
    """Every level, but optional points only when there are some (as in the score report)."""
    return [level for level in LEVELS if level.primary or source.table(level.key).total]


def held_out_text(calibration: Calibration) -> str:
    """`; held-out runs: 2 of 4 (the headline is theirs)` once the labels are frozen, else nothing."""
    if not calibration.frozen:
        return ""
    k, n = len(calibration.held_out), len(calibration.runs)
    return f"; held-out runs: {k} of {n}" + (" (the headline is theirs)" if k else " (every run is revision set)")


def run_status(run: RunCalibration) -> str:
    """`held-out`, `revision set: <why>`, or nothing when the labels were never frozen."""
    if run.held_out is None:
        return ""
    return "held-out" if run.held_out else f"revision set: {run.revision_why}"


def summary_parts(calibration: Calibration) -> tuple[str, str]:
    """The verdict line as (headline, the rest): fixture-verdict agreement, then every other level,
    over the held-out runs when there are any (else every run)."""
    fixture, *rest = shown_levels(calibration)
    t = calibration.headline_table(fixture.key)
    tail = (f" ({percent(t.agreement.rate)}, 95% CI {interval(t.agreement)}; kappa {kappa_text(t.kappa)})"
            + "".join(f"; {level_summary(level, calibration.headline_table(level.key))}" for level in rest)
            + held_out_text(calibration) + ".")
    return f"Fixture verdicts agree on {fraction(t.agreement)}", tail


def summary_line(calibration: Calibration) -> str:
    head, tail = summary_parts(calibration)
    return f"**{head}**{tail}"


def agreement_table(calibration: Calibration) -> list[str]:
    rows = []
    for level in shown_levels(calibration):
        t = calibration.table(level.key)
        rows.append([level.label, level.scorer_yes, level.human_yes, fraction(t.agreement), percent(t.agreement.rate),
                     interval(t.agreement), kappa_text(t.kappa)])
    return table(["level", "scorer says", "human says", "agreed", "rate", "95% interval (Wilson)", "Cohen's kappa"],
                 rows)


def two_by_two(level: Level, t: Table) -> list[str]:
    return table(["scorer \\ human", level.human_yes, f"not {level.human_yes}"],
                 [[level.scorer_yes, str(t.both_yes), str(t.scorer_only)],
                  [f"not {level.scorer_yes}", str(t.human_only), str(t.both_no)]])


def per_run_table(calibration: Calibration) -> list[str]:
    rows = []
    for i, run in enumerate(calibration.runs, 1):
        cells = [f"{fraction(run.table(lv.key).agreement)} (kappa {kappa_text(run.table(lv.key).kappa)})"
                 for lv in shown_levels(calibration)]
        rows.append([str(i), code(run.results)] + cells)
    return table(["run", "results"] + [lv.label for lv in shown_levels(calibration)], rows)


def runs_table(calibration: Calibration) -> list[str]:
    status = calibration.frozen  # a column of its own only once the labels are frozen
    rows = [[str(i), code(run.results), code(run.verdicts) + md(run.judged_by), md(prompt_text(run.prompt)),
             "**yes**" if run.shows_terms else "no"] + ([md(run_status(run))] if status else [])
            for i, run in enumerate(calibration.runs, 1)]
    return table(["run", "results", "verdicts", "prompt", "judge saw the terms"] + (["held out?"] if status else []),
                 rows)


def all_warnings(calibration: Calibration) -> list[str]:
    """Corpus warnings, then each run's, once each (every run repeats the sidecar ones)."""
    found = list(calibration.corpus_warnings) + [w for run in calibration.runs for w in run.warnings]
    return list(dict.fromkeys(found))


def disagreement_rest(d: Disagreement, limit: int | None = 70) -> str:
    """`[levels] point X proposal Y: detail`, what follows the cause on a disagreement's line (the
    title shortened to `limit` characters; None: whole, as a terminal shows it)."""
    title = f" {quoted(d.proposal_title, limit)}" if d.proposal_title else ""
    subject = "".join(part for part in (f" point {d.point}" if d.point else "",
                                        f" proposal {d.proposal}{title}" if d.proposal else ""))
    return f"[{', '.join(d.levels)}]{subject}: {d.detail}"


def fixture_heading(f: FixtureCalibration) -> str:
    return f"{f.fixture_id} ({f.category}): scorer {f.scorer_verdict}, human {f.human_verdict}"


def disagreeing(run: RunCalibration) -> list[FixtureCalibration]:
    return [f for f in run.fixtures if f.disagreements]


def disagreements_section(calibration: Calibration) -> list[str]:
    lines = []
    for i, run in enumerate(calibration.runs, 1):
        lines += [f"### Run {i}: {code(run.results)}", ""]
        fixtures = disagreeing(run)
        if not fixtures:
            lines += ["None: the scorer and the judge agree on every fixture, point and proposal.", ""]
        for f in fixtures:
            lines += [f"**{md(fixture_heading(f))}**", ""]
            lines += [f"- {code(d.cause)} {md(disagreement_rest(d))}" for d in f.disagreements]
            lines.append("")
    return lines


def render(calibration: Calibration) -> str:
    lines = markdown_opening("calibrate", calibration.corpus, summary_line(calibration))
    lines += runs_table(calibration) + [""]
    warnings = all_warnings(calibration)
    if warnings:
        lines += ["**Warnings**", ""] + [f"- {md(w)}" for w in warnings] + [""]
    lines += ["## Agreement", "", "Scorer verdicts are computed now, with the current labels. UNCHECKED and FAIL "
              "are not PASS; optional points are a secondary figure.", ""]
    lines += agreement_table(calibration) + [""]
    for level in shown_levels(calibration):
        lines += [f"### {level.label}", ""] + two_by_two(level, calibration.table(level.key)) + [""]
    if len(calibration.runs) > 1:
        lines += ["### Per run", ""] + per_run_table(calibration) + [""]
    lines += ["## Disagreements by cause", ""]
    counts = dict(calibration.cause_counts)
    lines += table(["cause", "count", "what it asks of the labels"],
                   [[code(cause), str(counts[cause]), meaning] for cause, meaning in CAUSES]) + [""]
    lines += ["## Disagreements", ""] + disagreements_section(calibration)
    while lines and lines[-1] == "":
        lines.pop()
    return printable_lines(lines)
