"""corpus.yaml: the corpus spec, the single machine-readable source for categories and counts."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from corpustools.io.positions import Pos
from corpustools.io.schemastore import SchemaError, validate
from corpustools.io.yamlload import YamlDoc
from corpustools.model.contract import DEFAULT, Contract, expect_problem, parse_contract

DEFAULT_HARNESSES = ("claude",)
DEFAULT_TURNS = (8, 20)
# The metrics `compare` requires not to worsen unless `compare: blocking:` names others
# (corpustools.score.aggregate.METRICS keys; the schema's enum lists them all).
DEFAULT_BLOCKING = ("pass_rate", "recall", "gate_accuracy")

# corpus.yaml's `agreement:` (corpustools agree): what is gated, and on which levels by default.
AGREEMENT_STATISTICS = ("ac1", "kappa", "alpha", "percent")
AGREEMENT_LEVELS = ("verdicts", "points", "optional", "classes", "leaks")
DEFAULT_AGREEMENT_LEVELS = ("verdicts", "points")


@dataclass(frozen=True)
class AgreementThreshold:
    """The agreement two raters must reach (corpus.yaml `agreement:`), fixed before the second starts."""

    statistic: str  # one of AGREEMENT_STATISTICS
    min: float
    levels: tuple[str, ...]  # of AGREEMENT_LEVELS

    def as_dict(self) -> dict:
        """As corpus.yaml says it (and the provenance record records it)."""
        return {"statistic": self.statistic, "min": self.min, "levels": list(self.levels)}

    def __str__(self) -> str:
        return f"{self.statistic} >= {self.min:g} on {', '.join(self.levels)}"


def parse_agreement(data) -> AgreementThreshold | None:
    """The threshold of a spec (or record) whose `agreement:` the schema accepted; None without one."""
    if not isinstance(data, dict):
        return None
    return AgreementThreshold(data.get("statistic", AGREEMENT_STATISTICS[0]), data["min"],
                              tuple(data.get("levels", DEFAULT_AGREEMENT_LEVELS)))


# A fixture is named after its category and a two-digit number (docs/corpus-format.md).
_FIXTURE_NUMBER = re.compile(r"-[0-9]{2}$")


@dataclass(frozen=True)
class Category:
    id: str
    count: int
    expect: str  # an item type of the output contract, empty or subset
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
    contract: Contract = DEFAULT
    blocking: tuple[str, ...] = DEFAULT_BLOCKING  # compare: blocking:
    agreement: AgreementThreshold | None = None  # agreement: (corpustools agree)

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


# The keys whose schema errors are the contract's (docs/contracts.md).
CONTRACT_KEYS = ("output", "session")


def parse_contract_part(doc: YamlDoc, root: str, errors: list[SchemaError]
                        ) -> tuple[Contract | None, list[tuple[Pos, str]]]:
    """The contract of the spec `doc`, given its schema `errors`: None, with the contract's own
    problems, when its keys are not well formed (whatever else in the spec is wrong)."""
    if any(e.keypath[:1] and e.keypath[0] in CONTRACT_KEYS for e in errors):
        return None, []
    contract, problems = parse_contract(doc.data, root)
    return contract, [(doc.pos(keypath), message) for keypath, message in problems]


def parse_spec(doc: YamlDoc, root: str = "") -> tuple[CorpusSpec | None, list[tuple[Pos, str]], Contract | None]:
    """The spec, or None with every error at its key's position; and the contract it declares,
    read apart from the rest (None when the `output:` or `session:` keys are wrong), so that a
    spec error elsewhere still lets sessions be read with the declared role tags. `root` is the
    corpus folder: the contract's schema file is relative to it."""
    schema_errors = validate("corpus-spec", doc.data)
    contract, contract_errors = parse_contract_part(doc, root, schema_errors)
    errors = [(doc.pos(e.keypath), str(e)) for e in schema_errors] + contract_errors
    if errors:
        return None, errors, contract
    assert contract is not None  # no error, so the contract parsed
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
        problem = expect_problem(category.expect, contract)
        if problem:
            errors.append((doc.pos(("categories", index, "expect")), f"/categories/{index}/expect: {problem}"))
    turns_min, turns_max = turns.get("min", DEFAULT_TURNS[0]), turns.get("max", DEFAULT_TURNS[1])
    if turns_min > turns_max:
        errors.append((doc.pos(("turns",)), f"/turns: min {turns_min} is greater than max {turns_max}"))
    if errors:
        return None, errors, contract
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
        contract=contract,
        blocking=tuple(data.get("compare", {}).get("blocking", DEFAULT_BLOCKING)),
        agreement=parse_agreement(data.get("agreement")),
    )
    return spec, [], contract
