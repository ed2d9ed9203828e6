"""Two-rater statistics (corpustools.calibrate.agreement): each checked against an independent
implementation on random tables (scikit-learn's cohen_kappa_score, the `krippendorff` package, and
a per-subject AC1 written here from Gwet's raw-ratings formula) and against published worked
examples: Gwet's *Handbook of Inter-Rater Reliability* (4th ed., 2014) two-rater tables as irrCAC's
documentation and test suite reproduce them, and the design note's 20-fixture tables
(../shared/design/interop-and-agreement.md, section 5, values irrCAC printed)."""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from corpustools.calibrate.agreement import (
    NO_PAIRS,
    ONE_PAIR,
    ONE_VALUE,
    cohen_kappa_table,
    gwet_ac1,
    krippendorff_alpha,
    t_quantile,
)

krippendorff = pytest.importorskip("krippendorff")
sklearn_metrics = pytest.importorskip("sklearn.metrics")
np = pytest.importorskip("numpy")

# Gwet (2014), Handbook, two raters: 100 pregnant women classified by two abstractors (Ectopic, AIU,
# NIU), and 223 psychiatric patients by two diagnosis methods (4 categories). irrCAC's doctest
# prints AC1 0.84933, se 0.04322, 95% CI (0.76358, 0.93508), p_a 0.89, p_e 0.26992 for the first;
# its tests, AC1 0.456, se 0.043, CI (0.371, 0.542) for the second, kappa 0.796 and alpha 0.797
# for the first.
ABSTRACTORS = ((13, 0, 0), (0, 20, 7), (0, 4, 56))
DIAGNOSIS = ((40, 4, 4, 17), (6, 25, 2, 13), (4, 1, 21, 12), (15, 5, 9, 45))


def labels(matrix):
    """The two raters' answers, subject by subject, that make `matrix` (rows: first rater)."""
    first, second = [], []
    for k, row in enumerate(matrix):
        for m, count in enumerate(row):
            first += [k] * count
            second += [m] * count
    return first, second


def test_the_handbooks_abstractors_example():
    ac1 = gwet_ac1(ABSTRACTORS)
    assert (round(ac1.value, 5), round(ac1.low, 5), round(ac1.high, 5)) == (0.84933, 0.76358, 0.93508)
    assert round(cohen_kappa_table(ABSTRACTORS).value, 3) == 0.796
    assert round(krippendorff_alpha(ABSTRACTORS).value, 3) == 0.797


def test_the_handbooks_diagnosis_example():
    ac1 = gwet_ac1(DIAGNOSIS)
    assert (round(ac1.value, 3), round(ac1.low, 3), round(ac1.high, 3)) == (0.456, 0.371, 0.542)


def test_the_design_notes_twenty_fixture_tables():
    # 18 both PASS, 1 both FAIL, 1 split: 95% agreement, kappa 0.643, alpha 0.649, AC1 0.94194
    one_split = ((18, 1), (0, 1))
    assert round(cohen_kappa_table(one_split).value, 3) == 0.643
    assert round(krippendorff_alpha(one_split).value, 3) == 0.649
    ac1 = gwet_ac1(one_split)
    assert round(ac1.value, 5) == 0.94194 and ac1.high == 1.0
    # irrCAC's raw-ratings interval (0.815-1) estimates the variance over n - 1 subjects: the
    # Handbook's table form is narrower by sqrt(n / (n - 1)) around the same value.
    assert ac1.value - ac1.low == pytest.approx((0.94194 - 0.8145) * math.sqrt(19 / 20), abs=2e-4)
    # 18 both PASS, 0 both FAIL, 2 split: 90% agreement, kappa -0.053, alpha -0.026, AC1 0.8895
    two_split = ((18, 1), (1, 0))
    assert round(cohen_kappa_table(two_split).value, 3) == -0.053
    assert round(krippendorff_alpha(two_split).value, 3) == -0.026
    assert round(gwet_ac1(two_split).value, 4) == 0.8895
    # 20 both PASS: kappa and alpha are undefined (sklearn says NaN, krippendorff raises); AC1 is 1
    everyone = ((20, 0), (0, 0))
    assert cohen_kappa_table(everyone).undefined == ONE_VALUE
    assert krippendorff_alpha(everyone).undefined == ONE_VALUE
    assert (gwet_ac1(everyone).value, gwet_ac1(everyone).low, gwet_ac1(everyone).high) == (1.0, 1.0, 1.0)


