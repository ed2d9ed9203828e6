"""A JSON Schema a corpus declares (corpus.yaml's `output.schema`), read so that validating a
result can never fetch, read outside the corpus, hang or crash (docs/security.md).

- A `$ref` resolves within the schema document (a JSON pointer, an anchor, an embedded `$id`), or,
  written as a relative path, to a schema file inside the corpus folder, read like every corpus
  file (corpustools.io.textfile: a regular file, no link, under the size cap) and checked the same
  way, its own `$ref`s included. Any other `$ref` is refused when the schema is read: one with a
  scheme (`http:`, `https:`, `file:`, `urn:`...) or an absolute path, a relative one under an
  `$id` that is not the file's place (`https://...`), one reaching outside the corpus, one naming
  nothing, and a cycle of `$ref`s that never reaches a value (validating it would never end).
- Patterns are evaluated by RE2 (corpustools.io.schemaregex): a pattern RE2 cannot compile is
  refused here, never met while a result is read.
- Results are validated against a `referencing` registry of exactly the documents read here
  (and jsonschema's own metaschemas); its retrieve function refuses every URI, so jsonschema's
  remote retrieval can never run.

Each refusal is a SchemaFileError naming the schema file, the line and the JSON pointer.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

import referencing.jsonschema
from jsonschema import Draft202012Validator, FormatChecker, exceptions, validators
from jsonschema_specifications import REGISTRY as METASCHEMAS
from referencing import Registry
from referencing.exceptions import NoSuchAnchor, PointerToNowhere, Unresolvable

from corpustools.io.documents import json_position, parse_json
from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.schemacheck import compile_check
from corpustools.io.schemaregex import PatternError, Patterns, re2_keywords
from corpustools.io.schemastore import SchemaError, UnexpectedKey, collect_errors, collect_unexpected, message_of
from corpustools.io.textfile import decode_text, read_bytes

# Keywords applying another schema by reference, to the same value.
_REF_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")
# Keywords applying their subschemas to the same value (no step into it): a cycle through these
# and references never ends. Older drafts' `dependencies` and `extends` hold schemas too.
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf", "extends")
_IN_PLACE_ONE = ("not", "if", "then", "else", "extends")
_IN_PLACE_MAPS = ("dependentSchemas", "dependencies")
# The drafts in which `$ref` ignores the keywords beside it.
_REF_ALONE = ("draft-03", "draft-04", "draft-06", "draft-07")
_REFS_DOC = "a $ref names a place in this schema (#/$defs/...) or a schema file inside the corpus by a relative path"


class SchemaFileError(InputError):
    """A schema file (the declared one, or one its `$ref`s reach) corpustools cannot use:
    `file:line:col: /pointer: why`."""


def _refuse_every_uri(uri: str):
    """The registry's retrieve function: every document was read when the schema was; nothing is fetched."""
    raise LookupError(f"{uri}: corpustools never fetches a schema")


@dataclass
class _Document:
    uri: str  # file: URI of its place (the registry key)
    shown: str  # its name in messages, relative to the corpus folder
    text: str
    contents: Any  # as parsed, with the root's $id made absolute
    spec: Any  # its referencing Specification (dialect)
    keypaths: dict  # id() of each object and array in it -> its key path

    def where(self, keypath: tuple) -> Pos:
        return Pos(self.shown, *json_position(self.text, keypath))


def _keypaths(data) -> dict[int, tuple]:
    """id() of every object and array in `data` -> its key path, in document order (iteratively:
    no depth limit)."""
    found: dict[int, tuple] = {}
    stack: list[tuple[Any, tuple]] = [(data, ())]
    while stack:
        value, keypath = stack.pop()
        if isinstance(value, dict):
            found[id(value)] = keypath
            stack += reversed([(child, (*keypath, key)) for key, child in value.items()])
        elif isinstance(value, list):
            found[id(value)] = keypath
            stack += reversed([(child, (*keypath, index)) for index, child in enumerate(value)])
    return found


def _pointer(keypath: tuple) -> str:
    return str(SchemaError(keypath, "")).removesuffix(": ")


