"""bench/run.py: time `corpustools lint` and `score` as whole processes on generated corpora, and
judge them against the targets of issue 36 ("Speed, re-anchored": lint's cache).

For each size N (default 24, 1000, 10000) a corpus and its results are generated into a temporary
folder (not timed), then each command runs --repeat times as a fresh process; the table reports
the minimum and median wall time and the peak resident memory of the process (wait4's
ru_maxrss). `yamllint` over the same sidecars and `detect-secrets scan` over the same sessions
run beside them for reference, when installed. The shipped corpus is timed first the same way:
`lint fixtures/prompt-eval`, `score fixtures/prompt-eval fixtures/prompt-eval/runs/v5-run6`,
yamllint over `fixtures/prompt-eval/expected`, and the pre-commit hook on a one-file change (the
hook's entry and args from .pre-commit-hooks.yaml, run in a temporary clone of this repository
with one sidecar changed and staged). TARGETS below is every target, as data: ratios of median
wall times to yamllint's on the same sidecars, in the same run (yamllint runs as often as lint
and score), or to other references (yamllint on the hook's one changed file; yamllint and
`detect-secrets scan --all-files` on the whole shipped corpus folder, added), a peak memory and the
hook's wall time. Each is printed with its measured value and PASS, or MISS and by how much. Not
part of the test suite: it takes minutes.

lint's cache (corpustools.lint.cache): every `lint` row is cold, each run given a new empty cache
folder (CORPUSTOOLS_CACHE_DIR), so it pays for writing the cache as a first lint does; `lint (warm)`
lints the shipped corpus with a cache a first lint filled; the hook row runs with a copy, made
before each run, of a cache filled by linting the committed corpus, so only the changed file is
new to it, as in a commit after the last one.

Install corpustools for it as users have it: not editable, with compiled bytecode (`pip install .`
into a fresh virtual environment; this machine sets PYTHONDONTWRITEBYTECODE=1, which pip's own
compilation at install ignores); the report's Machine section says how the timed copy was installed.

    python bench/run.py                                     # the full run in docs/performance.md
    python bench/run.py --write docs/performance.md         # the same, written into that file
    python bench/run.py --sizes 24,200 --repeat 3           # a quick one
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_CORPUS = os.path.join(HERE, "make_corpus.py")
REPO = os.path.dirname(HERE)
SHIPPED = 0  # the `n` of the shipped corpus's rows (fixtures/prompt-eval, 24 fixtures)
SHIPPED_RUN = "fixtures/prompt-eval/runs/v5-run6"

REFERENCE = "yamllint"
HOOK = "hook"  # the pre-commit hook on a one-file change in the shipped corpus (hook_command)
WARM = "lint (warm)"  # lint of the unchanged shipped corpus, its cache filled by a lint before
ONE_FILE = "yamllint, one file"  # yamllint on the sidecar the hook row changed
FOLDER_REFERENCES = ("yamllint, folder", "detect-secrets, folder")  # on the whole shipped corpus folder
RATIO, PEAK_MB, GROWTH, WALL = "ratio", "peak_mb", "growth", "wall"


@dataclass(frozen=True)
class Target:
    """One target of issue 26: `tool` at `n` fixtures (SHIPPED: the shipped corpus, 24 fixtures)
    must stay at or under `limit` (RATIO: median wall time over yamllint's at the same `n`; GROWTH:
    median wall at 10,000 over median wall at 1,000) or under it (PEAK_MB: peak RSS of the
    slowest run; WALL: median wall seconds)."""

    tool: str
    n: int
    kind: str
    limit: float
    reference: tuple[str, ...] = (REFERENCE,)  # RATIO: over the sum of these tools' medians at `n`


TARGETS: tuple[Target, ...] = (
    Target(WARM, SHIPPED, RATIO, 1.2),
    Target(HOOK, SHIPPED, WALL, 0.3), Target(HOOK, SHIPPED, RATIO, 2.0, (ONE_FILE,)),
    Target("lint", SHIPPED, RATIO, 0.1, FOLDER_REFERENCES),
    Target("lint", 1_000, RATIO, 1.3), Target("lint", 10_000, RATIO, 1.5), Target("lint", 10_000, PEAK_MB, 600.0),
    Target("score", SHIPPED, RATIO, 0.8), Target("score", 24, RATIO, 0.8),
    Target("score", 1_000, RATIO, 0.3), Target("score", 10_000, RATIO, 0.2),
)
GROWTH_FROM = 1_000  # GROWTH is the time at a target's n over the time at this size


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

    @property
    def median_cpu(self) -> float:
        return statistics.median(self.cpu_seconds)


def run_once(argv: list[str], cwd: str, env: dict[str, str] | None = None) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in MB, exit code) of one process; output is discarded."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, process.returncode


def executable(name: str) -> str | None:
    """A console script next to this interpreter (the venv's), else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    return beside if os.access(beside, os.X_OK) else shutil.which(name)


def corpustools_command() -> list[str]:
    """How to start the corpustools beside this interpreter."""
    corpustools = executable("corpustools")
    return [corpustools] if corpustools else [sys.executable, "-m", "corpustools"]


def commands(*, include_reference: bool, corpus: str = "corpus",
             results: str = "results", shipped: bool = False) -> tuple[dict[str, list[str]], list[str]]:
    """tool -> argv (run in the output folder, or the repository for the shipped corpus), and a note
    for each tool that is skipped. `shipped`: also the references on the whole corpus folder."""
    base = corpustools_command()
    tools = {"lint": base + ["lint", corpus], "score": base + ["score", corpus, results]}
    notes = []
    references = [("yamllint", ["yamllint", "-f", "parsable", f"{corpus}/expected"]),
                  ("detect-secrets", ["detect-secrets", "scan", "--all-files", f"{corpus}/sessions"])]
    if shipped:
        references[1:] = [(FOLDER_REFERENCES[0], ["yamllint", "-f", "parsable", corpus]),
                          (FOLDER_REFERENCES[1], ["detect-secrets", "scan", "--all-files", corpus])]
    if include_reference:
        for tool, argv in references:
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
            f"- load average (1/5/15 min) when the run started: {load}",
            f"- corpustools: {installed_as()}"]


