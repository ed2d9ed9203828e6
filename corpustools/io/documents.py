"""Reading a JSON or YAML document (a result, a sidecar, a spec, a manifest) as plain data."""

from __future__ import annotations

import json
import re

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.yamlload import YamlDoc, parse_yaml

_SURROGATE = re.compile("[\ud800-\udfff]")


def _reject_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def _lone_surrogate(value, pointer: str = "") -> str | None:
    """The JSON pointer of the first string (or key) holding a lone surrogate such as "\\ud800":
    valid JSON escape syntax, but not Unicode, so no report could ever print or write it."""
    if isinstance(value, str):
        return pointer if _SURROGATE.search(value) else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        here = f"{pointer}/{key}"
        if isinstance(key, str) and _SURROGATE.search(key):
            return here
        found = _lone_surrogate(item, here)
        if found is not None:
            return found
    return None


def parse_json(text: str, path: str):
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicates)
        where = _lone_surrogate(data) if "\\u" in text else None  # only an escape can make one
        if where is not None:
            raise InputError(Pos(path), f"{where or '/'}: a lone surrogate escape (e.g. \\ud800) is not valid Unicode")
        return data
    except json.JSONDecodeError as err:
        raise InputError(Pos(path, err.lineno, err.colno), f"invalid JSON: {err.msg}") from None
    except RecursionError:
        raise InputError(Pos(path, 1, 1), "JSON nested too deeply to read") from None
    except ValueError as err:  # duplicate keys; integers too long to convert
        raise InputError(Pos(path), f"invalid JSON: {' '.join(str(err).split())[:200]}") from None


YAML_SUFFIXES = (".yaml", ".yml")


def looks_like_json(text: str, path: str) -> bool:
    """By name (.json; .yaml/.yml are YAML even when they start with a flow `{`), else by first character."""
    if path.endswith(".json"):
        return True
    if path.endswith(YAML_SUFFIXES):
        return False
    return text.lstrip()[:1] in ("{", "[")


def parse_document(text: str, path: str) -> YamlDoc:
    """JSON (by name or first character) or YAML, as a YamlDoc (JSON carries no positions)."""
    if not looks_like_json(text, path):
        return parse_yaml(text, path)
    try:
        return YamlDoc(path, parse_json(text, path), {})
    except InputError as json_error:
        if path.endswith(".json"):
            raise
        # Sniffed, not named: `{a: 1}` on stdin is a YAML flow mapping. Keep the JSON error
        # if it is not YAML either, since JSON is what the first character promised.
        try:
            return parse_yaml(text, path)
        except InputError:
            raise json_error from None
