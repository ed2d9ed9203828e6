"""`validate --format json`."""

from __future__ import annotations

from corpustools.io.documents import dump_json
from corpustools.model.status import FileStatus
from corpustools.validation.checks import ValidationReport


def render(report: ValidationReport) -> str:
    """One array of every problem of the files that could be read, in the order given: path, line
    and col (null when unknown), pointer, severity, message (an unreadable file is reported on
    standard error, exit 2)."""
    rows = [{"path": p.path, "line": p.line or None, "col": p.col or None, "pointer": p.pointer,
             "severity": p.severity, "message": p.message}
            for verdict in report.verdicts if verdict.status != FileStatus.UNREADABLE for p in verdict.problems]
    return dump_json(rows, indent=2) + "\n"
