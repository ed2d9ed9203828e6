"""`lint --format github`: GitHub Actions workflow commands, one annotation per diagnostic."""

from __future__ import annotations

from corpustools.io.positions import printable
from corpustools.lint.diagnostic import Severity
from corpustools.lint.reported import LintReport


def _data(text: str) -> str:
    return printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: LintReport) -> str:
    """Each diagnostic an annotation on its file (paths relative to the repository root, as GitHub
    resolves them)."""
    lines = []
    for d in report.from_root():
        command = "error" if d.severity is Severity.ERROR else "warning"
        props = ",".join((f"file={_property(d.path)}", f"line={d.line}", f"col={d.col}",
                          f"title={_property(f'{d.code} {d.name}')}"))
        lines.append(f"::{command} {props}::{_data(d.message)}\n")
    return "".join(lines)
