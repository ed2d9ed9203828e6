"""`provenance verify --format text`, the default."""

from __future__ import annotations

from corpustools.io.paths import display_path
from corpustools.io.positions import printable_lines
from corpustools.provenance.records import VerifyReport


def render(report: VerifyReport) -> str:
    """`path: changed since the record RECORD` a line; one line saying all is well when nothing changed."""
    record = display_path(report.record)
    lines = [f"{display_path(d.path)}: {d.status} since the record {record}" for d in report.drifts]
    return printable_lines(lines or [f"{record}: every file matches the record"])
