"""The fuzz pass over corpus.yaml contracts, output schemas (patterns, `$ref`s), sessions, sidecars
(any-of entries, forbidden combinations, expected_fields, item_fields) and results of every
contract kind (tests/support/fuzzing.py; issue 31, "Done when"): lint and score run in-process on
each generated corpus and run, with every report format of both, and none may raise, crash a rule,
write a non-standard JSON number, take more than 10 s of CPU or reach past 1 GiB of address space
(the fuzzing process runs under that limit). The quick pass is the same 25 examples every time; the
`heavy` one draws 1,000 new ones and shrinks a failure.

The guards themselves are tested too: an example that crashes, that loops or that allocates past
the limit is reported, not missed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import fuzzing

ROOT = Path(__file__).resolve().parent.parent
QUICK = 25  # examples of the pass the suite runs: a few seconds


def fuzz_pass(*args: str, timeout: int) -> dict:
    """`python -m tests.support.fuzzing ARGS` in a subprocess (it limits its own address space);
    its summary."""
    done = subprocess.run([sys.executable, "-m", "tests.support.fuzzing", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)
    assert done.stdout.strip(), done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    failures = summary["failures"]
    assert failures == [], json.dumps(failures[0], indent=1, ensure_ascii=False)[:6000]
    assert done.returncode == 0, done.stderr[-3000:]
    return summary


def test_the_fuzz_pass_finds_no_traceback_and_no_unbounded_example():
    summary = fuzz_pass("--examples", str(QUICK), timeout=600)
    assert summary["examples"] == QUICK
    assert summary["slowest_cpu_seconds"] < fuzzing.TIME_LIMIT
    assert summary["peak_rss_bytes"] < fuzzing.MEMORY_LIMIT


@pytest.mark.heavy
def test_the_long_fuzz_pass():
    summary = fuzz_pass("--examples", "1000", "--random", "--shrink", timeout=3600)
    assert summary["examples"] >= 1000


def test_the_quick_pass_draws_every_surface_and_contract_kind(monkeypatch):
    """The quick pass's 25 examples (the same each time) cover every kind of contract, a schema with
    a pattern and with a `$ref`, sidecars with any-of entries, forbidden combinations,
    expected_fields and item_fields, a `lint:` section, and hostile results."""
    seen: set[str] = set()

    def collect(example: fuzzing.Example) -> None:
        assert example.contract is not None
        seen.add(f"kind {example.contract.kind}")
        for path, text in example.corpus.items():
            if path.endswith(".schema.json"):
                seen.update({"pattern", "$ref"} & set(_keys(json.loads(text))))
            elif path.startswith("expected/") and isinstance(data := json.loads(text), dict):
                seen.update({"expected_fields"} & set(data))
                for point in [*data.get("expected_points", []), *data.get("optional_points", [])]:
                    if any(isinstance(entry, list) for entry in point.get("must_match_all", [])):
                        seen.add("any-of")
                    if any(isinstance(entry, list) for entry in point.get("must_not_match", [])):
                        seen.add("combination")
                    seen.update({"item_fields"} & set(point))
            elif path == "corpus.yaml" and "\nlint:\n" in text:
                seen.add("lint section")
        if any(text in fuzzing.HOSTILE_JSON for text in example.run.values()):
            seen.add("hostile result")

    monkeypatch.setattr(fuzzing, "run_example", lambda example, scratch: [])
    assert fuzzing.fuzz(QUICK, observe=collect).examples == QUICK
    assert {f"kind {kind}" for kind in fuzzing.KINDS} <= seen, seen
    assert {"pattern", "$ref", "any-of", "combination", "expected_fields", "item_fields", "lint section",
            "hostile result"} <= seen, seen


def _keys(value):
    """Every key of every object in a JSON value."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def _scratch_example() -> fuzzing.Example:
    from tests.support.corpus import VALID_FILES

    return fuzzing.Example(dict(VALID_FILES), {})


def test_a_rule_that_crashes_is_a_failure_of_the_pass(monkeypatch):
    from corpustools.lint.rules import term_case

    def crash(ctx, options):
        raise ZeroDivisionError("planted")
        yield

    monkeypatch.setattr(term_case, "check", crash)
    tally = fuzzing.Tally()
    with pytest.raises(AssertionError, match="internal error in rule CT603 .*ZeroDivisionError: planted"):
        fuzzing.check(_scratch_example(), tally)
    assert tally.examples == 1 and len(tally.failures) == 1


def test_an_example_that_loops_is_stopped_at_the_cpu_limit(monkeypatch):
    def spin(example, scratch):
        while True:
            pass

    monkeypatch.setattr(fuzzing, "TIME_LIMIT", 0.3)
    monkeypatch.setattr(fuzzing, "run_example", spin)
    tally = fuzzing.Tally()
    with pytest.raises(AssertionError, match=r"time: over 0.3 s of CPU"):
        fuzzing.check(_scratch_example(), tally)


def test_an_example_that_allocates_past_the_limit_is_a_failure_not_a_dead_process():
    code = ("import resource, sys\n"
            "from tests.support import fuzzing\n"
            "resource.setrlimit(resource.RLIMIT_AS, (fuzzing.MEMORY_LIMIT, fuzzing.MEMORY_LIMIT))\n"
            "fuzzing.run_example = lambda example, scratch: [bytearray(2 * fuzzing.MEMORY_LIMIT)]\n"
            "tally = fuzzing.Tally()\n"
            "try:\n"
            "    fuzzing.check(fuzzing.Example({}, {}), tally)\n"
            "except AssertionError as failure:\n"
            "    print(failure)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout == f"memory: over the {fuzzing.MEMORY_LIMIT} byte address-space limit\n", done.stderr
