"""`lint --format json`: one JSON array of every diagnostic."""

from __future__ import annotations

from corpustools.io.documents import dump_json
from corpustools.lint.reported import LintReport


def render(report: LintReport) -> str:
    """Each diagnostic's path, line, col, code, name, severity, message, and on the last one listed
    of a rule in a file when more are not listed, `folded` (how many)."""
    return dump_json([d.as_dict() for d in report.diagnostics], indent=2) + "\n"
