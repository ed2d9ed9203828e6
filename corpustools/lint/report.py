"""Reporters: a LintReport in the formats linters and CI systems read. Pure functions from values
to text; nothing here decides what is wrong. Each format is one function of a LintReport and one
entry in FORMATTERS (whose keys are `lint --format`'s choices).

How a path is shown is decided here, not by the engine: relative to the working folder (text, json,
json-summary) or to the repository root (github, sarif), and redacted like every message."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import TypeVar
from urllib.parse import quote

from corpustools import __version__
from corpustools.io.documents import dump_json
from corpustools.io.paths import display_path, repository_root, root_relative
from corpustools.io.positions import printable
from corpustools.lint.diagnostic import Diagnostic, Severity
from corpustools.lint.engine import LintRun, exit_code
from corpustools.lint.secrets.redaction import redact_secrets
from corpustools.reporting.formatting import plural

T = TypeVar("T")

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

# ANSI SGR sequences for a terminal: bold code; red errors, yellow warnings.
_BOLD, _RESET = "\x1b[1m", "\x1b[0m"
_SEVERITY_COLOUR = {Severity.ERROR: "\x1b[31m", Severity.WARNING: "\x1b[33m"}


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


def format_text(report: LintReport) -> str:
    """`path:line:col: CODE [severity] message` a line (coloured on a terminal); then the statistics
    when asked, the summary line unless quiet, and after --fix how many findings were fixed."""
    diagnostics = report.diagnostics
    lines = []
    for d in diagnostics:
        code, severity = d.code, f"[{d.severity}]"
        if report.colour:
            code = f"{_BOLD}{code}{_RESET}"
            severity = f"{_SEVERITY_COLOUR.get(d.severity, '')}{severity}{_RESET}"
        lines.append(f"{printable(d.path)}:{d.line}:{d.col}: {code} {severity} {printable(d.message)}\n")
    if report.statistics:
        lines.append(format_statistics(diagnostics))
    if not report.quiet:
        lines.append(format_summary(diagnostics, report.run.fixtures, len(report.run.crashes)))
    return "".join(lines) + report.fixed_line()


def notes(report: LintReport, fmt: str) -> str:
    """What standard error carries beside a report in `fmt`: the statistics and the --fix count,
    which the text format prints in the report itself."""
    if fmt == "text":
        return ""
    return (format_statistics(report.diagnostics) if report.statistics else "") + report.fixed_line()


def found(diagnostics: Sequence[Diagnostic]) -> int:
    """How many findings `diagnostics` stand for: the folded ones counted (Diagnostic.count)."""
    return sum(d.count for d in diagnostics)


def _severity_counts(diagnostics: Sequence[Diagnostic]) -> tuple[int, int]:
    errors = sum(d.count for d in diagnostics if d.severity is Severity.ERROR)
    return errors, found(diagnostics) - errors


def format_summary(diagnostics: Sequence[Diagnostic], fixtures: int, crashes: int = 0) -> str:
    """The last line of text output, ruff-style: what was found, in how many fixtures."""
    errors, warnings = _severity_counts(diagnostics)
    found = [plural(n, noun) for n, noun in ((errors, "error"), (warnings, "warning"),
                                                (crashes, "internal error")) if n]
    if not found:
        return "All checks passed.\n"
    listed = ", ".join(found[:-1]) + " and " + found[-1] if len(found) > 1 else found[0]
    return f"Found {listed} in {plural(fixtures, 'fixture')}.\n"


def format_json_summary(report: LintReport) -> str:
    """One JSON object with the counts, for dashboards and CI badges."""
    diagnostics = report.diagnostics
    errors, warnings = _severity_counts(diagnostics)
    summary = {
        "tool": "corpustools",
        "version": __version__,
        "errors": errors,
        "warnings": warnings,
        "fixtures": report.run.fixtures,
        "by_code": dict(sorted(_counts(diagnostics, lambda d: d.code).items())),
        "exit_code": report.exit_code,
    }
    return dump_json(summary, indent=2) + "\n"


def _counts(diagnostics: Sequence[Diagnostic], key: Callable[[Diagnostic], T]) -> Counter[T]:
    """Findings by `key` of their diagnostic, the folded ones counted."""
    counts: Counter[T] = Counter()
    for d in diagnostics:
        counts[key(d)] += d.count
    return counts


def format_json(report: LintReport) -> str:
    """One JSON array of every diagnostic: path, line, col, code, name, severity, message, and on
    the last one listed of a rule in a file when more are not listed, `folded` (how many)."""
    return dump_json([d.as_dict() for d in report.diagnostics], indent=2) + "\n"


def _github_data(text: str) -> str:
    return printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(report: LintReport) -> str:
    """GitHub Actions workflow commands: each diagnostic becomes an annotation on the file (paths
    relative to the repository root, as GitHub resolves them)."""
    lines = []
    for d in report.from_root():
        command = "error" if d.severity is Severity.ERROR else "warning"
        props = ",".join((f"file={_github_property(d.path)}", f"line={d.line}", f"col={d.col}",
                          f"title={_github_property(f'{d.code} {d.name}')}"))
        lines.append(f"::{command} {props}::{_github_data(d.message)}\n")
    return "".join(lines)


# What %SRCROOT% stands for. No `uri`: an absolute path would make the log differ from machine to
# machine; GitHub code scanning resolves relative URIs against the checkout root anyway.
SRCROOT_DESCRIPTION = ("The repository root: the nearest folder holding .git, at or above the folder "
                       "corpustools lint ran in (that folder itself outside a repository).")


def artifact_uri(path: str) -> str:
    """A root-relative POSIX path as a SARIF relative URI reference (RFC 3986): every byte outside
    the unreserved set and `/` percent-encoded (UTF-8; a name that is not UTF-8 keeps its bytes)."""
    return quote(path.encode("utf-8", "surrogateescape"), safe="/")


def _sarif_rule(rule: ModuleType) -> dict:
    from corpustools.lint.ruledoc import rule_body, rule_summary

    # The documentation passes through the same redaction as every diagnostic: an example key in
    # it is cut too (no SARIF log carries a whole credential-shaped token).
    summary = redact_secrets(rule_summary(rule))
    # The long documentation (What / Why / Example) appears once, as help.markdown: what code
    # scanning shows beside an alert, under the rule's one-line summary as its title.
    body = redact_secrets(rule_body(rule)) or summary
    return {
        "id": rule.CODE,
        "name": rule.NAME,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": summary},
        "help": {"text": f"corpustools lint --explain {rule.CODE}", "markdown": body},
        "defaultConfiguration": {"level": rule.SEVERITY},
        "properties": {"suppressible": rule.SUPPRESSIBLE},
    }


def format_sarif(report: LintReport) -> str:
    """SARIF 2.1.0: one run; every rule with its documentation; results located relative to
    %SRCROOT%, the repository root."""
    rules, crashes = report.rules, [str(crash) for crash in report.run.crashes]
    index = {rule.CODE: i for i, rule in enumerate(rules)}
    driver = {"name": "corpustools", "version": __version__, "rules": [_sarif_rule(rule) for rule in rules]}
    results = []
    for d in report.from_root():
        result: dict[str, object] = {
            "ruleId": d.code,
            "level": d.severity,
            "message": {"text": d.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(d.path), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": d.line, "startColumn": d.col},
            }}],
        }
        if d.code in index:
            result["ruleIndex"] = index[d.code]
        if d.folded:
            result["properties"] = {"folded": d.folded}
        results.append(result)
    invocation: dict[str, object] = {"executionSuccessful": not crashes}
    if crashes:
        invocation["toolExecutionNotifications"] = [
            {"level": "error", "message": {"text": crash}} for crash in crashes]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "invocations": [invocation],
                  "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": SRCROOT_DESCRIPTION}}},
                  "results": results}],
    }
    return dump_json(log, indent=2) + "\n"


def format_statistics(diagnostics: Sequence[Diagnostic]) -> str:
    """One line per code, in code order: count, code, name; then the totals by severity."""
    counts = _counts(diagnostics, lambda d: (d.code, d.name))
    lines = [f"{count:<5} {code} {name}\n" for (code, name), count in sorted(counts.items())]
    errors, warnings = _severity_counts(diagnostics)
    lines.append(f"{errors} error(s), {warnings} warning(s)\n")
    return "".join(lines)


def format_rule_list(rules: Sequence[ModuleType]) -> str:
    from corpustools.lint.ruledoc import rule_summary

    lines = []
    width = max((len(rule.NAME) for rule in rules), default=0)  # names line up, however long
    for rule in rules:
        mark = " (never suppressible)" if not rule.SUPPRESSIBLE else ""
        lines.append(f"{rule.CODE}  {rule.NAME:<{width}} {rule.SEVERITY:<8} {rule_summary(rule)}{mark}\n")
    return "".join(lines)


# `lint --format`'s choices: a format is one function of a LintReport and one entry here.
FORMATTERS: dict[str, Callable[[LintReport], str]] = {
    "text": format_text,
    "json": format_json,
    "json-summary": format_json_summary,
    "github": format_github,
    "sarif": format_sarif,
}
