"""expected/<fixture_id>.yaml: the expected-labels sidecar of one fixture."""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.io.positions import Pos
from corpustools.io.schemastore import validate
from corpustools.io.yamlload import YamlDoc
from corpustools.model.contract import DEFAULT, Contract, field_problem, type_problem

# The sidecar's two point lists: points a correct output must carry, and points it may carry
# (a proposal matching one is not a phantom; leaving one out is not a miss).
EXPECTED_POINTS, OPTIONAL_POINTS = "expected_points", "optional_points"


@dataclass(frozen=True)
class Term:
    text: str
    pos: Pos


@dataclass(frozen=True)
class ExpectedPoint:
    id: str
    type: str  # an item type of the output contract
    must_match_all: tuple[Term, ...]
    must_not_match: tuple[Term, ...]
    pos: Pos
    notes: str | None = None  # a one-sentence meaning of the point, for human judges
    list_key: str = EXPECTED_POINTS  # the sidecar list it sits in: expected_points | optional_points
    index: int = 0  # its position in that list

    @property
    def optional(self) -> bool:
        return self.list_key == OPTIONAL_POINTS

    @property
    def keypath(self) -> tuple:
        """Where the point is in the sidecar document, e.g. ("optional_points", 0)."""
        return (self.list_key, self.index)


@dataclass(frozen=True)
class Sidecar:
    fixture_id: str
    category: str
    expect_empty: bool
    points: tuple[ExpectedPoint, ...]
    max_unexpected_proposals: int
    notes: str
    doc: YamlDoc
    optional_points: tuple[ExpectedPoint, ...] = ()
    # pointer -> the acceptable values (one, or the list given), for each field the sidecar pins
    expected_fields: tuple[tuple[str, tuple], ...] = ()

    @property
    def path(self) -> str:
        return self.doc.path

    @property
    def all_points(self) -> tuple[ExpectedPoint, ...]:
        """Expected points, then optional points, each in sidecar order."""
        return self.points + self.optional_points


def _points(doc: YamlDoc, list_key: str) -> tuple[ExpectedPoint, ...]:
    points = []
    for i, point in enumerate(doc.data.get(list_key, [])):
        base = (list_key, i)
        points.append(ExpectedPoint(
            id=point["id"],
            type=point["type"],
            must_match_all=tuple(
                Term(t, doc.pos(base + ("must_match_all", j))) for j, t in enumerate(point["must_match_all"])),
            must_not_match=tuple(
                Term(t, doc.pos(base + ("must_not_match", j))) for j, t in enumerate(point.get("must_not_match", []))),
            pos=doc.pos(base),
            notes=point.get("notes"),
            list_key=list_key,
            index=i,
        ))
    return tuple(points)


def contract_errors(data: dict, contract: Contract) -> list[tuple[tuple, str]]:
    """(key path, message) for each point type that is no item type of `contract`, and each
    expected_fields pointer it does not declare. `data` need not follow the sidecar schema (its
    other mistakes are the schema's to report): whatever is not where the schema wants it is skipped."""
    errors: list[tuple[tuple, str]] = []
    if not isinstance(data, dict):
        return errors
    types = contract.item_types
    for list_key in (EXPECTED_POINTS, OPTIONAL_POINTS):
        points = data.get(list_key)
        for i, point in enumerate(points if isinstance(points, list) else ()):
            kind = point.get("type") if isinstance(point, dict) else None
            if isinstance(kind, str) and kind not in types:
                errors.append(((list_key, i, "type"), f"/{list_key}/{i}/type: {type_problem(kind, contract)}"))
    fields = data.get("expected_fields")
    for pointer in fields if isinstance(fields, dict) else ():
        problem = field_problem(pointer, contract)
        if problem:
            escaped = pointer.replace("~", "~0").replace("/", "~1")
            errors.append((("expected_fields", pointer), f"/expected_fields/{escaped}: {problem}"))
    return errors


def parse_sidecar(doc: YamlDoc, contract: Contract | None = DEFAULT) -> tuple[Sidecar | None, list[tuple[Pos, str]]]:
    """The sidecar, or None with every schema error at the offending key's position (a point
    type or a pinned field the output contract does not declare is one too; None as `contract`
    checks neither)."""
    errors = [(e.keypath, f"{e.pointer or '/'}: {e.message}") for e in validate("sidecar", doc.data)]
    if contract is not None:  # reported with the schema's errors: every mistake of the file at once
        errors += contract_errors(doc.data, contract)
    if errors:
        located = [(doc.pos(keypath), message) for keypath, message in errors]
        return None, sorted(located, key=lambda found: (found[0].line or 0, found[0].col or 0, found[1]))
    data = doc.data
    return Sidecar(
        fixture_id=data["fixture_id"],
        category=data["category"],
        expect_empty=data["expect_empty"],
        points=_points(doc, EXPECTED_POINTS),
        max_unexpected_proposals=data["max_unexpected_proposals"],
        notes=data["notes"],
        doc=doc,
        optional_points=_points(doc, OPTIONAL_POINTS),
        expected_fields=tuple((pointer, tuple(value) if isinstance(value, list) else (value,))
                              for pointer, value in data.get("expected_fields", {}).items()),
    ), []
