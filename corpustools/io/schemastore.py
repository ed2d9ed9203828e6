"""The JSON Schemas shipped in corpustools/schemas/, and validation that returns small values."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from functools import cache

from corpustools.io.suggest import closest, unknown_key_message

__all__ = ["SCHEMA_KINDS", "VALIDATE_KINDS", "SchemaError", "UnexpectedKey", "collect_errors", "collect_unexpected",
           "message_of", "schema_text", "unexpected_keys", "validate"]

SCHEMA_KINDS = ("corpus-spec", "sidecar", "proposal-output", "run-manifest", "score-report", "compare-report",
                "adjudication", "calibration-report", "agreement-report")
VALIDATE_KINDS = ("proposal-output", "sidecar", "corpus-spec", "run-manifest", "adjudication")


@dataclass(frozen=True, order=True)
class SchemaError:
    keypath: tuple  # mapping keys and list indexes leading to the offending value
    message: str

    @property
    def pointer(self) -> str:
        """The RFC 6901 JSON pointer of the offending value ('' is the document)."""
        parts = (str(p).replace("~", "~0").replace("/", "~1") for p in self.keypath)
        return "".join("/" + p for p in parts)

    @property
    def where(self) -> str:
        """The location for people: the pointer, except that a key holding `/` or `~` (a JSON
        pointer used as a key, as expected_fields' are) is shown as written, `expected_fields
        key '/queue'`, never escaped (`/expected_fields/~1queue`); `/` for the document itself."""
        at = next((i for i, p in enumerate(self.keypath) if isinstance(p, str) and ("/" in p or "~" in p)), None)
        if at is None:
            return self.pointer or "/"
        before, rest = "/".join(str(p) for p in self.keypath[:at]), SchemaError(self.keypath[at + 1:], "").where
        return f"{before} key {self.keypath[at]!r}".lstrip() + (f", at {rest}" if rest != "/" else "")

    def __str__(self) -> str:
        """`/pointer: message` (`/` for the document itself): how every schema error is told."""
        return f"{self.where}: {self.message}"


def schema_text(kind: str) -> str:
    if kind not in SCHEMA_KINDS:
        raise KeyError(kind)
    # The file in corpustools/schemas/, found from this module's path, not importlib.resources
    # (10 ms of import for one read): the package is always installed as files.
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(package, "schemas", f"{kind}.json")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _is_json_number(checker, value) -> bool:
    """A number JSON can carry: YAML's `.nan` and `.inf` are floats, but no JSON report can hold them."""
    from jsonschema import Draft202012Validator  # jsonschema (~90 modules): only what _worded cannot word

    if isinstance(value, float) and not math.isfinite(value):
        return False
    return Draft202012Validator.TYPE_CHECKER.is_type(value, "number")


@cache
def _validator(kind: str):
    from jsonschema import Draft202012Validator, validators  # jsonschema (~90 modules): only what _worded cannot word

    schema = json.loads(schema_text(kind))
    checker = Draft202012Validator.TYPE_CHECKER.redefine("number", _is_json_number)
    return validators.extend(Draft202012Validator, type_checker=checker)(schema)


def message_of(error) -> str:
    # jsonschema's messages repr whole instances; a 50 kB body must not become a 50 kB line.
    message = " ".join(str(error.message).split())
    return message if len(message) <= 200 else message[:197] + "..."


@cache
def _fast_check(kind: str):
    from corpustools.io.schemacheck import compile_check  # schemacheck: at a first validation, not at import

    return compile_check(json.loads(schema_text(kind)))


def _unknown_keys(error) -> list[tuple[tuple, str, str | None]]:
    """(keypath of the key, the key, the known key it was meant to be or None) for each key an
    `additionalProperties: false` object does not allow. The candidates are the schema's own
    `properties`, those the object lacks first: a typo is usually of a key that is missing."""
    allowed = list(error.schema.get("properties", {}))
    found = []
    for key in sorted(k for k in error.instance if k not in allowed):
        missing = [k for k in allowed if k not in error.instance]
        meant = closest(str(key), missing) or closest(str(key), allowed)
        found.append((tuple(error.absolute_path) + (key,), key, meant))
    return found


def _enum_message(error) -> str:
    """jsonschema's message, and `; did you mean 'map'?` when a string is near one of the choices."""
    choices = error.validator_value
    meant = None
    if isinstance(error.instance, str) and all(isinstance(c, str) for c in choices):
        meant = closest(error.instance, choices)
    return message_of(error) + (f"; did you mean {meant!r}?" if meant else "")


def _non_finite(value) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _non_finite_message(value: float) -> str:
    """YAML's `.nan` or `.inf` where a value is checked: said as written, not as Python's `nan`."""
    written = ".nan" if value != value else ("-.inf" if value < 0 else ".inf")
    return (f"{written} is no JSON number (a JSON number is finite: no report could write it): "
            "write a finite number, or quote it as a string")


@cache
def _worded(kind: str):
    from corpustools.io.schemaerrors import compile_errors  # schemaerrors: at a first invalid document

    return compile_errors(json.loads(schema_text(kind)))


def _found(kind: str, data, collect):
    """`collect(validator, data)` with the errors corpustools.io.schemaerrors finds and words as
    jsonschema does, without importing it; with jsonschema's own where that module cannot."""
    worded = _worded(kind)
    if worded is not None:
        from corpustools.io.schemacheck import Unsupported  # schemacheck: imported with schemaerrors already

        try:
            return collect(worded, data)
        except Unsupported:
            pass
    return collect(_validator(kind), data)


def validate(kind: str, data) -> list[SchemaError]:
    """Every schema error, sorted by location then message (deterministic).

    A document the fast structural check accepts is valid without importing jsonschema; any other
    is worded as jsonschema words it (corpustools.io.schemaerrors; jsonschema itself for what that
    does not cover). An unknown key is one error at the key, with the key it was meant to be
    (did you mean, from the schema's own properties); the "required property" error of that very
    key is then left out, as it says the same mistake again."""
    fast = _fast_check(kind)
    if fast is not None and fast(data):
        return []
    return _found(kind, data, collect_errors)


def collect_errors(validator, data) -> list[SchemaError]:
    errors, required, meant_keys = [], [], set()
    try:
        for error in validator.iter_errors(data):
            keypath = tuple(error.absolute_path)
            if error.validator == "additionalProperties" and isinstance(error.instance, dict):
                allowed = error.schema.get("properties", {})
                for at, key, meant in _unknown_keys(error):
                    errors.append(SchemaError(at, unknown_key_message(key, allowed, meant)))
                    meant_keys.add((keypath, meant))
                continue
            if error.validator == "required":
                required.append(error)
                continue
            if error.validator == "type" and _non_finite(error.instance):
                errors.append(SchemaError(keypath, _non_finite_message(error.instance)))
                continue
            errors.append(SchemaError(keypath, _enum_message(error) if error.validator == "enum" else message_of(error)))
    except RecursionError:
        return [SchemaError((), "document nested too deeply to validate")]
    for error in required:
        keypath = tuple(error.absolute_path)
        missing = [k for k in error.validator_value if isinstance(error.instance, dict) and k not in error.instance]
        if not any((keypath, key) in meant_keys and message_of(error) == f"{key!r} is a required property"
                   for key in missing):
            errors.append(SchemaError(keypath, message_of(error)))
    return sorted(errors, key=lambda e: ([str(p) for p in e.keypath], e.message))


@dataclass(frozen=True)
class UnexpectedKey:
    """A key the schema does not allow where it stands, with the keys the schema declares there."""

    keypath: tuple  # to the key itself
    allowed: frozenset[str]  # the keys declared at that place (its `properties`)
    required: frozenset[str]  # the keys required there


def unexpected_keys(kind: str, data) -> list[UnexpectedKey]:
    """Every key of `data` that the `kind` schema forbids (additionalProperties: false), in
    document order: what a did-you-mean reads, whatever keys the schema declares."""
    if (fast := _fast_check(kind)) is not None and fast(data):
        return []
    return _found(kind, data, collect_unexpected)


def collect_unexpected(validator, data) -> list[UnexpectedKey]:
    """Every key of `data` that `validator`'s schema forbids (additionalProperties: false)."""
    found = []
    try:
        errors = list(validator.iter_errors(data))
    except RecursionError:
        return []
    for error in errors:
        if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
            continue
        allowed = frozenset(error.schema.get("properties", {}))
        required = frozenset(error.schema.get("required", ()))
        for key in error.instance:
            if key not in allowed:
                found.append(UnexpectedKey(tuple(error.absolute_path) + (key,), allowed, required))
    return found
