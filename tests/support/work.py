"""How tests bound work without timing it: the suite runs on a loaded machine (`-n auto` on two
cores, beside other jobs), where a wall-clock bound fails with no code at fault. Speed targets live
in bench/ (ratios in one run); a test asserts one of these instead:

- `hang_guard`: a generous wall-clock bound (HANG_GUARD_SECONDS) that only catches a hang or an
  exponential blow-up, for a test whose finding fails on its own assertions (a refusal, a result);
- `python_steps`: the lines of Python a call executes, a count that does not depend on the
  machine: compare it at n and 2n (linear work doubles, quadratic work quadruples);
- `growth`: for work done in C, where nothing can be counted (a regular expression's
  backtracking), the CPU time (not wall time) at n·k over k times the CPU time at n, the lowest of a
  few measurements: about 1 for linear work, about k for quadratic work.

Usage:

    with hang_guard("lint of the planted sidecar"):
        code, out, _ = run_main("lint", str(corpus))

    small, large = python_steps(check, points(200)), python_steps(check, points(400))
    assert large < 2.5 * small   # linear: 2; quadratic: 4

    assert growth(lambda n: scan("a" * n), 5_000) < 3   # linear: about 1; quadratic: about 10
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator

# Far above what any bounded test takes on a loaded machine (seconds), far below what a blow-up
# takes (minutes to hours): the bound catches the second without ever failing on the first.
HANG_GUARD_SECONDS = 60


@contextlib.contextmanager
def hang_guard(what: str) -> Iterator[None]:
    """Fail when the block takes HANG_GUARD_SECONDS of wall time or more: a hang, not slowness."""
    started = time.monotonic()
    yield
    elapsed = time.monotonic() - started
    assert elapsed < HANG_GUARD_SECONDS, f"{what} took {elapsed:.0f} s: a hang or a blow-up"


def _call(function: Callable[..., object], *args: object) -> None:
    result = function(*args)
    if isinstance(result, Iterator):  # a lint rule's check is a generator: run it through
        for _ in result:
            pass


def python_steps(function: Callable[..., object], *args: object) -> int:
    """How many lines of Python (in every function it calls) `function(*args)` executes, counted
    on a second call: the first imports modules and fills caches, work done once per process."""
    _call(function, *args)
    steps = 0

    def on_line(frame, event, arg):
        nonlocal steps
        if event == "line":
            steps += 1
        return on_line

    def on_call(frame, event, arg):
        return on_line

    previous = sys.gettrace()
    sys.settrace(on_call)
    try:
        _call(function, *args)
    finally:
        sys.settrace(previous)
    return steps


def _cpu_seconds(run: Callable[[int], object], n: int) -> float:
    started = time.thread_time()
    run(n)
    return time.thread_time() - started


def growth(run: Callable[[int], object], n: int, factor: int = 10, *, limit: float = 3.0, attempts: int = 3) -> float:
    """CPU time of run(n * factor) over `factor` times the CPU time of run(n), each the lowest of
    its measurements: the large run is measured again (up to `attempts` times in all) while the
    ratio is over `limit`, so a pause of this process is not taken for growth. Work linear in n
    gives about 1 (less when a fixed cost dominates the small run); quadratic work about `factor`."""
    small = min(_cpu_seconds(run, n) for _ in range(attempts))
    large = _cpu_seconds(run, n * factor)
    for _ in range(attempts - 1):
        if large <= limit * factor * small:
            break
        large = min(large, _cpu_seconds(run, n * factor))
    return large / (factor * max(small, 1e-6))
