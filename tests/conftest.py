"""Shared pytest fixtures; the plain builders they use live in tests/support (a package).

Usage in a test:

    def test_something(make_corpus):
        root = make_corpus({"sessions/admit-convention-01.md": broken_text})  # str -> Path
        root = make_corpus({"expected/reject-noise-01.yaml": None})           # None deletes a file

The corpus and its parts (`VALID_FILES`, `session_text()`, `sidecar_text()`, the fixture ids)
come from `tests.support.corpus`; import them from there, never from this file.

A module whose tests print paths relative to the working folder runs them all in their tmp_path
with `pytestmark = pytest.mark.usefixtures("in_tmp")`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.support.corpus import write_corpus

# Hypothesis times its tests too: a deadline per example and a health check on slow data
# generation, both of which fail on a loaded machine with no code at fault (the suite runs beside
# other jobs, tests/support/work.py). Off for every test; a test's own @settings list replaces
# this one's suppressed checks, so it names too_slow again.
settings.register_profile("untimed", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("untimed")


def pytest_collection_modifyitems(config, items):
    """`heavy` tests (benchmark scale: minutes and gigabytes) run only when a -m expression names
    them (`pytest -m heavy`) or a test is named by its node id: any other selection, the quick
    loop's `-m "not slow"` included, leaves them out, so no -m a contributor types starts one by
    accident."""
    if "heavy" in (config.option.markexpr or ""):
        return
    named = tuple(arg for arg in config.args if "::" in arg)  # a test named by its node id runs
    kept = [item for item in items if item.get_closest_marker("heavy") is None
            or any(item.nodeid == arg or item.nodeid.startswith(arg + "[") or arg.endswith(item.nodeid)
                   for arg in named)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


@pytest.fixture(autouse=True)
def lint_cache_folder(tmp_path_factory, monkeypatch):
    """lint's cache (corpustools.lint.cache) in one folder per test session, never the user's: every
    lint of the suite reads and writes it, so the suite also runs warm wherever a corpus repeats."""
    folder = tmp_path_factory.getbasetemp() / "lint-cache"
    monkeypatch.setenv("CORPUSTOOLS_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def make_corpus(tmp_path):
    """A function: make_corpus(overrides=None, name="corpus") -> Path of a fresh corpus folder."""
    def make(overrides: dict | None = None, name: str = "corpus") -> Path:
        return write_corpus(tmp_path / name, overrides)

    return make


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run the test in its tmp_path: diagnostics print paths relative to the working folder.
    A module uses it for every test with `pytestmark = pytest.mark.usefixtures("in_tmp")`."""
    monkeypatch.chdir(tmp_path)

