"""A fast yes/no structural check compiled from a shipped JSON Schema, so a valid document is
accepted without importing jsonschema (about a third of a command's start-up).

It understands the keywords our schemas use for structure (type, required, properties,
additionalProperties, propertyNames, items, minItems, maxItems, uniqueItems, enum of strings,
minLength, maxLength, pattern, minimum, maximum, local $ref) with jsonschema's semantics (draft
2020-12, our "number" excluding NaN and infinities). It answers only "valid": any failure goes to
corpustools.io.schemaerrors (the same keywords, each error worded as jsonschema words it), and any
schema using another keyword to jsonschema. So a wrong "no" costs time, never a message;
tests/test_schemas.py checks that all three agree.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, Generic, TypeVar

Check = Callable[[Any], bool]
ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "default", "$defs", "$comment"})


def _is_number(value) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _is_integer(value) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


# jsonschema's draft 2020-12 type checks (isinstance, bool is no number), ours for "number".
JSON_TYPES: dict[str, Check] = {
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, list),
    "string": lambda value: isinstance(value, str),
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
    "number": _is_number,
    "integer": _is_integer,
}


# The checks that run once per value of a document, written as loops: a generator per call to
# all() costs more than the check itself on a typical sidecar or proposal output.
def _all_of(checks: tuple[Check, ...]) -> Check:
    def check(value) -> bool:
        for one in checks:
            if not one(value):
                return False
        return True

    return check


def _properties(properties: dict[str, Check]) -> Check:
    def check(item) -> bool:
        if isinstance(item, dict):
            for key, child in item.items():
                known = properties.get(key)
                if known is not None and not known(child):
                    return False
        return True

    return check


def _items(each: Check) -> Check:
    def check(item) -> bool:
        if isinstance(item, list):
            for child in item:
                if not each(child):
                    return False
        return True

    return check


class Unsupported(Exception):
    """The schema uses a keyword (or a form of one) this check does not implement."""


def compile_check(schema: dict, compile_pattern: Callable[[str], Any] = re.compile,
                  spend: Callable[[], None] | None = None) -> Check | None:
    """A predicate that is True only for documents jsonschema finds valid; None if unsupported.
    `compile_pattern` compiles a `pattern` into an object with `search` (a corpus's own schema
    passes RE2's, corpustools.io.schemaregex: the same engine jsonschema is given for it).
    `spend`, when given, is called at every `$ref` followed (the one way a value can be checked
    against more schemas than the schema has: corpustools.io.userschema bounds that work)."""
    try:
        return _Compiler(schema, compile_pattern, spend).compile(schema)
    except Unsupported:
        return None


Compiled = TypeVar("Compiled", bound=Callable[..., Any])


class SubsetCompiler(Generic[Compiled]):
    """What the two compilers of the schema subset share (this module's checks, schemaerrors.py's
    jsonschema-worded errors): a schema is an object of keywords, annotations left out, each keyword
    compiled by `_keyword` and the keywords joined by `_joined`; `$ref` reaches only `#/$defs/NAME`,
    compiled once (a recursive one through a forwarding placeholder). Anything else is Unsupported."""

    def __init__(self, root: dict) -> None:
        self.root = root
        self.refs: dict[str, Compiled] = {}

    def compile(self, schema: Any) -> Compiled:
        if not isinstance(schema, dict):
            raise Unsupported(schema)
        return self._joined([self._keyword(name, value, schema) for name, value in schema.items()
                             if name not in ANNOTATIONS])

    def _keyword(self, name: str, value: Any, schema: dict) -> Any:
        raise NotImplementedError

    def _joined(self, compiled: list[Any]) -> Compiled:
        raise NotImplementedError

    def _ref(self, ref: str) -> Compiled:
        if ref not in self.refs:
            if not ref.startswith("#/$defs/") or ref[8:] not in self.root.get("$defs", {}):
                raise Unsupported(ref)
            resolved: list[Compiled] = []  # filled below: a recursive schema reaches itself through this
            self.refs[ref] = lambda *args: resolved[0](*args)  # type: ignore[assignment]
            resolved.append(self.compile(self.root["$defs"][ref[8:]]))
            self.refs[ref] = resolved[0]
        return self.refs[ref]


class _Compiler(SubsetCompiler[Check]):
    def __init__(self, root: dict, compile_pattern: Callable[[str], Any], spend: Callable[[], None] | None):
        super().__init__(root)
        self.compile_pattern = compile_pattern
        self.spend = spend

    def _joined(self, compiled: list[Check | None]) -> Check:
        checks = [check for check in compiled if check is not None]
        if len(checks) == 1:
            return checks[0]
        return _all_of(tuple(checks))

    def _counted(self, ref: str) -> Check:
        target, spend = self._ref(ref), self.spend
        assert spend is not None

        def check(value) -> bool:
            spend()
            return target(value)

        return check

    def _keyword(self, name: str, value: Any, schema: dict) -> Check | None:  # noqa: C901 (one branch a keyword)
        if name == "type":
            kinds = [value] if isinstance(value, str) else list(value)
            if not all(kind in JSON_TYPES for kind in kinds):
                raise Unsupported(value)
            tests = [JSON_TYPES[kind] for kind in kinds]
            return tests[0] if len(tests) == 1 else (lambda item: any(test(item) for test in tests))
        if name == "required":
            required = frozenset(value)
            return lambda item: not isinstance(item, dict) or item.keys() >= required
        if name == "properties":
            return _properties({key: self.compile(sub) for key, sub in value.items()})
        if name == "additionalProperties":
            known = frozenset(schema.get("properties", ()))
            if "patternProperties" in schema:
                raise Unsupported(name)
            if value is False:
                return lambda item: not isinstance(item, dict) or known.issuperset(item)
            if value is True:
                return None
            extra = self.compile(value)
            return lambda item: not isinstance(item, dict) or all(
                extra(child) for key, child in item.items() if key not in known)
        if name == "propertyNames":
            names = self.compile(value)
            return lambda item: not isinstance(item, dict) or all(names(key) for key in item)
        if name == "items":
            return _items(self.compile(value))
        if name in ("minItems", "maxItems", "minLength", "maxLength"):
            kind = list if name.endswith("Items") else str
            bound = int(value)
            if name.startswith("min"):
                return lambda item: not isinstance(item, kind) or len(item) >= bound
            return lambda item: not isinstance(item, kind) or len(item) <= bound
        if name == "uniqueItems":
            if not value:
                return None
            # Strings only: uniqueness of mixed values (1 vs true vs 1.0) is jsonschema's to judge.
            return lambda item: not isinstance(item, list) or (
                all(isinstance(child, str) for child in item) and len(set(item)) == len(item))
        if name == "enum":
            if not all(isinstance(choice, str) for choice in value):
                raise Unsupported(value)
            choices = frozenset(value)
            return lambda item: isinstance(item, str) and item in choices
        if name == "pattern":
            search = self.compile_pattern(value).search
            return lambda item: not isinstance(item, str) or search(item) is not None
        if name in ("minimum", "maximum"):
            bound = value
            if name == "minimum":
                return lambda item: not _is_number(item) or item >= bound
            return lambda item: not _is_number(item) or item <= bound
        if name == "$ref":
            return self._ref(value) if self.spend is None else self._counted(value)
        raise Unsupported(name)
