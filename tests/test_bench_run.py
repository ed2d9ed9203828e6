"""bench/run.py's verdicts on fabricated timings (no process is timed here): the targets of issue 26
are data in one place, ratios of median wall times to yamllint's in the same run, and a MISS says
by how much."""

import run as bench_run
from run import HOOK, SHIPPED, TARGETS, Target, Timing, judge, targets_table, verdict, write_between_markers


def timing(tool, n, median, peak_mb=50.0):
    """Seven runs whose median is `median` (and whose minimum is lower: verdicts use the median)."""
    seconds = (median * 0.5, median * 0.9, median * 0.95, median, median * 1.2, median * 1.5, median * 3)
    return Timing(tool, n, seconds, seconds, peak_mb, (0,) * 7)


RUN = [timing("lint", SHIPPED, 0.30), timing("score", SHIPPED, 0.16), timing("yamllint", SHIPPED, 0.20),
       timing(HOOK, SHIPPED, 0.62),
       timing("lint", 1_000, 3.0), timing("score", 1_000, 0.5), timing("yamllint", 1_000, 2.5),
       timing("lint", 10_000, 40.0, peak_mb=850.0), timing("score", 10_000, 5.0), timing("yamllint", 10_000, 25.0)]


def test_every_target_is_judged_with_pass_or_miss_and_by_how_much():
    rows = "\n".join(targets_table(RUN))
    assert ("| lint, shipped corpus (24 fixtures): median wall <= 1.15x yamllint | 0.300 s vs 0.200 s | 1.50x "
            "| **MISS** by 0.35x (23% of the time must go) |") in rows
    assert ("| score, shipped corpus (24 fixtures): median wall <= 0.8x yamllint | 0.160 s vs 0.200 s | 0.80x "
            "| PASS (0.00x to spare) |") in rows
    assert "| lint, 1,000 fixtures: median wall <= 1.3x yamllint | 3.000 s vs 2.500 s | 1.20x | PASS (0.10x to spare) |" in rows
    assert "| lint, 10,000 fixtures: median wall <= 2x yamllint | 40.000 s vs 25.000 s | 1.60x | PASS (0.40x to spare) |" in rows
    assert "| lint, 10,000 fixtures: peak RSS < 800 MB | 850 MB | 850 MB | **MISS** by 50 MB |" in rows
    assert ("| lint, 10,000 fixtures: growth 10,000 / 1,000 (median wall) <= 10.5 | 40.000 s vs 3.000 s | 13.3 "
            "| **MISS** by 2.8 (21% of the time must go) |") in rows
    assert "| score, 1,000 fixtures: median wall <= 0.3x yamllint | 0.500 s vs 2.500 s | 0.20x | PASS (0.10x to spare) |" in rows
    assert "| score, 10,000 fixtures: median wall <= 0.2x yamllint | 5.000 s vs 25.000 s | 0.20x | PASS (0.00x to spare) |" in rows
    assert ("| pre-commit hook, one-file change, shipped corpus (24 fixtures): median wall < 0.5 s "
            "| 0.620 s (min 0.310 s) | 0.620 s | **MISS** by 0.120 s |") in rows
    # the generated 24-fixture corpus was not run here: its targets say so, and are no pass
    assert "| lint, 24 fixtures: median wall <= 1.15x yamllint | not measured |  | not measured |" in rows
    assert len(rows.splitlines()) == 2 + len(TARGETS)


def test_a_ratio_without_its_reference_is_not_measured_never_a_pass():
    alone = [timing("lint", SHIPPED, 0.1), timing("lint", 10_000, 10.0)]
    assert judge(Target("lint", SHIPPED, bench_run.RATIO, 1.15), alone).passed is None
    assert "not measured (yamllint missing)" in judge(Target("lint", SHIPPED, bench_run.RATIO, 1.15), alone).measured
    assert "not measured (lint at 1,000 missing)" in judge(Target("lint", 10_000, bench_run.GROWTH, 10.5), alone).measured
    assert all("PASS" not in row for row in targets_table(alone)[2:] if "peak RSS" not in row)


def test_the_timings_table_carries_each_rows_verdicts():
    assert verdict(RUN[0], RUN) == "1.50x **MISS** by 0.35x (23% of the time must go)"
    assert verdict(RUN[7], RUN).count("MISS") == 2  # 10,000 fixtures: RSS and growth miss, the ratio passes
    assert verdict(RUN[2], RUN) == ""  # yamllint, the reference, has no target


def test_the_targets_are_the_issues():
    assert {(t.tool, t.n, t.kind): t.limit for t in TARGETS} == {
        ("lint", SHIPPED, "ratio"): 1.15, ("lint", 24, "ratio"): 1.15, ("lint", 1_000, "ratio"): 1.3,
        ("lint", 10_000, "ratio"): 2.0, ("lint", 10_000, "peak_mb"): 800.0, ("lint", 10_000, "growth"): 10.5,
        ("score", SHIPPED, "ratio"): 0.8, ("score", 24, "ratio"): 0.8, ("score", 1_000, "ratio"): 0.3,
        ("score", 10_000, "ratio"): 0.2, (HOOK, SHIPPED, "wall"): 0.5}


def test_the_report_is_written_between_the_markers_and_nothing_else_changes(tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text(f"# Title\n\nprose\n{bench_run.BEGIN}\nold table\n{bench_run.END}\nmore prose\n", encoding="utf-8")
    write_between_markers(str(doc), "new table")
    assert doc.read_text(encoding="utf-8") == f"# Title\n\nprose\n{bench_run.BEGIN}\nnew table\n{bench_run.END}\nmore prose\n"
