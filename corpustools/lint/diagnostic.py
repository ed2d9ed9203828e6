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
    # > 0: this is the last diagnostic of its rule in its file and stands, at the first of them,
    # for this many findings not listed (lint: max_findings_per_file; the message says how many)
    folded: int = 0

    def sort_key(self) -> tuple:
        """The report's order, as a plain tuple: `sorted(ds, key=Diagnostic.sort_key)` compares
        tuples in C, much faster than the dataclass's own ordering on tens of thousands."""
        return (self.path, self.line, self.col, self.code, self.name, self.severity, self.message, self.folded)

    @property
    def count(self) -> int:
        """How many findings this diagnostic stands for: 1, or the folded ones."""
        return self.folded or 1

    def as_dict(self) -> dict:
        """The diagnostic as `--format json` writes it; `folded` only when some are folded."""
        shown = {"path": self.path, "line": self.line, "col": self.col, "code": self.code,
                 "name": self.name, "severity": self.severity, "message": self.message}
        if self.folded:
            shown["folded"] = self.folded
        return shown
