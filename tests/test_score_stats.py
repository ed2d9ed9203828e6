"""Statistics against known values."""

import pytest

from corpustools.score.stats import flips_needed, mcnemar_exact, mean, sample_std, wilson


def pct(bounds):
    return tuple(round(100 * b, 1) for b in bounds)


def test_wilson_known_values():
    assert pct(wilson(17, 20)) == (64.0, 94.8)
    assert pct(wilson(0, 10)) == (0.0, 27.8)
    assert pct(wilson(10, 10)) == (72.2, 100.0)


def test_wilson_of_nothing_is_undefined_and_bounds_stay_in_unit_interval():
    assert wilson(0, 0) is None
    for n in range(1, 30):
        for k in range(n + 1):
            low, high = wilson(k, n)
            assert 0.0 <= low <= k / n <= high <= 1.0


def test_overlapping_intervals_of_nine_and_seven_of_ten():
    # The reason intervals are shown at all: 9/10 vs 7/10 is not a clear difference.
    nine, seven = wilson(9, 10), wilson(7, 10)
    assert seven[1] > nine[0]


def test_mean_and_sample_std():
    assert mean([0.5, 0.75, 1.0]) == pytest.approx(0.75)
    assert sample_std([0.5, 0.75, 1.0]) == pytest.approx(0.25)
    assert sample_std([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) == pytest.approx(2.13808993)
    assert sample_std([1.0]) is None
    assert mean([]) is None


@pytest.mark.parametrize("b, c, p", [(1, 6, 0.125), (0, 5, 0.0625), (0, 6, 0.03125), (6, 0, 0.03125),
                                     (0, 0, 1.0), (3, 3, 1.0), (2, 8, 0.109375)])
def test_mcnemar_exact_two_sided(b, c, p):
    assert mcnemar_exact(b, c) == pytest.approx(p, abs=1e-12)


def test_flips_needed():
    assert flips_needed(24) == 6
    assert flips_needed(6) == 6
    assert flips_needed(5) is None  # five fixtures can never show p < 0.05
