"""Agreement between two raters: the tables they fill, and the statistics of a table.

Calibration compares the scorer with a human on yes/no questions (a 2x2 `Table`: its agreement
proportion, with corpustools.score.stats' Wilson interval, and Cohen's kappa); `agree` compares two
human raters on yes/no questions and on nominal answers of several categories (a square confusion
table, rows the first rater, columns the second). The statistics are computed here, exactly with
fractions where that is possible, and each says why when it is undefined (never NaN):

- Cohen's kappa (Cohen 1960), chance agreement from each rater's own marginals;
- Gwet's AC1 (Gwet 2008) with its standard error and 95% interval for two raters;
- Krippendorff's alpha, nominal (Krippendorff 2004, *Content Analysis*, ch. 11), two raters and no
  missing answer, from the coincidence matrix.

The tests check each against an independent implementation (scikit-learn's cohen_kappa_score, the
`krippendorff` package, a per-subject AC1) on random tables and against published worked examples.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from corpustools.score.aggregate import Proportion

Matrix = Sequence[Sequence[int]]  # counts: rows the first rater's category, columns the second's

# Why a statistic has no value (reports print `n/a (<why>)`, JSON `null` beside the why).
NO_PAIRS = "no pairs"
ONE_VALUE = "all answers one value"
ONE_PAIR = "one pair: no interval"


@dataclass(frozen=True)
class Coefficient:
    """A chance-corrected agreement coefficient: its value, its 95% interval when it has one, or
    why it has no value."""

    value: float | None
    low: float | None = None
    high: float | None = None
    undefined: str | None = None  # why value (or the interval) is None

    @classmethod
    def none(cls, why: str) -> Coefficient:
        return cls(None, None, None, why)


def _checked(matrix: Matrix) -> tuple[int, list[list[int]]]:
    rows = [list(row) for row in matrix]
    if any(len(row) != len(rows) for row in rows) or any(c < 0 for row in rows for c in row):
        raise ValueError("a confusion table is square, with counts of 0 or more")
    return sum(map(sum, rows)), rows


def cohen_kappa_table(matrix: Matrix) -> Coefficient:
    """Cohen's kappa = (p_o - p_e) / (1 - p_e): p_o the observed agreement, p_e = sum over categories
    of (row share x column share). Undefined with no pairs, or when p_e = 1 (both raters gave one and
    the same answer to every pair)."""
    n, rows = _checked(matrix)
    if n == 0:
        return Coefficient.none(NO_PAIRS)
    q = len(rows)
    observed = Fraction(sum(rows[k][k] for k in range(q)), n)
    expected = Fraction(sum(sum(rows[k]) * sum(row[k] for row in rows) for k in range(q)), n * n)
    if expected == 1:
        return Coefficient.none(ONE_VALUE)
    return Coefficient(float((observed - expected) / (1 - expected)))


def cohen_kappa(a: int, b: int, c: int, d: int) -> float | None:
    """Cohen's kappa of a 2x2 table (a: both yes, b: first yes only, c: second yes only, d: both
    no); None when it is undefined: no pairs, or chance agreement already 1 (both raters put
    every pair in one and the same category)."""
    return cohen_kappa_table(((a, b), (c, d))).value


def krippendorff_alpha(matrix: Matrix) -> Coefficient:
    """Krippendorff's alpha for nominal answers of two raters who answered every unit:
    alpha = 1 - (N - 1) * sum_{c != k} o_ck / sum_{c != k} n_c n_k, with N = 2n answers, o_ck the
    coincidences (each unit on which one rater said c and the other k adds 1 to o_ck and to o_kc,
    so the numerator's sum is twice the disagreements) and n_c the answers c of both raters.
    Undefined with no pairs, or when every answer is one value (no expected disagreement)."""
    n, rows = _checked(matrix)
    if n == 0:
        return Coefficient.none(NO_PAIRS)
    q = len(rows)
    answers = [sum(rows[k]) + sum(row[k] for row in rows) for k in range(q)]
    total = 2 * n
    expected = total * total - sum(count * count for count in answers)  # sum over c != k of n_c n_k
    if expected == 0:
        return Coefficient.none(ONE_VALUE)
    disagreements = n - sum(rows[k][k] for k in range(q))
    return Coefficient(float(1 - Fraction((total - 1) * 2 * disagreements, expected)))


def gwet_ac1(matrix: Matrix, categories: int | None = None) -> Coefficient:
    """Gwet's AC1 of two raters, with its 95% interval.

    AC1 = (p_a - p_e) / (1 - p_e), with p_a the observed agreement and p_e = sum_k pi_k (1 - pi_k)
    / (q - 1), pi_k the mean of the two raters' shares of category k and q the number of categories
    the raters could choose from (`categories`, default the table's size; at least 2).

    Its variance is Gwet's for two raters from the contingency table (Gwet, K. L. 2008, "Computing
    inter-rater reliability and its variance in the presence of high agreement", British Journal of
    Mathematical and Statistical Psychology 61, 29-48; in the form of Gwet, K. L. 2014, *Handbook
    of Inter-Rater Reliability*, 4th ed., Advanced Analytics, the chapter on two raters, whose
    worked examples the tests reproduce to 5 decimals), with no finite-population correction:

        v = (sum_kl p_kl (w_kl - 2 (1 - AC1) (1 - (pi_k + pi_l) / 2) / (q - 1))^2
             - (p_a - 2 (1 - AC1) p_e)^2) / (n (1 - p_e)^2)

    (w_kl = 1 on the diagonal, else 0), and the interval is AC1 -/+ t(0.975, n - 1) sqrt(v), cut to
    [-1, 1], as the Handbook gives it. (irrCAC's raw-ratings class estimates the variance per
    subject, over n - 1: its interval is wider by sqrt(n / (n - 1)).) Undefined with no pairs; with
    one pair the coefficient has no interval."""
    n, rows = _checked(matrix)
    if n == 0:
        return Coefficient.none(NO_PAIRS)
    q = max(2, categories if categories is not None else len(rows), len(rows))
    size = len(rows)
    row_share = [Fraction(sum(rows[k]), n) for k in range(size)]
    column_share = [Fraction(sum(row[k] for row in rows), n) for k in range(size)]
    pi = [(row_share[k] + column_share[k]) / 2 for k in range(size)]
    observed = Fraction(sum(rows[k][k] for k in range(size)), n)
    chance = sum((p * (1 - p) for p in pi), Fraction(0)) / (q - 1)
    ac1 = (observed - chance) / (1 - chance)
    if n == 1:
        return Coefficient(float(ac1), undefined=ONE_PAIR)
    weighted = sum((Fraction(rows[k][m], n) * ((1 if k == m else 0) - 2 * (1 - ac1) * (1 - (pi[k] + pi[m]) / 2)
                                                 / (q - 1)) ** 2
                    for k in range(size) for m in range(size) if rows[k][m]), Fraction(0))
    variance = (weighted - (observed - 2 * (1 - ac1) * chance) ** 2) / (n * (1 - chance) ** 2)
    half = t_quantile(n - 1) * math.sqrt(max(0.0, float(variance)))
    value = float(ac1)
    return Coefficient(value, max(-1.0, value - half), min(1.0, value + half))


def _t_central_mass(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with `df` degrees of freedom, by the finite sums of Abramowitz
    and Stegun 26.7.3 (odd df) and 26.7.4 (even df): exact up to float rounding, no series cut."""
    theta = math.atan(t / math.sqrt(df))
    cos2, sin = math.cos(theta) ** 2, math.sin(theta)
    if df % 2:
        if df == 1:
            return 2 * theta / math.pi
        term = total = 1.0
        for k in range(1, (df - 1) // 2):
            term *= cos2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + sin * math.cos(theta) * total)
    term = total = 1.0
    for k in range(1, df // 2):
        term *= cos2 * (2 * k - 1) / (2 * k)
        total += term
    return sin * total


@lru_cache(maxsize=256)
def t_quantile(df: int, mass: float = 0.95) -> float:
    """The t value with P(|T| <= t) = `mass` (1.96 as df grows; 12.706 at df 1), by bisection."""
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    low, high = 0.0, 1.0
    while _t_central_mass(high, df) < mass:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if _t_central_mass(middle, df) < mass:
            low = middle
        else:
            high = middle
    return high


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