def test_undefined_is_said_never_nan():
    for statistic in (cohen_kappa_table, krippendorff_alpha, gwet_ac1):
        assert statistic(((0, 0), (0, 0))).undefined == NO_PAIRS and statistic(((0, 0), (0, 0))).value is None
    single = gwet_ac1(((1, 0), (0, 0)))
    assert single.value == 1.0 and (single.low, single.high, single.undefined) == (None, None, ONE_PAIR)
    with pytest.raises(ValueError):
        gwet_ac1(((1, 2),))


def test_t_quantiles():
    assert t_quantile(1) == pytest.approx(12.7062047, abs=1e-6)
    assert t_quantile(2) == pytest.approx(4.3026527, abs=1e-6)
    assert t_quantile(19) == pytest.approx(2.0930241, abs=1e-6)
    assert t_quantile(99) == pytest.approx(1.9842170, abs=1e-6)
    assert t_quantile(100_000) == pytest.approx(1.959988, abs=1e-5)


def tables(size: int):
    return st.lists(st.lists(st.integers(0, 12), min_size=size, max_size=size), min_size=size, max_size=size)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 4).flatmap(tables))
def test_kappa_agrees_with_scikit_learn(matrix):
    first, second = labels(matrix)
    assume(first)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = sklearn_metrics.cohen_kappa_score(first, second, labels=list(range(len(matrix))))
    ours = cohen_kappa_table(matrix)
    if math.isnan(theirs):
        assert ours.value is None and ours.undefined == ONE_VALUE
    else:
        assert ours.value == pytest.approx(theirs, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 4).flatmap(tables))
def test_alpha_agrees_with_the_krippendorff_package(matrix):
    first, second = labels(matrix)
    assume(first)
    ours = krippendorff_alpha(matrix)
    if len(set(first) | set(second)) == 1:  # the package raises: no expected disagreement
        assert ours.value is None and ours.undefined == ONE_VALUE
        return
    theirs = krippendorff.alpha(reliability_data=np.array([first, second], dtype=float),
                                level_of_measurement="nominal")
    assert ours.value == pytest.approx(theirs, abs=1e-9)


def raw_ac1(first: list[int], second: list[int], q: int) -> tuple[float, float]:
    """AC1 and its standard error subject by subject (Gwet 2008, the r-rater formulas with r = 2,
    as irrCAC's raw-ratings class computes them): an algorithm independent of the table form."""
    n = len(first)
    counts = [[(a == k) + (b == k) for k in range(q)] for a, b in zip(first, second, strict=True)]
    agree_i = [sum(r * (r - 1) for r in row) / 2 for row in counts]
    pa = sum(agree_i) / n
    pi = [sum(row[k] for row in counts) / (2 * n) for k in range(q)]
    pe = sum(p * (1 - p) for p in pi) / (q - 1)
    ac1 = (pa - pe) / (1 - pe)
    chance_i = [sum(row[k] / 2 * (1 - pi[k]) for k in range(q)) / (q - 1) for row in counts]
    star = [(a - pe) / (1 - pe) - 2 * (1 - ac1) * (e - pe) / (1 - pe) for a, e in zip(agree_i, chance_i, strict=True)]
    variance = sum((s - ac1) ** 2 for s in star) / (n - 1) / n
    return ac1, math.sqrt(max(0.0, variance))


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 4).flatmap(tables))
def test_ac1_agrees_with_the_per_subject_formula(matrix):
    first, second = labels(matrix)
    assume(len(first) >= 2)
    q = len(matrix)
    value, se = raw_ac1(first, second, q)
    ours = gwet_ac1(matrix)
    assert ours.value == pytest.approx(value, abs=1e-9)
    # the same variance, over n - 1 subjects there and n here
    n = len(first)
    half = t_quantile(n - 1) * se * math.sqrt((n - 1) / n)
    assert ours.low == pytest.approx(max(-1.0, value - half), abs=1e-7)
    assert ours.high == pytest.approx(min(1.0, value + half), abs=1e-7)
