"""The checklists of docs/architecture.md's "Where to add" recipes, as the guard tests print them.

A guard test that fails because a step of a recipe was skipped ends its message with the recipe,
so whoever adds a rule, a report format, a command or a contract key reads every step where the
failure is, not only the one that failed. tests/test_recipes.py holds these lists and
docs/architecture.md to the same files."""

from __future__ import annotations

RECIPES = "docs/architecture.md, \"Where to add\""

RULE = f"""Adding a lint rule ({RECIPES}: "A lint rule", at most 5 files):
  1. corpustools/lint/rules/<name>.py: CODE, NAME, SEVERITY, OPTIONS and their Options NamedTuple (none
     without options), SUPPRESSIBLE, SCOPE ("fixture" or "corpus": what its findings depend on; when
     unsure, "corpus"), FIXES (() for none), a docstring (summary; What, Why, Example), and
     check(ctx: LintContext, options: Options) -> Iterator[Problem] (NoOptions without options);
  2. corpustools/lint/registry.py: a row Registered("CT###", "rule-name", "module_name") in REGISTERED,
     in code order (suppressible=False for a secret rule: tests/test_rule_registry.py checks the row
     against the module's CODE, NAME and SUPPRESSIBLE);
  3. tests/rules/test_<name>.py: its failing sample (code, line and column), a near-miss that stays
     clean, its options (the samples' builders are in tests/support/: labels.py, templates.py, ...);
  4. python -m corpustools.lint.docs docs/lint-rules.md;
  5. only if the rule needs one, a planter: a `ct###` method of Planter in bench/defects.py (never added
     to FROZEN_PLANTERS, so no golden file moves), exercised by the rule's own test:
     planted_but_not_reported("CT###", tmp_path) == [] (tests/support/bench.py).
  No golden file and no digest is regenerated for a new rule: tests/golden/ changes only when a
  change to findings or reports is meant."""

FORMAT = f"""Adding a report format ({RECIPES}: "A report format"):
  1. corpustools/<feature>/report/<format>.py (a `-` in the format's name is `_` in the module's):
     render(report) -> str, the family's report value as text (lint: corpustools/lint/report/, score:
     corpustools/score/report/, compare: corpustools/score/report/compare/, calibrate:
     corpustools/calibrate/report/, agree: corpustools/calibrate/report/agree/, validate:
     corpustools/validation/report/, provenance verify: corpustools/provenance/report/);
  2. in that package's __init__.py: the format's name in FORMATTERS = format_table(__name__, ...) (the
     --format choice, in --help's order), and the module in its docstring's list of files;
  3. the name in the command's row of README.md's Commands table (`--format a\\|b`).
  tests/test_report_formats.py and tests/test_python_api.py then run it through the command and the API;
  what it says that the other formats do not is tested in the family's test module (a 4th file)."""

COMMAND = f"""Adding a command ({RECIPES}: "A command"):
  1. corpustools/commands/<name>.py: register(subparsers) (through commands/options.add_command) and
     run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int, which parses, calls corpustools.api
     and prints what it returns: it imports only the API, commands/options, io's errors and io's printing;
  2. its name in COMMANDS (corpustools/commands/__init__.py);
  3. the logic in a feature module or package (a new corpustools/<feature>.py declares __all__ and is named
     in docs/architecture.md's layer diagram and corpustools/__init__.py's docstring; a new package also in
     tests/test_layers.py's FEATURE_PACKAGES), never in commands/;
  4. corpustools/api.py: a function doing what the command does, named in __all__ (the command calls it);
  5. docs/python-api.md: its row in "What the command line calls";
  6. a row in README.md's Commands table with a one-line example (tests/test_readme.py runs it as printed);
  7. its tests."""

CONTRACT_KEY = f"""Adding a contract key ({RECIPES}: "A contract key"):
  1. corpustools/model/contract.py: the Contract (or ItemType) field and parse_contract's reading of it,
     each mistake an error at its key;
  2. corpustools/schemas/corpus-spec.json: the key under output or session, with a description;
  3. docs/contracts.md: the key in the annotated corpus.yaml and a row in its table;
  4. whatever reads it (a report, a rule, scoring), through the Contract;
  5. tests/test_contract.py."""
