"""One YAML dialect for every corpus file: YAML 1.2 core schema, duplicate keys are an error,
timestamps stay strings, aliases bounded, no merge keys, no tags beyond the core ones; every key and
item keeps its line and column.

Aliases are bounded twice: the composed document may hold at most MAX_NODES values and at most
MAX_CHARS characters of scalars (keys included), both counted through every alias. An alias copies
nothing (a string is shared), but every rule and every score reads each copy: one 1 MB string
repeated through 2,000 aliases is 2 GB of text to read, and is refused before any of it is.

libyaml (through PyYAML) scans and parses; this module composes its events into plain data itself.
It never uses PyYAML's constructor, which is YAML 1.1 (`yes` is true, `017` octal, `1:20` a
number, dates become dates, `<<` merges) and lets a later duplicate key win silently. Without
libyaml, PyYAML's pure-Python parser gives the same events, and so the same result.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.textfile import MAX_FILE_BYTES

# An alias bomb expands to billions of nodes; a real sidecar has a few hundred.
MAX_NODES = 100_000
MAX_DEPTH = 100
# As many characters as the largest file corpustools reads (io/textfile.MAX_FILE_BYTES) has bytes:
# a document without aliases never reaches it, so only aliases can.
MAX_CHARS = MAX_FILE_BYTES

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


class _Refused(Exception):
    """A document this dialect will not read; carries the parser mark (None: the whole text)."""

    def __init__(self, mark, message: str):
        super().__init__(message)
        self.mark, self.message = mark, message


# --- YAML 1.2 core schema ---------------------------------------------------------------------

CORE = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, MAP, SEQ = (CORE + name for name in ("str", "int", "float", "bool", "null", "map", "seq"))
_WORDS = {"": None, "~": None, "null": None, "Null": None, "NULL": None,
          "true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NUMBER = re.compile(r"""(?P<int>[-+]?[0-9]+)|0o(?P<oct>[0-7]+)|0x(?P<hex>[0-9a-fA-F]+)
    |(?P<float>[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)
    |(?P<inf>[-+]?\.(?:inf|Inf|INF))|(?P<nan>\.(?:nan|NaN|NAN))""", re.VERBOSE)
_MAY_BE_NUMBER = frozenset("0123456789+-.")
_MISSING = object()


def _number(text: str) -> Any:
    """The int or float a plain scalar means under the core schema, else _MISSING."""
    found = _NUMBER.fullmatch(text)
    if found is None:
        return _MISSING
    kind = found.lastgroup
    if kind == "int":
        return int(text)
    if kind in ("oct", "hex"):
        return int(found.group(kind), 8 if kind == "oct" else 16)
    if kind == "float":
        return float(text)
    if kind == "inf":
        return float("-inf") if text[0] == "-" else float("inf")
    return float("nan")


def _plain(text: str) -> Any:
    """A plain (unquoted, untagged) scalar by the YAML 1.2 core schema; everything else is a string."""
    if text[:1] in _MAY_BE_NUMBER:
        value = _number(text)
        return text if value is _MISSING else value
    return _WORDS.get(text, text)


def _one_line(text: object) -> str:  # a message, or an exception to print as one
    return re.sub(r"\s+", " ", str(text)).strip()


def _tag_name(tag: str) -> str:
    return "!!" + tag[len(CORE):] if tag.startswith(CORE) else tag


def _tagged(text: str, tag: str) -> Any:
    """A scalar with an explicit core tag: it must be what the tag says."""
    if tag == "!" or tag == STR:
        return text
    if tag == INT or tag == FLOAT:
        value = _number(text)
        if value is not _MISSING and (tag == FLOAT or type(value) is int):
            return float(value) if tag == FLOAT else value
    elif tag == BOOL or tag == NULL:
        value = _WORDS.get(text, _MISSING)
        if value is not _MISSING and (value is None) == (tag == NULL):
            return value
    else:
        raise ValueError(f"YAML tag {_tag_name(tag)} is not supported (only the core tags: "
                         "!!str, !!int, !!float, !!bool, !!null, !!map, !!seq)")
    raise ValueError(f"YAML error: {text!r} is not a valid {_tag_name(tag)}")


def _scalar(event) -> Any:
    tag = event.tag
    try:
        if tag is None:
            # libyaml marks a plain scalar with style '', the pure-Python parser with None.
            return _plain(event.value) if not event.style else event.value
        return _tagged(event.value, tag)
    except ValueError as err:  # a tag we refuse; an integer of more than 4300 digits (int()'s limit)
        message = _one_line(err)
        if not message.startswith("YAML"):
            message = f"YAML value cannot be read: {message[:200]}"
        raise _Refused(event.start_mark, message) from None


# --- composing parser events into plain data ---------------------------------------------------

def _events(text: str, *, libyaml: bool):
    """The parser events of `text`, from libyaml or from PyYAML's pure-Python parser."""
    import yaml  # yaml: `validate --help` and type-only importers load this module

    if libyaml and yaml.__with_libyaml__:
        from yaml._yaml import CParser  # yaml: `validate --help` and type-only importers load this module

        parser = CParser(text)
    else:
        parser = _pure_parser()(text)
    end = yaml.StreamEndEvent
    while True:
        event = parser.get_event()
        yield event
        if type(event) is end:
            return


@cache
def _pure_parser():
    """PyYAML's pure-Python reader, scanner and parser (built once), refusing deep flow nesting
    while scanning: its simple-key bookkeeping is quadratic in the flow depth."""
    from yaml.parser import Parser  # yaml: `validate --help` and type-only importers load this module
    from yaml.reader import Reader  # yaml: `validate --help` and type-only importers load this module
    from yaml.scanner import Scanner  # yaml: `validate --help` and type-only importers load this module

    class PureParser(Reader, Scanner, Parser):
        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)

        def fetch_flow_collection_start(self, *args, **kwargs):
            if self.flow_level >= MAX_DEPTH:
                raise _Refused(self.get_mark(), f"YAML nested deeper than {MAX_DEPTH} levels; not read")
            return super().fetch_flow_collection_start(*args, **kwargs)

    return PureParser


