"""How a score report tells a run's verdict: the verdict line of one run or of k runs, phantoms and
F1 in words. The numbers' precision and the Markdown escaping are corpustools.reporting.formatting's."""

from __future__ import annotations

from corpustools.reporting.formatting import (
    fraction,
    interval,
    metric_number,
    metric_spread,
    percent,
    plural,
    proportion,
)
from corpustools.score.aggregate import METRICS


def verdict_parts(a) -> tuple[str, str]:
    """One run's verdict line (an aggregate.Aggregate), as (headline, the rest): a report's first line."""
    return (f"{fraction(a.pass_rate)} fixtures passed",
            f"({percent(a.pass_rate.rate)}, 95% CI {interval(a.pass_rate)}); "
            f"recall {proportion(a.recall)}; {phantom_count(a)}; "
            f"gate accuracy {proportion(a.gate_accuracy)}; false rejects {fraction(a.false_reject_rate)}"
            + (f"; optional points matched {fraction(a.optional_matched)}." if a.optional_points_total else "."))


def phantom_count(a) -> str:
    """`3 phantoms`, or what a text output has instead (an answer is never a phantom)."""
    if not a.phantoms_apply:
        return "phantoms n/a (text answers)"
    return plural(a.phantoms, "phantom")


def f1_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def repeated_verdict_parts(summary, aggregates, number=None) -> tuple[str, str]:
    """The verdict line of k runs (a repeated.RepeatedSummary and each run's Aggregate): each run's
    pass count, then the mean of every metric and the flaky count. `number(value, is_rate=...)` prints
    a mean (default metric_number: a count's with one decimal; the text and HTML reports pass
    run_value: a whole mean as the whole number it is)."""
    number = number or metric_number
    first, *rest = METRICS
    spread = summary.spread_of(first.key)
    flaky = len(summary.flaky)
    return (f"{', '.join(fraction(a.pass_rate) for a in aggregates)} fixtures passed in {summary.runs} runs",
            f"(mean {number(spread.mean, is_rate=True)}, sample std {metric_spread(spread.std, is_rate=True)}); "
            + "; ".join(f"{m.label} mean {number(summary.spread_of(m.key).mean, is_rate=m.is_rate)}" for m in rest)
            + f"; {plural(flaky, 'flaky fixture')}.")
