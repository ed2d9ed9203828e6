"""bench/run.py's verdicts on fabricated timings (no process is timed here): the targets of issue 36
are data in one place, ratios of median wall times to yamllint's (or other references') in the same
run, and a MISS says by how much."""

import run as bench_run
from run import (
    FOLDER_REFERENCES,
    HOOK,
    ONE_FILE,
    SHIPPED,
    TARGETS,
    WARM,
    Target,
    Timing,
    judge,
    targets_table,
    verdict,
    write_between_markers,
)


def timing(tool, n, median, peak_mb=50.0):
    """Seven runs whose median is `median` (and whose minimum is lower: verdicts use the median)."""
    seconds = (median * 0.5, median * 0.9, median * 0.95, median, median * 1.2, median * 1.5, median * 3)
    return Timing(tool, n, seconds, seconds, peak_mb, (0,) * 7)


RUN = [timing("lint", SHIPPED, 0.30), timing("score", SHIPPED, 0.16), timing("yamllint", SHIPPED, 0.20),
       timing(WARM, SHIPPED, 0.22), timing(FOLDER_REFERENCES[0], SHIPPED, 0.5), timing(FOLDER_REFERENCES[1], SHIPPED, 4.5),
       timing(HOOK, SHIPPED, 0.62), timing(ONE_FILE, SHIPPED, 0.1),
       timing("lint", 1_000, 3.0), timing("score", 1_000, 0.5), timing("yamllint", 1_000, 2.5),
       timing("lint", 10_000, 40.0, peak_mb=850.0), timing("score", 10_000, 5.0), timing("yamllint", 10_000, 25.0)]


def test_every_target_is_judged_with_pass_or_miss_and_by_how_much():
    rows = "\n".join(targets_table(RUN))
    assert ("| lint (warm), shipped corpus (24 fixtures): median wall <= 1.2x yamllint | 0.220 s vs 0.200 s | 1.10x "
            "| PASS (0.10x to spare) |") in rows
    assert ("| lint, shipped corpus (24 fixtures): median wall <= 0.1x yamllint, folder + detect-secrets, folder "
            "| 0.300 s vs 5.000 s | 0.06x | PASS (0.04x to spare) |") in rows
    assert ("| score, shipped corpus (24 fixtures): median wall <= 0.8x yamllint | 0.160 s vs 0.200 s | 0.80x "
            "| PASS (0.00x to spare) |") in rows
    assert "| lint, 1,000 fixtures: median wall <= 1.3x yamllint | 3.000 s vs 2.500 s | 1.20x | PASS (0.10x to spare) |" in rows
    assert ("| lint, 10,000 fixtures: median wall <= 1.5x yamllint | 40.000 s vs 25.000 s | 1.60x "
            "| **MISS** by 0.10x (6% of the time must go) |") in rows
    assert "| lint, 10,000 fixtures: peak RSS < 600 MB | 850 MB | 850 MB | **MISS** by 250 MB |" in rows
    assert "| score, 1,000 fixtures: median wall <= 0.3x yamllint | 0.500 s vs 2.500 s | 0.20x | PASS (0.10x to spare) |" in rows
    assert "| score, 10,000 fixtures: median wall <= 0.2x yamllint | 5.000 s vs 25.000 s | 0.20x | PASS (0.00x to spare) |" in rows
    assert ("| pre-commit hook, one-file change, shipped corpus (24 fixtures): median wall < 0.3 s "
            "| 0.620 s (min 0.310 s) | 0.620 s | **MISS** by 0.320 s |") in rows
    assert ("| pre-commit hook, one-file change, shipped corpus (24 fixtures): median wall <= 2x yamllint, one file "
            "| 0.620 s vs 0.100 s | 6.20x | **MISS** by 4.20x (68% of the time must go) |") in rows
    # the generated 24-fixture corpus was not run here: its targets say so, and are no pass
    assert "| score, 24 fixtures: median wall <= 0.8x yamllint | not measured |  | not measured |" in rows
    assert len(rows.splitlines()) == 2 + len(TARGETS)


def test_a_ratio_without_its_reference_is_not_measured_never_a_pass():
    alone = [timing("lint", SHIPPED, 0.1), timing("lint", 10_000, 10.0)]
    assert judge(Target("lint", SHIPPED, bench_run.RATIO, 1.15), alone).passed is None
    assert "not measured (yamllint missing)" in judge(Target("lint", SHIPPED, bench_run.RATIO, 1.15), alone).measured
    assert "not measured (lint at 1,000 missing)" in judge(Target("lint", 10_000, bench_run.GROWTH, 10.5), alone).measured
    assert all("PASS" not in row for row in targets_table(alone)[2:] if "peak RSS" not in row)


def test_the_timings_table_carries_each_rows_verdicts():
    assert verdict(RUN[0], RUN) == "0.06x PASS (0.04x to spare)"  # cold: to yamllint + detect-secrets on the folder
    assert verdict(RUN[11], RUN).count("MISS") == 2  # 10,000 fixtures: RSS and the ratio miss
    assert verdict(RUN[2], RUN) == ""  # yamllint, the reference, has no target


def test_the_targets_are_the_issues():
    assert {(t.tool, t.n, t.kind, t.reference): t.limit for t in TARGETS} == {
        (WARM, SHIPPED, "ratio", ("yamllint",)): 1.2, (HOOK, SHIPPED, "wall", ("yamllint",)): 0.3,
        (HOOK, SHIPPED, "ratio", (ONE_FILE,)): 2.0, ("lint", SHIPPED, "ratio", FOLDER_REFERENCES): 0.1,
        ("lint", 1_000, "ratio", ("yamllint",)): 1.3, ("lint", 10_000, "ratio", ("yamllint",)): 1.5,
        ("lint", 10_000, "peak_mb", ("yamllint",)): 600.0,
        ("score", SHIPPED, "ratio", ("yamllint",)): 0.8, ("score", 24, "ratio", ("yamllint",)): 0.8,
        ("score", 1_000, "ratio", ("yamllint",)): 0.3, ("score", 10_000, "ratio", ("yamllint",)): 0.2}


def test_the_report_is_written_between_the_markers_and_nothing_else_changes(tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text(f"# Title\n\nprose\n{bench_run.BEGIN}\nold table\n{bench_run.END}\nmore prose\n", encoding="utf-8")
    write_between_markers(str(doc), "new table")
    assert doc.read_text(encoding="utf-8") == f"# Title\n\nprose\n{bench_run.BEGIN}\nnew table\n{bench_run.END}\nmore prose\n"
