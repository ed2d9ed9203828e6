"""Source positions: every value a check can complain about knows where it came from."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Pos:
    """A 1-based line and column in a file. Line 0 means 'the file as a whole'."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.path
        return f"{self.path}:{self.line}:{max(self.col, 1)}"


@dataclass(frozen=True)
class InputError(Exception):
    """A file that could not be read as the format it should have. One line, never a traceback."""

    pos: Pos
    message: str

    def __str__(self) -> str:
        return f"{self.pos}: {self.message}"
