"""The words a checked thing is told in, each defined once, as an enum whose members are their
text (`str()`, f-strings and JSON show the value). They are contracts: they appear in JSON reports
and printed lines.

- Severity       how much a finding matters: lint's diagnostics, validate's problems
- FileStatus     what a checked file is: a run's result file is OK, MISSING, UNREADABLE (there,
                 but the system would not give its bytes) or INVALID (corpustools.score.results); a
                 file checked against its schema VALID, INVALID or UNREADABLE
                 (corpustools.validation); a file the provenance record lists CHANGED, NEW or
                 MISSING since it (corpustools.provenance)
- FixtureStatus  what stood between a fixture and being scored, OK when nothing did
                 (corpustools.score): a fixture's, named apart from its result file's
"""

from __future__ import annotations

from enum import Enum

__all__ = ["FileStatus", "FixtureStatus", "Severity", "TextEnum"]


class TextEnum(str, Enum):
    """An enum whose members are their text: `str()`, f-strings and JSON show the value."""

    def __str__(self) -> str:
        return str(self.value)


class Severity(TextEnum):
    ERROR = "error"
    WARNING = "warning"


class FileStatus(TextEnum):
    OK = "ok"
    VALID = "valid"
    INVALID = "invalid"
    MISSING = "missing"
    UNREADABLE = "unreadable"
    CHANGED = "changed"
    NEW = "new"


class FixtureStatus(TextEnum):
    """What stood between a fixture and being scored (`ok` when nothing did)."""

    OK = "ok"
    SIDECAR_INVALID = "sidecar-invalid"
    MISSING_RESULT = "missing-result"
    UNREADABLE_RESULT = "unreadable-result"
    INVALID_RESULT = "invalid-result"
