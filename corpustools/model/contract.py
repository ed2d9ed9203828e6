"""The prompt's output contract and the session format, as corpus.yaml declares them.

corpus.yaml's `output:` says what a result file is (JSON or text), which JSON Schema it must
satisfy, where its arrays of candidate items are (one item type each, at an RFC 6901 pointer),
which item fields a label's terms are looked for in, and which scalar answers (`fields`) a sidecar
may pin; `session:` says which role tags a session's turns carry and who speaks behind each (the
user or the agent), and which frontmatter keys a session has. Absent, each is today's built-in
contract of the shipped corpus: `KENKEEP` (practice then map proposals, `[USER]`/`[AGENT]`).

One `Contract` value carries all of it. Scoring, evidence, reports, worksheets and the lint rules
that know about item types or speakers read results, items and roles through it, and nothing
outside this module (and the default contract's declaration below) names an item type or field.
docs/contracts.md documents every key.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any

from corpustools.io.errors import InputError
from corpustools.io.schemastore import SchemaError, unexpected_keys, validate
from corpustools.model.normalize import MATCHINGS, WORDS, Matching

JSON_FORMAT, TEXT_FORMAT = "json", "text"
USER, AGENT = "user", "agent"  # the speakers a role tag can stand for
SPEAKERS = (USER, AGENT)
ANY = "any"  # session.opens_with: either speaker may open a session
OPENERS = (USER, AGENT, ANY)  # what session.opens_with may be (lint CT403)
# A category's `expect` beside the item types: nothing to extract, or a salvaged subset.
EXPECT_EMPTY, EXPECT_SUBSET = "empty", "subset"
TEXT_ITEM = "answer"  # the one item type of a text output
TEXT_FIELD = "text"  # the field name of a string item (a text answer, or an item of a string array)
SESSION_ID = "session_id"  # the one frontmatter key every session has
RESULT_SUFFIXES = {JSON_FORMAT: ".json", TEXT_FORMAT: ".txt"}

_TYPE_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
_ROLE_TAG = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")


# --- The declaration ----------------------------------------------------------------------------

@dataclass(frozen=True)
class ItemType:
    """One array of candidate items in a result: `output.items[i]` of corpus.yaml."""

    type: str  # the name sidecar points use as `type`, and items are named by (`action[0]`)
    at: str  # RFC 6901 pointer to the array
    match: tuple[str, ...] = ()  # fields must_match_all terms are looked for in, joined; () for strings
    forbid: tuple[str, ...] = ()  # fields must_not_match looks in, each apart (default: match)
    title: str | None = None  # the field shown as an item's title (None: a string item itself)
    taught_by: tuple[str, ...] = ()  # speakers whose turns must say each term (lint CT602)

    @property
    def strings(self) -> bool:
        """Whether the array holds strings (no `match` fields) rather than objects."""
        return not self.match

    @cached_property
    def shown(self) -> tuple[str, ...]:
        """The fields a report or worksheet shows, in order: forbid, then match, then title."""
        return tuple(dict.fromkeys((*self.forbid, *self.match, *((self.title,) if self.title else ()))))


@dataclass(frozen=True, eq=False, repr=False)  # declared once, never compared: less to build at import
class Check:
    """An advisory check of one item field: a `contract:<item>:<what>` diagnostic when it fails,
    never a change to a verdict. Declared as data by a contract (the default one has the shipped
    prompt's tag count, title and description lengths, ...)."""

    what: str  # the diagnostic's name, e.g. title-too-long
    kind: str  # one of CHECK_KINDS
    field: str
    low: int | None = None
    high: int | None = None
    noun: str = ""  # what one element of a list field is called in the detail ("tag")


# What a check tests: the item's `field`...
CHECK_KINDS = (
    "is-type",  # ...is the item's type (the array it sits in)
    "count",  # ...is a list of `low` to `high` elements
    "lowercase",  # ...is a list whose every element is lowercase
    "max-length",  # ...is a string of at most `high` characters
    "not-blank",  # ...is a string that is not blank
    "no-blank-element",  # ...is a list with no blank element
)


@dataclass(frozen=True)
class ContractWarning:
    proposal: str  # the item, e.g. "practice[0]"
    what: str  # e.g. "title-too-long"
    detail: str

    def __str__(self) -> str:
        return f"{self.proposal}: {self.what}: {self.detail}"


@dataclass(frozen=True)
class Item:
    """One candidate item of a result, as the scorer reads it."""

    name: str  # <type>[i], e.g. action[0]; answer[0] for a text answer
    type: str
    title: str
    match_text: str  # the normalized match fields, joined by newlines: what must_match_all terms are looked for in
    forbid_fields: tuple[tuple[str, str], ...]  # (field, text) must_not_match looks in, each apart (tags[1], ...)
    fields: tuple[tuple[str, Any], ...]  # (field, value as written) of every shown field, in ItemType.shown order
    raw: Any = field(default=None, compare=False, repr=False)  # the item as written (for advisory checks)
    title_field: str | None = None  # the shown field that is the title (None: a text answer's first line)
    matching: Matching = field(default=WORDS, compare=False, repr=False)  # the rule match_text was normalized for
    match_fields: tuple[str, ...] = ()  # the fields match_text joins (ItemType.match; none for a string)

    @property
    def texts(self) -> tuple[str, ...]:
        """The item's string fields (not lists), in shown order: what a reader reads as its prose."""
        return tuple(value for _, value in self.fields if isinstance(value, str))


ABSENT = object()  # a field pointer that resolves to nothing in a result


class ReadError(ValueError):
    """A schema-valid result the contract cannot read: what is wrong at an RFC 6901 pointer
    (`/kb_facts: is an object, not an array of fact items`)."""

    def __init__(self, pointer: str, message: str):
        super().__init__(f"{pointer}: {message}")
        self.pointer, self.message = pointer, message


@dataclass(frozen=True, eq=False, repr=False)  # made per result, never compared
class Answer:
    """A result read through the contract: its items in scoring order and its pinned-able fields."""

    items: tuple[Item, ...]
    fields: Mapping[str, Any]  # pointer -> value, ABSENT when the result has none there
    raw: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Contract:
    format: str = JSON_FORMAT
    items: tuple[ItemType, ...] = ()
    fields: tuple[str, ...] = ()  # pointers to scalar answers a sidecar may pin (expected_fields)
    empty: tuple[str, ...] = ("",)  # text format: answers (trimmed, case-insensitive) that count as empty
    roles: tuple[tuple[str, str | None], ...] = (("USER", USER), ("AGENT", AGENT))  # (tag, speaker), as declared
    frontmatter: tuple[str, ...] = ("schema_version", SESSION_ID, "harness", "captured_at")
    opens_with: str = USER  # who speaks a session's first turn (OPENERS): what lint CT403 expects
    schema_file: str | None = None  # output.schema as written (relative to corpus.yaml)
    builtin_schema: str | None = None  # a shipped schema kind (the default contract's)
    checks: tuple[Check, ...] = ()  # advisory checks of every item
    declared: bool = False  # corpus.yaml has an `output:` key
    # What a label's term matches (output.matching): how items and transcripts are normalized and
    # where a term counts as found. Not part of sha256: it changes how labels read a result, never
    # what a result should be.
    matching: Matching = WORDS
    schema: Any = field(default=None, compare=False, repr=False)  # the schema file, read (io.userschema.UserSchema)
    schema_digest: str | None = None  # sha256 of the schema file's bytes (and of each file its $refs reach)
    schema_text: str | None = field(default=None, compare=False, repr=False)  # the schema file as read

    # -- items and speakers

    @cached_property
    def item_types(self) -> tuple[str, ...]:
        if self.format == TEXT_FORMAT:
            return (TEXT_ITEM,)
        return tuple(t.type for t in self.items)

    def item_type(self, name: str) -> ItemType | None:
        return next((t for t in self.items if t.type == name), None)

    def taught_by(self, item_type: str) -> tuple[str, ...]:
        declared = self.item_type(item_type)
        return declared.taught_by if declared else ()

    @property
    def expects(self) -> tuple[str, ...]:
        """What a category's `expect` may be as one word: an item type, `empty` or `subset` (or a list
        of item types: expect_problem)."""
        return (*self.item_types, EXPECT_EMPTY, EXPECT_SUBSET)

    def role_of(self, tag: str) -> str | None:
        """The declared tag a segment's tag text starts with (`USER /review a.xml` -> USER), or None."""
        head, space, rest = tag.partition(" ")
        if space and not rest:
            return None  # `[USER ]:` is no known tag
        return head if head in self._speakers else None

    def speaker(self, role: str | None) -> str | None:
        return self._speakers.get(role) if role is not None else None

    @cached_property
    def _speakers(self) -> dict[str, str | None]:
        return dict(self.roles)

    def tags(self, speaker: str | None = None) -> tuple[str, ...]:
        """The declared tags (of `speaker`, when given), in declaration order."""
        return tuple(tag for tag, who in self.roles if speaker is None or who == speaker)

    def tag_list(self, speaker: str | None = None, joiner: str = "or") -> str:
        """`[USER]`, or `[PM] or [LEAD]`: the tags of a speaker for a message."""
        shown = [f"[{tag}]" for tag in self.tags(speaker)]
        return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} {joiner} {shown[-1]}"

    # -- results

    @property
    def result_suffix(self) -> str:
        return RESULT_SUFFIXES[self.format]

    @property
    def other_suffix(self) -> str:
        return RESULT_SUFFIXES[TEXT_FORMAT if self.format == JSON_FORMAT else JSON_FORMAT]

    def schema_errors(self, output) -> list[SchemaError]:
        """The errors of `output` against the contract's schema (none without one)."""
        if self.builtin_schema is not None:
            return validate(self.builtin_schema, output)
        if self.schema is None:
            return []
        return self.schema.validate(output)

    def extra_keys(self, output) -> list[tuple]:
        """The key paths of the keys of `output` the contract's schema forbids (additionalProperties:
        false), in document order (none without a schema)."""
        if self.builtin_schema is not None:
            return [found.keypath for found in unexpected_keys(self.builtin_schema, output)]
        return [found.keypath for found in self.schema.unexpected_keys(output)] if self.schema is not None else []

    def read_text(self, text: str) -> Answer:
        """A text result: one `answer` item, or none when the trimmed answer is blank or one of
        `empty` (compared case-insensitively)."""
        trimmed = text.strip()
        if not trimmed or trimmed.casefold() in {e.strip().casefold() for e in self.empty}:
            return Answer((), {}, text)
        title = next(line.strip() for line in trimmed.split("\n") if line.strip())
        item = Item(f"{TEXT_ITEM}[0]", TEXT_ITEM, title, self.matching.normalize(text), ((TEXT_FIELD, text),),
                    ((TEXT_FIELD, text),), text, matching=self.matching)
        return Answer((item,), {}, text)

    def read_json(self, output) -> Answer:
        """The items and fields of a schema-valid JSON result; ReadError naming the pointer when an
        item array is missing or not an array, or an item is not what its type declares."""
        items: list[Item] = []
        for declared in self.items:
            array = resolve(output, declared.at)
            if array is ABSENT:
                raise ReadError(declared.at, f"missing; the output contract reads {declared.type} items from an "
                                             "array there")
            if not isinstance(array, list):
                raise ReadError(declared.at, f"is {json_kind(array)}, not an array of {declared.type} items")
            for index, raw in enumerate(array):
                items.append(_item(declared, index, raw, self.matching))
        fields = {pointer: resolve(output, pointer) for pointer in self.fields}
        return Answer(tuple(items), fields, output)

    def warnings(self, answer: Answer) -> list[ContractWarning]:
        """The advisory checks of every item, item by item, each item's checks in declared order."""
        out: list[ContractWarning] = []
        tests = self._check_tests
        for item in answer.items:
            raw = item.raw
            if raw.__class__ is not dict:
                continue
            for check, field_name, test in tests:
                value = raw.get(field_name, ABSENT)  # an item lacking the field is not checked
                if value is not ABSENT:
                    found = test(check, value, item.type)
                    if found:
                        out += [ContractWarning(item.name, check.what, detail) for detail in found]
        return out

    @cached_property
    def _check_tests(self) -> tuple:
        """(check, its field, its test) for each advisory check, in declared order."""
        return tuple((check, check.field, _CHECKS[check.kind]) for check in self.checks)

    # -- identity

    @property
    def sha256(self) -> str:
        """What a run.yaml records: a changed contract (its keys, or its schema file's content)
        makes results produced under the old one drift. `opens_with` is not in it: who opens a
        session is a lint expectation of the sessions, not how a result is read or scored."""
        declaration = {
            "format": self.format, "fields": list(self.fields), "empty": list(self.empty),
            "roles": [list(r) for r in self.roles], "frontmatter": list(self.frontmatter),
            "items": [[t.type, t.at, list(t.match), list(t.forbid), t.title, list(t.taught_by)] for t in self.items],
            "schema": self.builtin_schema or self.schema_digest,
            "checks": [[c.what, c.kind, c.field, c.low, c.high, c.noun] for c in self.checks],
        }
        return hashlib.sha256(json.dumps(declaration, sort_keys=True).encode()).hexdigest()


