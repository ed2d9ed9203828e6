"""docs/architecture.md's "Where to add" recipes and the checklists the guard tests print
(tests/support/recipes.py) name the same files, and every file they name exists (a `<name>` part
stands for the new file's name: its folder must exist)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support import recipes

ROOT = Path(__file__).resolve().parent.parent
TITLES = {"RULE": "A lint rule", "FORMAT": "A report format", "COMMAND": "A command", "CONTRACT_KEY": "A contract key"}
PATH = re.compile(r"(?:corpustools|tests|bench|docs)/[\w/<>.-]*[\w>/]|README\.md|CHANGELOG\.md")


def recipe(title: str) -> str:
    """The text of one recipe of docs/architecture.md's "Where to add" section."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text[text.index("## Where to add"):]
    start = section.index(f"- **{title}")
    following = section.find("\n- **", start + 1)
    return section[start:following if following > 0 else None]


def paths(text: str) -> list[str]:
    """The files and folders `text` names, but docs/architecture.md itself (every checklist cites it)."""
    return sorted(set(PATH.findall(text)) - {"docs/architecture.md"})


@pytest.mark.parametrize("name", sorted(TITLES))
def test_the_recipe_names_every_file_its_guard_tests_print(name):
    in_recipe = recipe(TITLES[name])
    missing = [path for path in paths(getattr(recipes, name)) if path not in in_recipe]
    assert missing == [], f"docs/architecture.md's recipe {TITLES[name]!r} does not name {missing}, which " \
                          f"tests/support/recipes.py's {name} does: one of the two is wrong"


def existing(path: str) -> str:
    """`path`, or for a new file's `<name>` (`tests/rules/test_<name>.py`) the folder it goes in."""
    return path.split("<", 1)[0].rsplit("/", 1)[0] if "<" in path else path


@pytest.mark.parametrize("name", sorted(TITLES))
def test_every_file_a_recipe_names_exists(name):
    gone = [path for path in paths(recipe(TITLES[name])) + paths(getattr(recipes, name)) if not (ROOT / existing(path)).exists()]
    assert gone == [], f"{TITLES[name]}: no such file or folder: {gone}"
