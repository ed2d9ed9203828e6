"""The score reports: they only format a ScoreReport (corpustools.score.scoring), never score.

- text.py          the default, for a terminal: failures first, the verdict line last
- markdown.py      the report to paste into a pull request
- json.py          every number and reason, for scripts
- html.py          one self-contained page (html_fixture.py: one fixture's row and evidence;
                   history_html.py: the history section)
- drilldown.py     what a report shows under each reason of a failing fixture, and the reason in words
- compare/         the comparison's reports (text, markdown, json, html)
"""

from collections.abc import Callable

from corpustools.score.report.html import score_html
from corpustools.score.report.json import score_json
from corpustools.score.report.markdown import score_markdown
from corpustools.score.report.text import score_text
from corpustools.score.scoring import ScoreReport

__all__ = ["FORMATTERS", "compare"]

# `score --format`'s choices: a format is one function of a ScoreReport and one entry here.
FORMATTERS: dict[str, Callable[[ScoreReport], str]] = {
    "text": score_text,
    "markdown": score_markdown,
    "json": score_json,
    "html": score_html,
}
