"""bench/phases.py CORPUS [CORPUS...]: where `corpustools lint` spends its time, phase by phase.

Times, in CPU seconds of this process (steadier than wall time on a shared machine), loading the
corpus and then each lint rule in the engine's order, with the cycle collector paused as the
command line pauses it; with the resident memory after each and the peak so far (a rule's
transient arrays show in the peak, not after it; the process's peak, so give the corpora smallest
first); and prints one Markdown table with columns per corpus, so two sizes side by side show
which phase grows faster than the corpus. Analyses several rules share (sentence skeletons) are
charged to the first rule that asks for them.
With --cache-dir DIR, the rules run as `lint --cache-dir DIR` runs them (lint's cache: the secret
scan's and the fixture-scoped rules' held findings; the entry is saved at the end, so a second
run shows a warm lint's phases).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time


def resident_mb() -> float:
    """This process's resident memory now (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def peak_mb() -> float:
    """This process's peak resident memory so far (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            return next(int(line.split()[1]) / 1024 for line in handle if line.startswith("VmHWM:"))
    except (OSError, ValueError, IndexError, StopIteration):
        return 0.0


def phases(root: str, cache_dir: str | None = None) -> dict[str, tuple[float, float, float]]:
    """phase -> (CPU seconds, resident MB after it, peak resident MB so far)."""
    from dataclasses import replace

    from corpustools.lint.cache import open_corpus_cache
    from corpustools.lint.engine import Selection, active_rules, build_context, corpus_config, fixture_problems
    from corpustools.lint.registry import FIXTURE, rule_modules
    from corpustools.model.corpus import load_corpus

    timings: dict[str, tuple[float, float, float]] = {}
    gc.disable()  # as corpustools.cli does while a command runs
    started = time.process_time()
    corpus = load_corpus(root)
    timings["load corpus (read, YAML, schema)"] = (time.process_time() - started, resident_mb(), peak_mb())
    rules = rule_modules()
    config = corpus_config(corpus, rules)
    selection = Selection()
    context = build_context(corpus, config, selection)
    cache = open_corpus_cache(cache_dir, os.path.abspath(root)) if cache_dir else None
    context = replace(context, file_cache=cache)
    for rule in active_rules(rules, config, selection):
        started = time.process_time()
        options = config.options_of(rule)
        list(fixture_problems(context, rule, options) if cache is not None and rule.SCOPE == FIXTURE
             else rule.check(context, options))
        timings[f"{rule.CODE} {rule.NAME}"] = (time.process_time() - started, resident_mb(), peak_mb())
    if cache is not None:
        started = time.process_time()
        cache.save()
        timings["save lint's cache"] = (time.process_time() - started, resident_mb(), peak_mb())
    gc.enable()
    return timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/phases.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="+", metavar="CORPUS")
    parser.add_argument("--top", type=int, default=12, help="rows to show, largest last column first")
    parser.add_argument("--cache-dir", metavar="DIR", help="lint's cache folder (default: none, a lint --no-cache)")
    args = parser.parse_args(argv)
    columns = [(os.path.basename(os.path.dirname(os.path.abspath(c))) or c, phases(c, args.cache_dir))
               for c in args.corpora]
    last = columns[-1][1]
    rows = sorted(last, key=lambda name: -last[name][0])[: args.top]
    print("| phase | " + " | ".join(f"{name} CPU (s) | {name} RSS after (MB) | {name} peak so far (MB)"
                                    for name, _ in columns) + " |")
    print("|---|" + "---:|---:|---:|" * len(columns))
    for name in rows:
        cells = (timing.get(name, (0.0, 0.0, 0.0)) for _, timing in columns)
        print(f"| {name} | " + " | ".join(f"{cpu:.2f} | {rss:.0f} | {peak:.0f}" for cpu, rss, peak in cells) + " |")
    totals = (sum(cpu for cpu, _, _ in timing.values()) for _, timing in columns)
    print("| **total** | " + " | ".join(f"{total:.2f} | | " for total in totals) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
