"""corpus.yaml: the corpus spec, the single machine-readable source for categories and counts."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from corpustools.io.positions import Pos
from corpustools.io.schemastore import validate
from corpustools.io.yamlload import YamlDoc

DEFAULT_HARNESSES = ("claude",)
DEFAULT_TURNS = (8, 20)

# A fixture is named after its category and a two-digit number (docs/corpus-format.md).
_FIXTURE_NUMBER = re.compile(r"-[0-9]{2}$")


@dataclass(frozen=True)
class Category:
    id: str
    count: int
    expect: str  # practice | map | empty | subset
    tests: str
    pos: Pos


@dataclass(frozen=True)
class CorpusSpec:
    corpus_version: int
    name: str
    prompt_name: str
    prompt_version: Any
    harnesses: tuple[str, ...]
    turns_min: int
    turns_max: int
    categories: tuple[Category, ...]
    lint: Mapping[str, Any] = field(default_factory=dict)
    doc: YamlDoc | None = None

    def category(self, category_id: str) -> Category | None:
        return next((c for c in self.categories if c.id == category_id), None)


def category_from_name(fixture_id: str, categories: Collection[str]) -> str | None:
    """`admit-convention-01` -> `admit-convention` when that is one of `categories`, else None.
    The number is exactly two digits: `admit-convention-1` and `admit-convention-001` name none."""
    if not _FIXTURE_NUMBER.search(fixture_id):
        return None
    stem = _FIXTURE_NUMBER.sub("", fixture_id)
    return stem if stem in categories else None


def is_fixture_name(fixture_id: str, category: str) -> bool:
    """Whether `fixture_id` is `<category>-<NN>`."""
    return category_from_name(fixture_id, (category,)) == category


def parse_spec(doc: YamlDoc) -> tuple[CorpusSpec | None, list[tuple[Pos, str]]]:
    """The spec, or None with every schema error at its key's position."""
    errors = [(doc.pos(e.keypath), f"{e.pointer or '/'}: {e.message}") for e in validate("corpus-spec", doc.data)]
    if errors:
        return None, errors
    data = doc.data
    turns = data.get("turns", {})
    categories = tuple(
        Category(c["id"], c["count"], c["expect"], c["tests"], doc.pos(("categories", i)))
        for i, c in enumerate(data["categories"])
    )
    seen: dict[str, int] = {}
    for index, category in enumerate(categories):
        if category.id in seen:
            errors.append((category.pos, f"/categories/{index}/id: category {category.id!r} is declared twice"))
        seen[category.id] = index
    turns_min, turns_max = turns.get("min", DEFAULT_TURNS[0]), turns.get("max", DEFAULT_TURNS[1])
    if turns_min > turns_max:
        errors.append((doc.pos(("turns",)), f"/turns: min {turns_min} is greater than max {turns_max}"))
    if errors:
        return None, errors
    spec = CorpusSpec(
        corpus_version=data["corpus_version"],
        name=data["name"],
        prompt_name=data["prompt_under_eval"]["name"],
        prompt_version=data["prompt_under_eval"]["version"],
        harnesses=tuple(data.get("harnesses", DEFAULT_HARNESSES)),
        turns_min=turns_min,
        turns_max=turns_max,
        categories=categories,
        lint=data.get("lint", {}),
        doc=doc,
    )
    return spec, []
