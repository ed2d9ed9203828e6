"""bench/run.py: time `corpustools lint` and `score` as whole processes on generated corpora.

For each size N (default 24, 1000, 10000) a corpus and its results are generated into a temporary
folder (not timed), then each command runs --repeat times as a fresh process; the table reports
the minimum and median wall time and the peak resident memory of the process (wait4's
ru_maxrss). `yamllint` over the same sidecars and `detect-secrets scan` over the same sessions
run beside them for reference, when installed. Not part of the test suite: it takes minutes.

    /tmp/venv/bin/python bench/run.py                       # the full run in docs/performance.md
    /tmp/venv/bin/python bench/run.py --sizes 24,200 --repeat 2   # a quick one
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

MAKE_CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "make_corpus.py")

# (tool, N) -> (seconds, MB) limits from issue 8, on a 2-core machine.
TARGETS = {("lint", 24): (0.5, None), ("lint", 10_000): (60.0, 2048.0), ("score", 10_000): (5.0, None)}
GROWTH_TARGET = {"lint": 12.0}


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


def commands(include_reference: bool) -> tuple[dict[str, list[str]], list[str]]:
    """tool -> argv (run in the output folder), and a note for each tool that is skipped."""
    corpustools = executable("corpustools")
    base = [corpustools] if corpustools else [sys.executable, "-m", "corpustools"]
    tools = {"lint": base + ["lint", "corpus"], "score": base + ["score", "corpus", "results"]}
    notes = []
    if include_reference:
        for tool, argv in (("yamllint", ["yamllint", "-f", "parsable", "corpus/expected"]),
                           ("detect-secrets", ["detect-secrets", "scan", "--all-files", "corpus/sessions"])):
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


def verdict(timing: Timing) -> str:
    target = TARGETS.get((timing.tool, timing.n))
    if not target:
        return ""
    seconds, megabytes = target
    parts = [f"< {seconds:g} s {'met' if timing.best < seconds else '**missed**'}"]
    if megabytes:
        parts.append(f"< {megabytes / 1024:g} GB {'met' if timing.peak_mb < megabytes else '**missed**'}")
    return ", ".join(parts)


def table(timings: list[Timing]) -> list[str]:
    lines = ["| tool | fixtures | runs | min (s) | median (s) | min CPU (s) | peak RSS (MB) | exit "
             "| target (on min) |",
             "|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for t in timings:
        codes = ",".join(str(c) for c in sorted(set(t.exit_codes)))
        lines.append(f"| {t.tool} | {t.n:,} | {len(t.seconds)} | {t.best:.3f} | {t.median:.3f} | {t.best_cpu:.3f} | "
                     f"{t.peak_mb:.0f} | {codes} | {verdict(t)} |")
    return lines


def growth(timings: list[Timing], low: int, high: int) -> list[str]:
    by_key = {(t.tool, t.n): t for t in timings}
    lines = [f"| tool | time at {high:,} / time at {low:,} (min) | (median) | (min CPU) | target |",
             "|---|---:|---:|---:|---|"]
    for tool in dict.fromkeys(t.tool for t in timings):
        if (tool, low) in by_key and (tool, high) in by_key:
            a, b = by_key[(tool, low)], by_key[(tool, high)]
            ratio = b.best / a.best
            target = GROWTH_TARGET.get(tool)
            mark = f"<= {target:g} {'met' if ratio <= target else '**missed**'}" if target else ""
            lines.append(f"| {tool} | {ratio:.1f} | {b.median / a.median:.1f} | "
                         f"{b.best_cpu / a.best_cpu:.1f} | {mark} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="24,1000,10000", help="comma-separated fixture counts")
    parser.add_argument("--repeat", type=int, default=3, help="runs per command and size (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reference-repeat", type=int, default=1, metavar="R",
                        help="runs of yamllint and detect-secrets per size (default 1: detect-secrets is slow)")
    parser.add_argument("--defects", type=int, default=0, metavar="K",
                        help="also time lint on a corpus with K defects of every kind (the dirty path)")
    parser.add_argument("--no-reference", action="store_true", help="skip yamllint and detect-secrets")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR/<N> and keep it")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    tools, notes = commands(not args.no_reference)
    root = args.keep or tempfile.mkdtemp(prefix="corpustools-bench-")
    print("## Machine\n")
    print("\n".join(machine()))
    timings: list[Timing] = []
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
                    repeat = args.repeat if tool in ("lint", "score") else args.reference_repeat
                    runs = [run_once(command, out) for _ in range(repeat)]
                    timing = Timing(tool + suffix, n, tuple(r[0] for r in runs), tuple(r[1] for r in runs),
                                    max(r[2] for r in runs), tuple(r[3] for r in runs))
                    timings.append(timing)
                    print(f"  {timing.tool} N={n}: min {timing.best:.3f} s, median {timing.median:.3f} s, "
                          f"{timing.peak_mb:.0f} MB, exit {set(timing.exit_codes)}", file=sys.stderr)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print("\n## Timings\n")
    print("\n".join(table(timings)))
    if len(sizes) >= 2:
        low, high = sorted(sizes)[-2:]
        print(f"\n## Growth\n")
        print("\n".join(growth(timings, low, high)))
    print(f"\nCommand: {' '.join(['bench/run.py'] + (argv if argv is not None else sys.argv[1:]))}; "
          f"each row is `runs` fresh processes, timed from spawn to exit; lint and score exit 0 on the "
          "clean corpus (lint exits 1 on the dirty one); yamllint exits 1 on its default style rules.")
    for note in notes:
        print(f"\nNote: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
