"""validate's reports: they only format a ValidationReport (corpustools.validation.checks).

- text.py          the default: each readable file's problems, `path: valid` when it has none
- json.py          one array of every problem, for scripts
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import format_table

if TYPE_CHECKING:
    from corpustools.validation.checks import ValidationReport

__all__ = ["FORMATTERS"]

# `validate --format`'s choices, in --help's order: a format is a module here whose render(report)
# returns its text, imported when the format is first used.
FORMATTERS: dict[str, Callable[[ValidationReport], str]] = format_table(__name__, "text", "json")
