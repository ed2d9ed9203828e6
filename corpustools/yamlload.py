"""One YAML dialect for every corpus file: ruamel.yaml, YAML 1.2, duplicate keys are an error,
no implicit timestamps, aliases bounded; every key and item keeps its line and column."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

from corpustools.positions import InputError, Pos

# An alias bomb expands to billions of nodes; a real sidecar has a few hundred.
MAX_NODES = 100_000
MAX_DEPTH = 100

KeyPath = tuple  # a path of mapping keys and sequence indexes, as in a JSON pointer


@dataclass(frozen=True)
class YamlDoc:
    """Plain Python data (dict, list, str, int, float, bool, None) and where each part came from."""

    path: str
    data: Any
    # (line, col), 1-based, of each mapping key and sequence item, by its key path.
    positions: Mapping[KeyPath, tuple[int, int]] = field(default_factory=dict)

    def pos(self, keypath: KeyPath = ()) -> Pos:
        """Where `keypath` is, or its nearest ancestor that exists."""
        keypath = tuple(keypath)
        while keypath not in self.positions and keypath:
            keypath = keypath[:-1]
        line, col = self.positions.get(keypath, (1, 1))
        return Pos(self.path, line, col)


class _Limit(Exception):
    """Raised inside the parser when a document exceeds a bound; carries the ruamel mark."""

    def __init__(self, mark, message: str):
        super().__init__(message)
        self.mark, self.message = mark, message


@lru_cache(maxsize=None)
def _classes():
    """The scanner, composer and constructor of our dialect (built once, on first use)."""
    from ruamel.yaml.composer import Composer
    from ruamel.yaml.constructor import RoundTripConstructor
    from ruamel.yaml.scanner import RoundTripScanner

    class _Scanner(RoundTripScanner):
        """Refuses deep flow nesting while scanning: ruamel's simple-key bookkeeping is quadratic
        in the flow depth, so `[[[[...` 10,000 deep would otherwise take seconds to reject."""

        def fetch_flow_collection_start(self, *args, **kwargs):
            if len(self.flow_context) >= MAX_DEPTH:
                raise _Limit(self.reader.get_mark(), f"YAML nested deeper than {MAX_DEPTH} levels; not read")
            return super().fetch_flow_collection_start(*args, **kwargs)

    class _Composer(Composer):
        """Bounds the nodes written in the source (parsing stops early on a huge file) and the
        block nesting depth (before Python's recursion limit is reached)."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._seen = self._nesting = 0

        def compose_node(self, parent, index):
            self._seen += 1
            self._nesting += 1
            if self._seen > MAX_NODES:
                raise _Limit(self.parser.peek_event().start_mark,
                             f"YAML has more than {MAX_NODES} values; not read")
            if self._nesting > MAX_DEPTH + 1:
                raise _Limit(self.parser.peek_event().start_mark,
                             f"YAML nested deeper than {MAX_DEPTH} levels; not read")
            try:
                return super().compose_node(parent, index)
            finally:
                self._nesting -= 1

    class _Constructor(RoundTripConstructor):
        """Round-trip constructor (keeps positions) that reads timestamps as the strings they are."""

    _Constructor.add_constructor("tag:yaml.org,2002:timestamp", _Constructor.construct_yaml_str)
    return _Scanner, _Composer, _Constructor


def _yaml():
    from ruamel.yaml import YAML

    scanner, composer, constructor = _classes()
    yaml = YAML(typ="rt", pure=True)
    yaml.Scanner, yaml.Composer, yaml.Constructor = scanner, composer, constructor
    yaml.allow_duplicate_keys = False
    return yaml


def _first_definition(text: str, problem: str, start: int, duplicate: int, column: int) -> int | None:
    """0-based line of the first `key:` at the duplicate's column, between the mapping's start and
    the duplicate (ruamel marks only the mapping and the second key)."""
    found = re.search(r'duplicate key "(.*?)"', problem or "")
    if not found:
        return None
    key = re.escape(found.group(1))
    pattern = re.compile(rf"""(?:['"]?){key}(?:['"]?)\s*:""")
    lines = text.split("\n")
    for number in range(start, min(duplicate, len(lines))):
        if pattern.match(lines[number], column):
            return number
    return None


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()


def parse_yaml(text: str, path: str, *, line_offset: int = 0) -> YamlDoc:
    """Parse YAML text. `line_offset` is added to every line (for frontmatter inside a file)."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    try:
        raw = _yaml().load(text)
    except _Limit as err:
        line, col = (err.mark.line + 1 + line_offset, err.mark.column + 1) if err.mark else (line_offset + 1, 1)
        raise InputError(Pos(path, line, col), err.message) from None
    except ReaderError as err:  # a control character: ruamel gives only a character offset
        at = max(0, min(int(getattr(err, "position", 0) or 0), len(text)))
        line = text.count("\n", 0, at) + 1 + line_offset
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        char = f"U+{err.character:04X}" if isinstance(err.character, int) else repr(err.character)
        raise InputError(Pos(path, line, col), f"YAML error: control character {char} is not allowed") from None
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1 + line_offset, mark.column + 1) if mark else (line_offset + 1, 1)
        what = _one_line(" ".join(p for p in (err.context, err.problem) if p)) or "invalid YAML"
        if "duplicate key" in what and err.context_mark is not None and mark is not None:
            first = _first_definition(text, err.problem, err.context_mark.line, mark.line, mark.column)
            where = f"first defined at line {first + 1 + line_offset}" if first is not None else (
                f"in the mapping that starts at line {err.context_mark.line + 1 + line_offset}")
            what = f"{_one_line(err.problem).split(' with value ', 1)[0]} ({where})"
        raise InputError(Pos(path, line, col), f"YAML error: {what}") from None
    except YAMLError as err:
        raise InputError(Pos(path, line_offset + 1, 1), f"YAML error: {_one_line(err)}") from None
    except RecursionError:
        raise InputError(Pos(path, line_offset + 1, 1), "YAML nested too deeply to read") from None
    except ValueError as err:  # e.g. an integer of more than 4300 digits (Python's int() limit)
        raise InputError(Pos(path, line_offset + 1, 1), f"YAML value cannot be read: {_one_line(err)[:200]}") from None
    positions: dict[KeyPath, tuple[int, int]] = {(): (line_offset + 1, 1)}
    budget = [MAX_NODES]
    data = _plain(raw, (), positions, budget, path, line_offset)
    return YamlDoc(path, data, positions)


def _plain(node: Any, keypath: KeyPath, positions: dict, budget: list, path: str, offset: int) -> Any:
    """Convert ruamel's round-trip objects to plain data, recording positions and bounding size."""
    budget[0] -= 1
    if budget[0] < 0:
        raise InputError(Pos(path, offset + 1, 1),
                         f"YAML expands to more than {MAX_NODES} values (alias bomb?); not read")
    if len(keypath) > MAX_DEPTH:
        line, col = positions.get(keypath[:-1], (offset + 1, 1))
        raise InputError(Pos(path, line, col), f"YAML nested deeper than {MAX_DEPTH} levels; not read")
    if isinstance(node, dict):
        out = {}
        lc = getattr(node, "lc", None)
        for key in node:
            plain_key = _scalar(key)
            if not isinstance(plain_key, str):
                plain_key = str(plain_key)
            child = keypath + (plain_key,)
            if lc is not None:
                try:
                    line, col = lc.key(key)
                    positions[child] = (line + 1 + offset, col + 1)
                except (KeyError, TypeError):
                    pass
            if plain_key in out:  # e.g. `1:` and `"1":`: distinct in YAML, one key as plain data
                line, col = positions.get(child, positions.get(keypath, (offset + 1, 1)))
                raise InputError(Pos(path, line, col), f"YAML error: duplicate key {plain_key!r}")
            out[plain_key] = _plain(node[key], child, positions, budget, path, offset)
        return out
    if isinstance(node, list):
        out_list = []
        lc = getattr(node, "lc", None)
        for index, item in enumerate(node):
            child = keypath + (index,)
            if lc is not None:
                try:
                    line, col = lc.item(index)
                    positions[child] = (line + 1 + offset, col + 1)
                except (KeyError, TypeError, IndexError):
                    pass
            out_list.append(_plain(item, child, positions, budget, path, offset))
        return out_list
    return _scalar(node)


def _scalar(value: Any) -> Any:
    """ruamel's ScalarInt/ScalarFloat/ScalarString/ScalarBoolean -> plain Python values."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, bool):
        return bool(value)
    from ruamel.yaml.scalarbool import ScalarBoolean

    if isinstance(value, ScalarBoolean):
        return bool(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)
