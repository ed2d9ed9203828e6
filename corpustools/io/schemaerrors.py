"""The errors of a document against a shipped JSON Schema, found and worded as jsonschema finds and
words them, without importing jsonschema (about 90 modules: a third of `score`'s start-up, paid
for by every run holding one invalid result).

It covers the keywords corpustools.io.schemacheck covers (type, required, properties,
additionalProperties, propertyNames, items, minItems, maxItems, uniqueItems, enum of strings,
minLength, maxLength, pattern, minimum, maximum, local $ref; draft 2020-12, our "number" excluding
NaN and infinities): each failure is what jsonschema's ValidationError carries for
corpustools.io.schemastore (the keyword, its value, the instance, the schema holding the keyword,
the path, the message), yielded in jsonschema's order (the schema's keywords in order, depth first).
A schema using another keyword is not compiled (None), and a value whose check only jsonschema
knows (uniqueItems over values that are not all strings) raises Unsupported while the errors are
read: both go to jsonschema. tests/test_schemas.py checks that both find the same errors, message
for message, on mutated documents of every shipped schema.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from corpustools.io.schemacheck import JSON_TYPES, SubsetCompiler, Unsupported

__all__ = ["Failure", "SchemaErrors", "compile_errors"]


class Failure:
    """One error, with the attributes of jsonschema's ValidationError that schemastore reads."""

    __slots__ = ("validator", "validator_value", "instance", "schema", "absolute_path", "message")

    def __init__(self, validator: str, validator_value: Any, instance: Any, schema: dict, absolute_path: tuple,
                 message: str) -> None:
        self.validator = validator  # the keyword that failed
        self.validator_value = validator_value
        self.instance = instance
        self.schema = schema  # the (sub)schema holding the keyword
        self.absolute_path = absolute_path
        self.message = message


Errors = Callable[[Any, tuple], Iterator[Failure]]


class SchemaErrors:
    """A compiled schema: `iter_errors(document)`, as a jsonschema validator's."""

    def __init__(self, errors: Errors) -> None:
        self._errors = errors

    def iter_errors(self, document: Any) -> Iterator[Failure]:
        return self._errors(document, ())


def compile_errors(schema: dict) -> SchemaErrors | None:
    """The errors of documents against `schema`, or None when it uses a keyword not covered here."""
    try:
        return SchemaErrors(_Compiler(schema).compile(schema))
    except Unsupported:
        return None


def _none(value: Any, path: tuple) -> Iterator[Failure]:
    return iter(())


def _extras_said(extras: list) -> str:
    """jsonschema's `'a', 'b' were` (extras_msg): the keys in sorted order."""
    return ", ".join(repr(extra) for extra in extras) + (" was" if len(extras) == 1 else " were")


