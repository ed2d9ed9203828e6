"""`provenance verify`'s reports: they only format a VerifyReport (corpustools.provenance.records).

- text.py          the default: a line per file changed since the record, or one saying all is well
- json.py          one object: the record and each drift's path and status
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import format_table

if TYPE_CHECKING:
    from corpustools.provenance.records import VerifyReport

__all__ = ["FORMATTERS"]

# `provenance verify --format`'s choices, in --help's order: a format is a module here whose
# render(report) returns its text, imported when the format is first used.
FORMATTERS: dict[str, Callable[[VerifyReport], str]] = format_table(__name__, "text", "json")