def installed_as() -> str:
    """How the timed corpustools is installed: an editable install, or one without compiled bytecode,
    compiles every module from source at each start (about 80 ms of lint's start-up here), which
    yamllint, installed by pip with its bytecode, never pays."""
    import corpustools

    package = os.path.dirname(corpustools.__file__)
    editable = not os.path.abspath(package).startswith(os.path.abspath(sysconfig.get_paths()["purelib"]))
    cached = os.path.isdir(os.path.join(package, "__pycache__")) and any(
        name.endswith(".pyc") for name in os.listdir(os.path.join(package, "__pycache__")))
    how = "an editable install (from the source tree)" if editable else "installed by pip"
    return f"{how}, {'with' if cached else 'without'} compiled bytecode ({package})"


def size_label(n: int) -> str:
    return "shipped" if n == SHIPPED else f"{n:,}"


def _by_key(timings: list[Timing]) -> dict[tuple[str, int], Timing]:
    return {(t.tool, t.n): t for t in timings}


def reference_median(target: Target, timings: list[Timing]) -> float | None:
    """The sum of the medians of `target`'s references at its size, None when one is missing."""
    by_key = _by_key(timings)
    found = [by_key.get((tool, target.n)) for tool in target.reference]
    return None if any(t is None for t in found) else sum(t.median for t in found if t is not None)


def ratio_to_reference(timing: Timing, timings: list[Timing]) -> tuple[float, float] | None:
    """(median wall, median CPU) of `timing` over yamllint's on the same sidecars, None without yamllint."""
    reference = _by_key(timings).get((REFERENCE, timing.n))
    if reference is None or timing.tool == REFERENCE:
        return None
    return timing.median / reference.median, timing.median_cpu / reference.median_cpu


