"""What every lint format counts: findings by severity and by code, the summary line of the text
format, `--statistics`, and what standard error carries beside a report in another format."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from corpustools.lint.diagnostic import Diagnostic, Severity
from corpustools.lint.reported import LintReport, found
from corpustools.reporting.formatting import plural

T = TypeVar("T")


def severity_counts(diagnostics: Sequence[Diagnostic]) -> tuple[int, int]:
    """(errors, warnings), the folded findings counted."""
    errors = sum(d.count for d in diagnostics if d.severity is Severity.ERROR)
    return errors, found(diagnostics) - errors


def counts(diagnostics: Sequence[Diagnostic], key: Callable[[Diagnostic], T]) -> Counter[T]:
    """Findings by `key` of their diagnostic, the folded ones counted."""
    counted: Counter[T] = Counter()
    for d in diagnostics:
        counted[key(d)] += d.count
    return counted


def summary_line(diagnostics: Sequence[Diagnostic], fixtures: int, crashes: int = 0) -> str:
    """The last line of text output, ruff-style: what was found, in how many fixtures."""
    errors, warnings = severity_counts(diagnostics)
    said = [plural(n, noun) for n, noun in ((errors, "error"), (warnings, "warning"), (crashes, "internal error")) if n]
    if not said:
        return "All checks passed.\n"
    listed = ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else said[0]
    return f"Found {listed} in {plural(fixtures, 'fixture')}.\n"


def statistics(diagnostics: Sequence[Diagnostic]) -> str:
    """`--statistics`: one line per code, in code order: count, code, name; then the totals by severity."""
    by_code = counts(diagnostics, lambda d: (d.code, d.name))
    lines = [f"{count:<5} {code} {name}\n" for (code, name), count in sorted(by_code.items())]
    errors, warnings = severity_counts(diagnostics)
    lines.append(f"{errors} error(s), {warnings} warning(s)\n")
    return "".join(lines)


def notes(report: LintReport, fmt: str) -> str:
    """What standard error carries beside a report in `fmt`: the statistics and the --fix count,
    which the text format prints in the report itself."""
    if fmt == "text":
        return ""
    return (statistics(report.diagnostics) if report.statistics else "") + report.fixed_line()
