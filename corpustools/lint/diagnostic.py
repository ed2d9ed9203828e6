"""What rules find, as small frozen values: the Problem a rule yields (corpustools.io.positions, shared
with the corpus loader), the Severity a rule declares (corpustools.model.status) and the Diagnostic
the engine makes of them: what a rule module imports."""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.io.positions import Problem
from corpustools.model.status import Severity

__all__ = ["Diagnostic", "Problem", "Severity"]


@dataclass(frozen=True, order=True)
class Diagnostic:
    """A reported problem. Field order is the report's sort order: path, line, col, code."""

    path: str  # the file as found (the reporters show it relative to where lint ran, redacted)
    line: int
    col: int
    code: str
    name: str
    severity: Severity
    message: str

    def as_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "col": self.col, "code": self.code,
                "name": self.name, "severity": self.severity, "message": self.message}
