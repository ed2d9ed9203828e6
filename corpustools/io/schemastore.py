"""The JSON Schemas shipped in corpustools/schemas/, and validation that returns small values."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from functools import cache

SCHEMA_KINDS = ("corpus-spec", "sidecar", "proposal-output", "run-manifest", "score-report", "compare-report",
                "adjudication", "calibration-report")
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
    from jsonschema import Draft202012Validator

    if isinstance(value, float) and not math.isfinite(value):
        return False
    return Draft202012Validator.TYPE_CHECKER.is_type(value, "number")


@cache
def _validator(kind: str):
    from jsonschema import Draft202012Validator, validators

    schema = json.loads(schema_text(kind))
    checker = Draft202012Validator.TYPE_CHECKER.redefine("number", _is_json_number)
    return validators.extend(Draft202012Validator, type_checker=checker)(schema)


def _message(error) -> str:
    # jsonschema's messages repr whole instances; a 50 kB body must not become a 50 kB line.
    message = " ".join(str(error.message).split())
    return message if len(message) <= 200 else message[:197] + "..."


@cache
def _fast_check(kind: str):
    from corpustools.io.schemacheck import compile_check

    return compile_check(json.loads(schema_text(kind)))


def validate(kind: str, data) -> list[SchemaError]:
    """Every schema error, sorted by location then message (deterministic).

    A document the fast structural check accepts is valid without importing jsonschema; any other
    goes to jsonschema, which words the errors."""
    fast = _fast_check(kind)
    if fast is not None and fast(data):
        return []
    return _errors(_validator(kind), data)


class UserSchema:
    """A JSON Schema a corpus declares (corpus.yaml's `output.schema`): checked once when it is
    read, then validating like a shipped one (the fast check first, jsonschema for the words).
    Its dialect is its `$schema` (draft 2020-12 when it names none)."""

    def __init__(self, schema):
        from corpustools.io.schemacheck import compile_check

        self.schema = schema
        self.fast = compile_check(schema) if isinstance(schema, dict) else None
        self._validator = None

    def problem(self) -> str | None:
        """Why the document is not a JSON Schema its dialect accepts, or None."""
        from jsonschema import Draft202012Validator, exceptions, validators

        if not isinstance(self.schema, (dict, bool)):
            return "is not a JSON Schema: a schema is a JSON object"
        cls = validators.validator_for(self.schema, default=Draft202012Validator)
        try:
            cls.check_schema(self.schema)  # type: ignore[arg-type]  # a boolean is a schema too
        except exceptions.SchemaError as err:
            where = "/" + "/".join(str(p) for p in err.absolute_path) if err.absolute_path else "/"
            return f"is not a valid JSON Schema: {where}: {_message(err)}"
        return None

    def validate(self, data) -> list[SchemaError]:
        if self.fast is not None and self.fast(data):
            return []
        if self._validator is None:
            from jsonschema import Draft202012Validator, validators

            self._validator = validators.validator_for(self.schema, default=Draft202012Validator)(self.schema)
        return _errors(self._validator, data)


def _errors(validator, data) -> list[SchemaError]:
    errors = []
    try:
        for error in validator.iter_errors(data):
            keypath = tuple(error.absolute_path)
            if error.validator == "additionalProperties" and isinstance(error.instance, dict):
                # Point at the unexpected key itself, not at the object holding it.
                allowed = set(error.schema.get("properties", {}))
                extra = sorted(k for k in error.instance if k not in allowed)
                if extra:
                    keypath = keypath + (extra[0],)
            errors.append(SchemaError(keypath, _message(error)))
    except RecursionError:
        return [SchemaError((), "document nested too deeply to validate")]
    return sorted(errors, key=lambda e: ([str(p) for p in e.keypath], e.message))
