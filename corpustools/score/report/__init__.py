"""The score reports: they only format a ScoreReport (corpustools.score.scoring), never score.

- text.py          the default, for a terminal: failures first, the verdict line last
- markdown.py      the report to paste into a pull request
- json.py          every number and reason, for scripts
- html.py          one self-contained page (html_fixture.py: one fixture's row and evidence;
                   history_html.py: the history section)
- drilldown.py     what a report shows under each reason of a failing fixture, and the reason in words
- compare/         the comparison's reports (text, markdown, json, html)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import LazyFunction

if TYPE_CHECKING:
    from corpustools.score.scoring import ScoreReport

__all__ = ["FORMATTERS", "compare"]

_HERE = "corpustools.score.report"

# `score --format`'s choices: a format is one function of a ScoreReport and one entry here (its
# module is imported when the format is first used: `score` prints text without loading the page).
FORMATTERS: dict[str, Callable[[ScoreReport], str]] = {
    "text": LazyFunction(f"{_HERE}.text", "score_text"),
    "markdown": LazyFunction(f"{_HERE}.markdown", "score_markdown"),
    "json": LazyFunction(f"{_HERE}.json", "score_json"),
    "html": LazyFunction(f"{_HERE}.html", "score_html"),
}
