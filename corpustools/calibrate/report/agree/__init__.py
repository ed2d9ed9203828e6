"""The reports of `corpustools agree`: they only format an Agreement (corpustools.calibrate.agree).

- text.py          the default, for a terminal, in markdown.py's words; the verdict line last
- markdown.py      the report to paste into a pull request or commit beside the worksheets
- json.py          every number, for scripts
- html.py          one self-contained page
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import LazyFunction

if TYPE_CHECKING:
    from corpustools.calibrate.agree import Agreement

__all__ = ["FORMATTERS"]

_HERE = "corpustools.calibrate.report.agree"

# `agree --format`'s choices: a format is one function of an Agreement and one entry here (its module
# is imported when the format is first used, as calibrate's are).
FORMATTERS: dict[str, Callable[[Agreement], str]] = {
    "text": LazyFunction(f"{_HERE}.text", "agreement_text"),
    "markdown": LazyFunction(f"{_HERE}.markdown", "agreement_markdown"),
    "json": LazyFunction(f"{_HERE}.json", "agreement_json"),
    "html": LazyFunction(f"{_HERE}.html", "agreement_html"),
}
