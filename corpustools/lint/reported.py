"""`LintReport`: what a lint run found, and how its reports show it. Every format of lint's
report (corpustools.lint.report) formats this value; nothing here decides what is wrong.

How a path is shown is decided here, not by the engine: relative to the working folder (text, json,
json-summary) or to the repository root (github, sarif), and redacted like every message."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import ModuleType

from corpustools.io.paths import display_path, repository_root, root_relative
from corpustools.lint.diagnostic import Diagnostic
from corpustools.lint.engine import LintRun, exit_code
from corpustools.lint.secrets.redaction import redact_secrets
from corpustools.reporting.formatting import plural


@dataclass(frozen=True, kw_only=True)
class LintReport:
    """What `lint` found (its LintRun, paths as found) and how the report is to be shown."""

    run: LintRun
    rules: tuple[ModuleType, ...]  # every rule loaded (SARIF documents them all)
    strict: bool = False  # warnings fail too
    colour: bool = False  # text: ANSI colours (a terminal)
    quiet: bool = False  # text: the diagnostics only, no summary line
    statistics: bool = False  # the count per code (text: in the report; other formats: on standard error)
    fixed: int | None = None  # findings --fix fixed; None without --fix

    @property
    def exit_code(self) -> int:
        """0 clean, 1 errors (or warnings when strict), 2 a rule crashed."""
        return exit_code(self.run, strict=self.strict)

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The diagnostics as reports show them: each path relative to the working folder and
        redacted, in report order (path, line, col, code)."""
        shown = _with_paths(self.run.diagnostics, lambda path: redact_secrets(display_path(path)))
        return tuple(sorted(set(shown), key=Diagnostic.sort_key))

    def from_root(self) -> tuple[Diagnostic, ...]:
        """The diagnostics with paths relative to the repository root (GitHub and SARIF locate files
        from there, not from where lint ran), in report order."""
        cwd = os.getcwd()
        root = repository_root(cwd)
        return _with_paths(self.diagnostics, lambda path: root_relative(path, root, cwd))

    def fixed_line(self) -> str:
        """`Fixed N findings (M remaining).` (`Fixed 1 finding`) after --fix; nothing without it or with --quiet."""
        if self.fixed is None or self.quiet:
            return ""
        return f"Fixed {plural(self.fixed, 'finding')} ({found(self.run.diagnostics)} remaining).\n"


def _with_paths(diagnostics: Sequence[Diagnostic], show: Callable[[str], str]) -> tuple[Diagnostic, ...]:
    """`diagnostics` with each path as `show` shows it, computed once a file (a rule can find
    thousands of things in one)."""
    shown: dict[str, str] = {}
    for d in diagnostics:
        if d.path not in shown:
            shown[d.path] = show(d.path)
    return tuple(replace(d, path=shown[d.path]) for d in diagnostics)


def found(diagnostics: Sequence[Diagnostic]) -> int:
    """How many findings `diagnostics` stand for: the folded ones counted (Diagnostic.count)."""
    return sum(d.count for d in diagnostics)
