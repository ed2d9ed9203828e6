"""`--append-history FILE`: one row per scoring in a Markdown table, a version-over-version record.

The table is the first Markdown table in FILE. A missing file is created with the table; a file
without a table gets one appended; a file whose first table has other columns is refused, so the
history never lands in a table it does not belong to. A row identical in every cell to one already
in the table (the same runs scored again) is not appended twice.

A table written before the `results` column existed (LEGACY_COLUMNS) is still appended to, with
rows in its own shape (no results cell): its existing rows are never rewritten.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass

from corpustools.io.errors import InputError
from corpustools.io.inputs import claim_update
from corpustools.io.positions import Pos, printable
from corpustools.io.textfile import decode_text, read_bytes
from corpustools.io.writing import refuse_corpus_path, refuse_target, update_text
from corpustools.manifest import RunManifest
from corpustools.reporting.formatting import fraction, md, metric_number, metric_spread, row_line, table, unmd
from corpustools.score.scoring import ScoreReport

HISTORY_COLUMNS = ("date", "prompt", "version", "model", "runs", "results", "pass rate", "recall", "phantoms",
                   "gate accuracy", "corpus version", "corpus sha256")
RESULTS_COLUMN = HISTORY_COLUMNS.index("results")
LEGACY_COLUMNS = HISTORY_COLUMNS[:RESULTS_COLUMN] + HISTORY_COLUMNS[RESULTS_COLUMN + 1:]
TITLE = "# Prompt evaluation history"
_SEPARATOR_CELL = re.compile(r":?-+:?")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def _distinct(values) -> str:
    return ", ".join(sorted(set(values), key=str)) or "unrecorded"


def _manifest_value(manifest: RunManifest | None, recorded: Callable[[RunManifest], object]) -> str:
    value = None if manifest is None else recorded(manifest)
    return "unrecorded" if value is None else str(value)


def history_row(report: ScoreReport) -> list[str]:
    runs = report.runs
    manifests = [run.manifest for run in runs]
    summary = report.repeated  # None for one run

    def rate(attr: str) -> str:
        if len(runs) == 1:
            p = getattr(runs[0].aggregate, attr)
            return f"{metric_number(p.rate, is_rate=True)} ({fraction(p)})"
        assert summary is not None
        spread = summary.spread_of(attr)
        return f"{metric_number(spread.mean, is_rate=True)} ± {metric_spread(spread.std, is_rate=True)}"

    if len(runs) == 1:
        phantoms = str(runs[0].aggregate.phantoms)
    else:
        assert summary is not None
        spread = summary.spread_of("phantoms")
        phantoms = f"{metric_number(spread.mean, is_rate=False)} ± {metric_spread(spread.std, is_rate=False)}"
    return [printable(md(cell)) for cell in (  # a Markdown table a pull request may render
        _distinct(_manifest_value(m, lambda m: m.started_at)[:10] if m else "unrecorded" for m in manifests),
        _distinct(_manifest_value(m, lambda m: m.prompt.name) for m in manifests),
        _distinct(_manifest_value(m, lambda m: m.prompt.version) for m in manifests),
        _distinct(_manifest_value(m, lambda m: m.model) for m in manifests),
        str(len(runs)),
        ", ".join(run.folder for run in runs),  # as given on the command line
        rate("pass_rate"),
        rate("recall"),
        phantoms,
        rate("gate_accuracy"),
        "unknown" if report.corpus.version is None else str(report.corpus.version),
        report.corpus.short_sha,
    )]


def split_row(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [c.strip() for c in _UNESCAPED_PIPE.split(inner)]


def is_separator(line: str) -> bool:
    """`|---|:--:|`: every cell dashes with optional colons (cell by cell, so linear in the line)."""
    return all(_SEPARATOR_CELL.fullmatch(c) for c in split_row(line))


def _first_table(lines: list[str]) -> tuple[int, int] | None:
    """(header line index, index past its last row) of the first Markdown table; None without one."""
    for i, line in enumerate(lines[:-1]):
        if line.lstrip().startswith("|") and is_separator(lines[i + 1]):
            end = i + 2
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            return i, end
    return None


def _history_table(lines: list[str], path: str, consequence: str) -> tuple[int, int, tuple[str, ...]] | None:
    """_first_table and its columns; InputError when they are neither the history's nor the legacy ones."""
    found = _first_table(lines)
    if found is None:
        return None
    columns = tuple(split_row(lines[found[0]]))
    if columns not in (HISTORY_COLUMNS, LEGACY_COLUMNS):
        raise InputError(Pos(path, found[0] + 1, 1),
                         f"the table here has columns ({', '.join(columns)}), not the history columns "
                         f"({', '.join(HISTORY_COLUMNS)}); {consequence}")
    return found[0], found[1], columns


