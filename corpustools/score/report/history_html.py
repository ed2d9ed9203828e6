"""The history section of an HTML score report: pass rate, recall and phantoms per history row
(one per `--append-history`), each drawn with its interval, read back from the Markdown table.

A row of one run holds counts (`50.0% (12/24)`): its interval is the 95% Wilson interval of
those counts. A row of several runs holds a mean and a sample standard deviation
(`52.1% ± 2.9 pp`, `16.0 ± 1.4`): its band is mean ± one standard deviation. Phantoms of one run
are a count, drawn without a band. A cell in neither form is shown as written, undrawn.
"""

from __future__ import annotations

import re

from corpustools.reporting.page import esc, interval_bar, range_bar, table
from corpustools.score.aggregate import Proportion

_COUNTS = re.compile(r"-?[\d.]+% \((\d+)/(\d+)\)")
_RATE_SPREAD = re.compile(r"(-?[\d.]+)% ± ([\d.]+) pp")
_NUMBER_SPREAD = re.compile(r"(-?[\d.]+) ± ([\d.]+)")
_NUMBER = re.compile(r"\d+")

METRICS = (("pass rate", "fixture pass rate"), ("recall", "expected-point recall"), ("phantoms", "phantoms"))


def rate_bar(cell: str) -> str:
    counts = _COUNTS.fullmatch(cell)
    if counts:
        return interval_bar(Proportion(int(counts[1]), int(counts[2])))
    spread = _RATE_SPREAD.fullmatch(cell)
    if spread:
        mean, std = float(spread[1]) / 100, float(spread[2]) / 100
        return range_bar(mean, mean - std, mean + std, 1.0, f"{cell} (mean ± 1 sd)")
    return range_bar(None, None, None, 1.0, cell)


def count_bar(cell: str, scale: float) -> str:
    if _NUMBER.fullmatch(cell):
        return range_bar(float(cell), None, None, scale, cell)
    spread = _NUMBER_SPREAD.fullmatch(cell)
    if spread:
        mean, std = float(spread[1]), float(spread[2])
        return range_bar(mean, mean - std, mean + std, scale, f"{cell} (mean ± 1 sd)")
    return range_bar(None, None, None, scale, cell)


def count_scale(cells: list[str]) -> float:
    """The phantom axis: up to the largest mean + sd in the history (at least 1)."""
    top = 1.0
    for cell in cells:
        spread = _NUMBER_SPREAD.fullmatch(cell)
        if spread:
            top = max(top, float(spread[1]) + float(spread[2]))
        elif _NUMBER.fullmatch(cell):
            top = max(top, float(cell))
    return top


def hover(row: dict[str, str]) -> str:
    """The model, and the run folders when the table has a results column (older ones do not)."""
    return f"model: {row['model']}" + (f"; results: {row['results']}" if "results" in row else "")


def history_section(rows: tuple[dict[str, str], ...], source: str) -> list[str]:
    lines = ["<h2>History</h2>"]
    if not rows:
        return lines + [f'<p class="muted">From <code>{esc(source)}</code>.</p>', "<p>The history has no rows yet.</p>"]
    scale = count_scale([row["phantoms"] for row in rows])
    lines.append(f'<p class="muted">From <code>{esc(source)}</code>, one row per scoring, in file order (hover a '
                 "prompt for its model and results). One run: the 95% Wilson interval of its counts; several runs: "
                 f"mean ± one sample standard deviation. Rates are drawn from 0% to 100%, phantoms from 0 to "
                 f"{scale:g}.</p>")
    header = ["#", "prompt", "runs", "date"] + [esc(label) for _, label in METRICS]
    cells = []
    for i, row in enumerate(rows, 1):
        drawn = [esc(row[key]) + (count_bar(row[key], scale) if key == "phantoms" else rate_bar(row[key]))
                 for key, _ in METRICS]  # the value as written, its track under it
        cells.append([str(i), f'<span title="{esc(hover(row))}">{esc(row["prompt"])} v{esc(row["version"])}</span>',
                      esc(row["runs"]), f'<span class="nowrap">{esc(row["date"])}</span>'] + drawn)
    return lines + table(header, cells, "history")
