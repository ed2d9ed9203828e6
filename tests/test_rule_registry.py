"""A rule or command module that is missing is an internal error (exit 2), never silently skipped:
deleting rules/secret_token.py once let an AWS key pass with exit 0."""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import corpustools
from corpustools.commands import COMMANDS
from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, session_text
from tests.support.recipes import COMMAND

PACKAGE = Path(corpustools.__file__).resolve().parent
AWS_ID = "AKIA" + "IOSFODNN7EXAMPLE"


def run_without(tmp_path: Path, missing: str, *argv: str) -> subprocess.CompletedProcess:
    """`python -m corpustools ARGV` from a copy of the package with `missing` deleted."""
    copy = tmp_path / "site" / "corpustools"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / missing).unlink()
    env = {**os.environ, "PYTHONPATH": str(copy.parent)}
    env.pop("CORPUSTOOLS_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "corpustools", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_missing_rule_module_is_an_internal_error_not_a_pass(make_corpus, tmp_path):
    body = f"[USER]: {ADMIT_TURNS[0][1]} The key is {AWS_ID}.\n" + "".join(
        f"[{tag}]: {text}\n" for tag, text in ADMIT_TURNS[1:])
    root = make_corpus({f"sessions/{ADMIT_ID}.md": session_text(ADMIT_UUID, body=body)})
    result = run_without(tmp_path, "lint/rules/secret_token.py", "lint", str(root))
    assert result.returncode == 2, result
    assert "internal error" in result.stderr and "secret_token" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_missing_command_module_is_an_internal_error_not_a_missing_command(tmp_path):
    result = run_without(tmp_path, "commands/render.py", "--help")
    assert result.returncode == 2, result
    assert "internal error" in result.stderr and "render" in result.stderr
    assert "Traceback" not in result.stderr


def _leaf_parsers(parser: argparse.ArgumentParser):
    """`parser` and, through its sub-actions (`provenance record`, `run init`), every parser below it
    that takes no further action."""
    below = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    if not below:
        yield parser
    for action in below:
        for child in dict.fromkeys(action.choices.values()):
            yield from _leaf_parsers(child)


def unlisted_commands(on_disk: list[str], commands: tuple[str, ...]) -> list[str]:
    """Command modules COMMANDS does not list, and names it lists that have no module."""
    return ([f"corpustools/commands/{name}.py is not in COMMANDS (corpustools/commands/__init__.py): a command "
             "missing from it is never reachable" for name in on_disk if name not in commands]
            + [f"COMMANDS lists {name}, but corpustools/commands/{name}.py is gone" for name in commands
               if name not in on_disk])


def test_a_command_module_left_out_of_commands_is_named_with_the_recipe():
    assert unlisted_commands(["lint", "stats"], ("lint", "gone")) == [
        "corpustools/commands/stats.py is not in COMMANDS (corpustools/commands/__init__.py): a command missing "
        "from it is never reachable",
        "COMMANDS lists gone, but corpustools/commands/gone.py is gone"]


def test_every_command_module_is_listed_and_follows_the_protocol():
    """docs/architecture.md's command protocol: each module under commands/ (but the shared
    options.py) is named in COMMANDS, registers a parser of its own name, and every parser it adds
    runs a function of that module taking (args, out, err)."""
    on_disk = sorted(path.stem for path in (PACKAGE / "commands").glob("*.py")
                     if path.stem not in ("__init__", "options"))
    unlisted = unlisted_commands(on_disk, COMMANDS)
    assert unlisted == [], "\n".join(unlisted + [COMMAND])
    for name in COMMANDS:
        module = importlib.import_module(f"corpustools.commands.{name}")
        subparsers = argparse.ArgumentParser().add_subparsers()
        module.register(subparsers)
        assert list(subparsers.choices) == [name], f"commands/{name}.py registers {list(subparsers.choices)}\n{COMMAND}"
        for parser in _leaf_parsers(subparsers.choices[name]):
            run = parser.get_default("run")
            assert callable(run) and run.__module__ == module.__name__, (
                f"{parser.prog}: set_defaults(run=...) a function of commands/{name}.py\n{COMMAND}")
            assert list(inspect.signature(run).parameters) == ["args", "out", "err"], (
                f"commands/{name}.py: {run.__name__} takes (args, out, err)\n{COMMAND}")
            assert typed_signature(run) == COMMAND_SIGNATURE, (
                f"commands/{name}.py: {run.__name__} is typed {typed_signature(run)}, not {COMMAND_SIGNATURE}"
                f"\n{COMMAND}")


# The typed boundary of a command (issue 35 item 2), as written under `from __future__ import annotations`.
COMMAND_SIGNATURE = "(args: argparse.Namespace, out: TextIO, err: TextIO) -> int"


def typed_signature(function) -> str:
    """The function's parameters and return as annotated, from the source's annotation strings."""
    annotations = function.__annotations__
    params = ", ".join(f"{name}: {annotations.get(name, '?')}" for name in inspect.signature(function).parameters)
    return f"({params}) -> {annotations.get('return', '?')}"


def test_mypy_is_strict_on_the_commands():
    """The mypy .ci/run runs reads pyproject.toml: the commands' override keeps every strict flag on."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    overrides = [block for block in pyproject["tool"]["mypy"]["overrides"]
                 if "corpustools.commands.*" in block["module"]]
    assert len(overrides) == 1, "pyproject.toml: one [[tool.mypy.overrides]] block for corpustools.commands.*"
    strict = ("disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_calls", "disallow_any_generics",
              "warn_return_any", "no_implicit_reexport", "strict_equality")
    assert {flag: overrides[0].get(flag) for flag in strict} == dict.fromkeys(strict, True)


def _caught_names(handler) -> list[str]:
    """The exception names an `except` clause names (`except (A, b.B):` -> A, B)."""
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type] if handler.type else []
    return [t.attr if isinstance(t, ast.Attribute) else getattr(t, "id", "") for t in types]


def test_commands_raise_user_errors_and_cli_alone_prints_them():
    """docs/architecture.md's one error path: a command raises a CorpustoolsError (corpustools.io.errors)
    and corpustools.cli prints its lines after the command's name; no command catches one to print it."""
    from corpustools.io import errors

    user_errors = {name for name, value in vars(errors).items()
                   if isinstance(value, type) and issubclass(value, errors.CorpustoolsError)}
    user_errors |= {"ConfigError", "Unreadable", "PairsError", "MixedRuns", "CorpusDrift", "CalibrationProblems"}
    caught = []
    for path in sorted((PACKAGE / "commands").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ExceptHandler):
                caught += [f"commands/{path.name}:{node.lineno}: except {name}" for name in _caught_names(node)
                           if name in user_errors]
    assert caught == [], "\n".join(caught + [ERROR_PATH_CHECKLIST])


ERROR_PATH_CHECKLIST = """A command that has something to refuse:
  1. raises an error of corpustools.io.errors' hierarchy (InputError with the Pos it names, UsageError for
     options that do not go together, or a subclass whose lines(prefix) says more), never prints it;
  2. corpustools.cli prints each of error.lines(args.error_prefix) on standard error and exits error.exit_code;
  3. a command whose messages need more than its name (lint: redaction) sets `shown` with set_defaults."""


def test_the_registry_table_says_what_each_rule_module_declares():
    """registry.REGISTERED is what lint knows of a rule before importing it (select, ignore, the
    `lint:` section, did-you-mean): a row that disagrees with its module, or a module under rules/
    without a row, fails here."""
    from corpustools.lint.registry import REGISTERED, RULES_PACKAGE

    on_disk = sorted(path.stem for path in (PACKAGE / "lint" / "rules").glob("*.py") if path.stem != "__init__")
    assert sorted(row.module for row in REGISTERED) == on_disk
    assert [row.code for row in REGISTERED] == sorted({row.code for row in REGISTERED}), "one row per code, in code order"
    for row in REGISTERED:
        module = importlib.import_module(f"{RULES_PACKAGE}.{row.module}")
        assert (row.code, row.name, row.suppressible) == (module.CODE, module.NAME, module.SUPPRESSIBLE), row


def test_select_imports_only_the_rules_that_run(tmp_path):
    """`lint --select CT1` imports the CT1xx rule modules and the secret rules (CT5xx, which run
    whatever is selected: docs/lint-rules.md), and none of the others, nor what only they need."""
    shipped = PACKAGE.parent / "fixtures" / "prompt-eval"
    probe = ("import sys\nfrom corpustools.cli import main\ncode = main(['lint', '--select', 'CT1', sys.argv[1]])\n"
             "print(code)\nprint(' '.join(sorted(sys.modules)))\n")
    result = subprocess.run([sys.executable, "-c", probe, str(shipped)], capture_output=True, text=True, timeout=120,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    code, modules = result.stdout.strip().splitlines()[-2:]
    loaded = set(modules.split())
    rules = {name.rsplit(".", 1)[1] for name in loaded if name.startswith("corpustools.lint.rules.")}
    from corpustools.lint.registry import REGISTERED

    assert code == "0"
    assert rules == {row.module for row in REGISTERED if row.code.startswith(("CT1", "CT5"))}
    assert not loaded & {"rapidfuzz", "numpy", "jsonschema", "ruamel", "snowballstemmer",
                         "corpustools.lint.families.nearmatch",
                         "corpustools.lint.families.templates", "corpustools.lint.families.labels"}