class _Reader:
    """Reads the declared schema file and every file its `$ref`s reach, checking each `$ref`."""

    def __init__(self, corpus_root: str):
        self.root = os.path.abspath(corpus_root)
        self.metaschemas = METASCHEMAS
        # jsonschema's own metaschemas are bundled: a $ref to one is read from there, never fetched.
        self.registry = Registry(retrieve=_refuse_every_uri).combine(METASCHEMAS)  # type: ignore[call-arg]
        self.documents: list[_Document] = []
        self.nodes: dict[int, tuple[Any, _Document, tuple]] = {}  # id() -> (schema, document, key path)
        self.refs: dict[int, list[tuple[str, Any]]] = {}  # id() of a schema -> (keyword, target) of its references
        self.patterns = Patterns()  # every pattern of every document, compiled
        self.digests: list[tuple[str, str]] = []  # (file, sha256) of each document read

    # -- reading a file

    def read(self, path: str, shown: str, default_spec=None) -> _Document:
        """Read, parse and check one schema file (InputError when it cannot be read as JSON)."""
        data = read_bytes(path, display=shown)
        text = decode_text(data, shown)
        contents = parse_json(text, shown)
        self.digests.append((shown, hashlib.sha256(data).hexdigest()))
        spec = referencing.jsonschema.specification_with(
            str(contents.get("$schema", "")) if isinstance(contents, dict) else "",
            default=default_spec or referencing.jsonschema.DRAFT202012)
        uri = _file_uri(path)
        if isinstance(contents, dict):  # jsonschema's base is the root's $id: make it this file's place
            key = "id" if spec.name in ("draft-03", "draft-04") else "$id"
            written = spec.id_of(contents)
            contents = {**contents, key: urljoin(uri, written) if written else uri}
        document = _Document(uri, shown, text, contents, spec, _keypaths(contents))
        problem = _metaschema_problem(contents)
        if problem is not None:
            keypath, message = problem
            raise SchemaFileError(document.where(keypath), f"is not a valid JSON Schema: {_pointer(keypath)}: {message}")
        resource = spec.create_resource(contents)
        self.registry = self.registry.with_resource(uri, resource)
        if not self.documents and spec.id_of(contents) is None:  # draft 7 and older: `$ref` hides `$id`,
            self.registry = self.registry.with_resource("", resource)  # and jsonschema's root is "", as here
        self.registry = self.registry.crawl()
        self.documents.append(document)
        return document

    def read_declared(self, path: str, shown: str) -> _Document:
        document = self.read(path, shown)
        self.check(document)
        self.check_cycles()
        return document

    # -- checking what a document says

    def check(self, document: _Document) -> None:
        """Every pattern and every `$ref` of `document`, and of each file a `$ref` reaches."""
        pending = [document]
        while pending:
            document = pending.pop()
            # The base URI jsonschema resolves against: the root's `$id` (made absolute when read),
            # "" when its draft hides it; a file a `$ref` reached, its place or its `$id`.
            written = document.spec.id_of(document.contents)
            base = urljoin(document.uri, written) if written else ("" if document is self.documents[0] else document.uri)
            stack = [(document.contents, base)]
            while stack:
                schema, base = stack.pop()
                if not isinstance(schema, dict) or id(schema) in self.nodes:
                    continue
                keypath = document.keypaths.get(id(schema), ())
                self.nodes[id(schema)] = (schema, document, keypath)
                if schema is not document.contents and (written := document.spec.id_of(schema)):
                    base = urljoin(base, written)
                self._check_patterns(schema, document, keypath)
                targets = []
                for keyword in _REF_KEYWORDS:
                    ref = schema.get(keyword)
                    if isinstance(ref, str):
                        target, new = self._resolve(ref, base, document, (*keypath, keyword))
                        targets.append((keyword, target))
                        pending += new
                self.refs[id(schema)] = targets
                stack += [(sub, base) for sub in document.spec.subresources_of(schema)]

    def _check_patterns(self, schema: dict, document: _Document, keypath: tuple) -> None:
        pattern = schema.get("pattern")
        if isinstance(pattern, str) and (problem := self.patterns.add(pattern)):
            raise SchemaFileError(document.where((*keypath, "pattern")), f"{_pointer((*keypath, 'pattern'))}: {problem}")
        properties = schema.get("patternProperties")
        for name in properties if isinstance(properties, dict) else ():
            if problem := self.patterns.add(name):
                at = (*keypath, "patternProperties", name)
                raise SchemaFileError(document.where(at), f"{_pointer(at)}: {problem}")

    def _resolve(self, ref: str, base: str, document: _Document, keypath: tuple) -> tuple[Any, list[_Document]]:
        """The schema `ref` names, and the documents read to find it; SchemaFileError when it is not followed."""
        def refuse(why: str) -> SchemaFileError:
            return SchemaFileError(document.where(keypath), f"{_pointer(keypath)}: {ref!r} {why}")

        target, fragment = urldefrag(urljoin(base, ref))
        new = []
        if target not in self.registry and target not in self.metaschemas:
            parts = urlsplit(ref)
            if parts.scheme or ref.startswith("/"):
                raise refuse(f"is not followed: corpustools never fetches a schema; {_REFS_DOC}")
            path = self._corpus_file(target)
            if path is None:
                raise refuse(f"resolves to {target}, not a file inside the corpus: not followed; {_REFS_DOC}")
            shown = os.path.relpath(path, self.root).replace(os.sep, "/")
            try:
                new.append(self.read(path, shown, document.spec))
            except SchemaFileError:
                raise
            except InputError as err:
                raise refuse(f"cannot be read: {err}") from None
        try:
            return self.registry.resolver(base).lookup(ref).contents, new
        except PointerToNowhere:
            raise refuse(f"names nothing: no {unquote(fragment) or '/'} in {self._shown(target)}") from None
        except NoSuchAnchor:
            raise refuse(f"names nothing: no anchor {unquote(fragment)!r} in {self._shown(target)}") from None
        except Unresolvable:
            raise refuse(f"cannot be resolved in {self._shown(target)}") from None

    def _shown(self, uri: str) -> str:
        return next((d.shown for d in self.documents if d.uri == uri), uri)

    def _corpus_file(self, uri: str) -> str | None:
        """The path of a `file:` URI inside the corpus folder, reached through no linked folder; else None."""
        parts = urlsplit(uri)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost") or parts.query:
            return None
        path = os.path.normpath(unquote(parts.path, errors="surrogateescape"))
        relative = os.path.relpath(path, self.root)
        if relative == os.curdir or relative.split(os.sep)[0] == os.pardir:
            return None
        folder = os.path.dirname(relative)
        if folder and os.path.realpath(os.path.join(self.root, folder)) != os.path.join(os.path.realpath(self.root), folder):
            return None  # a linked folder on the way: the file is not where the corpus says
        return path

    # -- cycles

    def check_cycles(self) -> None:
        """SchemaFileError at a `$ref` of the first cycle of references and in-place keywords."""
        state: dict[int, int] = {}  # id -> 1 on the current path, 2 done
        order = {node: (index, position) for index, document in enumerate(self.documents)
                 for position, node in enumerate(document.keypaths)}
        for start in sorted(self.nodes, key=lambda node: order.get(node, (len(self.documents), 0))):
            if start in state:
                continue
            path: list[tuple[int, str | None]] = [(start, None)]  # (node, the keyword that led to it)
            todo = [iter(self._in_place(start))]
            state[start] = 1
            while todo:
                step = next(todo[-1], None)
                if step is None:
                    state[path.pop()[0]] = 2
                    todo.pop()
                    continue
                keyword, child = step
                if state.get(child) == 1:
                    self._cycle(path, child, keyword)
                if child not in state and child in self.nodes:
                    state[child] = 1
                    path.append((child, keyword))
                    todo.append(iter(self._in_place(child)))

    def _in_place(self, node: int):
        schema, document, _ = self.nodes[node]
        for keyword, target in self.refs.get(node, ()):
            if isinstance(target, dict):
                yield keyword, id(target)
        if "$ref" in schema and document.spec.name in _REF_ALONE:
            return
        for keyword in _IN_PLACE_LISTS:
            value = schema.get(keyword)
            for sub in value if isinstance(value, list) else ():
                if isinstance(sub, dict):
                    yield keyword, id(sub)
        for keyword in _IN_PLACE_ONE:
            if isinstance(schema.get(keyword), dict):
                yield keyword, id(schema[keyword])
        for keyword in _IN_PLACE_MAPS:
            value = schema.get(keyword)
            for sub in value.values() if isinstance(value, dict) else ():
                if isinstance(sub, dict):
                    yield keyword, id(sub)

    def _cycle(self, path: list, back_to: int, closing: str) -> None:
        loop = [node for node, _ in path[[node for node, _ in path].index(back_to):]]
        keywords = [keyword for _, keyword in path[len(path) - len(loop) + 1:]] + [closing]
        names = [self._name(node) for node in loop] + [self._name(back_to)]
        at = next((i for i, keyword in enumerate(keywords) if keyword in _REF_KEYWORDS), len(keywords) - 1)
        schema, document, keypath = self.nodes[loop[at]]
        ref = (*keypath, keywords[at])
        raise SchemaFileError(document.where(ref), f"{_pointer(ref)}: {schema.get(keywords[at])!r} closes a cycle of "
                                                   f"references ({' -> '.join(names)}) that never reaches a value: "
                                                   "validating would never end")

    def _name(self, node: int) -> str:
        _, document, keypath = self.nodes[node]
        first = self.documents[0]
        return _pointer(keypath) if document is first else f"{document.shown}#{_pointer(keypath)}"