def _text(value) -> str:
    """A field value as text to match in: a string as is, list elements one per line, else JSON."""
    if value.__class__ is str:
        return value
    if isinstance(value, list):
        return "\n".join(_text(v) for v in value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def json_kind(value) -> str:
    """`an object`, `a string`, ...: what a JSON value is, for a message."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"


def _item(declared: ItemType, index: int, raw, matching: Matching) -> Item:
    name = f"{declared.type}[{index}]"
    where = f"{declared.at}/{index}"
    if declared.strings:
        if not isinstance(raw, str):
            raise ReadError(where, f"is {json_kind(raw)}, not a string ({declared.type} items are strings: the "
                                   "contract names no match fields)")
        return Item(name, declared.type, raw, matching.normalize(raw), ((TEXT_FIELD, raw),), ((TEXT_FIELD, raw),), raw,
                    TEXT_FIELD, matching)
    if not isinstance(raw, dict):
        raise ReadError(where, f"is {json_kind(raw)}, not an object ({declared.type} items are objects with the "
                               f"fields {', '.join(declared.match)})")
    get = raw.get
    title = get(declared.title, "") if declared.title else ""
    match_text = matching.normalize("\n".join([_text(value) for f in declared.match if (value := get(f, ABSENT)) is not ABSENT]))
    forbid: list[tuple[str, str]] = []
    for name_ in declared.forbid:
        value = get(name_, ABSENT)
        if value.__class__ is str:
            forbid.append((name_, value))
        elif isinstance(value, list):
            forbid += [(f"{name_}[{i}]", _text(v)) for i, v in enumerate(value)]
        elif value is not ABSENT:
            forbid.append((name_, _text(value)))
    shown = tuple([(f, raw[f]) for f in declared.shown if f in raw])
    return Item(name, declared.type, title if isinstance(title, str) else _text(title), match_text,
                tuple(forbid), shown, raw, declared.title if isinstance(title, str) else None, matching, declared.match)


_PASS: tuple[str, ...] = ()  # what a check returns for a field it finds nothing wrong with


def _is_type(check: Check, value, item_type: str) -> Sequence[str]:
    return _PASS if value == item_type else (f"{check.field} is {value!r} inside {item_type!r}",)


def _count(check: Check, value, _type: str) -> Sequence[str]:
    if value.__class__ is list and not (check.low or 0) <= len(value) <= (check.high or len(value)):
        return (f"{len(value)} {check.field}, expected {check.low}-{check.high}",)
    return _PASS


def _lowercase(check: Check, value, _type: str) -> Sequence[str]:
    if value.__class__ is not list or all(v.__class__ is not str or v == v.lower() for v in value):
        return _PASS
    return [f"{check.noun} {v!r} is not lowercase" for v in value if v.__class__ is str and v != v.lower()]


def _max_length(check: Check, value, _type: str) -> Sequence[str]:
    if value.__class__ is str and check.high is not None and len(value) > check.high:
        return (f"{len(value)} characters, max {check.high}",)
    return _PASS


def _not_blank(check: Check, value, _type: str) -> Sequence[str]:
    return (f"{check.field} is empty",) if value.__class__ is str and not value.strip() else _PASS


def _no_blank_element(check: Check, value, _type: str) -> Sequence[str]:
    if value.__class__ is not list or all(v.__class__ is not str or v.strip() for v in value):
        return _PASS
    return [f"a {check.noun} is empty" for v in value if v.__class__ is str and not v.strip()]


# What each kind of check tests (CHECK_KINDS): the details of each way a field's value fails it.
_CHECKS = {"is-type": _is_type, "count": _count, "lowercase": _lowercase, "max-length": _max_length,
           "not-blank": _not_blank, "no-blank-element": _no_blank_element}


# --- JSON pointers (RFC 6901) ---------------------------------------------------------------------

def pointer_problem(pointer) -> str | None:
    """Why `pointer` is not a JSON pointer this contract accepts, or None."""
    if not isinstance(pointer, str) or not pointer.startswith("/"):
        return f"{pointer!r} is not a JSON pointer: a pointer starts with '/' (write /{pointer})"
    if re.search(r"~(?![01])", pointer):
        return f"{pointer!r} is not a JSON pointer: '~' is written ~0, and '/' inside a key ~1"
    return None


@lru_cache(maxsize=256)  # a contract's few pointers, resolved in every result
def pointer_tokens(pointer: str) -> tuple[str, ...]:
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:])


def resolve(document, pointer: str):
    """The value at `pointer` in `document`, or ABSENT."""
    here = document
    for token in pointer_tokens(pointer):
        if isinstance(here, dict):
            if token not in here:
                return ABSENT
            here = here[token]
        elif isinstance(here, list) and re.fullmatch(r"0|[1-9][0-9]*", token) and int(token) < len(here):
            here = here[int(token)]
        else:
            return ABSENT
    return here


# --- The built-in contract of the shipped corpus --------------------------------------------------

_MATCH, _FORBID = ("title", "body"), ("title", "description", "body", "tags")

# The shipped prompt (kenkeep's proposal-extract): an object of practice and map proposals, each
# checked against the shipped proposal-output schema; its length and tag limits are advisory.
# A practice is what the user taught (CT602); a map may come from either speaker.
KENKEEP = Contract(
    items=(ItemType("practice", "/practice", _MATCH, _FORBID, "title", taught_by=(USER,)),
           ItemType("map", "/map", _MATCH, _FORBID, "title")),
    builtin_schema="proposal-output",
    checks=(
        Check("type-mismatch", "is-type", "type"),
        Check("tag-count", "count", "tags", 1, 5),
        Check("tag-case", "lowercase", "tags", noun="tag"),
        Check("title-too-long", "max-length", "title", high=80),
        Check("description-too-long", "max-length", "description", high=140),
        Check("empty-string", "not-blank", "title"),
        Check("empty-string", "not-blank", "description"),
        Check("empty-string", "not-blank", "body"),
        Check("empty-string", "no-blank-element", "tags", noun="tag"),
    ),
)
DEFAULT = KENKEEP


def contract_warnings(output) -> list[ContractWarning]:
    """The default contract's advisory checks of a schema-valid proposal output (`validate`)."""
    return DEFAULT.warnings(DEFAULT.read_json(output))


# --- Reading the declaration from corpus.yaml ------------------------------------------------------

def close_match(word, choices: Sequence[str]) -> str:
    """` (did you mean X?)` when `word` is close to one of `choices`, else ``."""
    from corpustools.io.suggest import closest  # only when there is a mistake to name

    close = closest(str(word), choices)
    return f" (did you mean {close}?)" if close else ""


class _Errors(list):
    def add(self, keypath: tuple, message: str) -> None:
        self.append((keypath, str(SchemaError(keypath, message))))  # told as a schema error is


def parse_contract(data: Mapping, root: str) -> tuple[Contract | None, list[tuple[tuple, str]]]:
    """The contract corpus.yaml declares (DEFAULT for what it leaves out), or None with each
    problem as (key path, message). `data` is the spec document, already valid against the
    corpus-spec schema in its `output` and `session` keys; `root` is the corpus folder (the schema
    file is relative to it)."""
    errors = _Errors()
    output, session = data.get("output"), data.get("session")
    values: dict[str, Any] = {}
    if output is not None:
        values.update(_output(output, root, errors))
    if session is not None:
        values.update(_session(session, errors))
    if errors:
        return None, list(errors)
    return replace(DEFAULT, **{**_default_values(declared=output is not None), **values}), []


def _default_values(*, declared: bool) -> dict[str, Any]:
    if not declared:
        return {}
    # A declared output starts from nothing of the shipped prompt's: no items, schema or checks.
    return {"items": (), "builtin_schema": None, "checks": (), "declared": True}


def _output(output: Mapping, root: str, errors: _Errors) -> dict[str, Any]:
    fmt = output.get("format", JSON_FORMAT)
    values: dict[str, Any] = {"format": fmt}
    if "matching" in output:  # the schema allows only the names MATCHINGS has
        values["matching"] = MATCHINGS[output["matching"]]
    if fmt == TEXT_FORMAT:
        for key, why in (("items", "a text output is one item, answer"), ("fields", "a text output has no fields"),
                         ("schema", "a text output is no JSON document")):
            if key in output:
                errors.add(("output", key), f"not for format text: {why}; remove it")
        values["empty"] = tuple(output.get("empty", ("",)))
        return values
    if "empty" in output:
        errors.add(("output", "empty"), "only for format text (a JSON output is empty when it has no items); remove it")
    items: list[ItemType] = []
    seen: dict[str, int] = {}
    for index, entry in enumerate(output.get("items", ())):
        where = ("output", "items", index)
        name = entry["type"]
        if not _TYPE_NAME.fullmatch(name):
            errors.add((*where, "type"), f"item type {name!r} must be lowercase letters, digits, '-' or '_', "
                                         "starting with a letter")
        elif name in (EXPECT_EMPTY, EXPECT_SUBSET):
            errors.add((*where, "type"), f"item type {name!r} is a word categories' expect already uses; rename it")
        elif name in seen:
            errors.add((*where, "type"), f"item type {name!r} is declared twice (also output.items[{seen[name]}]); "
                                         "one entry per type")
        seen.setdefault(name, index)
        problem = pointer_problem(entry["at"])
        if problem:
            errors.add((*where, "at"), problem)
        match = tuple(entry.get("match", ()))
        if not match:
            for key in ("forbid", "title"):
                if key in entry:
                    errors.add((*where, key), f"{name} items are strings (no match fields): the string itself is "
                                              f"what {key} would name; remove it")
        items.append(ItemType(name, entry["at"], match, tuple(entry.get("forbid", match)),
                              entry.get("title", match[0] if match else None), tuple(entry.get("taught_by", ()))))
    values["items"] = tuple(items)
    fields = tuple(output.get("fields", ()))
    for index, pointer in enumerate(fields):
        problem = pointer_problem(pointer)
        if problem:
            errors.add(("output", "fields", index), problem)
        elif pointer in fields[:index]:
            errors.add(("output", "fields", index), f"{pointer} is listed twice")
    values["fields"] = fields
    if "schema" in output:
        values.update(_schema_file(output["schema"], root, errors))
    return values


def _schema_file(relative: str, root: str, errors: _Errors) -> dict[str, Any]:
    from corpustools.io.userschema import SchemaFileError, read_user_schema  # jsonschema: a schema file only

    where = ("output", "schema")
    if os.path.isabs(relative):
        errors.add(where, f"{relative}: give the schema file relative to corpus.yaml")
        return {}
    try:
        schema = read_user_schema(os.path.join(root, *relative.split("/")), relative, root)
    except SchemaFileError as err:  # no schema corpustools can use: its file, line and pointer
        errors.add(where, str(err))
        return {}
    except InputError as err:
        errors.add(where, f"cannot read the schema file: {err}")
        return {}
    return {"schema_file": relative, "schema": schema, "schema_digest": schema.digest, "schema_text": schema.text}


def schema_path(contract: Contract, root: str) -> str | None:
    """Where the contract's schema file is, under the corpus folder `root` (None without one)."""
    return os.path.join(root, *contract.schema_file.split("/")) if contract.schema_file else None


def _session(session: Mapping, errors: _Errors) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if "roles" in session:
        roles = tuple(session["roles"].items())
        folded: dict[str, str] = {}
        for tag, speaker in roles:
            where = ("session", "roles", tag)
            if not _ROLE_TAG.fullmatch(tag):
                errors.add(where, f"role tag {tag!r} must be letters, digits, '-' or '_', starting with a letter")
            elif tag.casefold() in folded:
                errors.add(where, f"role tag {tag!r} is {folded[tag.casefold()]!r} in another case; declare it once")
            folded.setdefault(tag.casefold(), tag)
            if speaker not in SPEAKERS:
                errors.add(where, f"speaker {speaker!r} is not one of user, agent{close_match(speaker, SPEAKERS)}")
        if not any(speaker == USER for _, speaker in roles):
            errors.add(("session", "roles"), "no tag stands for the user; map at least one role tag to user")
        values["roles"] = roles
    if "frontmatter" in session:
        keys = tuple(session["frontmatter"])
        if SESSION_ID not in keys:
            errors.add(("session", "frontmatter"), f"{SESSION_ID} is always required; add it to the list")
        for index, key in enumerate(keys):
            if key in keys[:index]:
                errors.add(("session", "frontmatter", index), f"{key} is listed twice")
        values["frontmatter"] = keys
    if "opens_with" in session:
        values["opens_with"] = session["opens_with"]  # one of OPENERS: the schema's enum says so
    return values


def session_format_of(data) -> Contract:
    """What sessions are read and linted with while corpus.yaml's contract is broken: DEFAULT, with
    the declared role tags that are well formed (a speaker that is neither user nor agent kept as
    None), the declared frontmatter keys when they are a list of names, and the declared
    `output.matching` when it is one. So one mistake in corpus.yaml is reported once, at
    corpus.yaml, not again at every session or label."""
    values: dict[str, Any] = {}
    output = data.get("output") if isinstance(data, dict) else None
    matching = output.get("matching") if isinstance(output, dict) else None
    if isinstance(matching, str) and matching in MATCHINGS:
        values["matching"] = MATCHINGS[matching]  # the label rules read the transcripts with it
    session = data.get("session") if isinstance(data, dict) else None
    if not isinstance(session, dict):
        return replace(DEFAULT, **values) if values else DEFAULT
    roles = session.get("roles")
    if isinstance(roles, dict):
        kept = tuple((tag, speaker if speaker in SPEAKERS else None) for tag, speaker in roles.items()
                     if isinstance(tag, str) and _ROLE_TAG.fullmatch(tag))
        if kept:
            values["roles"] = kept
    keys = session.get("frontmatter")
    if isinstance(keys, list) and keys and all(isinstance(k, str) for k in keys):
        values["frontmatter"] = tuple(dict.fromkeys((SESSION_ID, *keys))) if SESSION_ID not in keys else tuple(keys)
    if "opens_with" in session:  # a mistaken value is reported at corpus.yaml, never at every session
        values["opens_with"] = session["opens_with"] if session["opens_with"] in OPENERS else ANY
    return replace(DEFAULT, **values)


def expect_problem(expect: str | Sequence[str], contract: Contract) -> str | None:
    """Why a category's `expect` is not an item type of `contract`, `empty`, `subset` or a list of
    item types; or None."""
    if not isinstance(expect, str):
        for value in expect:
            if value in (EXPECT_EMPTY, EXPECT_SUBSET):
                return (f"expect lists {value!r}: a list names item types a fixture may have a point of; {value} "
                        f"stays single (write expect: {value})")
            if value not in contract.item_types:
                return (f"expect lists {value!r}, which is not an item type of the output contract "
                        f"({', '.join(contract.item_types)}){close_match(value, contract.item_types)}")
        return None
    if expect in contract.expects:
        return None
    return (f"expect {expect!r} is not an item type of the output contract ({', '.join(contract.item_types)}), "
            f"empty or subset{close_match(expect, contract.expects)}")


def type_problem(point_type: str, contract: Contract) -> str | None:
    """Why a sidecar point's `type` is not a declared item type; or None."""
    if point_type in contract.item_types:
        return None
    return (f"type {point_type!r} is not an item type of the output contract ({', '.join(contract.item_types)})"
            f"{close_match(point_type, contract.item_types)}")


def field_problem(pointer: str, contract: Contract) -> str | None:
    """Why a sidecar's expected_fields key is not a declared field; or None. The pointer is shown
    as written, never escaped as a location would be (`/expected_fields/~1urgnet`)."""
    if pointer in contract.fields:
        return None
    if not contract.fields:
        return (f"expected_fields key {pointer!r} is not a declared field: the output contract declares no fields "
                "(output.fields)")
    return (f"expected_fields key {pointer!r} is not a declared field of the output contract "
            f"({', '.join(contract.fields)}){close_match(pointer, contract.fields)}")

