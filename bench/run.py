"""bench/run.py: time `corpustools lint` and `score` as whole processes on generated corpora.

For each size N (default 24, 1000, 10000) a corpus and its results are generated into a temporary
folder (not timed), then each command runs --repeat times as a fresh process; the table reports
the minimum and median wall time and the peak resident memory of the process (wait4's
ru_maxrss). `yamllint` over the same sidecars and `detect-secrets scan` over the same sessions
run beside them for reference, when installed. The shipped corpus is timed first the same way:
`lint fixtures/prompt-eval`, `score fixtures/prompt-eval fixtures/prompt-eval/runs/v5-run6` and
yamllint over `fixtures/prompt-eval/expected`. The targets (issue "Speed near the limit") are
ratios to yamllint on the same sidecars, measured in the same run, on the minimum wall times;
yamllint runs as often as lint and score so both minimums are taken over as many runs.
Not part of the test suite: it takes minutes.

    /tmp/venv/bin/python bench/run.py                       # the full run in docs/performance.md
    /tmp/venv/bin/python bench/run.py --sizes 24,200 --repeat 2   # a quick one
    /tmp/venv/bin/python bench/run.py --repeat 5 --repeat-large 2  # 2 runs at 10,000 fixtures and more
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_CORPUS = os.path.join(HERE, "make_corpus.py")
REPO = os.path.dirname(HERE)
SHIPPED = 0  # the `n` of the shipped corpus's rows (fixtures/prompt-eval, 24 fixtures)
SHIPPED_RUN = "fixtures/prompt-eval/runs/v5-run6"

# (tool, N) -> (max ratio of min wall time to yamllint's on the same sidecars, max peak RSS in MB),
# from the issue "Speed near the limit"; N = SHIPPED is the shipped corpus.
TARGETS = {("lint", SHIPPED): (1.3, None), ("score", SHIPPED): (1.2, None),
           ("lint", 10_000): (2.0, 1024.0), ("score", 10_000): (0.3, None)}
REFERENCE = "yamllint"
GROWTH_TARGET = {"lint": 10.5}  # time at 10,000 / time at 1,000 (min wall)


@dataclass(frozen=True)
class Timing:
    tool: str
    n: int
    seconds: tuple[float, ...]
    cpu_seconds: tuple[float, ...]  # user + system: less disturbed than wall time on a busy machine
    peak_mb: float
    exit_codes: tuple[int, ...]

    @property
    def best(self) -> float:
        return min(self.seconds)

    @property
    def best_cpu(self) -> float:
        return min(self.cpu_seconds)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def run_once(argv: list[str], cwd: str) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in MB, exit code) of one process; output is discarded."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, process.returncode


def executable(name: str) -> str | None:
    """A console script next to this interpreter (the venv's), else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    return beside if os.access(beside, os.X_OK) else shutil.which(name)


def commands(*, include_reference: bool, corpus: str = "corpus",
             results: str = "results") -> tuple[dict[str, list[str]], list[str]]:
    """tool -> argv (run in the output folder, or the repository for the shipped corpus), and a note
    for each tool that is skipped."""
    corpustools = executable("corpustools")
    base = [corpustools] if corpustools else [sys.executable, "-m", "corpustools"]
    tools = {"lint": base + ["lint", corpus], "score": base + ["score", corpus, results]}
    notes = []
    if include_reference:
        for tool, argv in (("yamllint", ["yamllint", "-f", "parsable", f"{corpus}/expected"]),
                           ("detect-secrets", ["detect-secrets", "scan", "--all-files", f"{corpus}/sessions"])):
            found = executable(argv[0])
            if found:
                tools[tool] = [found] + argv[1:]
            else:
                notes.append(f"{tool} is not installed; its reference row is skipped")
    return tools, notes


def machine() -> list[str]:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), cpu)
    except OSError:
        pass
    memory = "unknown"
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            kib = int(next(line for line in handle if line.startswith("MemTotal")).split()[1])
            memory = f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    load = " / ".join(f"{value:.2f}" for value in os.getloadavg())
    return [f"- CPU: {cpu}, {os.cpu_count()} logical cores (nproc {len(os.sched_getaffinity(0))})",
            f"- memory: {memory}", f"- Python {platform.python_version()} on {platform.platform()}",
            f"- load average (1/5/15 min) when the run started: {load}"]


def size_label(n: int) -> str:
    return "shipped" if n == SHIPPED else f"{n:,}"


