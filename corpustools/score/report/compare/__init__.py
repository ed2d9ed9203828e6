"""The comparison's reports: they only format a Comparison (corpustools.score.compare).

- text.py          the default, in markdown.py's words, the headline last
- markdown.py      the comparison to paste into a pull request
- json.py          every number, for scripts
- html.py          one self-contained page
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import LazyFunction

if TYPE_CHECKING:
    from corpustools.score.compare import Comparison

__all__ = ["FORMATTERS"]

_HERE = "corpustools.score.report.compare"

# `compare --format`'s choices: a format is one function of a Comparison and one entry here (its
# module is imported when the format is first used).
FORMATTERS: dict[str, Callable[[Comparison], str]] = {
    "text": LazyFunction(f"{_HERE}.text", "compare_text"),
    "markdown": LazyFunction(f"{_HERE}.markdown", "compare_markdown"),
    "json": LazyFunction(f"{_HERE}.json", "compare_json"),
    "html": LazyFunction(f"{_HERE}.html", "compare_html"),
}