@dataclass(frozen=True)
class Verdict:
    target: Target
    measured: str  # what was measured, for the reader ("0.412 s vs 0.230 s"), or "not measured"
    value: float | None  # the number compared with the limit
    passed: bool | None  # None: not measured (never a pass)

    @property
    def name(self) -> str:
        t = self.target
        where = "shipped corpus (24 fixtures)" if t.n == SHIPPED else f"{t.n:,} fixtures"
        what = {RATIO: f"median wall <= {t.limit:g}x {' + '.join(t.reference)}", PEAK_MB: f"peak RSS < {t.limit:g} MB",
                GROWTH: f"growth {t.n:,} / {GROWTH_FROM:,} (median wall) <= {t.limit:g}",
                WALL: f"median wall < {t.limit:g} s"}[t.kind]
        tool = "pre-commit hook, one-file change" if t.tool == HOOK else t.tool
        return f"{tool}, {where}: {what}"

    @property
    def shown(self) -> str:
        """The value as the target states it (2.31x, 712 MB, 10.2, 0.43 s)."""
        if self.value is None:
            return ""
        return {RATIO: f"{self.value:.2f}x", PEAK_MB: f"{self.value:.0f} MB", GROWTH: f"{self.value:.1f}",
                WALL: f"{self.value:.3f} s"}[self.target.kind]

    @property
    def outcome(self) -> str:
        """PASS (with the margin), MISS and by how much, or `not measured`."""
        if self.passed is None or self.value is None:
            return "not measured"
        t, over = self.target, self.value - self.target.limit
        unit = {RATIO: "x", PEAK_MB: " MB", GROWTH: "", WALL: " s"}[t.kind]
        digits = {RATIO: 2, PEAK_MB: 0, GROWTH: 1, WALL: 3}[t.kind]
        if self.passed:
            return f"PASS ({t.limit - self.value:.{digits}f}{unit} to spare)"
        miss = f"**MISS** by {over:.{digits}f}{unit}"
        if t.kind in (RATIO, GROWTH) and self.value:
            miss += f" ({over / self.value:.0%} of the time must go)"
        return miss


def judge(target: Target, timings: list[Timing]) -> Verdict:
    """`target` against `timings` (one run of this script); a value missing is `not measured`."""
    by_key = _by_key(timings)
    timing = by_key.get((target.tool, target.n))
    if timing is None:
        return Verdict(target, "not measured", None, None)
    if target.kind == PEAK_MB:
        return Verdict(target, f"{timing.peak_mb:.0f} MB", timing.peak_mb, timing.peak_mb < target.limit)
    if target.kind == WALL:
        return Verdict(target, f"{timing.median:.3f} s (min {timing.best:.3f} s)", timing.median,
                       timing.median < target.limit)
    if target.kind == RATIO:
        base_median = reference_median(target, timings)
        missing = " or ".join(target.reference)
    else:
        base = by_key.get((target.tool, GROWTH_FROM))
        base_median = None if base is None else base.median
        missing = f"{target.tool} at {GROWTH_FROM:,}"
    if base_median is None:
        return Verdict(target, f"not measured ({missing} missing)", None, None)
    value = timing.median / base_median
    return Verdict(target, f"{timing.median:.3f} s vs {base_median:.3f} s", value, value <= target.limit)


def verdict(timing: Timing, timings: list[Timing]) -> str:
    """The targets of `timing`'s tool and size, as the timings table's last column."""
    return "; ".join(f"{v.shown} {v.outcome}".strip() for v in
                     (judge(t, timings) for t in TARGETS if (t.tool, t.n) == (timing.tool, timing.n)))


def table(timings: list[Timing]) -> list[str]:
    lines = [f"| tool | fixtures | runs | min (s) | median (s) | median CPU (s) | peak RSS (MB) | exit "
             f"| / {REFERENCE} (median) | / {REFERENCE} (median CPU) | targets |",
             "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|"]
    for t in timings:
        codes = ",".join(str(c) for c in sorted(set(t.exit_codes)))
        ratio = ratio_to_reference(t, timings)
        shown = f"{ratio[0]:.2f} | {ratio[1]:.2f}" if ratio else " | "
        lines.append(f"| {t.tool} | {size_label(t.n)} | {len(t.seconds)} | {t.best:.3f} | {t.median:.3f} | "
                     f"{t.median_cpu:.3f} | {t.peak_mb:.0f} | {codes} | {shown} | {verdict(t, timings)} |")
    return lines