class _Compiler(SubsetCompiler[Errors]):
    def _joined(self, compiled: list[Errors]) -> Errors:
        def errors(value: Any, path: tuple) -> Iterator[Failure]:
            for keyword in compiled:
                yield from keyword(value, path)

        return errors

    def _keyword(self, name: str, value: Any, schema: dict) -> Errors:  # noqa: C901 (one branch a keyword)
        def failure(instance: Any, path: tuple, message: str) -> Failure:
            return Failure(name, value, instance, schema, path, message)

        if name == "type":
            kinds = [value] if isinstance(value, str) else list(value)
            if not all(kind in JSON_TYPES for kind in kinds):
                raise Unsupported(value)
            tests, said = [JSON_TYPES[kind] for kind in kinds], ", ".join(repr(kind) for kind in kinds)

            def type_errors(item: Any, path: tuple) -> Iterator[Failure]:
                if not any(test(item) for test in tests):
                    yield failure(item, path, f"{item!r} is not of type {said}")

            return type_errors
        if name == "required":
            def required_errors(item: Any, path: tuple) -> Iterator[Failure]:
                if isinstance(item, dict):
                    for key in value:
                        if key not in item:
                            yield failure(item, path, f"{key!r} is a required property")

            return required_errors
        if name == "properties":
            properties = {key: self.compile(sub) for key, sub in value.items()}

            def property_errors(item: Any, path: tuple) -> Iterator[Failure]:
                if isinstance(item, dict):
                    for key, errors in properties.items():
                        if key in item:
                            yield from errors(item[key], (*path, key))

            return property_errors
        if name == "additionalProperties":
            if "patternProperties" in schema:
                raise Unsupported(name)
            known = frozenset(schema.get("properties", ()))
            if value is True:
                return _none
            extra = None if value is False else self.compile(value)

            def additional_errors(item: Any, path: tuple) -> Iterator[Failure]:
                if not isinstance(item, dict):
                    return
                extras = [key for key in item if key not in known]
                if extra is not None:
                    for key in extras:
                        yield from extra(item[key], (*path, key))
                elif extras:
                    said = _extras_said(sorted(extras, key=str))
                    yield failure(item, path, f"Additional properties are not allowed ({said} unexpected)")

            return additional_errors
        if name == "propertyNames":
            names = self.compile(value)

            def name_errors(item: Any, path: tuple) -> Iterator[Failure]:
                if isinstance(item, dict):
                    for key in item:
                        yield from names(key, path)

            return name_errors
        if name == "items":
            each = self.compile(value)

            def item_errors(item: Any, path: tuple) -> Iterator[Failure]:
                if isinstance(item, list):
                    for index, child in enumerate(item):
                        yield from each(child, (*path, index))

            return item_errors
        if name in ("minItems", "maxItems", "minLength", "maxLength"):
            return self._length(name, value, failure)
        if name == "uniqueItems":
            if not value:
                return _none

            def unique_errors(item: Any, path: tuple) -> Iterator[Failure]:
                if isinstance(item, list):
                    if not all(isinstance(child, str) for child in item):
                        raise Unsupported(name)  # uniqueness of 1, true and 1.0 is jsonschema's to judge
                    if len(set(item)) != len(item):
                        yield failure(item, path, f"{item!r} has non-unique elements")

            return unique_errors
        if name == "enum":
            if not isinstance(value, list) or not all(isinstance(choice, str) for choice in value):
                raise Unsupported(value)
            choices = frozenset(value)

            def enum_errors(item: Any, path: tuple) -> Iterator[Failure]:
                if not (isinstance(item, str) and item in choices):
                    yield failure(item, path, f"{item!r} is not one of {value!r}")

            return enum_errors
        if name == "pattern":
            search = re.compile(value).search

            def pattern_errors(item: Any, path: tuple) -> Iterator[Failure]:
                if isinstance(item, str) and search(item) is None:
                    yield failure(item, path, f"{item!r} does not match {value!r}")

            return pattern_errors
        if name in ("minimum", "maximum"):
            low, is_number = name == "minimum", JSON_TYPES["number"]

            def bound_errors(item: Any, path: tuple) -> Iterator[Failure]:
                if is_number(item) and (item < value if low else item > value):
                    said = "less than the minimum" if low else "greater than the maximum"
                    yield failure(item, path, f"{item!r} is {said} of {value!r}")

            return bound_errors
        if name == "$ref":
            target = self._ref(value)
            return lambda item, path: target(item, path)
        raise Unsupported(name)

    @staticmethod
    def _length(name: str, bound: int, failure: Callable[[Any, tuple, str], Failure]) -> Errors:
        kind = list if name.endswith("Items") else str
        if name.startswith("min"):
            too = "should be non-empty" if bound == 1 else "is too short"
        else:
            too = "is expected to be empty" if bound == 0 else "is too long"

        def length_errors(item: Any, path: tuple) -> Iterator[Failure]:
            if isinstance(item, kind) and (len(item) < bound if name.startswith("min") else len(item) > bound):
                yield failure(item, path, f"{item!r} {too}")

        return length_errors
