"""`score --fail-under pass_rate=0.8,recall=0.95,phantoms=3`: the opt-in gate on a score report.

Without the option `score` stays advisory (exit 0). With it, every threshold the report's
proportion (the mean over runs, with several runs) falls under, or the phantom count (the mean
over runs) exceeds, is one breach: exit 1, one line each.
"""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING

from corpustools.score.aggregate import metric_value
from corpustools.score.stats import mean

if TYPE_CHECKING:  # the parser runs at every start-up: it imports nothing of the scorer
    from corpustools.score.scoring import ScoreReport

GATED_METRICS = ("pass_rate", "recall", "gate_accuracy")
CEILINGS = ("phantoms",)  # counts gated from above: at most N


def parse_thresholds(text: str) -> tuple[tuple[str, float], ...]:
    """`key=number,...` -> ((key, number), ...) in the order given; argparse type (usage error, exit 2)."""
    thresholds: dict[str, float] = {}
    for item in text.split(","):
        key, equals, value = (part.strip() for part in item.partition("="))
        if key not in GATED_METRICS + CEILINGS:
            raise argparse.ArgumentTypeError(
                f"{key or item.strip()!r} is not one of {', '.join(GATED_METRICS + CEILINGS)} "
                "(expected KEY=NUMBER,...)")
        try:
            number = float(value) if equals else math.nan
        except ValueError:
            number = math.nan
        if key in CEILINGS:
            if not 0 <= number < math.inf:  # also refuses nan and a missing value
                raise argparse.ArgumentTypeError(f"{key}: {value!r} is not a number of 0 or more (at most N)")
        elif not 0 <= number <= 1:  # also refuses nan and a missing value
            raise argparse.ArgumentTypeError(f"{key}: {value!r} is not a number from 0 to 1")
        if key in thresholds:
            raise argparse.ArgumentTypeError(f"{key} is given twice")
        thresholds[key] = number
    return tuple(thresholds.items())


def breaches(report: ScoreReport, thresholds: tuple[tuple[str, float], ...]) -> list[str]:
    """One line per threshold the report falls under; a proportion with nothing to measure
    (no fixture in its denominator, in every run) cannot meet a threshold."""
    lines = []
    for key, bound in thresholds:
        value = mean([v for v in (metric_value(run.aggregate, key) for run in report.runs) if v is not None])
        if value is None:
            lines.append(f"{key} is n/a (nothing to measure) and cannot meet {bound:g}")
        elif key in CEILINGS:
            if round(value, 4) > bound:
                lines.append(f"{key} {value:g} is over {bound:g}")
        elif round(value, 4) < bound:  # the 4 decimals the report shows
            lines.append(f"{key} {value:.4f} is under {bound:g}")
    return lines
