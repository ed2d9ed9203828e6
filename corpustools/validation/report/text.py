"""`validate --format text`, the default."""

from __future__ import annotations

from corpustools.io.positions import printable
from corpustools.model.status import FileStatus
from corpustools.validation.checks import ValidationReport


def render(report: ValidationReport) -> str:
    """Each readable file's lines: its problems, `path: valid` when it has none (an unreadable file
    is said on standard error)."""
    return "".join(printable(line) + "\n" for verdict in report.verdicts if verdict.status != FileStatus.UNREADABLE
                   for line in verdict.lines)