def _file_uri(path: str) -> str:
    return Path(os.path.abspath(path)).as_uri()


def _metaschema_problem(contents) -> tuple[tuple, str] | None:
    """(key path, message) of the first way `contents` is not a schema its dialect accepts, or None.
    A pattern is judged by RE2 afterwards, not by the metaschema's Python `regex` format."""
    if not isinstance(contents, (dict, bool)):
        return (), "a schema is a JSON object"
    cls = validators.validator_for(contents, default=Draft202012Validator)
    checker = FormatChecker([name for name in FormatChecker.checkers if name != "regex"])
    try:
        cls.check_schema(contents, format_checker=checker)  # type: ignore[call-arg, arg-type]  # typeshed: no format_checker, no boolean schema
    except exceptions.SchemaError as err:
        return tuple(err.absolute_path), message_of(err)
    return None


# The work one result's validation may take, in keyword evaluations: a schema can make a validator
# check one value against exponentially many subschemas (`allOf` of the same `$ref` twice, nested
# twenty deep, or an `anyOf` whose branches each recurse into the value: 2^depth), which no
# check of the schema alone can rule out. Legitimate schemas take a few evaluations per value.
LIMIT_BASE = 50_000
LIMIT_PER_VALUE = 50
# ...and in pattern steps: each search costs (length + 1) x its RE2 program's size
# (corpustools.io.schemaregex), at worst about 0.3-3 ns a step here.
STEPS_BASE = 500_000_000
STEPS_PER_CHARACTER = 5_000  # of the result's strings and keys


