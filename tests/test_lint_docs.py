"""docs/lint-rules.md is generated from the rule modules; every rule documents itself and follows
the protocol of corpustools.lint. Regenerate with: python -m corpustools.lint.docs docs/lint-rules.md"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple, get_type_hints

import pytest

import corpustools
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem
from corpustools.lint.docs import render, render_installed
from corpustools.lint.options import Option, options_type, options_type_problems
from corpustools.lint.registry import RULE_MODULES, SCOPES, Rule, rule_modules
from corpustools.lint.ruledoc import rule_doc, rule_summary
from tests.support.recipes import RULE

DOCS = Path(__file__).resolve().parent.parent / "docs" / "lint-rules.md"
RULES_DIR = Path(__file__).resolve().parent.parent / "corpustools" / "lint" / "rules"
RULE_TESTS = Path(__file__).resolve().parent / "rules"
RULES = rule_modules()


def test_committed_docs_match_the_rule_modules():
    assert DOCS.is_file(), "run: python -m corpustools.lint.docs docs/lint-rules.md\n" + RULE
    assert DOCS.read_text(encoding="utf-8") == render_installed(), (
        "docs/lint-rules.md is stale; run: python -m corpustools.lint.docs docs/lint-rules.md\n" + RULE)


def test_docs_list_every_rule_with_its_documentation():
    text = render(RULES)
    for rule in RULES:
        assert f"\n## {rule.CODE} {rule.NAME}\n" in text
        assert rule_summary(rule) in text


def test_codes_and_names_are_unique_and_in_registry_order():
    codes = [rule.CODE for rule in RULES]
    assert codes == sorted(set(codes))
    assert len({rule.NAME for rule in RULES}) == len(RULES)
    assert list(RULE_MODULES) == RULES, "REGISTERED lists the rules in code order\n" + RULE


def registry_gaps(on_disk: list[str], registered: dict[str, str], documented: list[str]) -> list[str]:
    """The steps of adding a rule that are missing: `on_disk` the module names under rules/,
    `registered` module name -> code of the registry's rows, `documented` the codes docs/lint-rules.md has."""
    gaps = [f"corpustools/lint/rules/{name}.py is not in corpustools/lint/registry.py (a Registered row in REGISTERED)"
            for name in on_disk if name not in registered]
    gaps += [f"corpustools/lint/registry.py lists {name}, but corpustools/lint/rules/{name}.py is gone"
             for name in registered if name not in on_disk]
    codes = sorted(registered.values())
    gaps += [f"{code} is not in docs/lint-rules.md: run python -m corpustools.lint.docs docs/lint-rules.md"
             for code in codes if code not in documented]
    gaps += [f"docs/lint-rules.md documents {code}, which no registered rule has" for code in documented
             if code not in codes]
    return gaps


def test_every_rule_module_is_registered_and_documented():
    """A rule module written but not registered, or registered but gone, fails here: never filtered out."""
    on_disk = sorted(path.stem for path in RULES_DIR.glob("*.py") if path.stem != "__init__")
    registered = {rule.__name__.rsplit(".", 1)[1]: rule.CODE for rule in RULES}
    documented = re.findall(r"^## (CT[0-9]{3}) ", DOCS.read_text(encoding="utf-8"), re.MULTILINE)
    gaps = registry_gaps(on_disk, registered, documented)
    assert gaps == [], "\n".join(gaps + [RULE])
    assert documented == [rule.CODE for rule in RULES], "docs/lint-rules.md is out of code order\n" + RULE


def test_a_rule_left_out_of_a_step_is_named_with_the_recipe():
    gaps = registry_gaps(["term_case", "todo_marker"], {"term_case": "CT603", "gone": "CT999"}, ["CT603"])
    assert gaps == [
        "corpustools/lint/rules/todo_marker.py is not in corpustools/lint/registry.py (a Registered row in REGISTERED)",
        "corpustools/lint/registry.py lists gone, but corpustools/lint/rules/gone.py is gone",
        "CT999 is not in docs/lint-rules.md: run python -m corpustools.lint.docs docs/lint-rules.md"]
    assert "bench/defects.py" in RULE and "tests/rules/test_<name>.py" in RULE and "registry.py" in RULE


def test_every_rule_has_its_own_test_module():
    """tests/rules/test_<module>.py holds a rule's failing samples, near-misses and options: one
    module a rule, no module for a rule that is gone."""
    gaps = rule_test_gaps([rule.__name__.rsplit(".", 1)[1] for rule in RULES],
                          sorted(path.stem for path in RULE_TESTS.glob("test_*.py")))
    assert gaps == [], "\n".join(gaps + [RULE])