def ratio_to_reference(timing: Timing, timings: list[Timing]) -> tuple[float, float] | None:
    """(min wall, min CPU) of `timing` over yamllint's on the same sidecars, None without yamllint."""
    reference = next((t for t in timings if t.tool == REFERENCE and t.n == timing.n), None)
    if reference is None or timing.tool == REFERENCE:
        return None
    return timing.best / reference.best, timing.best_cpu / reference.best_cpu


def verdict(timing: Timing, timings: list[Timing]) -> str:
    target = TARGETS.get((timing.tool, timing.n))
    if not target:
        return ""
    limit, megabytes = target
    ratio = ratio_to_reference(timing, timings)
    if ratio is None:
        parts = [f"<= {limit:g}x {REFERENCE}: not measured ({REFERENCE} missing)"]
    else:
        parts = [f"<= {limit:g}x {REFERENCE}: {'PASS' if ratio[0] <= limit else '**MISS**'}"]
    if megabytes:
        parts.append(f"RSS < {megabytes / 1024:g} GB: {'PASS' if timing.peak_mb < megabytes else '**MISS**'}")
    return ", ".join(parts)


def table(timings: list[Timing]) -> list[str]:
    lines = [f"| tool | fixtures | runs | min (s) | median (s) | min CPU (s) | peak RSS (MB) | exit "
             f"| / {REFERENCE} (min) | / {REFERENCE} (CPU) | target |",
             "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|"]
    for t in timings:
        codes = ",".join(str(c) for c in sorted(set(t.exit_codes)))
        ratio = ratio_to_reference(t, timings)
        shown = f"{ratio[0]:.2f} | {ratio[1]:.2f}" if ratio else " | "
        lines.append(f"| {t.tool} | {size_label(t.n)} | {len(t.seconds)} | {t.best:.3f} | {t.median:.3f} | "
                     f"{t.best_cpu:.3f} | {t.peak_mb:.0f} | {codes} | {shown} | {verdict(t, timings)} |")
    return lines


def growth(timings: list[Timing], low: int, high: int) -> list[str]:
    by_key = {(t.tool, t.n): t for t in timings}
    lines = [f"| tool | time at {high:,} / time at {low:,} (min) | (median) | (min CPU) | target |",
             "|---|---:|---:|---:|---|"]
    for tool in dict.fromkeys(t.tool for t in timings):
        if (tool, low) in by_key and (tool, high) in by_key:
            a, b = by_key[(tool, low)], by_key[(tool, high)]
            ratio = b.best / a.best
            target = GROWTH_TARGET.get(tool) if (low, high) == (1_000, 10_000) else None
            mark = f"<= {target:g}: {'PASS' if ratio <= target else '**MISS**'}" if target else ""
            lines.append(f"| {tool} | {ratio:.1f} | {b.median / a.median:.1f} | "
                         f"{b.best_cpu / a.best_cpu:.1f} | {mark} |")
    return lines


