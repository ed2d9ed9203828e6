"""The comparison's reports: they only format a Comparison (corpustools.score.compare).

- text.py          the default, in markdown.py's words, the headline last
- markdown.py      the comparison to paste into a pull request
- json.py          every number, for scripts
- html.py          one self-contained page
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import format_table

if TYPE_CHECKING:
    from corpustools.score.compare import Comparison

__all__ = ["FORMATTERS"]

# `compare --format`'s choices, in --help's order: a format is a module here whose render(report)
# returns its text, imported when the format is first used.
FORMATTERS: dict[str, Callable[[Comparison], str]] = format_table(__name__, "text", "markdown", "json", "html")