def growth(timings: list[Timing], low: int, high: int) -> list[str]:
    by_key = _by_key(timings)
    lines = [f"| tool | time at {high:,} / time at {low:,} (median) | (min) | (median CPU) |",
             "|---|---:|---:|---:|"]
    for tool in dict.fromkeys(t.tool for t in timings):
        if (tool, low) in by_key and (tool, high) in by_key:
            a, b = by_key[(tool, low)], by_key[(tool, high)]
            lines.append(f"| {tool} | {b.median / a.median:.1f} | {b.best / a.best:.1f} | "
                         f"{b.median_cpu / a.median_cpu:.1f} |")
    return lines


def targets_table(timings: list[Timing]) -> list[str]:
    """One row per target: what it is, what was measured, the value, PASS or MISS (and by how much)."""
    lines = ["| target | measured | value | verdict |", "|---|---|---:|---|"]
    for target in TARGETS:
        v = judge(target, timings)
        lines.append(f"| {v.name} | {v.measured} | {v.shown} | {v.outcome} |")
    return lines


def hook_command(workdir: str) -> tuple[list[str], str]:
    """(argv, cwd) of the pre-commit hook on a one-file change: a clone of this repository's
    committed tree in `workdir`, one sidecar of the shipped corpus changed and staged, and the
    hook's entry and args from .pre-commit-hooks.yaml followed by the changed file, as pre-commit
    passes it. Before the change, the clone's corpus is linted into `workdir`/cache (the cache a
    lint of the last commit left)."""
    import yaml

    with open(os.path.join(REPO, ".pre-commit-hooks.yaml"), encoding="utf-8") as handle:
        hook = next(h for h in yaml.safe_load(handle) if h["id"] == "corpustools-lint")
    clone = os.path.join(workdir, "hook-repository")
    subprocess.run(["git", "clone", "--quiet", REPO, clone], check=True)
    changed = "fixtures/prompt-eval/expected/" + sorted(os.listdir(os.path.join(clone, "fixtures/prompt-eval/expected")))[0]
    subprocess.run(corpustools_command() + ["lint", "--cache-dir", os.path.join(workdir, "cache"), "fixtures/prompt-eval"],
                   cwd=clone, check=True, capture_output=True)
    with open(os.path.join(clone, changed), "a", encoding="utf-8") as handle:
        handle.write("# a one-line change, as in a commit\n")
    subprocess.run(["git", "add", changed], cwd=clone, check=True)
    entry = hook["entry"].split()
    return corpustools_command() + entry[1:] + list(hook.get("args", [])) + [changed], clone


BEGIN = "<!-- bench/run.py: begin -->"
END = "<!-- bench/run.py: end -->"


