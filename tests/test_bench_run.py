"""bench/run.py's verdicts: the targets of "Speed near the limit" are ratios to yamllint of the same run."""

import run as bench_run
from run import SHIPPED, Timing, targets_table, verdict


def timing(tool, n, seconds, peak_mb=50.0):
    return Timing(tool, n, (seconds, seconds * 1.1), (seconds, seconds), peak_mb, (0, 0))


def test_ratio_targets_pass_and_miss():
    timings = [timing("lint", SHIPPED, 0.26), timing("score", SHIPPED, 0.20), timing("yamllint", SHIPPED, 0.20),
               timing("lint", 1_000, 5.0), timing("yamllint", 1_000, 2.5),
               timing("lint", 10_000, 54.0, peak_mb=1100.0), timing("score", 10_000, 5.0),
               timing("yamllint", 10_000, 25.0)]
    rows = "\n".join(targets_table(timings, [1_000, 10_000]))
    assert "| lint, shipped corpus: <= 1.3x yamllint | 0.260 s vs 0.200 s | 1.30 | PASS |" in rows
    assert "| score, shipped corpus: <= 1.2x yamllint | 0.200 s vs 0.200 s | 1.00 | PASS |" in rows
    assert "| lint, 10,000 fixtures: <= 2x yamllint | 54.000 s vs 25.000 s | 2.16 | **MISS** |" in rows
    assert "| lint, 10,000 fixtures: peak RSS < 1,024 MB | 1100 MB | | **MISS** |" in rows
    assert "| score, 10,000 fixtures: <= 0.3x yamllint | 5.000 s vs 25.000 s | 0.20 | PASS |" in rows
    assert "| lint, growth 10,000 / 1,000 (min wall) <= 10.5 | | 10.80 | **MISS** |" in rows
    assert verdict(timings[0], timings) == "<= 1.3x yamllint: PASS"
    assert verdict(timings[3], timings) == ""  # no target at 1,000 fixtures


def test_missing_reference_is_not_a_pass():
    timings = [timing("lint", SHIPPED, 0.1)]
    assert "not measured" in verdict(timings[0], timings)
    assert all("PASS" not in row for row in targets_table(timings, []))


def test_targets_are_the_issues():
    assert bench_run.TARGETS == {("lint", SHIPPED): (1.3, None), ("score", SHIPPED): (1.2, None),
                                 ("lint", 10_000): (2.0, 1024.0), ("score", 10_000): (0.3, None)}
    assert bench_run.GROWTH_TARGET == {"lint": 10.5}