def history_rows(text: str, path: str) -> tuple[dict[str, str], ...]:
    """The rows of the history table in `text` ({column: cell}, in file order); none without a
    table; InputError for a table with other columns or a row with another number of cells."""
    lines = text.split("\n")
    found = _history_table(lines, path, "not a history")
    if found is None:
        return ()
    header, end, columns = found
    rows = []
    for number in range(header + 2, end):
        cells = split_row(lines[number])
        if len(cells) != len(columns):
            raise InputError(Pos(path, number + 1, 1), f"a history row has {len(cells)} cells, not {len(columns)}")
        rows.append(dict(zip(columns, (unmd(c.replace("\\|", "|")) for c in cells), strict=True)))
    return tuple(rows)


def shaped(row: list[str], columns: tuple[str, ...]) -> list[str]:
    """`row` (HISTORY_COLUMNS) in the shape of a table with `columns`: a legacy table gets no results cell."""
    return row[:RESULTS_COLUMN] + row[RESULTS_COLUMN + 1:] if columns == LEGACY_COLUMNS else row


def has_row(text: str | None, row: list[str]) -> bool:
    """Whether the history's first table already holds a row identical to `row` in every cell
    (compared in that table's shape)."""
    lines = [] if text is None else text.split("\n")
    found = _first_table(lines)
    if found is None:
        return False
    columns = tuple(split_row(lines[found[0]]))
    cells = split_row(row_line(shaped(row, columns)))  # as written, so an escaped pipe compares as the cell it is
    return any(split_row(line) == cells for line in lines[found[0] + 2:found[1]])


def appended(text: str | None, path: str, row: list[str]) -> str:
    """The history file's new text with `row` added (unchanged when it already has that row).
    InputError for a foreign table."""
    if text is None:
        return "\n".join([TITLE, ""] + table(list(HISTORY_COLUMNS), [row])) + "\n"
    lines = text.split("\n")
    found = _history_table(lines, path, "not appended")
    if found is not None:
        end, columns = found[1], found[2]
        if has_row(text, row):  # re-checked under the lock: a concurrent identical append lands once
            return text
        return "\n".join(lines[:end] + [row_line(shaped(row, columns))] + lines[end:])
    body = text if text.endswith("\n") or not text else text + "\n"
    return body + ("\n" if body else "") + "\n".join(table(list(HISTORY_COLUMNS), [row])) + "\n"


def append_row(path: str, row: list[str], *, force: bool = False) -> None:
    """Add `row` to the history in `path`, re-reading the file under an exclusive lock so that
    concurrent appends never lose a row; written whole by a rename (see corpustools.io.writing)."""
    update_text(path, lambda: appended(read_history(path), path, row), force=force)


def read_history(path: str) -> str | None:
    """The history file's text; None when it does not exist; '' when it is empty."""
    if not os.path.lexists(path):
        return None
    data = read_bytes(path)
    return "" if not data.strip() else decode_text(data, path)


@dataclass(frozen=True)
class HistoryPlan:
    """What `--append-history FILE` and `--history FILE` ask of one score, checked before its report
    is written: the row to append to `append_to` (None when there is nothing to append, or the
    table already has that row: one row is a run's record), and the table an HTML page draws."""

    append_to: str | None = None
    row: list[str] | None = None
    drawn: tuple[str, str] | None = None  # (the table's text, its file)

    def append(self, *, force: bool = False) -> bool:
        """Append the row, if there is one to append; whether it was appended."""
        if self.append_to is None or self.row is None:
            return False
        append_row(self.append_to, self.row, force=force)
        return True


def plan_history(report: ScoreReport, *, append_to: str | None = None, draw_from: str | None = None,
                 force: bool = False) -> HistoryPlan:
    """Check the history files of a score before anything is written. `append_to`: the file the
    report's row is appended to (refused when it is one of the corpus's own files, an input, or
    read-only without `force`; a foreign table is an InputError), drawn with the row. `draw_from`:
    a history table to draw as it is (InputError when there is no such file)."""
    row, drawn = None, None
    if append_to:  # refuse a bad history file before writing the report
        refuse_corpus_path(append_to, report.corpus.path)
        claim_update(append_to, "--append-history")  # never a result; the report never over it
        refuse_target(append_to, force=force, updating=True)
        row = history_row(report)
        table = read_history(append_to)
        drawn = (appended(table, append_to, row), append_to)
        if has_row(table, row):  # the same run scored again: one row is its record
            row = None
    if draw_from:
        text = read_history(draw_from)
        if text is None:
            raise InputError(Pos(draw_from), "no such history file")
        drawn = (text, draw_from)
    return HistoryPlan(append_to, row, drawn)