def _too_long(mark) -> _Refused:
    return _Refused(mark, f"YAML expands to more than {MAX_CHARS} characters (a long value repeated through "
                          "aliases?); not read")


class _Composer:
    """Builds plain data and positions from parser events, with every check of the dialect."""

    def __init__(self, offset: int):
        self.offset = offset
        self.positions: dict[KeyPath, tuple[int, int]] = {(): (offset + 1, 1)}
        self.anchors: dict[str, tuple[Any, KeyPath | None]] = {}  # finished anchored nodes
        self.budget = MAX_NODES
        self.chars = MAX_CHARS  # scalar characters still allowed, aliases counted
        self.sizes: dict[str, int] = {}  # anchor -> scalar characters of the anchored node

    def compose(self, events) -> Any:
        import yaml  # yaml: `validate --help` and type-only importers load this module

        scalar, alias = yaml.ScalarEvent, yaml.AliasEvent
        mapping, sequence = yaml.MappingStartEvent, yaml.SequenceStartEvent
        ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
        positions, offset, max_depth = self.positions, self.offset, MAX_DEPTH
        # open collections: [container, keypath, anchor, pending key, scalar characters inside it]
        stack: list[list] = []
        root, documents = None, 0
        for event in events:
            kind = type(event)
            if kind is scalar or kind is mapping or kind is sequence or kind is alias:
                mark = event.start_mark
                self.budget -= 1
                if self.budget < 0:
                    raise _Refused(mark, f"YAML has more than {MAX_NODES} values; not read")
                if len(stack) > max_depth:
                    raise _Refused(mark, f"YAML nested deeper than {MAX_DEPTH} levels; not read")
                if not stack:
                    keypath: KeyPath = ()
                else:
                    frame = stack[-1]
                    container = frame[0]
                    if type(container) is list:
                        keypath = frame[1] + (len(container),)
                        positions[keypath] = (mark.line + 1 + offset, mark.column + 1)
                    elif frame[3] is _MISSING:
                        frame[3] = self._key(event, container, frame[1], stack)
                        continue
                    else:
                        keypath = frame[1] + (frame[3],)
                if kind is scalar:
                    value = _scalar(event)
                    size = len(event.value)
                    self.chars -= size
                    if self.chars < 0:
                        raise _too_long(mark)
                    if stack:
                        stack[-1][4] += size
                elif kind is alias:
                    value = self._expand(event, keypath, stack)
                else:
                    allowed = MAP if kind is mapping else SEQ
                    if event.tag is not None and event.tag != "!" and event.tag != allowed:
                        raise _Refused(mark, f"YAML tag {_tag_name(event.tag)} cannot tag a "
                                             f"{'mapping' if kind is mapping else 'sequence'}")
                    stack.append([{} if kind is mapping else [], keypath, event.anchor, _MISSING, 0])
                    continue
                if kind is scalar and event.anchor is not None:
                    self.anchors[event.anchor] = (value, keypath)
                    self.sizes[event.anchor] = len(event.value)
            elif kind in ends:
                container, keypath, anchor, _, size = stack.pop()
                if anchor is not None:
                    self.anchors[anchor] = (container, keypath)
                    self.sizes[anchor] = size
                if stack:  # a collection's characters are its parent's too
                    stack[-1][4] += size
                value = container
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise _Refused(event.start_mark, "YAML error: expected a single document in the stream, "
                                                     "but found another document")
                if event.version not in (None, (1, 2)):
                    raise _Refused(event.start_mark, f"YAML {'.'.join(map(str, event.version))} is not "
                                                     "supported: write %YAML 1.2 or no directive")
                continue
            else:
                continue
            if not stack:
                root = value
            else:
                frame = stack[-1]
                if type(frame[0]) is list:
                    frame[0].append(value)
                else:
                    frame[0][frame[3]] = value
                    frame[3] = _MISSING
        return root

    def _spend(self, chars: int, mark) -> None:
        self.chars -= chars
        if self.chars < 0:
            raise _too_long(mark)

    def _key(self, event, mapping: dict, parent: KeyPath, stack: list) -> str:
        """The key `event` names in `mapping` (as a string), checked and its position recorded."""
        import yaml  # yaml: `validate --help` and type-only importers load this module

        mark = event.start_mark
        if type(event) is yaml.ScalarEvent:
            if event.tag is None and not event.style and event.value == "<<":
                raise _Refused(mark, "YAML merge keys (<<) are not supported; write the keys out")
            key = _scalar(event)
            size = len(event.value)
            if event.anchor is not None:
                self.anchors[event.anchor] = (key, None)
                self.sizes[event.anchor] = size
        elif type(event) is yaml.AliasEvent and event.anchor in self.anchors:
            key = self.anchors[event.anchor][0]
            size = self.sizes[event.anchor]
            if isinstance(key, (dict, list)):
                raise _Refused(mark, "YAML error: a mapping key must be a scalar")
        elif type(event) is yaml.AliasEvent:
            raise _Refused(mark, f"YAML error: found undefined alias *{event.anchor}")
        else:
            raise _Refused(mark, "YAML error: a mapping key must be a scalar")
        self._spend(size, mark)
        stack[-1][4] += size
        if not isinstance(key, str):
            key = str(key)  # `1:` is the key "1", as in a JSON object
        keypath = parent + (key,)
        if key in mapping:  # also `1:` after `"1":`: distinct in YAML, one key as plain data
            first = self.positions[keypath][0]
            raise _Refused(mark, f'YAML error: found duplicate key "{key}" (first defined at line {first})')
        self.positions[keypath] = (mark.line + 1 + self.offset, mark.column + 1)
        return key

    def _expand(self, event, keypath: KeyPath, stack: list) -> Any:
        """A fresh copy of the aliased node; its parts keep the positions of the anchored original."""
        name = event.anchor
        if any(frame[2] == name for frame in stack):
            raise _Refused(event.start_mark, f"YAML error: alias *{name} refers to a node that contains it")
        if name not in self.anchors:
            raise _Refused(event.start_mark, f"YAML error: found undefined alias *{name}")
        value, source = self.anchors[name]
        size = self.sizes[name]
        self._spend(size, event.start_mark)
        if stack:
            stack[-1][4] += size
        if not isinstance(value, (dict, list)):
            return value
        assert source is not None  # only a scalar key is anchored without a key path
        return self._copy(value, source, keypath)

    def _copy(self, value: Any, source: KeyPath, target: KeyPath) -> Any:
        # Recursion is bounded: both key paths stay within MAX_DEPTH (checked below).
        if len(target) > MAX_DEPTH:
            raise _Refused(None, f"YAML nested deeper than {MAX_DEPTH} levels; not read")
        self.budget -= len(value)
        if self.budget < 0:
            raise _Refused(None, f"YAML expands to more than {MAX_NODES} values (alias bomb?); not read")
        positions = self.positions
        items = value.items() if type(value) is dict else enumerate(value)
        copied = [(part, self._copy(child, source + (part,), target + (part,)) if isinstance(child, (dict, list))
                   else child) for part, child in items]
        for part, _ in copied:
            if source + (part,) in positions:
                positions[target + (part,)] = positions[source + (part,)]
        return dict(copied) if type(value) is dict else [child for _, child in copied]