def write_between_markers(path: str, report: str) -> None:
    """Replace what is between the BEGIN and END lines of `path` with `report` (the rest of the
    file, the prose around the numbers, is kept); written to a temporary file, then renamed."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    head, begin, rest = text.partition(BEGIN + "\n")
    _, end, tail = rest.partition(END + "\n")
    if not begin or not end:
        raise SystemExit(f"bench/run.py: {path} has no {BEGIN!r} ... {END!r} lines to write between")
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(head + BEGIN + "\n" + report + "\n" + END + "\n" + tail)
    os.replace(temporary, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="24,1000,10000", help="comma-separated fixture counts")
    parser.add_argument("--repeat", type=int, default=7, help="runs per command and size (default 7: the "
                        "targets are on medians of at least 7)")
    parser.add_argument("--repeat-large", type=int, metavar="R",
                        help="runs per command at 10,000 fixtures and more (default: --repeat)")
    parser.add_argument("--no-shipped", action="store_true",
                        help="skip the shipped corpus (fixtures/prompt-eval and " + SHIPPED_RUN + ")")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reference-repeat", type=int, default=1, metavar="R",
                        help="runs of detect-secrets per size (default 1: it is slow, 8 minutes at 10,000 "
                             "fixtures; 0: not run); yamllint, the targets' reference, runs as often as lint and score")
    parser.add_argument("--reference-shipped-only", action="store_true",
                        help="run detect-secrets on the shipped corpus only (its target's reference), not at each size")
    parser.add_argument("--defects", type=int, default=0, metavar="K",
                        help="also time lint on a corpus with K defects of every kind (the dirty path)")
    parser.add_argument("--no-reference", action="store_true", help="skip yamllint and detect-secrets")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR/<N> and keep it")
    parser.add_argument("--write", metavar="FILE", help="also write the report into FILE between its "
                        f"{BEGIN!r} and {END!r} lines (docs/performance.md)")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    tools, notes = commands(include_reference=not args.no_reference)
    root = args.keep or tempfile.mkdtemp(prefix="corpustools-bench-")
    machine_lines = machine()
    timings: list[Timing] = []

    def measure(tool: str, n: int, command: list[str], cwd: str, repeat: int, suffix: str = "",
                cache: str | None = None) -> None:
        """`cache`: the cache folder each run starts from (a copy of it, made untimed; None: empty)."""
        if repeat < 1:
            return
        runs = []
        for _ in range(repeat):
            with tempfile.TemporaryDirectory(prefix="corpustools-bench-cache-") as folder:
                run_cache = os.path.join(folder, "cache")
                if cache is not None:
                    shutil.copytree(cache, run_cache)
                env = dict(os.environ, CORPUSTOOLS_CACHE_DIR=run_cache)
                runs.append(run_once(command, cwd, env if tool in ("lint", HOOK) else None))
        timing = Timing(tool + suffix, n, tuple(r[0] for r in runs), tuple(r[1] for r in runs),
                        max(r[2] for r in runs), tuple(r[3] for r in runs))
        timings.append(timing)
        print(f"  {timing.tool} N={size_label(n)}: min {timing.best:.3f} s, median {timing.median:.3f} s, "
              f"{timing.peak_mb:.0f} MB, exit {set(timing.exit_codes)}", file=sys.stderr)

    def repeats(tool: str, n: int) -> int:
        if tool.startswith("detect-secrets"):
            return 0 if args.reference_shipped_only and n != SHIPPED else args.reference_repeat
        return args.repeat_large if args.repeat_large and n >= 10_000 else args.repeat

    if not args.no_shipped:
        shipped_tools, shipped_notes = commands(include_reference=not args.no_reference, corpus="fixtures/prompt-eval",
                                                results=SHIPPED_RUN, shipped=True)
        notes += [note for note in shipped_notes if note not in notes]
        for tool, command in shipped_tools.items():
            measure(tool, SHIPPED, command, REPO, repeats(tool, SHIPPED))
        yamllint = None if args.no_reference else executable("yamllint")
        with tempfile.TemporaryDirectory(prefix="corpustools-warm-") as warm:
            subprocess.run(shipped_tools["lint"] + ["--cache-dir", warm], cwd=REPO, capture_output=True)
            measure(WARM, SHIPPED, shipped_tools["lint"] + ["--cache-dir", warm], REPO, repeats(WARM, SHIPPED))
        with tempfile.TemporaryDirectory(prefix="corpustools-hook-") as workdir:
            command, cwd = hook_command(workdir)
            measure(HOOK, SHIPPED, command, cwd, repeats(HOOK, SHIPPED), cache=os.path.join(workdir, "cache"))
            if yamllint:
                measure(ONE_FILE, SHIPPED, [yamllint, "-f", "parsable", command[-1]], cwd, repeats(ONE_FILE, SHIPPED))
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
    lines = ["## Machine", "", *machine_lines, "", "## Targets (issue 36; ratios of median wall times to "
             f"{REFERENCE} on the same sidecars, or to the references named, same run)", "", *targets_table(timings), "",
             "## Timings", "",
             *table(timings)]
    if len(sizes) >= 2:
        low, high = sorted(sizes)[-2:]
        lines += ["", "## Growth", "", *growth(timings, low, high)]
    lines += ["", f"Command: `{' '.join(['python bench/run.py'] + (argv if argv is not None else sys.argv[1:]))}`; "
              "each row is `runs` fresh processes, timed from spawn to exit; lint and score exit 0 on the "
              "clean corpus (lint exits 1 on the dirty one); yamllint exits 1 on its default style rules; "
              "the hook row is the pre-commit hook's command on a one-file change (hook_command), its cache "
              "filled by a lint of the commit before; `lint` rows start from an empty cache, `lint (warm)` from "
              "one a lint of the same corpus filled."]
    lines += [f"\nNote: {note}" for note in notes]
    report = "\n".join(lines)
    print(report)
    if args.write:
        write_between_markers(args.write, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