class _OverLimit(Exception):
    """Past the keyword evaluations (`what` "schema") or the pattern steps ("pattern") allowed."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


class _Budget:
    """The work left to the result being validated; spend() and charge() raise _OverLimit past it."""

    def __init__(self) -> None:
        self.left = self.steps = 0

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OverLimit("schema")

    def charge(self, steps: int) -> None:
        self.steps -= steps
        if self.steps < 0:
            raise _OverLimit("pattern")


def _size(data) -> tuple[int, int]:
    """How many JSON values `data` holds (itself, every member and element), and how many
    characters its strings and keys hold."""
    count = characters = 0
    stack = [data]
    while stack:
        value = stack.pop()
        count += 1
        if isinstance(value, str):
            characters += len(value)
        elif isinstance(value, dict):
            characters += sum(len(key) for key in value)
            stack += value.values()
        elif isinstance(value, list):
            stack += value
    return count, characters


def _allowance(values: int, characters: int) -> tuple[int, int]:
    """The keyword evaluations and the pattern steps a result of `values` JSON values and
    `characters` characters may take."""
    return LIMIT_BASE + LIMIT_PER_VALUE * values, STEPS_BASE + STEPS_PER_CHARACTER * characters


def _counted(keyword, budget: _Budget):
    def evaluate(validator, value, instance, schema):
        budget.spend()
        return keyword(validator, value, instance, schema)

    return evaluate


class UserSchema:
    """A corpus's schema, read and checked (read_user_schema): validates like a shipped one (the
    fast structural check first, jsonschema for the words), patterns by RE2, `$ref`s only to
    the documents read, and within a budget of work proportional to the result's size: past it,
    the result fails with "schema check exceeded its limit". Not for concurrent use."""

    def __init__(self, contents, registry, patterns: Patterns, *, text: str, digest: str):
        self.contents = contents
        self.registry = registry
        self.text = text  # the declared file as read
        self.digest = digest  # sha256 of its bytes, and of each file its $refs reach
        self._budget = _Budget()
        self.patterns = patterns
        patterns.charge = self._budget.charge
        self.fast = (compile_check(contents, patterns.searcher, self._budget.spend) if isinstance(contents, dict)
                     else None)
        self._validator = None

    def _jsonschema(self):
        if self._validator is None:
            cls = validators.validator_for(self.contents, default=Draft202012Validator)
            keywords = {**cls.VALIDATORS, **re2_keywords(cls.VALIDATORS, self.patterns)}
            cls = validators.extend(cls, validators={name: _counted(keyword, self._budget)
                                                     for name, keyword in keywords.items()})
            self._validator = cls(self.contents, registry=self.registry)
        return self._validator

    def _slow(self, data, collect):
        """`collect(jsonschema validator, data)`, or [] when the fast check passes `data`, within
        the budget `data` gets: _OverLimit past it."""
        limit, steps = _allowance(*_size(data))
        self._budget.left, self._budget.steps = limit, steps
        if self.fast is not None and self.fast(data):
            return []
        self._budget.left, self._budget.steps = limit, steps
        return collect(self._jsonschema(), data)

    def validate(self, data) -> list[SchemaError]:
        try:
            return self._slow(data, collect_errors)
        except _OverLimit as over:
            values, characters = _size(data)
            limit, steps = _allowance(values, characters)
            if over.what == "pattern":
                return [SchemaError((), f"pattern check exceeded its limit ({steps:,} steps of RE2 program for a "
                                        f"result of {characters:,} characters): the schema's patterns are large for "
                                        "the text they search; simplify them")]
            return [SchemaError((), f"schema check exceeded its limit ({limit:,} keyword evaluations for a result of "
                                    f"{values:,} JSON values): the schema checks values against the same subschemas "
                                    "over and over (the same $ref under allOf/anyOf/oneOf, nested); simplify it")]
        except (Unresolvable, PatternError) as err:  # never met for a schema read_user_schema accepted
            return [SchemaError((), f"the schema cannot be evaluated here: {' '.join(str(err).split())[:200]}")]

    def unexpected_keys(self, data) -> list[UnexpectedKey]:
        """Every key of `data` the schema forbids (additionalProperties: false), in document order;
        none when the schema cannot be evaluated within its budget (validate() says so)."""
        try:
            return self._slow(data, collect_unexpected)
        except (_OverLimit, Unresolvable, PatternError):
            return []


def read_user_schema(path: str, shown: str, corpus_root: str) -> UserSchema:
    """The schema file at `path` (named `shown`), with every file its `$ref`s reach inside
    `corpus_root`. InputError when the file cannot be read as JSON; SchemaFileError (an
    InputError) when it, or a file it reaches, is no schema corpustools can use."""
    reader = _Reader(corpus_root)
    document = reader.read_declared(path, shown)
    digests = reader.digests
    digest = digests[0][1] if len(digests) == 1 else hashlib.sha256(
        "".join(f"{name}\0{sha}\n" for name, sha in sorted(digests)).encode("utf-8", "surrogateescape")).hexdigest()
    return UserSchema(document.contents, reader.registry, reader.patterns, text=document.text, digest=digest)
