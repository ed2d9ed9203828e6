"""expected/<fixture_id>.yaml: the expected-labels sidecar of one fixture."""

from __future__ import annotations

import json
from dataclasses import dataclass

from corpustools.io.positions import Pos
from corpustools.io.schemacheck import JSON_TYPES
from corpustools.io.schemastore import SchemaError, validate
from corpustools.io.yamlload import YamlDoc
from corpustools.model.contract import (
    DEFAULT,
    TEXT_ITEM,
    Contract,
    close_match,
    field_problem,
    json_kind,
    pointer_tokens,
    type_problem,
)
from corpustools.model.normalize import Matching

# The sidecar's two point lists: points a correct output must carry, and points it may carry
# (a proposal matching one is not a phantom; leaving one out is not a miss).
EXPECTED_POINTS, OPTIONAL_POINTS = "expected_points", "optional_points"
# A point's two term lists. An entry of either is a term or a list of terms: in must_match_all
# the alternatives of one entry (one of them must occur), in must_not_match the parts of a
# combination (forbidden only when all of them occur in one item's forbid fields).
MUST_MATCH_ALL, MUST_NOT_MATCH = "must_match_all", "must_not_match"
TERM_LISTS = (MUST_MATCH_ALL, MUST_NOT_MATCH)
# A point's values of one item: field -> its value, or a list of acceptable values.
ITEM_FIELDS = "item_fields"
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

    def found_in(self, normalized_text: str, matching: Matching) -> Term | None:
        """An alternative of this must_match_all entry that `normalized_text` (normalized by
        `matching`) contains (the first in sidecar order), or None: the scorer's one test of an entry."""
        return next((term for term in self.terms if matching.contains(normalized_text, term.text)), None)


@dataclass(frozen=True)
class ItemField:
    """One entry of a point's `item_fields`: a field of the item and the value it must hold."""

    name: str  # a key of the point type's item objects
    values: tuple  # the acceptable values: the one given, or the list's
    pos: Pos  # where the value (or the list of values) is written
    listed: bool = False  # written as a list (even of one value)


@dataclass(frozen=True)
class ExpectedPoint:
    id: str
    type: str  # an item type of the output contract
    must_match_all: tuple[TermEntry, ...]  # every entry must be found (one alternative of each)
    must_not_match: tuple[TermEntry, ...]  # an entry fires when all its parts are in one item
    pos: Pos
    item_fields: tuple[ItemField, ...] = ()  # every one must hold on the item that holds the terms
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
            must_match_all=_entries(doc, base + (MUST_MATCH_ALL,), point.get(MUST_MATCH_ALL, []), ANY_OF_JOINER),
            must_not_match=_entries(doc, base + (MUST_NOT_MATCH,), point.get(MUST_NOT_MATCH, []), COMBINATION_JOINER),
            pos=doc.pos(base),
            item_fields=tuple(ItemField(name, tuple(value) if isinstance(value, list) else (value,),
                                        doc.pos(base + (ITEM_FIELDS, name)), isinstance(value, list))
                              for name, value in point.get(ITEM_FIELDS, {}).items()),
            notes=point.get("notes"),
            list_key=list_key,
            index=i,
        ))
    return tuple(points)


def _listed_points(data) -> list[tuple[tuple, dict]]:
    """(key path, point) for each point of either list that is a mapping, in sidecar order."""
    if not isinstance(data, dict):
        return []
    found = []
    for list_key in (EXPECTED_POINTS, OPTIONAL_POINTS):
        points = data.get(list_key)
        for i, point in enumerate(points if isinstance(points, list) else ()):
            if isinstance(point, dict):
                found.append(((list_key, i), point))
    return found


# Every key of a point (the sidecar schema's), so that a point holding another is left to the
# schema's unknown-key error: a misspelt `must_match_al` is one mistake, said once.
POINT_KEYS = frozenset({"id", "type", MUST_MATCH_ALL, MUST_NOT_MATCH, ITEM_FIELDS, "notes"})


def point_errors(data) -> list[tuple[tuple, str]]:
    """(key path, message) for each point that says nothing an item must hold: neither a
    must_match_all nor an item_fields with a field in it (the schema allows either alone)."""
    errors = []
    for where, point in _listed_points(data):
        if not point.keys() <= POINT_KEYS:
            continue
        fields = point.get(ITEM_FIELDS)
        if fields == {}:
            errors.append(_error((*where, ITEM_FIELDS), "an empty item_fields pins nothing: give a field and its "
                                                        "value, or remove it"))
        elif MUST_MATCH_ALL not in point and ITEM_FIELDS not in point:
            errors.append(_error(where, f"a point needs {MUST_MATCH_ALL}, {ITEM_FIELDS} or both: with neither it "
                                        "would match any item of its type"))
    return errors


