"""`corpustools lint`: corpus-quality rules.

Layout (yamllint's): each rule is one module under `corpustools.lint.rules` that declares, as data,

    CODE = "CT601"            # the contract other tools rely on
    NAME = "term-unwinnable"
    SEVERITY = Severity.ERROR # default level: Severity.ERROR | Severity.WARNING
    OPTIONS = (Option("max_words", int, 3, "..."),)  # Option(name, type, default, doc, min/max/choices,
                              # validate) records, set under `lint: rules: CT601:` in corpus.yaml
    class Options(NamedTuple):  # what check is handed: a field per option (corpustools.lint.options);
        max_words: int          # a rule without OPTIONS has no Options, and check takes NoOptions
    SUPPRESSIBLE = True       # False for the CT5xx secret rules: they can never be switched off
    FIXES = (Fix(SAFE, "writes the term in lowercase", plan),)   # what --fix may do, () for nothing
                              # (corpustools.lint.fixes; unsafe ones need --unsafe-fixes)

documents itself in its module docstring (first line: one-sentence summary; then what, why, an
example), and yields `Problem`s from a generator `check(ctx: LintContext, options: Options) ->
Iterator[Problem]`; `options` holds every declared option, already checked and defaulted
(`options.threshold`). `registry.Rule` is that protocol; mypy checks every rule module with its
strict flags (pyproject.toml). Rules never print and never
decide their own severity: the engine stamps code, name and the configured severity onto each
Problem to make a `Diagnostic`, and the reporters format Diagnostics. Adding a rule touches at most
5 files (the module, its row in `registry.REGISTERED` — code, name, module and whether it is
suppressible: what lint knows of it before importing it —, its tests/rules/test_<name>.py, the
generated docs and, only if it needs one, a planter in bench/defects.py; no golden file moves):
docs/architecture.md, "Where to add".

The names below are lint's public API: what `corpustools.commands.lint` (and any other caller)
uses. Everything else under corpustools.lint is internal; tests/test_layers.py holds commands to it.
"""

from typing import TYPE_CHECKING

from corpustools.io.lazy import lazy_names
from corpustools.lint.cache import clean_cache, default_cache_dir
from corpustools.lint.config import ConfigError
from corpustools.lint.engine import LintRun, RuleCrash, Selection, choose, exit_code, lint_paths
from corpustools.lint.registry import rule_modules
from corpustools.lint.report import FORMATTERS, LintReport, format_rule_list, notes
from corpustools.lint.ruledoc import rule_doc, rule_fix_doc, rule_options
from corpustools.lint.secrets.redaction import redact_secrets
from corpustools.lint.staged import lint_staged

if TYPE_CHECKING:
    from corpustools.lint.fixing import CorpusFixes, FixResult, format_diff, plan_paths, write_fixes

# --fix and --diff only: lint.fixing (and the round-trip YAML editor behind it) is imported when one
# of its names is first used, so a plain lint does not pay for it.
__getattr__, __dir__ = lazy_names(__name__, dict.fromkeys(
    ("CorpusFixes", "FixResult", "format_diff", "plan_paths", "write_fixes"), "corpustools.lint.fixing"))


__all__ = [
    "FORMATTERS", "ConfigError", "CorpusFixes", "FixResult", "LintReport", "LintRun", "RuleCrash", "Selection",
    "choose", "clean_cache", "default_cache_dir", "exit_code", "format_diff", "format_rule_list", "lint_paths", "lint_staged", "notes",
    "plan_paths", "redact_secrets", "rule_doc", "rule_fix_doc", "rule_modules", "rule_options", "write_fixes",
]