# --- the one entry point -----------------------------------------------------------------------

def parse_yaml(text: str, path: str, *, line_offset: int = 0, libyaml: bool = True) -> YamlDoc:
    """Parse YAML text. `line_offset` is added to every line (for frontmatter inside a file).
    `libyaml=False` uses PyYAML's pure-Python parser (also used when libyaml is not installed)."""
    import yaml  # yaml: `validate --help` and type-only importers load this module

    def at(mark) -> Pos:
        return Pos(path, mark.line + 1 + line_offset, mark.column + 1) if mark else Pos(path, line_offset + 1, 1)

    composer = _Composer(line_offset)
    try:
        data = composer.compose(_events(text, libyaml=libyaml))
    except _Refused as err:
        raise InputError(at(err.mark), err.message) from None
    except yaml.reader.ReaderError as err:  # a control character: only an offset is known
        at_char = _char_offset(text, int(err.position or 0), in_bytes=libyaml and yaml.__with_libyaml__)
        line = text.count("\n", 0, at_char) + 1 + line_offset
        col = at_char - (text.rfind("\n", 0, at_char) + 1) + 1
        char = f"U+{err.character:04X}" if isinstance(err.character, int) else repr(err.character)
        raise InputError(Pos(path, line, col), f"YAML error: control character {char} is not allowed") from None
    except yaml.MarkedYAMLError as err:
        if libyaml and "maximum nesting depth" in str(err.problem):
            # libyaml's own bound (1,000) can trip while it looks ahead: let the pure-Python
            # parser find where our (lower) bound is crossed.
            return parse_yaml(text, path, line_offset=line_offset, libyaml=False)
        mark = err.problem_mark or err.context_mark
        problem = err.problem or ""
        if problem == "found character that cannot start any token" and mark is not None:
            problem = f"found character {_char_at(text, mark)!r} that cannot start any token"  # as PyYAML says
        what = _one_line(" ".join(p for p in (err.context, problem) if p)) or "invalid YAML"
        if problem.startswith("mapping values are not allowed") and mark is not None:
            what += _quote_hint(text, mark.line)
        raise InputError(at(mark), f"YAML error: {what}") from None
    except yaml.YAMLError as err:
        raise InputError(at(None), f"YAML error: {_one_line(err)}") from None
    except RecursionError:
        raise InputError(at(None), "YAML nested too deeply to read") from None
    except ValueError as err:  # e.g. a lone surrogate, which libyaml cannot be handed
        raise InputError(at(None), f"YAML cannot be read: {_one_line(err)[:200]}") from None
    return YamlDoc(path, data, composer.positions)