def contract_errors(data: dict, contract: Contract) -> list[tuple[tuple, str]]:
    """(key path, message) for each point type that is no item type of `contract`, each
    item_fields of a type whose items are strings (or a text answer) or naming a field the
    declared schema's items do not have, and each expected_fields pointer `contract` does not
    declare. `data` need not follow the sidecar schema (its other mistakes are the schema's to
    report): whatever is not where the schema wants it is skipped."""
    errors: list[tuple[tuple, str]] = []
    if not isinstance(data, dict):
        return errors
    for where, point in _listed_points(data):
        kind = point.get("type")
        problem = type_problem(kind, contract) if isinstance(kind, str) else None
        if problem:
            errors.append(_error((*where, "type"), problem))
        elif isinstance(kind, str) and isinstance(point.get(ITEM_FIELDS), dict):
            errors += _item_field_errors((*where, ITEM_FIELDS), kind, point[ITEM_FIELDS], contract)
    fields = data.get("expected_fields")
    for pointer, value in fields.items() if isinstance(fields, dict) else ():
        problem = field_problem(pointer, contract)
        if problem is None and contract.schema is not None:
            problem = _type_problem(value, _schema_node(contract.schema.contents, pointer), f"the field {pointer}")
            problem = problem and f"expected_fields key {pointer!r}: {problem}"
        if problem:
            errors.append((("expected_fields", pointer), problem))
    return errors


def _item_field_errors(where: tuple, kind: str, fields: dict, contract: Contract) -> list[tuple[tuple, str]]:
    declared = contract.item_type(kind)
    if declared is None or declared.strings:
        what = "a text answer is one string" if kind == TEXT_ITEM else (
            f"{kind} items are strings (output.items names no match fields for them)")
        return [_error(where, f"item_fields on a point of type {kind}: {what}, so they have no fields; say the "
                              "value with must_match_all")]
    known = _item_property_schemas(contract, kind)
    if known is None:
        return []
    errors = [((*where, name), f"item_fields key {name!r}: the output schema's {kind} items have no field "
                               f"{name!r} ({', '.join(known)}){close_match(name, tuple(known))}")
              for name in fields if name not in known]
    root = contract.schema.contents if contract.schema is not None else None
    for name, value in fields.items():
        problem = _type_problem(value, _schema_at(known.get(name), root), f"{kind} items' {name!r}")
        if problem:
            errors.append(((*where, name), f"item_fields key {name!r}: {problem}"))
    return errors


def item_properties(contract: Contract, kind: str) -> tuple[str, ...] | None:
    """The keys the declared output schema names for `kind`'s items (`properties` of the array's
    `items` at the type's pointer, local `$ref`s followed), or None when there is no schema or it
    does not say (no `properties` there, or `patternProperties` that may allow any key)."""
    known = _item_property_schemas(contract, kind)
    return None if known is None else tuple(known)


def _item_property_schemas(contract: Contract, kind: str) -> dict | None:
    """item_properties' keys, each with its schema as written."""
    declared = contract.item_type(kind)
    if contract.schema is None or declared is None:
        return None
    root = contract.schema.contents  # the declared schema document (io.userschema.UserSchema)
    node = _schema_at(_schema_node(root, declared.at), root)
    node = _schema_at(node.get("items") if isinstance(node, dict) else None, root)
    if not isinstance(node, dict) or not isinstance(node.get("properties"), dict) or "patternProperties" in node:
        return None
    return node["properties"]


def _schema_node(root, pointer: str):
    """The schema of the answer's value at `pointer` (through `properties`, local `$ref`s
    followed), or None when the schema does not say."""
    node = _schema_at(root, root)
    for token in pointer_tokens(pointer):
        properties = node.get("properties") if isinstance(node, dict) else None
        node = _schema_at(properties.get(token) if isinstance(properties, dict) else None, root)
    return node


# The JSON Schema `type` names a pinned scalar value can be told against (a list is alternatives).
_SCALAR_TYPES = frozenset({"string", "boolean", "null", "number", "integer"})


def _type_problem(value, schema, what: str) -> str | None:
    """Why a pinned value (or every one of a list of acceptable values) can never equal a value
    the schema's `type` allows at that place; None when one can, or the schema does not say.
    A string cannot equal a number (the scorer compares a number, boolean or null only with its
    own JSON type), so `dose: 5` against a string field never matches."""
    declared = schema.get("type") if isinstance(schema, dict) else None
    types = [declared] if isinstance(declared, str) else declared
    if not isinstance(types, list) or not types or not all(isinstance(t, str) and t in _SCALAR_TYPES for t in types):
        return None  # no type, or an array/object one: not a scalar this check can tell
    values = value if isinstance(value, list) else [value]
    if any(JSON_TYPES[t](v) for v in values for t in types):
        return None
    said = " or ".join(types)
    shown = ", ".join(f"{json.dumps(v, ensure_ascii=False)} ({json_kind(v)})" for v in values)
    return (f"{shown} can never match: the output schema says {what} is of type {said}; write the value as "
            f"{'a JSON ' + said if len(types) == 1 else 'one of those types'}")


def _schema_at(node, root, depth: int = 0):
    """`node`, or what its local `$ref` (`#/...`) points to in `root`; None when it cannot be told."""
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and depth < 32:
        ref = node["$ref"]
        if ref != "#" and not ref.startswith("#/"):
            return None
        node = root
        for token in pointer_tokens(ref[1:]) if ref != "#" else ():
            node = node.get(token) if isinstance(node, dict) else None
        depth += 1
    return node if isinstance(node, dict) else None


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
    errors += point_errors(doc.data)
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
