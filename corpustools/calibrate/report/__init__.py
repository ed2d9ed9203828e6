"""The calibration reports: they only format a Calibration (corpustools.calibrate.calibration).

- text.py          the default, for a terminal, in markdown.py's words
- markdown.py      the report to paste into a pull request
- json.py          every number, for scripts
- html.py          one self-contained page
"""

from collections.abc import Callable

from corpustools.calibrate.calibration import Calibration
from corpustools.calibrate.report.html import calibration_html
from corpustools.calibrate.report.json import calibration_json
from corpustools.calibrate.report.markdown import calibration_markdown
from corpustools.calibrate.report.text import calibration_text

__all__ = ["FORMATTERS"]

# `calibrate --format`'s choices: a format is one function of a Calibration and one entry here.
FORMATTERS: dict[str, Callable[[Calibration], str]] = {
    "text": calibration_text,
    "markdown": calibration_markdown,
    "json": calibration_json,
    "html": calibration_html,
}
