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

from corpustools.io.lazy import LazyFunction

if TYPE_CHECKING:
    from corpustools.calibrate.calibration import Calibration

__all__ = ["FORMATTERS", "agree"]

_HERE = "corpustools.calibrate.report"

# `calibrate --format`'s choices: a format is one function of a Calibration and one entry here (its
# module is imported when the format is first used, as score's and compare's are).
FORMATTERS: dict[str, Callable[[Calibration], str]] = {
    "text": LazyFunction(f"{_HERE}.text", "calibration_text"),
    "markdown": LazyFunction(f"{_HERE}.markdown", "calibration_markdown"),
    "json": LazyFunction(f"{_HERE}.json", "calibration_json"),
    "html": LazyFunction(f"{_HERE}.html", "calibration_html"),
}
