"""expected/<fixture_id>.yaml: the expected-labels sidecar of one fixture."""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.io.positions import Pos
from corpustools.io.schemastore import SchemaError, validate
from corpustools.io.yamlload import YamlDoc
from corpustools.model.contract import DEFAULT, Contract, field_problem, type_problem
from corpustools.model.normalize import contains_term

# The sidecar's two point lists: points a correct output must carry, and points it may carry
# (a proposal matching one is not a phantom; leaving one out is not a miss).
EXPECTED_POINTS, OPTIONAL_POINTS = "expected_points", "optional_points"
# A point's two term lists. An entry of either is a term or a list of terms: in must_match_all
# the alternatives of one entry (one of them must occur), in must_not_match the parts of a
# combination (forbidden only when all of them occur in one item's forbid fields).
MUST_MATCH_ALL, MUST_NOT_MATCH = "must_match_all", "must_not_match"
TERM_LISTS = (MUST_MATCH_ALL, MUST_NOT_MATCH)
# How an entry of several terms is written on one line (reports, reasons, JSON): alternatives
# joined by " | ", the parts of a forbidden combination by " + " (docs/scoring.md).
ANY_OF_JOINER, COMBINATION_JOINER = " | ", " + "


@dataclass(frozen=True)
class Term:
    text: str
    pos: Pos


@dataclass(frozen=True)
class TermEntry:
    """One entry of a point's `must_match_all` or `must_not_match`: a term, or a list of terms
    written as one entry (`- [tracking sync, trackingsync]`)."""

    terms: tuple[Term, ...]  # the term, or the alternatives / parts in sidecar order
    pos: Pos  # where the entry is written
    joiner: str = ANY_OF_JOINER  # ANY_OF_JOINER (must_match_all) or COMBINATION_JOINER (must_not_match)
    listed: bool = False  # written as a list (even of one term)

    @property
    def text(self) -> str:
        """The entry on one line: the term, or its terms joined (`tracking sync | trackingsync`,
        `reading list + surviving title`): what reasons, evidence and reports name it by."""
        return self.joiner.join(term.text for term in self.terms)

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(term.text for term in self.terms)

    def found_in(self, normalized_text: str) -> Term | None:
        """An alternative of this must_match_all entry that `normalized_text` contains (the first
        in sidecar order), or None: the scorer's one test of an entry."""
        return next((term for term in self.terms if contains_term(normalized_text, term.text)), None)


@dataclass(frozen=True)
class ExpectedPoint:
    id: str
    type: str  # an item type of the output contract
    must_match_all: tuple[TermEntry, ...]  # every entry must be found (one alternative of each)
    must_not_match: tuple[TermEntry, ...]  # an entry fires when all its parts are in one item
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


def _entries(doc: YamlDoc, where: tuple, entries: list, joiner: str) -> tuple[TermEntry, ...]:
    found = []
    for j, entry in enumerate(entries):
        at = where + (j,)
        if isinstance(entry, list):
            found.append(TermEntry(tuple(Term(t, doc.pos(at + (k,))) for k, t in enumerate(entry)), doc.pos(at),
                                   joiner, True))
        else:
            found.append(TermEntry((Term(entry, doc.pos(at)),), doc.pos(at), joiner))
    return tuple(found)


def _points(doc: YamlDoc, list_key: str) -> tuple[ExpectedPoint, ...]:
    points = []
    for i, point in enumerate(doc.data.get(list_key, [])):
        base = (list_key, i)
        points.append(ExpectedPoint(
            id=point["id"],
            type=point["type"],
            must_match_all=_entries(doc, base + (MUST_MATCH_ALL,), point[MUST_MATCH_ALL], ANY_OF_JOINER),
            must_not_match=_entries(doc, base + (MUST_NOT_MATCH,), point.get(MUST_NOT_MATCH, []), COMBINATION_JOINER),
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
    for list_key in (EXPECTED_POINTS, OPTIONAL_POINTS):
        points = data.get(list_key)
        for i, point in enumerate(points if isinstance(points, list) else ()):
            kind = point.get("type") if isinstance(point, dict) else None
            problem = type_problem(kind, contract) if isinstance(kind, str) else None
            if problem:
                errors.append(_error((list_key, i, "type"), problem))
    fields = data.get("expected_fields")
    for pointer in fields if isinstance(fields, dict) else ():
        problem = field_problem(pointer, contract)
        if problem:
            errors.append(_error(("expected_fields", pointer), problem))
    return errors


def _error(keypath: tuple, message: str) -> tuple[tuple, str]:
    """(key path, `/pointer: message`): a mistake told as a schema error is."""
    return keypath, str(SchemaError(keypath, message))


def _entry_error(data, error: SchemaError) -> tuple[tuple, str]:
    """A schema error inside a term list, said as what is wrong with the entry, at the entry: a
    list inside a list of terms, or an empty list (other errors as the schema words them)."""
    keypath, pointer = error.keypath, error.pointer
    if len(keypath) in (4, 5) and keypath[0] in (EXPECTED_POINTS, OPTIONAL_POINTS) and keypath[2] in TERM_LISTS:
        value = data
        for part in keypath:
            value = value[part]
        entry, where = keypath[:4], pointer.rsplit("/", len(keypath) - 4)[0]
        what = "alternatives" if keypath[2] == MUST_MATCH_ALL else "terms forbidden together"
        if len(keypath) == 5 and isinstance(value, list):
            return entry, (f"{where}: a term list nested deeper than one level: an entry is a term or one list of "
                           f"{what}")
        if len(keypath) == 4 and value == []:
            return entry, f"{where}: an empty list of {what}: give at least one term, or remove the entry"
    return keypath, str(error)


def parse_sidecar(doc: YamlDoc, contract: Contract | None = DEFAULT) -> tuple[Sidecar | None, list[tuple[Pos, str]]]:
    """The sidecar, or None with every schema error at the offending key's position (a point
    type or a pinned field the output contract does not declare is one too; None as `contract`
    checks neither)."""
    # One error per entry: a list holding two lists is one mistake.
    errors = list(dict.fromkeys(_entry_error(doc.data, e)
                                for e in validate("sidecar", doc.data)))
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
