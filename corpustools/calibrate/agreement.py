"""Agreement between two raters on a yes/no question: the 2x2 table, its agreement proportion
(with corpustools.score.stats' Wilson interval) and Cohen's kappa, computed exactly."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from corpustools.score.aggregate import Proportion


def cohen_kappa(a: int, b: int, c: int, d: int) -> float | None:
    """Cohen's kappa of a 2x2 table (a: both yes, b: first yes only, c: second yes only, d: both
    no); None when it is undefined: no pairs, or chance agreement already 1 (both raters put
    every pair in one and the same category)."""
    n = a + b + c + d
    if n == 0:
        return None
    observed = Fraction(a + d, n)
    expected = Fraction((a + b) * (a + c) + (c + d) * (b + d), n * n)
    if expected == 1:
        return None
    return float((observed - expected) / (1 - expected))


@dataclass(frozen=True)
class Table:
    """Scorer (rows) against human (columns); "yes" is the level's positive answer."""

    both_yes: int = 0
    scorer_only: int = 0
    human_only: int = 0
    both_no: int = 0

    @property
    def total(self) -> int:
        return self.both_yes + self.scorer_only + self.human_only + self.both_no

    @property
    def agreement(self) -> Proportion:
        return Proportion(self.both_yes + self.both_no, self.total)

    @property
    def kappa(self) -> float | None:
        return cohen_kappa(self.both_yes, self.scorer_only, self.human_only, self.both_no)

    def __add__(self, other: Table) -> Table:
        return Table(self.both_yes + other.both_yes, self.scorer_only + other.scorer_only,
                     self.human_only + other.human_only, self.both_no + other.both_no)


def table_of(pairs) -> Table:
    """The table of (scorer says yes, human says yes) pairs."""
    pairs = list(pairs)
    return Table(sum(s and h for s, h in pairs), sum(s and not h for s, h in pairs),
                 sum(h and not s for s, h in pairs), sum(not s and not h for s, h in pairs))


@dataclass(frozen=True)
class Level:
    key: str  # fixture | point | proposal | optional
    label: str
    scorer_yes: str  # what "yes" means for the scorer and for the human, for table headings
    human_yes: str
    primary: bool  # optional points are a secondary figure


LEVELS = (
    Level("fixture", "fixture verdicts", "PASS", "PASS", True),
    Level("point", "expected points", "matched", "captured", True),
    Level("proposal", "proposals", "phantom", "over-extraction", True),
    Level("optional", "optional points (secondary)", "matched", "captured", False),
)
