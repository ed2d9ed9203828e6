"""Helpers for the lint tests: run the engine in-process and look at what it found."""

from __future__ import annotations

from dataclasses import replace

from corpustools.io.paths import display_path
from corpustools.lint.engine import Selection, lint_paths
from corpustools.lint.registry import rule_modules
from corpustools.lint.reported import LintReport


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