def rule_test_gaps(rule_modules: list[str], test_modules: list[str]) -> list[str]:
    return ([f"corpustools/lint/rules/{module}.py has no tests/rules/test_{module}.py (its failing sample, a near-miss "
             "that stays clean, its options)" for module in rule_modules if f"test_{module}" not in test_modules]
            + [f"tests/rules/{test}.py tests no rule module corpustools/lint/rules/{test[5:]}.py"
               for test in test_modules if test[5:] not in rule_modules])


def test_a_rule_without_its_test_module_is_named_with_the_recipe():
    assert rule_test_gaps(["term_case", "todo_marker"], ["test_term_case", "test_gone"]) == [
        "corpustools/lint/rules/todo_marker.py has no tests/rules/test_todo_marker.py (its failing sample, a near-miss "
        "that stays clean, its options)",
        "tests/rules/test_gone.py tests no rule module corpustools/lint/rules/gone.py"]


@pytest.mark.parametrize("rule", RULES, ids=[r.CODE for r in RULES])
def test_rule_follows_the_protocol(rule):
    assert re.fullmatch(r"CT[0-9]{3}", rule.CODE)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.NAME)
    assert rule.SEVERITY in ("error", "warning")
    assert isinstance(rule.OPTIONS, tuple) and all(isinstance(option, Option) for option in rule.OPTIONS)
    assert len({option.name for option in rule.OPTIONS}) == len(rule.OPTIONS)
    assert isinstance(rule.SUPPRESSIBLE, bool)
    assert rule.SUPPRESSIBLE is (not rule.CODE.startswith("CT5"))
    assert rule.SCOPE in SCOPES, RULE
    assert callable(rule.check)
    assert isinstance(rule.loaded(), Rule) and isinstance(rule.FIXES, tuple)
    # the typed boundary: check(ctx: LintContext, options: <its options value>) -> Iterator[Problem],
    # its Options the NamedTuple of its OPTIONS (mypy checks the body against them)
    assert options_type_problems(rule) == [], "\n".join(options_type_problems(rule) + [RULE])
    assert get_type_hints(rule.check) == {"ctx": LintContext, "options": options_type(rule),
                                          "return": Iterator[Problem]}, RULE
    doc = rule_doc(rule)
    assert rule_summary(rule) and len(doc.splitlines()) > 2, "docstring: summary line, then what, why, example"
    assert "example" in doc.lower(), "the docstring shows an example"


def test_the_docs_cannot_be_generated_without_a_registered_rule_module(tmp_path):
    """A registered rule whose module is gone stops the generator; it is never left out of the docs."""
    package = Path(corpustools.__file__).resolve().parent
    copy = tmp_path / "site" / "corpustools"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "lint" / "rules" / "term_case.py").unlink()
    env = {**os.environ, "PYTHONPATH": str(copy.parent)}
    result = subprocess.run([sys.executable, "-m", "corpustools.lint.docs"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and result.stdout == ""
    assert "term_case" in result.stderr


def test_the_generator_runs_as_a_module_without_a_warning(tmp_path):
    """corpustools.lint does not import its docs generator, so `python -m corpustools.lint.docs` finds it
    not yet imported: no runpy RuntimeWarning (here an error), and the docs on standard output."""
    result = subprocess.run([sys.executable, "-W", "error", "-m", "corpustools.lint.docs"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (0, "") and result.stdout == render_installed()


def test_an_options_type_that_disagrees_with_its_options_is_named():
    class Options(NamedTuple):
        limit: float
        words: tuple[str, ...]

    class Reordered(NamedTuple):
        words: tuple[str, ...]
        limit: int

    declares = (Option("limit", int, 3, "a limit"), Option("words", tuple, (), "some words"))
    rule = types.SimpleNamespace(CODE="CT999", OPTIONS=declares, Options=Options)
    assert options_type_problems(rule) == ["CT999: Options.limit is <class 'float'>, OPTIONS says <class 'int'>"]
    rule.Options = Reordered
    assert options_type_problems(rule) == [
        "CT999: Options has the fields ['words', 'limit'], OPTIONS declares ['limit', 'words'] (in this order)"]
    assert options_type_problems(types.SimpleNamespace(CODE="CT999", OPTIONS=declares)) == [
        "CT999 declares OPTIONS but no Options NamedTuple of them"]
    assert options_type_problems(types.SimpleNamespace(CODE="CT999", OPTIONS=(), Options=Options)) == [
        "CT999 declares Options but no OPTIONS: a rule without options declares no Options"]
