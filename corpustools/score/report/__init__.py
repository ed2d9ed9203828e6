"""The score reports: they only format a ScoreReport (corpustools.score.scoring), never score.

- text.py          the default, for a terminal: failures first, the verdict line last
- markdown.py      the report to paste into a pull request
- json.py          every number and reason, for scripts
- html.py          one self-contained page (html_fixture.py: one fixture's row and evidence;
                   history_html.py: the history section)
- drilldown.py     what a report shows under each reason of a failing fixture, and the reason in words
- formatting.py    the verdict line of one run or of several, phantoms and F1 in words
- compare/         the comparison's reports (text, markdown, json, html)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import format_table

if TYPE_CHECKING:
    from corpustools.score.scoring import ScoreReport

__all__ = ["FORMATTERS", "compare"]

# `score --format`'s choices, in --help's order: a format is a module here whose render(report)
# returns its text, imported when the format is first used.
FORMATTERS: dict[str, Callable[[ScoreReport], str]] = format_table(__name__, "text", "markdown", "json", "html")
