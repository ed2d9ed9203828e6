"""expected/<fixture_id>.yaml: the expected-labels sidecar of one fixture."""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.io.positions import Pos
from corpustools.io.schemastore import validate
from corpustools.io.yamlload import YamlDoc

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
    type: str  # practice | map
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


def parse_sidecar(doc: YamlDoc) -> tuple[Sidecar | None, list[tuple[Pos, str]]]:
    """The sidecar, or None with every schema error at the offending key's position."""
    errors = validate("sidecar", doc.data)
    if errors:
        return None, [(doc.pos(e.keypath), f"{e.pointer or '/'}: {e.message}") for e in errors]
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
    ), []
