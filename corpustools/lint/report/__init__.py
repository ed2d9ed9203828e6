"""lint's report formats: each module formats a LintReport (corpustools.lint.reported), never lints.

- text.py          the default, for a terminal: `path:line:col: CODE [severity] message`, the summary line last
- json.py          one array of every diagnostic
- json_summary.py  one object of counts, for dashboards and CI badges
- github.py        GitHub Actions workflow commands (annotations)
- sarif.py         SARIF 2.1.0, for code scanning
- summary.py       the counts every format shares: the summary line, --statistics, what standard error carries
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import format_table
from corpustools.lint.report.summary import notes

if TYPE_CHECKING:
    from corpustools.lint.reported import LintReport

__all__ = ["FORMATTERS", "notes"]

# `lint --format`'s choices, in --help's order: a format is a module here whose render(report)
# returns its text, imported when the format is first used.
FORMATTERS: dict[str, Callable[[LintReport], str]] = format_table(__name__, "text", "json", "json-summary", "github", "sarif")
