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

The names below are lint's public API: what the commands and `corpustools.api` use.
Everything else under corpustools.lint is internal; tests/test_layers.py holds them to it.

- rules/           one module per rule; registry.py: the list of them, each imported on first use
- options.py       rule options as data; config.py: corpus.yaml's `lint:` section and --select/--ignore
- context.py       what every rule is given, and the analyses several rules share (families/, secrets/)
- engine.py        running the rules: crashes, configured severities, ignores; targets.py: what `lint
                   PATH...` lints; staged.py: `lint --staged`
- diagnostic.py    what rules find, as small frozen values
- fixes.py         fixes as data; fixing.py: `--fix` and `--diff`
- reported.py      `LintReport`: a run as its reports show it; report/: the formats and FORMATTERS
- cache.py         lint's content-hash cache (`--cache-dir`, `--no-cache`, `cache clean`)
- replay.py        a lint of an unchanged corpus replays its last output (the cache's whole-run entries)
- ruledoc.py       what a rule says about itself (--explain, --list-rules, SARIF); docs.py: docs/lint-rules.md
"""

from typing import TYPE_CHECKING

from corpustools.io.lazy import lazy_names

if TYPE_CHECKING:
    from corpustools.io.errors import ConfigError
    from corpustools.lint.cache import clean_cache, default_cache_dir
    from corpustools.lint.engine import LintRun, RuleCrash, Selection, choose, exit_code, lint_paths
    from corpustools.lint.fixing import CorpusFixes, FixResult, format_diff, note_shown, plan_paths, write_fixes
    from corpustools.lint.registry import rule_modules
    from corpustools.lint.reported import LintReport
    from corpustools.lint.ruledoc import rule_doc, rule_fix_doc, rule_list, rule_options
    from corpustools.lint.secrets.redaction import redact_secrets
    from corpustools.lint.staged import lint_staged

# Every name is imported on first use, so that importing one module of the package (the replay of
# an unchanged lint, lint/replay.py, before anything else is loaded) does not load the engine, the
# rules and YAML. --fix and --diff: lint.fixing (and the round-trip YAML editor behind it); --staged:
# lint.staged (and git's index reader); `report`: the subpackage of lint's report formats (its
# FORMATTERS).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(("clean_cache", "default_cache_dir"), "corpustools.lint.cache"),
    "ConfigError": "corpustools.io.errors",
    **dict.fromkeys(("LintRun", "RuleCrash", "Selection", "choose", "exit_code", "lint_paths"), "corpustools.lint.engine"),
    "rule_modules": "corpustools.lint.registry", "LintReport": "corpustools.lint.reported",
    **dict.fromkeys(("rule_doc", "rule_fix_doc", "rule_list", "rule_options"), "corpustools.lint.ruledoc"),
    "redact_secrets": "corpustools.lint.secrets.redaction",
    **dict.fromkeys(("CorpusFixes", "FixResult", "format_diff", "note_shown", "plan_paths", "write_fixes"),
                    "corpustools.lint.fixing"),
    "lint_staged": "corpustools.lint.staged", "report": "corpustools.lint.report"})


__all__ = [
    "ConfigError", "CorpusFixes", "FixResult", "LintReport", "LintRun", "RuleCrash", "Selection",
    "choose", "clean_cache", "default_cache_dir", "exit_code", "format_diff", "lint_paths", "lint_staged", "note_shown",
    "plan_paths",
    "redact_secrets", "report", "rule_doc", "rule_fix_doc", "rule_list", "rule_modules", "rule_options", "write_fixes",
]
