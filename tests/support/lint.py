"""Helpers for the lint tests: run the engine in-process and look at what it found."""

from __future__ import annotations

from corpustools.lint.engine import Selection, lint_paths
from corpustools.lint.registry import rule_modules


def lint_run(*paths, select=None, ignore=frozenset(), prompt=None, kb=None, whole_corpus=False):
    """The LintRun for `paths` (diagnostic paths are relative to the working directory)."""
    return lint_paths([str(p) for p in paths], rule_modules(), Selection(select, frozenset(ignore), prompt, kb),
                      whole_corpus=whole_corpus)


def where(run, code: str) -> list[tuple[str, int, int]]:
    """(path, line, col) of every diagnostic of `code`, sorted."""
    return [(d.path, d.line, d.col) for d in run.diagnostics if d.code == code]


def messages(run, code: str) -> list[str]:
    return [d.message for d in run.diagnostics if d.code == code]
