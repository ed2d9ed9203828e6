"""Reading a JSON or YAML document (a result, a sidecar, a spec, a manifest) as plain data."""

from __future__ import annotations

import json
import math
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


class _NotJsonNumber(ValueError):
    """NaN, Infinity or -Infinity (Python's json reads them; JSON has none), or a number out of a
    double's range (1e400, which Python reads as infinity): no strict parser reads them back."""


def _no_constant(token: str):
    raise _NotJsonNumber(token, f"{token} is not JSON (JSON has no NaN or Infinity)")


def _finite(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _NotJsonNumber(token, f"{token} is out of the range of a JSON number (a 64-bit double)")
    return value


def _token_pos(text: str, token: str, path: str) -> Pos:
    """Where `token` first stands outside a string in `text` (whole, not inside a longer number)."""
    bare = re.compile(r'"(?:[^"\\]|\\.)*"|(?<![0-9A-Za-z.+-])' + re.escape(token) + r"(?![0-9A-Za-z.])")
    for found in bare.finditer(text):
        if found.group() == token:
            at = found.start()
            return Pos(path, text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1)
    return Pos(path)


def parse_json(text: str, path: str):
    """The JSON document `text` (named `path` in errors), read strictly: no duplicate key, no lone
    surrogate, no NaN, Infinity or number out of a double's range; InputError otherwise."""
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicates, parse_constant=_no_constant,
                          parse_float=_finite)
        where = _lone_surrogate(data) if "\\u" in text else None  # only an escape can make one
        if where is not None:
            raise InputError(Pos(path), f"{where or '/'}: a lone surrogate escape (e.g. \\ud800) is not valid Unicode")
        return data
    except json.JSONDecodeError as err:
        raise InputError(Pos(path, err.lineno, err.colno), f"invalid JSON: {err.msg}") from None
    except RecursionError:
        raise InputError(Pos(path, 1, 1), "JSON nested too deeply to read") from None
    except _NotJsonNumber as err:
        raise InputError(_token_pos(text, err.args[0], path), f"invalid JSON: {err.args[1]}") from None
    except ValueError as err:  # duplicate keys; integers too long to convert
        raise InputError(Pos(path), f"invalid JSON: {' '.join(str(err).split())[:200]}") from None


def json_position(text: str, keypath) -> tuple[int, int]:
    """The 1-based line and column of the member or element at `keypath` (mapping keys and list
    indexes) in the JSON document `text`: of its key, for an object member. (1, 1) when `text`
    holds no such place. Linear in the text; for messages, never for reading."""
    decoder = json.JSONDecoder()
    at = found = _skip_space(text, 0)
    try:
        for step in keypath:
            if text.startswith("{", at):
                at = _skip_space(text, at + 1)
                while text.startswith('"', at):
                    key, after = decoder.raw_decode(text, at)
                    value = _skip_space(text, _skip_space(text, after) + 1)  # past the colon
                    if key == step:
                        found, at = at, value  # a member is named at its key
                        break
                    at = _skip_space(text, decoder.raw_decode(text, value)[1])
                    at = _skip_space(text, at + 1) if text.startswith(",", at) else at
                else:
                    return 1, 1
            elif text.startswith("[", at) and isinstance(step, int):
                at = _skip_space(text, at + 1)
                for _ in range(step):
                    at = _skip_space(text, decoder.raw_decode(text, at)[1])
                    if not text.startswith(",", at):
                        return 1, 1
                    at = _skip_space(text, at + 1)
                found = at
            else:
                return 1, 1
    except (ValueError, RecursionError):  # not a document parse_json read: no place to name
        return 1, 1
    return text.count("\n", 0, found) + 1, found - (text.rfind("\n", 0, found) + 1) + 1


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\n\r":
        at += 1
    return at


def dump_json(value, *, indent: int | None = None, sort_keys: bool = False) -> str:
    """`value` as strict JSON text, non-ASCII as is: every JSON (and JSON scalar) corpustools
    writes. NaN or an infinity is a ValueError, never Python's `NaN`/`Infinity`, which JSON.parse,
    Go, serde and jq refuse (RFC 8259 has no such number)."""
    return json.dumps(value, indent=indent, ensure_ascii=False, sort_keys=sort_keys, allow_nan=False)


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
