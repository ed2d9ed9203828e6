"""Reading a JSON or YAML document (a result, a sidecar, a spec, a manifest) as plain data."""

from __future__ import annotations

import json
import sys

from corpustools.positions import InputError, Pos
from corpustools.textfile import MAX_FILE_BYTES, decode_text, read_text
from corpustools.yamlload import YamlDoc, parse_yaml


def _reject_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def parse_json(text: str, path: str):
    try:
        return json.loads(text, object_pairs_hook=_reject_duplicates)
    except json.JSONDecodeError as err:
        raise InputError(Pos(path, err.lineno, err.colno), f"invalid JSON: {err.msg}") from None
    except RecursionError:
        raise InputError(Pos(path, 1, 1), "JSON nested too deeply to read") from None
    except ValueError as err:  # duplicate keys; integers too long to convert
        raise InputError(Pos(path), f"invalid JSON: {' '.join(str(err).split())[:200]}") from None


def looks_like_json(text: str, path: str) -> bool:
    return path.endswith(".json") or text.lstrip()[:1] in ("{", "[")


def parse_document(text: str, path: str) -> YamlDoc:
    """JSON (by name or first character) or YAML, as a YamlDoc (JSON carries no positions)."""
    if looks_like_json(text, path):
        return YamlDoc(path, parse_json(text, path), {})
    return parse_yaml(text, path)


def read_document(path: str) -> YamlDoc:
    """Read `path` (or standard input for '-') as a JSON or YAML document."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise InputError(Pos("-"), f"standard input is over the {MAX_FILE_BYTES} byte limit; not read")
        return parse_document(decode_text(data, "<stdin>"), "<stdin>")
    return parse_document(read_text(path), path)
