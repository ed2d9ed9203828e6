"""expected/<fixture_id>.yaml: the expected-labels sidecar of one fixture."""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.positions import Pos
from corpustools.schemastore import validate
from corpustools.yamlload import YamlDoc


@dataclass(frozen=True)
class Term:
    text: str
    pos: Pos


@dataclass(frozen=True)
class ExpectedPoint:
    id: str
    type: str  # practice | map
    must_match_all: tuple[Term, ...]
    must_not_match: tuple[Term, ...]
    pos: Pos


@dataclass(frozen=True)
class Sidecar:
    fixture_id: str
    category: str
    expect_empty: bool
    points: tuple[ExpectedPoint, ...]
    max_unexpected_proposals: int
    notes: str
    doc: YamlDoc

    @property
    def path(self) -> str:
        return self.doc.path


def parse_sidecar(doc: YamlDoc) -> tuple[Sidecar | None, list[tuple[Pos, str]]]:
    """The sidecar, or None with every schema error at the offending key's position."""
    errors = validate("sidecar", doc.data)
    if errors:
        return None, [(doc.pos(e.keypath), f"{e.pointer or '/'}: {e.message}") for e in errors]
    data = doc.data
    points = []
    for i, point in enumerate(data["expected_points"]):
        base = ("expected_points", i)
        points.append(ExpectedPoint(
            id=point["id"],
            type=point["type"],
            must_match_all=tuple(
                Term(t, doc.pos(base + ("must_match_all", j))) for j, t in enumerate(point["must_match_all"])),
            must_not_match=tuple(
                Term(t, doc.pos(base + ("must_not_match", j))) for j, t in enumerate(point.get("must_not_match", []))),
            pos=doc.pos(base),
        ))
    return Sidecar(
        fixture_id=data["fixture_id"],
        category=data["category"],
        expect_empty=data["expect_empty"],
        points=tuple(points),
        max_unexpected_proposals=data["max_unexpected_proposals"],
        notes=data["notes"],
        doc=doc,
    ), []
