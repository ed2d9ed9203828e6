"""docs/lint-rules.md is generated from the rule modules; every rule documents itself and follows
the protocol of corpustools.lint. Regenerate with: python -m corpustools.lint.docs docs/lint-rules.md"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from corpustools.lint.docs import render, render_installed, rule_doc, rule_summary
from corpustools.lint.registry import RULE_MODULES, rule_modules

DOCS = Path(__file__).resolve().parent.parent / "docs" / "lint-rules.md"
RULES_DIR = Path(__file__).resolve().parent.parent / "corpustools" / "lint" / "rules"
RULES = rule_modules()


def test_committed_docs_match_the_rule_modules():
    assert DOCS.is_file(), "run: python -m corpustools.lint.docs docs/lint-rules.md"
    assert DOCS.read_text(encoding="utf-8") == render_installed(), (
        "docs/lint-rules.md is stale; run: python -m corpustools.lint.docs docs/lint-rules.md")


def test_docs_list_every_rule_with_its_documentation():
    text = render(RULES)
    for rule in RULES:
        assert f"\n## {rule.CODE} {rule.NAME}\n" in text
        assert rule_summary(rule) in text


def test_codes_and_names_are_unique_and_in_registry_order():
    codes = [rule.CODE for rule in RULES]
    assert codes == sorted(set(codes))
    assert len({rule.NAME for rule in RULES}) == len(RULES)
    assert list(RULE_MODULES) == RULES, "RULE_MODULES lists the rules in code order"


def test_every_rule_module_is_registered_and_documented():
    """A rule module written but not registered, or registered but gone, fails here: never filtered out."""
    on_disk = sorted(path.stem for path in RULES_DIR.glob("*.py") if path.stem != "__init__")
    assert sorted(rule.__name__.rsplit(".", 1)[1] for rule in RULES) == on_disk
    documented = re.findall(r"^## (CT[0-9]{3}) ", DOCS.read_text(encoding="utf-8"), re.MULTILINE)
    assert documented == [rule.CODE for rule in RULES]


@pytest.mark.parametrize("rule", RULES, ids=[r.CODE for r in RULES])
def test_rule_follows_the_protocol(rule):
    assert re.fullmatch(r"CT[0-9]{3}", rule.CODE)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.NAME)
    assert rule.SEVERITY in ("error", "warning")
    assert isinstance(rule.OPTIONS, dict)
    assert getattr(rule, "SUPPRESSIBLE", True) is (not rule.CODE.startswith("CT5"))
    assert callable(rule.check)
    doc = rule_doc(rule)
    assert rule_summary(rule) and len(doc.splitlines()) > 2, "docstring: summary line, then what, why, example"
    assert "example" in doc.lower(), "the docstring shows an example"
