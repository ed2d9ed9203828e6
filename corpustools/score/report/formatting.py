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
from corpustools.score.aggregate import METRICS, PROPORTIONS, Proportion


def verdict_parts(a) -> tuple[str, str]:
    """One run's verdict line (an aggregate.Aggregate), as (headline, the rest): a report's first line."""
    return (f"{fraction(a.pass_rate)} fixtures passed",
            f"({percent(a.pass_rate.rate)}, 95% CI {interval(a.pass_rate)}); "
            f"recall {recall_text(a)}; {phantom_count(a)}; "
            f"gate accuracy {gate_text(a)}; false rejects {fraction(a.false_reject_rate)}"
            + (f"; optional points matched {fraction(a.optional_matched)}." if a.optional_points_total else "."))


def recall_note(tally) -> str:
    """`1 invalid result, its 2 points not judged` (an Aggregate or a TypeTally with points_not_judged)."""
    its = "its" if tally.recall_invalid == 1 else "their"
    return f"{plural(tally.recall_invalid, 'invalid result')}, {its} {plural(tally.points_not_judged, 'point')} not judged"


def gate_note(a) -> str:
    """`1 invalid result not judged` (an Aggregate with gate_not_judged)."""
    return f"{plural(a.gate_not_judged, 'invalid result')} not judged"


def recall_text(tally) -> str:
    """Recall (of an Aggregate or a TypeTally) as a report says it: `10/11 (90.9%, 95% CI ...)`;
    when some results were invalid, over the valid results, saying so beside it: `10/11 (...) (1
    invalid result, its 2 points not judged)` (the strict figure is the JSON's `recall`)."""
    if not tally.points_not_judged:
        return proportion(tally.recall)
    return f"{proportion(tally.recall_valid_only)} ({recall_note(tally)})"


def gate_text(a) -> str:
    """Gate accuracy as a report says it; over the valid results when some were invalid, saying so."""
    if not a.gate_not_judged:
        return proportion(a.gate_accuracy)
    return f"{proportion(a.gate_accuracy_valid_only)} ({gate_note(a)})"


def proportion_rows(a) -> list[tuple[str, Proportion]]:
    """(label, Proportion) of each aggregate proportion (PROPORTIONS), in order; when results were
    invalid, each valid-only figure (recall, gate accuracy) right after its strict one, labelled with
    what was not judged."""
    notes = {"recall": recall_note(a) if a.points_not_judged else None,
             "gate_accuracy": gate_note(a) if a.gate_not_judged else None}
    rows: list[tuple[str, Proportion]] = []
    for attr, label in PROPORTIONS:
        rows.append((label, getattr(a, attr)))
        if notes.get(attr):
            rows.append((f"{label}, of valid results ({notes[attr]})", getattr(a, f"{attr}_valid_only")))
    return rows


def field_text(tally) -> str:
    """A field's accuracy (a FieldTally): `16/16 (100.0%, 95% CI ...)`; over the valid results when
    some were invalid: `7/8 of valid results, 1 invalid (87.5%, 95% CI ...)`."""
    if not tally.invalid:
        return proportion(tally.accuracy)
    valid = tally.accuracy_valid_only
    return f"{fraction(valid)} of valid results, {tally.invalid} invalid{proportion(valid)[len(fraction(valid)):]}"


def phantom_count(a) -> str:
    """`3 phantoms`, or what a text output has instead (an answer is never a phantom)."""
    if not a.phantoms_apply:
        return "phantoms n/a (text answers)"
    return plural(a.phantoms, "phantom")


def f1_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def shown_f1_text(tally) -> str:
    """F1 (of an Aggregate or a TypeTally) beside the recall recall_text shows: over the valid results
    when some were invalid, so that it agrees with the precision and recall printed next to it (the
    strict one is the JSON's `f1`)."""
    return f1_text(tally.f1_valid_only if tally.points_not_judged else tally.f1)


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
