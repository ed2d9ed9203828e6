"""The checklists of docs/architecture.md's "Where to add" recipes, as the guard tests print them.

A guard test that fails because a step of a recipe was skipped ends its message with the recipe,
so whoever adds a rule, a report format, a command or a contract key reads every step where the
failure is, not only the one that failed. tests/test_recipes.py holds these lists and
docs/architecture.md to the same files."""

from __future__ import annotations

RECIPES = "docs/architecture.md, \"Where to add\""

RULE = f"""Adding a lint rule ({RECIPES}: "A lint rule", at most 5 files):
  1. corpustools/lint/rules/<name>.py: CODE, NAME, SEVERITY, OPTIONS and their Options NamedTuple (none
     without options), SUPPRESSIBLE, FIXES (() for none), a docstring (summary; What, Why, Example), and
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
  1. the formatter, one function of the family's report value returning text: lint in
     corpustools/lint/report.py; score in corpustools/score/report/<format>.py; compare in
     corpustools/score/report/compare/<format>.py; calibrate in corpustools/calibrate/report/<format>.py;
  2. its entry in the family's FORMATTERS table (corpustools/lint/report.py, or the report package's
     __init__.py, whose docstring lists its modules): the key is the --format choice;
  3. the choice in the user docs that list the formats: README.md's Commands table row, and
     docs/scoring.md (score, compare) or docs/calibration.md (calibrate);
  4. a test of what the format prints (tests/test_lint_cli.py, test_score_report.py, test_compare.py,
     test_calibrate.py);
  5. a committed report of the shipped corpus in that format: its command in
     tests/test_shipped_corpus.py's REPORTS."""

COMMAND = f"""Adding a command ({RECIPES}: "A command"):
  1. corpustools/commands/<name>.py: register(subparsers) (through commands/options.add_command) and
     run(args, out, err) -> int;
  2. its name in COMMANDS (corpustools/commands/__init__.py);
  3. the logic in a feature module or package (corpustools/<feature>.py declaring __all__, named in
     docs/architecture.md's layer diagram; a new package also in tests/test_layers.py's FEATURE_PACKAGES),
     never in commands/;
  4. a row in README.md's Commands table with a one-line example (tests/test_readme.py runs it as printed);
  5. its tests."""

CONTRACT_KEY = f"""Adding a contract key ({RECIPES}: "A contract key"):
  1. corpustools/model/contract.py: the Contract (or ItemType) field and parse_contract's reading of it,
     each mistake an error at its key;
  2. corpustools/schemas/corpus-spec.json: the key under output or session, with a description;
  3. docs/contracts.md: the key in the annotated corpus.yaml and a row in its table;
  4. whatever reads it (a report, a rule, scoring), through the Contract;
  5. tests/test_contract.py."""
