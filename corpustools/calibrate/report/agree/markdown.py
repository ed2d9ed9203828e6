"""The agreement report as Markdown; its pieces are the plain-text and HTML reports' words too."""

from __future__ import annotations

from corpustools.calibrate.agree import (
    CLASSES,
    Agreement,
    Answered,
    FixtureDisagreement,
    LevelAgreement,
    PairAgreement,
    Side,
)
from corpustools.calibrate.agreement import Coefficient
from corpustools.calibrate.report.markdown import quoted
from corpustools.io.positions import printable_lines
from corpustools.reporting.formatting import (
    code,
    fraction,
    interval,
    markdown_opening,
    md,
    percent,
    plural,
    proportion,
    table,
)


def coefficient_text(c: Coefficient, *, with_interval: bool = False) -> str:
    """`0.89`, `0.89 (95% CI 0.74–1.00)` or `n/a (all answers one value)`: never NaN."""
    if c.value is None:
        return f"n/a ({c.undefined})"
    if with_interval and c.low is not None and c.high is not None:
        return f"{c.value:.2f} (95% CI {c.low:.2f}–{c.high:.2f})"
    return f"{c.value:.2f}"


def statistics_text(level: LevelAgreement) -> str:
    """`22/24 (91.7%, 95% CI 74.2%–97.7%); AC1 0.89 (95% CI 0.74–1.00), kappa 0.74, alpha 0.74`"""
    return (f"{proportion(level.percent)}; AC1 {coefficient_text(level.ac1, with_interval=True)}, "
            f"kappa {coefficient_text(level.kappa)}, alpha {coefficient_text(level.alpha)}")


def side_text(side: Side) -> str:
    reconciled = f" (reconciled from {' and '.join(side.reconciled)})" if side.reconciled else ""
    return f"{side.rater}{reconciled} ({side.worksheet})"


def pair_text(number: int, pair: PairAgreement) -> str:
    left = f"; {plural(len(pair.left_out), 'fixture')} in one worksheet only" if pair.left_out else ""
    return (f"pair {number}: {side_text(pair.first)} and {side_text(pair.second)} judged {pair.results}; "
            f"{pair.fixtures} fixture{'' if pair.fixtures == 1 else 's'} compared{left}")


def threshold_text(agreement: Agreement) -> str:
    """What corpus.yaml pre-registers, and each gated level's PASS or FAIL."""
    if agreement.threshold is None:
        return "no agreement threshold (corpus.yaml agreement:)"
    return f"threshold {agreement.threshold}: " + ", ".join(str(gate) for gate in agreement.gates)


def summary_parts(agreement: Agreement) -> tuple[str, str]:
    """The verdict line as (headline, the rest): fixture verdicts with every statistic, then each
    other level's agreement and AC1, and the threshold's verdict."""
    verdicts, *rest = agreement.levels
    p = verdicts.percent
    tail = (f" ({percent(p.rate)}, 95% CI {interval(p)}; AC1 {coefficient_text(verdicts.ac1)}, kappa "
            f"{coefficient_text(verdicts.kappa)}, alpha {coefficient_text(verdicts.alpha)})"
            + "".join(f"; {level.level.label} {fraction(level.percent)} (AC1 {coefficient_text(level.ac1)})"
                      for level in rest)
            + f"; {threshold_text(agreement)}.")
    return f"Raters agree on fixture verdicts {fraction(p)}", tail


def summary_line(agreement: Agreement) -> str:
    head, tail = summary_parts(agreement)
    return f"**{head}**{tail}"


def answer_text(a: Answered, raters: tuple[str, str]) -> str:
    """`point X: alice yes, bob no`; a proposal with its title."""
    if a.level == "verdicts":
        subject = "verdict"
    elif a.level == "leaks":
        subject = "leak"
    elif a.level == CLASSES.key:
        subject = f"proposal {a.item}" + (f" {quoted(a.title)}" if a.title else "")
    else:
        subject = f"{'optional point' if a.level == 'optional' else 'point'} {a.item}"
    return f"{subject}: {raters[0]} {a.first}, {raters[1]} {a.second}"


