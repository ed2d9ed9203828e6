"""The comparison's reports: they only format a Comparison (corpustools.score.compare).

- text.py          the default, in markdown.py's words, the headline last
- markdown.py      the comparison to paste into a pull request
- json.py          every number, for scripts
- html.py          one self-contained page
"""

from collections.abc import Callable

from corpustools.score.compare import Comparison
from corpustools.score.report.compare.html import compare_html
from corpustools.score.report.compare.json import compare_json
from corpustools.score.report.compare.markdown import compare_markdown
from corpustools.score.report.compare.text import compare_text

__all__ = ["FORMATTERS"]

# `compare --format`'s choices: a format is one function of a Comparison and one entry here.
FORMATTERS: dict[str, Callable[[Comparison], str]] = {
    "text": compare_text,
    "markdown": compare_markdown,
    "json": compare_json,
    "html": compare_html,
}
