"""The statistics a 24-fixture corpus needs to be honest about its own uncertainty."""

from __future__ import annotations

import math

# The 97.5% quantile of the standard normal distribution: a two-sided 95% interval.
Z95 = 1.959963984540054
ALPHA = 0.05


def wilson(successes: int, total: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of successes/total, or None when total is 0.

    Unlike the normal approximation it stays inside [0, 1] and is honest at 0/n and n/n.
    """
    if total <= 0:
        return None
    p = successes / total
    z2 = z * z
    denominator = 1 + z2 / total
    centre = (p + z2 / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == total else min(1.0, centre + half)
    return low, high


def mean(values: list[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def sample_std(values: list[float]) -> float | None:
    """Sample standard deviation (n - 1); None with fewer than two values."""
    if len(values) < 2:
        return None
    centre = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - centre) ** 2 for v in values) / (len(values) - 1))


def mcnemar_exact(b: int, c: int) -> float:
    """McNemar's exact two-sided p-value for b and c discordant pairs.

    Under the null hypothesis each discordant pair goes either way with probability 1/2, so
    p = min(1, 2 * P(X <= min(b, c))) for X ~ Binomial(b + c, 1/2). Exact fractions: no
    rounding differs between machines.
    """
    n = b + c
    if n == 0:
        return 1.0
    from fractions import Fraction  # compare's alone: score does not load it

    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2 ** n)))


def flips_needed(fixtures: int, alpha: float = ALPHA) -> int | None:
    """The fewest one-directional flips (b = 0, c = k) that reach p < alpha with at most
    `fixtures` discordant fixtures; None when this corpus is too small to ever get there."""
    for k in range(1, fixtures + 1):
        if mcnemar_exact(0, k) < alpha:
            return k
    return None
