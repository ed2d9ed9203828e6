"""The calibration report as one self-contained HTML page (see docs/html-report.md). It leads with
what disagreed: the prompt(s) as the heading, the verdict line as a banner, then each disagreeing
fixture of each run in a `<details>` block whose summary lists every disagreement with its cause
(filterable by cause, category and run); then agreement per level with its Wilson interval drawn,
the 2x2 tables, disagreements by cause and the runs."""

from __future__ import annotations

import os

from corpustools.calibrate.agreement import Level, Table
from corpustools.calibrate.calibration import Calibration
from corpustools.calibrate.causes import CAUSES, FixtureCalibration
from corpustools.calibrate.report.markdown import (
    all_warnings,
    disagreeing,
    disagreement_rest,
    kappa_text,
    prompt_text,
    run_status,
    shown_levels,
    summary_parts,
)
from corpustools.reporting.formatting import fraction, interval, percent, plural
from corpustools.reporting.page import (
    anchor,
    banner,
    corpus_header,
    corpus_text,
    drawn,
    esc,
    filter_bar,
    heading,
    interval_bar,
    page,
    prompt_label,
    table,
    verdict_badge,
    warnings,
)


def agreement_table(calibration: Calibration) -> list[str]:
    rows = []
    for level in shown_levels(calibration):
        t = calibration.table(level.key)
        rows.append([esc(level.label), esc(level.scorer_yes), esc(level.human_yes), esc(fraction(t.agreement)),
                     esc(percent(t.agreement.rate)), drawn(interval(t.agreement), t.agreement),
                     esc(kappa_text(t.kappa))])
    return table(["level", "scorer says", "human says", "agreed", "rate", "95% interval (Wilson), 0% – 100%",
                  "Cohen's kappa"], rows, "metrics")


def two_by_two(level: Level, t: Table) -> list[str]:
    return [f"<h3>{esc(level.label)}</h3>"] + table(
        [esc("scorer \\ human"), esc(level.human_yes), esc(f"not {level.human_yes}")],
        [[esc(level.scorer_yes), str(t.both_yes), str(t.scorer_only)],
         [esc(f"not {level.scorer_yes}"), str(t.human_only), str(t.both_no)]])


def runs_table(calibration: Calibration) -> list[str]:
    status = calibration.frozen
    rows = [[str(i), f"<code>{esc(run.results)}</code>", f"<code>{esc(run.verdicts)}</code>{esc(run.judged_by)}",
             esc(prompt_text(run.prompt)), "<strong>yes</strong>" if run.shows_terms else "no"]
            + ([esc(run_status(run))] if status else []) for i, run in enumerate(calibration.runs, 1)]
    return table(["run", "results", "verdicts", "prompt", "judge saw the terms"] + (["held out?"] if status else []),
                 rows)


def per_run_table(calibration: Calibration) -> list[str]:
    levels = shown_levels(calibration)
    rows = [[str(i), f"<code>{esc(run.results)}</code>"]
            + [f"{esc(fraction(run.table(lv.key).agreement))} (kappa {esc(kappa_text(run.table(lv.key).kappa))}) "
               f"{interval_bar(run.table(lv.key).agreement)}" for lv in levels]
            for i, run in enumerate(calibration.runs, 1)]
    return ["<h3>Per run</h3>"] + table(["run", "results"] + [esc(lv.label) for lv in levels], rows, "metrics")


def fixture_block(run_number: int, f: FixtureCalibration, folder: str = "") -> list[str]:
    """One disagreeing fixture of run `run_number` (its results `folder`): the summary lists each
    disagreement in words with its cause beside it; inside, the judge's why and the points and
    proposals as the scorer and the judge saw them."""
    name = os.path.basename(os.path.normpath(folder)) if folder else ""
    causes = sorted({d.cause for d in f.disagreements})
    lines = [f'<details class="fixture" id="{anchor(f"run{run_number}", f.fixture_id)}" '
             f'data-fixture="{esc(f.fixture_id)}" data-run="{run_number}" data-category="{esc(f.category)}" '
             f'data-cause="{esc(" ".join(causes))}">',
             f'<summary><span class="id">{esc(f.fixture_id)}</span> scorer {verdict_badge(f.scorer_verdict)} human '
             f'{verdict_badge(f.human_verdict)} <span class="muted">run {run_number}{f" ({esc(name)})" if name else ""}, '
             f'{esc(f.category)}</span>'
             + "".join(f'<span class="reason disagreement" data-cause="{esc(d.cause)}"><span class="words">'
                       f'{esc(disagreement_rest(d, None))}</span> <code class="code">{esc(d.cause)}</code></span>'
                       for d in f.disagreements) + "</summary>"]
    if f.why.strip():
        lines.append(f'<p class="muted">The judge: {esc(" ".join(f.why.split()))}</p>')
    if f.points or f.optional:
        lines += table(["point", "scorer matched", "human captured"],
                       [[f"<code>{esc(p)}</code>" + (" (optional)" if optional else ""), yes_no(s), yes_no(h)]
                        for optional, listed in ((False, f.points), (True, f.optional)) for p, s, h in listed])
    if f.proposals:
        lines += table(["proposal", "scorer: phantom", "human: over-extraction"],
                       [[f"<code>{esc(p)}</code>", yes_no(s), yes_no(h)] for p, s, h in f.proposals])
    return lines + ["</details>"]


def yes_no(value: bool) -> str:  # noqa: FBT001 -- the bool is the value shown, not a switch
    return "yes" if value else "no"


def render(calibration: Calibration) -> str:
    c = calibration.corpus
    prompt = prompt_label([run.prompt for run in calibration.runs], c.prompt)
    k = len(calibration.runs)
    how = (f"corpustools calibrate: the scorer against a careful reader on {k} run{'s' if k > 1 else ''}, "
           f"{corpus_text(c)}")
    head, tail = summary_parts(calibration)
    fixtures = [(i, f) for i, run in enumerate(calibration.runs, 1) for f in disagreeing(run)]
    folders = {i: run.results for i, run in enumerate(calibration.runs, 1)}
    body = heading(prompt, how) + [banner("good" if not fixtures else "neutral", head, tail)]
    body += warnings(all_warnings(calibration))
    counts = dict(calibration.cause_counts)
    filters = [("cause", [cause for cause, _ in CAUSES if counts[cause]]),
               ("category", sorted({f.category for _, f in fixtures})),
               ("run", [str(i) for i in range(1, k + 1)])]
    body += [f"<h2>Disagreements ({plural(len(fixtures), 'fixture')})</h2>",
             filter_bar(filters)]
    if not fixtures:
        body.append("<p>None: the scorer and the judge agree on every fixture, point and proposal.</p>")
    for number, fixture in fixtures:
        body += fixture_block(number, fixture, folders[number])
    body += ["<h2>Agreement</h2>", "<p>Scorer verdicts are computed now, with the current labels. UNCHECKED and FAIL "
             "are not PASS; optional points are a secondary figure.</p>"] + agreement_table(calibration)
    for level in shown_levels(calibration):
        body += two_by_two(level, calibration.table(level.key))
    if k > 1:
        body += per_run_table(calibration)
    body += ["<h2>Disagreements by cause</h2>"] + table(
        ["cause", "count", "what it asks of the labels"],
        [[f"<code>{esc(cause)}</code>", str(counts[cause]), esc(meaning)] for cause, meaning in CAUSES])
    body += ["<h2>The corpus and the runs</h2>"]
    body += table(["", ""], corpus_header(c), "about")
    body += runs_table(calibration)
    return page(f"{prompt} · corpustools calibrate · {corpus_text(c)}", body)