# `key: value` or `- key: value`, the key plain (no quote, colon or comment in it)
_PLAIN_ENTRY = re.compile(r"\s*(?:-\s+)?([^\s\"'#:][^#:]*?):\s+(\S.*?)\s*")
_SHOWN_VALUE = 60  # characters of the value the hint repeats; a longer one is elided


def _quote_hint(text: str, line: int) -> str:
    """How to fix `why: says X: same`: a plain value holding ': ' reads as a second mapping, so the
    fix is to quote it. "" when line `line` (0-based) is not such an entry."""
    lines = text.splitlines()
    entry = _PLAIN_ENTRY.fullmatch(lines[line]) if line < len(lines) else None
    if entry is None or ": " not in entry.group(2) + " ":
        return ""
    key, value = entry.group(1), entry.group(2)
    shown = value if len(value) <= _SHOWN_VALUE else value[:_SHOWN_VALUE - 3] + "..."
    quoted = shown.replace("\\", "\\\\").replace('"', '\\"')
    return f"; quote the value of {key!r}, which holds ': ' ({key}: \"{quoted}\")"


def _char_offset(text: str, offset: int, *, in_bytes: bool) -> int:
    """libyaml counts its error offset in UTF-8 bytes, the pure-Python reader in characters."""
    if not in_bytes:
        return max(0, min(offset, len(text)))
    return len(text.encode("utf-8", "surrogatepass")[:offset].decode("utf-8", "ignore"))


def _char_at(text: str, mark) -> str:
    lines = text.split("\n")
    line = lines[mark.line] if mark.line < len(lines) else ""
    return line[mark.column] if mark.column < len(line) else ""


def folded_quoted_scalars(text: str) -> list[tuple[int, int, str]]:
    """(0-based line, 0-based column, value) of each double-quoted scalar of `text` that spans
    lines, as the parser decodes it (escapes, `\\` line continuations and line folding applied).
    Nothing is composed, so aliases cost nothing; text after a YAML error is not looked at (the
    loader reports the error)."""
    import yaml  # yaml: `validate --help` and type-only importers load this module

    found = []
    try:
        for event in _events(text, libyaml=True):
            start, end = event.start_mark, event.end_mark
            if type(event) is yaml.ScalarEvent and event.style == '"' and start and end and start.line != end.line:
                found.append((start.line, start.column, event.value))
    except (yaml.YAMLError, ValueError, RecursionError):
        pass
    return found
