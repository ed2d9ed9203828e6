"""What a rule says about itself, read from its module: its docstring (summary, then What / Why /
Example), its declared options and its fixes. `--explain`, `--list-rules`, SARIF and the generated
docs/lint-rules.md (corpustools.lint.docs) all say it the same way."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from types import ModuleType

from corpustools.lint.fixes import rule_fixes


def rule_doc(rule: ModuleType) -> str:
    """The rule's docstring, dedented: its documentation."""
    return inspect.cleandoc(rule.__doc__ or "").strip()


def rule_summary(rule: ModuleType) -> str:
    """The first line of the rule's docstring."""
    doc = rule_doc(rule)
    return doc.splitlines()[0].strip() if doc else ""


def rule_options(rule: ModuleType) -> str:
    """The rule's options, from its declared data: a Markdown list item holding one item each."""
    if not rule.OPTIONS:
        return "- options: none"
    items = [f"\n  - `{option.name}` ({option.allowed()}; default `{option.shown(option.default)}`): {option.doc}"
             for option in sorted(rule.OPTIONS, key=lambda option: option.name)]
    return f"- options (under `lint: rules: {rule.CODE}:` in corpus.yaml):" + "".join(items)


def fix_kind(rule: ModuleType) -> str:
    """`safe`, `unsafe`, `safe, unsafe` (a rule with both kinds) or `` (no fix): for the rule table."""
    return ", ".join(dict.fromkeys("safe" if fix.safe else "unsafe" for fix in rule_fixes(rule)))


def rule_fix_doc(rule: ModuleType) -> str:
    """Whether `lint --fix` fixes the rule's findings and how safely, from its declared FIXES: a
    Markdown list item."""
    fixes = rule_fixes(rule)
    if not fixes:
        return "- fix: none (`--fix` leaves its findings to you)"
    items = [f"\n  - {'safe' if fix.safe else 'unsafe (only with `--unsafe-fixes`)'}: {fix.does}" for fix in fixes]
    return "- fix (`corpustools lint --fix`):" + "".join(items)


def rule_body(rule: ModuleType) -> str:
    """The rule's documentation after its summary line (What / Why / Example)."""
    return "\n".join(rule_doc(rule).splitlines()[1:]).strip()


def rule_list(rules: Sequence[ModuleType]) -> str:
    """`lint --list-rules`: a line per rule (code, name, default severity, summary), names lined up."""
    lines = []
    width = max((len(rule.NAME) for rule in rules), default=0)  # names line up, however long
    for rule in rules:
        mark = " (never suppressible)" if not rule.SUPPRESSIBLE else ""
        lines.append(f"{rule.CODE}  {rule.NAME:<{width}} {rule.SEVERITY:<8} {rule_summary(rule)}{mark}\n")
    return "".join(lines)
