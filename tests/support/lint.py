"""Helpers for the lint tests: run the engine in-process and look at what it found."""

from __future__ import annotations

from dataclasses import replace

from corpustools.io.paths import display_path
from corpustools.lint.engine import Selection, lint_paths
from corpustools.lint.registry import rule_modules
from corpustools.lint.reported import LintReport
from tests.support.corpus import ADMIT_ID, REJECT_ID


def lint_run(*paths, select=None, ignore=frozenset(), prompt=None, kb=None, whole_corpus=False):
    """The LintRun for `paths`, its diagnostics as the reports show them (paths relative to the
    working directory, redacted, in report order)."""
    run = lint_paths([str(p) for p in paths], rule_modules(), Selection(select, frozenset(ignore), prompt, kb),
                     whole_corpus=whole_corpus)
    return replace(run, diagnostics=LintReport(run=run, rules=()).diagnostics)


def where(run, code: str) -> list[tuple[str, int, int]]:
    """(path, line, col) of every diagnostic of `code`, sorted; the path relative to the working directory."""
    return [(display_path(d.path), d.line, d.col) for d in run.diagnostics if d.code == code]


def messages(run, code: str) -> list[str]:
    return [d.message for d in run.diagnostics if d.code == code]


# The shared valid corpus's files (tests/support/corpus.py), for samples that change one of them.
ADMIT_SESSION = f"sessions/{ADMIT_ID}.md"
REJECT_SESSION = f"sessions/{REJECT_ID}.md"
ADMIT_SIDECAR = f"expected/{ADMIT_ID}.yaml"
REJECT_SIDECAR = f"expected/{REJECT_ID}.yaml"


def sample_found_at(make_corpus, code: str, overrides: dict) -> list[tuple[str, int, int]]:
    """Where `code` reports the shared valid corpus with `overrides`, as `where` shows it (every
    rule runs, none crashes: a sample's finding must not depend on the others being off)."""
    run = lint_run(make_corpus(overrides))
    assert run.crashes == ()
    return where(run, code)


def in_corpus(expected) -> list[tuple[str, int, int]]:
    """(path inside the corpus, line, col) rows as `where` shows them for a corpus named `corpus`."""
    return [(f"corpus/{path}", line, col) for path, line, col in expected]
