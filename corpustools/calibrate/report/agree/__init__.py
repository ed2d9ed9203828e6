"""The reports of `corpustools agree`: they only format an Agreement (corpustools.calibrate.agree).

- text.py          the default, for a terminal, in markdown.py's words; the verdict line last
- markdown.py      the report to paste into a pull request or commit beside the worksheets
- json.py          every number, for scripts
- html.py          one self-contained page
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import format_table

if TYPE_CHECKING:
    from corpustools.calibrate.agree import Agreement

__all__ = ["FORMATTERS"]

# `agree --format`'s choices, in --help's order: a format is a module here whose render(report)
# returns its text, imported when the format is first used.
FORMATTERS: dict[str, Callable[[Agreement], str]] = format_table(__name__, "text", "markdown", "json", "html")