def fixture_heading(d: FixtureDisagreement, raters: tuple[str, str], *, several: bool) -> str:
    pair = f", pair {d.pair}" if several else ""
    return f"{d.fixture} ({d.category}{pair}): {raters[0]} {d.first_verdict}, {raters[1]} {d.second_verdict}"


def why_lines(d: FixtureDisagreement, raters: tuple[str, str]) -> list[str]:
    return [f"{rater}'s why: {why or '(none given)'}" for rater, why in zip(raters, (d.first_why, d.second_why),
                                                                         strict=True)]


def table_rows(level: LevelAgreement) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...], int]:
    """The categories and counts a report shows: a yes/no level's 2x2, proposal classes by kind."""
    if level.level.answers is None:
        return level.kind_table
    return level.categories, level.counts, 0


def confusion_table(level: LevelAgreement, raters: tuple[str, str]) -> list[str]:
    categories, counts, other_point = table_rows(level)
    lines = table([f"{md(raters[0])} \\ {md(raters[1])}", *categories],
                  [[category, *(str(n) for n in row)] for category, row in zip(categories, counts, strict=True)])
    if other_point:
        lines += ["", f"Of the pairs on the diagonal, {other_point} named two different points of one kind."]
    return lines


def agreement_rows(agreement: Agreement) -> list[list[str]]:
    return [[level.level.label, fraction(level.percent), percent(level.percent.rate), interval(level.percent),
             coefficient_text(level.ac1, with_interval=True), coefficient_text(level.kappa),
             coefficient_text(level.alpha)] for level in agreement.levels]


AGREEMENT_HEADER = ["level", "agreed", "rate", "95% interval (Wilson)", "Gwet's AC1 (95% CI)", "Cohen's kappa",
                    "Krippendorff's alpha"]


def per_pair_rows(agreement: Agreement) -> list[list[str]]:
    keys = [level.level.key for level in agreement.levels]
    return [[str(i), pair.results] + [f"{fraction(pair.level(k).percent)} (AC1 {coefficient_text(pair.level(k).ac1)})"
                                      for k in keys] for i, pair in enumerate(agreement.pairs, 1)]


def render(agreement: Agreement) -> str:
    raters = agreement.raters
    lines = markdown_opening("agree", agreement.corpus, summary_line(agreement))
    lines += table(["pair", "run", md(raters[0]), md(raters[1]), "fixtures compared"],
                   [[str(i), code(p.results), md(side_text(p.first)), md(side_text(p.second)), str(p.fixtures)]
                    for i, p in enumerate(agreement.pairs, 1)]) + [""]
    if agreement.warnings:
        lines += ["**Warnings**", ""] + [f"- {md(w)}" for w in agreement.warnings] + [""]
    lines += ["## Agreement", "", f"{md(raters[0])} against {md(raters[1])}, pooled over every pair. AC1's interval "
              "is Gwet's (t with n − 1 degrees of freedom); `n/a` says why a statistic is undefined.", ""]
    lines += table(AGREEMENT_HEADER, [[md(cell) for cell in row] for row in agreement_rows(agreement)]) + [""]
    lines += ["## Threshold", "", md(threshold_text(agreement)) + ".", ""]
    for level in agreement.levels:
        lines += [f"### {level.level.label}", ""] + confusion_table(level, raters) + [""]
    if len(agreement.pairs) > 1:
        lines += ["### Per pair", ""]
        lines += table(["pair", "run"] + [level.level.label for level in agreement.levels],
                       [[md(cell) for cell in row] for row in per_pair_rows(agreement)]) + [""]
    lines += ["## Disagreements", "", "For the reconciliation meeting: the fixtures whose verdicts differ first, "
              "then the most disagreements first.", ""]
    if not agreement.disagreements:
        lines += ["None: the raters agree on every answer.", ""]
    several = len(agreement.pairs) > 1
    for d in agreement.disagreements:
        lines += [f"**{md(fixture_heading(d, raters, several=several))}**", ""]
        lines += [f"- {md(answer_text(a, raters))}" for a in d.answers if a.level != "verdicts"]
        lines += [f"- {md(line)}" for line in why_lines(d, raters)]
        lines.append("")
    while lines and lines[-1] == "":
        lines.pop()
    return printable_lines(lines)
