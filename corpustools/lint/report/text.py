"""`lint --format text`, the default: a line per diagnostic (coloured on a terminal), then the
statistics when asked, the summary line unless quiet, and after --fix how many findings were fixed."""

from __future__ import annotations

from corpustools.io.positions import printable
from corpustools.lint.diagnostic import Severity
from corpustools.lint.report.summary import statistics, summary_line
from corpustools.lint.reported import LintReport

# ANSI SGR sequences for a terminal: bold code; red errors, yellow warnings.
_BOLD, _RESET = "\x1b[1m", "\x1b[0m"
_SEVERITY_COLOUR = {Severity.ERROR: "\x1b[31m", Severity.WARNING: "\x1b[33m"}


def render(report: LintReport) -> str:
    """`path:line:col: CODE [severity] message` a line; then the statistics, the summary line and
    the --fix count."""
    diagnostics = report.diagnostics
    lines = []
    for d in diagnostics:
        code, severity = d.code, f"[{d.severity}]"
        if report.colour:
            code = f"{_BOLD}{code}{_RESET}"
            severity = f"{_SEVERITY_COLOUR.get(d.severity, '')}{severity}{_RESET}"
        lines.append(f"{printable(d.path)}:{d.line}:{d.col}: {code} {severity} {printable(d.message)}\n")
    if report.statistics:
        lines.append(statistics(diagnostics))
    if not report.quiet:
        lines.append(summary_line(diagnostics, report.run.fixtures, len(report.run.crashes)))
    return "".join(lines) + report.fixed_line()
