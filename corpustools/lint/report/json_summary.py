"""`lint --format json-summary`: one JSON object of counts, for dashboards and CI badges."""

from __future__ import annotations

from corpustools import __version__
from corpustools.io.documents import dump_json
from corpustools.lint.report.summary import counts, severity_counts
from corpustools.lint.reported import LintReport


def render(report: LintReport) -> str:
    """The tool and its version, errors, warnings, fixtures, findings by code and the exit code."""
    diagnostics = report.diagnostics
    errors, warnings = severity_counts(diagnostics)
    summary = {
        "tool": "corpustools",
        "version": __version__,
        "errors": errors,
        "warnings": warnings,
        "fixtures": report.run.fixtures,
        "by_code": dict(sorted(counts(diagnostics, lambda d: d.code).items())),
        "exit_code": report.exit_code,
    }
    return dump_json(summary, indent=2) + "\n"