def targets_table(timings: list[Timing], sizes: list[int]) -> list[str]:
    """One row per target of the issue: the limit, the measured value, the ratio, PASS or MISS."""
    by_key = {(t.tool, t.n): t for t in timings}
    lines = ["| target | measured | ratio | |", "|---|---|---:|---|"]
    for (tool, n), (limit, megabytes) in TARGETS.items():
        name = f"{tool}, {'shipped corpus' if n == SHIPPED else f'{n:,} fixtures'}"
        timing, reference = by_key.get((tool, n)), by_key.get((REFERENCE, n))
        if timing is None or reference is None:
            lines.append(f"| {name}: <= {limit:g}x {REFERENCE} | not measured | | |")
            continue
        ratio = timing.best / reference.best
        lines.append(f"| {name}: <= {limit:g}x {REFERENCE} | {timing.best:.3f} s vs {reference.best:.3f} s "
                     f"| {ratio:.2f} | {'PASS' if ratio <= limit else '**MISS**'} |")
        if megabytes:
            lines.append(f"| {name}: peak RSS < {megabytes:,.0f} MB | {timing.peak_mb:.0f} MB | | "
                         f"{'PASS' if timing.peak_mb < megabytes else '**MISS**'} |")
    for tool, limit in GROWTH_TARGET.items():
        if (tool, 1_000) in by_key and (tool, 10_000) in by_key:
            ratio = by_key[(tool, 10_000)].best / by_key[(tool, 1_000)].best
            lines.append(f"| {tool}, growth 10,000 / 1,000 (min wall) <= {limit:g} | | {ratio:.2f} | "
                         f"{'PASS' if ratio <= limit else '**MISS**'} |")
        else:
            lines.append(f"| {tool}, growth 10,000 / 1,000 <= {limit:g} | not measured | | |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="24,1000,10000", help="comma-separated fixture counts")
    parser.add_argument("--repeat", type=int, default=3, help="runs per command and size (default 3)")
    parser.add_argument("--repeat-large", type=int, metavar="R",
                        help="runs per command at 10,000 fixtures and more (default: --repeat)")
    parser.add_argument("--no-shipped", action="store_true",
                        help="skip the shipped corpus (fixtures/prompt-eval and " + SHIPPED_RUN + ")")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reference-repeat", type=int, default=1, metavar="R",
                        help="runs of detect-secrets per size (default 1: it is slow); yamllint, the "
                             "targets' reference, runs as often as lint and score")
    parser.add_argument("--defects", type=int, default=0, metavar="K",
                        help="also time lint on a corpus with K defects of every kind (the dirty path)")
    parser.add_argument("--no-reference", action="store_true", help="skip yamllint and detect-secrets")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR/<N> and keep it")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    tools, notes = commands(include_reference=not args.no_reference)
    root = args.keep or tempfile.mkdtemp(prefix="corpustools-bench-")
    print("## Machine\n")
    print("\n".join(machine()))
    timings: list[Timing] = []

    def measure(tool: str, n: int, command: list[str], cwd: str, repeat: int, suffix: str = "") -> None:
        runs = [run_once(command, cwd) for _ in range(repeat)]
        timing = Timing(tool + suffix, n, tuple(r[0] for r in runs), tuple(r[1] for r in runs),
                        max(r[2] for r in runs), tuple(r[3] for r in runs))
        timings.append(timing)
        print(f"  {timing.tool} N={size_label(n)}: min {timing.best:.3f} s, median {timing.median:.3f} s, "
              f"{timing.peak_mb:.0f} MB, exit {set(timing.exit_codes)}", file=sys.stderr)

    def repeats(tool: str, n: int) -> int:
        if tool == "detect-secrets":
            return args.reference_repeat
        return args.repeat_large if args.repeat_large and n >= 10_000 else args.repeat

    if not args.no_shipped:
        shipped_tools, _ = commands(include_reference=not args.no_reference, corpus="fixtures/prompt-eval", results=SHIPPED_RUN)
        for tool, command in shipped_tools.items():
            measure(tool, SHIPPED, command, REPO, repeats(tool, SHIPPED))
    try:
        for n in sizes:
            variants = [("", 0)] + ([(" (dirty)", args.defects)] if args.defects else [])
            for suffix, defects in variants:
                out = os.path.join(root, f"{n}{'-dirty' if defects else ''}")
                if not os.path.isdir(out):
                    # In a child process: a child's peak RSS (wait4's ru_maxrss) starts at its parent's
                    # RSS when forked, so this process must stay small while it times the others.
                    started = time.perf_counter()
                    made = subprocess.run([sys.executable, MAKE_CORPUS, str(n), out, "--seed", str(args.seed),
                                           "--defects", str(defects)], capture_output=True, text=True)
                    if made.returncode:
                        notes.append(f"N={n}{suffix}: not generated: {made.stderr.strip().splitlines()[-1]}")
                        continue
                    print(f"generated N={n}{suffix} in {time.perf_counter() - started:.1f} s: {out}", file=sys.stderr)
                for tool, command in tools.items():
                    if defects and tool != "lint":
                        continue
                    measure(tool, n, command, out, repeats(tool, n), suffix)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print("\n## Timings\n")
    print("\n".join(table(timings)))
    print(f"\n## Targets (ratios of min wall time to {REFERENCE} on the same sidecars, same run)\n")
    print("\n".join(targets_table(timings, sizes)))
    if len(sizes) >= 2:
        low, high = sorted(sizes)[-2:]
        print("\n## Growth\n")
        print("\n".join(growth(timings, low, high)))
    print(f"\nCommand: {' '.join(['bench/run.py'] + (argv if argv is not None else sys.argv[1:]))}; "
          f"each row is `runs` fresh processes, timed from spawn to exit; lint and score exit 0 on the "
          "clean corpus (lint exits 1 on the dirty one); yamllint exits 1 on its default style rules.")
    for note in notes:
        print(f"\nNote: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
