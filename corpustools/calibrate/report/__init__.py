"""The calibration reports: they only format a Calibration (corpustools.calibrate.calibration).

- text.py          the default, for a terminal, in markdown.py's words
- markdown.py      the report to paste into a pull request
- json.py          every number, for scripts
- html.py          one self-contained page
- agree/           `corpustools agree`'s reports (its own FORMATTERS)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import format_table

if TYPE_CHECKING:
    from corpustools.calibrate.calibration import Calibration

__all__ = ["FORMATTERS", "agree"]

# `calibrate --format`'s choices, in --help's order: a format is a module here whose render(report)
# returns its text, imported when the format is first used.
FORMATTERS: dict[str, Callable[[Calibration], str]] = format_table(__name__, "text", "markdown", "json", "html")
