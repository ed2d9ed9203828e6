"""Editing a YAML text in place for `lint --fix`: one scalar, one key or one sequence item changed at
the span the parser reports, every other character kept; each edit verified before it is used.

Why a splice and not a re-dump: ruamel.yaml's round-trip dumper keeps comments, key order and
quoting, but it re-spaces what people wrote (`key:  value`, trailing spaces, `[a,b]`, a `~`, a
`- ` indentation that differs between two lists of one file, `\\u00e9` escapes), so a re-dumped file
would change lines no fix asked to change. A splice changes only the characters of the node it
edits (a dropped item takes its own line with it), so a review shows exactly the fix.

What verifies an edit (EditRefused, nothing used, when any check fails):
- corpustools' own reader (io/yamlload.py) reads the edited text as exactly the intended data: the
  original's data with this one change, key order included;
- ruamel.yaml's round-trip loader, a second YAML 1.2 parser that keeps comments, agrees: its reading
  of the edited text is its reading of the original with the same change, and every comment of the
  original is still there, except one on a line the edit removed.
ruamel.yaml is imported here only, and only when an edit is verified (`lint --fix` and `--diff`):
a plain `lint` never pays for it.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from corpustools.io.errors import InputError
from corpustools.io.yamlload import KeyPath, _events, _scalar, parse_yaml
from corpustools.io.yamlwrite import flow_scalar, flow_sequence

_SCALAR, _MAPPING, _SEQUENCE, _ALIAS = "scalar", "mapping", "sequence", "alias"


class EditRefused(Exception):
    """An edit that cannot be made safely; the message says why (one line, for the user)."""


@dataclass(frozen=True)
class Node:
    """Where one node of a YAML text is: character offsets [start, end) of its own text (a block
    collection: from its first item to the end of its last value, trailing comments excluded)."""

    kind: str  # scalar | mapping | sequence | alias
    start: int
    end: int
    style: str  # a scalar's: '' (plain), "'", '"', '|', '>'; a collection's: 'flow' or 'block'
    shared: bool  # anchored, inside an anchored node, or an alias: its text stands for several values
    key_start: int = -1  # a mapping value: where its key's text is
    key_end: int = -1
    key_plain: bool = False  # the key is a plain scalar


def _offsets(text: str) -> list[int]:
    """The offset of the start of each line."""
    starts = [0]
    starts += [m.end() for m in re.finditer("\n", text)]
    return starts


def nodes(text: str) -> dict[KeyPath, Node]:
    """Every node of the single-document YAML `text` by its key path (keys as corpustools'
    reader names them). Raises EditRefused when the text does not parse."""
    import yaml  # yaml: lint --list-rules/--explain load this module (rules' fixes), parse nothing

    lines = _offsets(text)

    def at(mark) -> int:
        return lines[mark.line] + mark.column if mark.line < len(lines) else len(text)

    found: dict[KeyPath, Node] = {}
    # open collections: [keypath, kind, start, flow, shared, key span, pending key (None: none), next index]
    stack: list[list] = []
    last_end = 0
    try:
        for event in _events(text, libyaml=True):
            kind = type(event)
            if kind in (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent):
                key_span: tuple[int, int, bool] = (-1, -1, False)
                inherited = bool(stack and stack[-1][4])
                if not stack:
                    keypath: KeyPath = ()
                else:
                    frame = stack[-1]
                    if frame[1] == _SEQUENCE:
                        keypath = frame[0] + (frame[7],)
                        frame[7] += 1
                    elif frame[6] is None:  # a key
                        if kind is not yaml.ScalarEvent:
                            raise EditRefused("a mapping key is not a plain scalar")
                        key = _scalar(event)
                        frame[6] = (str(key), at(event.start_mark), at(event.end_mark), not event.style)
                        last_end = at(event.end_mark)
                        continue
                    else:
                        name, key_start, key_end, plain = frame[6]
                        frame[6] = None
                        keypath = frame[0] + (name,)
                        key_span = (key_start, key_end, plain)
                start = at(event.start_mark)
                anchored = getattr(event, "anchor", None) is not None
                if kind is yaml.ScalarEvent or kind is yaml.AliasEvent:
                    end = at(event.end_mark)
                    last_end = end
                    style = (event.style or "") if kind is yaml.ScalarEvent else ""
                    found[keypath] = Node(_SCALAR if kind is yaml.ScalarEvent else _ALIAS, start, end, style,
                                          inherited or anchored or kind is yaml.AliasEvent, *key_span)
                else:
                    flow = bool(event.flow_style)
                    stack.append([keypath, _MAPPING if kind is yaml.MappingStartEvent else _SEQUENCE, start,
                                  flow, inherited or anchored, key_span, None, 0])
            elif kind in (yaml.MappingEndEvent, yaml.SequenceEndEvent):
                keypath, what, start, flow, shared, key_span, _, _ = stack.pop()
                end = at(event.end_mark) if flow else last_end
                last_end = max(last_end, end)
                found[keypath] = Node(what, start, end, "flow" if flow else "block", shared, *key_span)
    except yaml.YAMLError as err:
        raise EditRefused(f"the YAML does not parse: {' '.join(str(err).split())[:120]}") from None
    return found


# --- the data an edit intends ------------------------------------------------------------------

@dataclass(frozen=True)
class YamlEdit:
    """One change to a YAML document: `value` at `keypath` set to `new` (what="set": a one-line
    scalar or flow sequence, to a scalar or a list of scalars), the key at `keypath` renamed to
    `new` (what="rename"), or the sequence item at `keypath` dropped (what="drop"). `old` is the
    value (or key) the edit was planned against: a text that no longer holds it is not edited."""

    what: str  # set | rename | drop
    keypath: KeyPath
    old: Any
    new: Any = None


def _parent(data: Any, keypath: KeyPath) -> Any:
    for part in keypath[:-1]:
        data = data[part]
    return data


def applied(data: Any, edit: YamlEdit) -> Any:
    """A copy of plain `data` with `edit` made (KeyError/IndexError/TypeError when it does not fit)."""
    result = copy.deepcopy(data)
    if not edit.keypath:
        raise KeyError("the document itself")
    parent, last = _parent(result, edit.keypath), edit.keypath[-1]
    if edit.what == "set":
        if isinstance(parent, dict) and last not in parent:
            raise KeyError(last)
        parent[last] = edit.new
    elif edit.what == "drop":
        if not isinstance(parent, list):
            raise TypeError("not a sequence item")
        del parent[last]
    elif edit.what == "rename":
        if not isinstance(parent, dict) or last not in parent or edit.new in parent:
            raise KeyError(last)
        items = [(edit.new if key == last else key, value) for key, value in parent.items()]
        parent.clear()
        parent.update(items)
    else:
        raise ValueError(edit.what)
    return result


def _same(a: Any, b: Any) -> bool:
    """Equal, key order included (a rename must leave every key where it was)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and (a == b or a != a and b != b)  # NaN is the same NaN


def _value_at(data: Any, keypath: KeyPath) -> Any:
    for part in keypath:
        data = data[part]
    return data


# --- renderings of a new scalar -----------------------------------------------------------------

def _renderings(value: Any, style: str) -> list[str]:
    """Ways to write `value` as a one-line scalar, the original's style first; a list of scalars as
    a one-line flow sequence (`[a, b]`, then every item quoted)."""
    if isinstance(value, list):
        return list(dict.fromkeys([flow_sequence(value), "[" + ", ".join(flow_scalar(v) for v in value) + "]"]))
    text = value if isinstance(value, str) else flow_scalar(value)
    plain = [text] if isinstance(value, str) and text and "\n" not in text and text == text.strip() else []
    single = ["'" + text.replace("'", "''") + "'"] if isinstance(value, str) and text.isprintable() else []
    double = [flow_scalar(value)]
    order = {"": plain + single + double, "'": single + double + plain, '"': double + single + plain}[style]
    return list(dict.fromkeys(order))


# --- the edits ----------------------------------------------------------------------------------

def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _line_end(text: str, offset: int) -> int:
    """The offset just past the newline ending the line `offset` is on (or the end of the text)."""
    newline = text.find("\n", offset)
    return len(text) if newline < 0 else newline + 1


def _candidates(text: str, found: dict[KeyPath, Node], edit: YamlEdit) -> list[tuple[str, list[str]]]:
    """(edited text, the original lines it removes) for each way of writing the edit, best first."""
    node = found.get(edit.keypath)
    if node is None:
        raise EditRefused("the value is not where it was (written through an alias?)")
    if node.shared:
        raise EditRefused("the value is shared through a YAML anchor or alias; edit it by hand")
    if edit.what == "set":
        one_line_flow = node.kind == _SEQUENCE and node.style == "flow" and "\n" not in text[node.start:node.end]
        if not one_line_flow and (node.kind != _SCALAR or node.style not in ("", "'", '"')):
            raise EditRefused("the value is not a one-line scalar or flow sequence")
        return [(text[:node.start] + written + text[node.end:], []) for written in _renderings(edit.new, node.style)]
    if edit.what == "rename":
        if node.key_start < 0:
            raise EditRefused("not a mapping key")
        style = "" if node.key_plain else ('"' if text[node.key_start] == '"' else "'")
        return [(text[:node.key_start] + written + text[node.key_end:], [])
                for written in _renderings(edit.new, style)]
    return [_dropped(text, found, edit.keypath, node)]


def _dropped(text: str, found: dict[KeyPath, Node], keypath: KeyPath, node: Node) -> tuple[str, list[str]]:
    parent = found.get(keypath[:-1])
    if parent is None or parent.kind != _SEQUENCE or parent.shared:
        raise EditRefused("not an item of a sequence")
    index = keypath[-1]
    count = sum(1 for path in found if len(path) == len(keypath) and path[:-1] == keypath[:-1])
    if parent.style == "flow":
        if count == 1:
            start, end = node.start, node.end
        elif index < count - 1:
            start, end = node.start, found[keypath[:-1] + (index + 1,)].start
        else:
            start, end = found[keypath[:-1] + (index - 1,)].end, node.end
        return text[:start] + text[end:], []
    first, last = _line_start(text, node.start), _line_end(text, node.end)
    if not re.fullmatch(r"[ \t]*-[ \t]+", text[first:node.start]):
        raise EditRefused("the item does not start its own line")
    removed = text[first:last].split("\n")
    if count > 1:
        return text[:first] + text[last:], removed
    # The only item: the key keeps an empty flow sequence, `key: []`, and any comment on its line.
    if parent.key_start < 0:
        raise EditRefused("the sequence is not the value of a key")
    key_line_end = _line_end(text, parent.key_end)
    after_key = re.fullmatch(r"([ \t]*:)[ \t]*(#[^\n]*)?\n", text[parent.key_end:key_line_end])
    if after_key is None or key_line_end > first:
        raise EditRefused("the sequence does not start on the line after its key")
    comment = f"  {after_key.group(2)}" if after_key.group(2) else ""
    between = text[key_line_end:first]
    return text[:parent.key_end] + ":" + " []" + comment + "\n" + between + text[last:], removed


def edit_yaml(text: str, edit: YamlEdit) -> str:
    """`text` with `edit` made, verified (module docstring); EditRefused says why not."""
    try:
        original = parse_yaml(text, "<original>").data
    except InputError as err:
        raise EditRefused(f"the YAML does not read: {err.message}") from None
    try:
        if edit.what == "rename":
            parent = _value_at(original, edit.keypath[:-1])
            if not isinstance(parent, dict) or edit.keypath[-1] != edit.old or edit.old not in parent:
                raise EditRefused("the key changed since it was checked")
            if edit.new in parent:
                raise EditRefused(f"the mapping already has a key {edit.new!r}")
        elif not _same(_value_at(original, edit.keypath), edit.old):
            raise EditRefused("the value changed since it was checked")
        elif edit.what == "set" and _same(edit.old, edit.new):
            return text  # a value already right is never rewritten
        intended = applied(original, edit)
    except (KeyError, IndexError, TypeError):
        raise EditRefused("the value is no longer there") from None
    found = nodes(text)
    reasons = []
    for candidate, removed in _candidates(text, found, edit):
        if candidate == text:
            return text
        try:
            edited = parse_yaml(candidate, "<edited>").data
        except InputError as err:
            reasons.append(f"the edit would not read back ({err.message})")
            continue
        if not _same(edited, intended):
            reasons.append("the edit would read back as other data")
            continue
        problem = _ruamel_disagrees(text, candidate, edit, removed)
        if problem is None:
            return candidate
        reasons.append(problem)
    raise EditRefused(reasons[0] if reasons else "no way to write the value")


# --- ruamel.yaml's opinion ----------------------------------------------------------------------

def _ruamel_load(text: str) -> Any:
    from ruamel.yaml import YAML  # ruamel.yaml: only the cross-check of a fix's edit

    loader = YAML(typ="rt")
    loader.preserve_quotes = True
    return loader.load(text)


def _plain(node: Any) -> Any:
    """ruamel's round-trip values as plain data (its keys as corpustools names them)."""
    if isinstance(node, dict):
        return {str(key): _plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_plain(item) for item in node]
    if isinstance(node, str):
        return str(node)
    if isinstance(node, bool):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node


def comments(node: Any) -> Counter:
    """Every comment line ruamel.yaml attached anywhere in a round-trip loaded document."""
    found: Counter = Counter()
    seen: set[int] = set()  # ruamel may attach one comment token to two nodes

    def tokens(value: Any) -> None:
        if isinstance(value, (list, tuple)):
            for item in value:
                tokens(item)
        elif isinstance(value, dict):
            for item in value.values():
                tokens(item)
        elif value is not None and isinstance(getattr(value, "value", None), str) and id(value) not in seen:
            seen.add(id(value))
            found.update(line.strip() for line in value.value.split("\n") if line.strip().startswith("#"))

    def walk(value: Any) -> None:
        attached = getattr(value, "ca", None)
        if attached is not None:
            tokens([attached.comment, attached.items, attached.end])
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(node)
    return found


def _ruamel_disagrees(original: str, edited: str, edit: YamlEdit, removed: list[str]) -> str | None:
    """Why ruamel.yaml does not read `edited` as `original` with `edit` made, or None."""
    from ruamel.yaml.error import YAMLError  # ruamel.yaml: only the cross-check of a fix's edit

    try:
        before, after = _ruamel_load(original), _ruamel_load(edited)
    except YAMLError as err:
        return f"ruamel.yaml cannot read the file ({' '.join(str(err).split())[:120]})"
    except (ValueError, IndexError) as err:  # its resolver crashes on plain `-_` or `._`: the quoted form is tried next
        return f"ruamel.yaml fails on the edit ({type(err).__name__})"
    try:
        intended = applied(_plain(before), edit)
    except (KeyError, IndexError, TypeError):
        return "ruamel.yaml reads the file as other data"
    if not _same(_plain(after), intended):
        return "ruamel.yaml would read the edit as other data"
    lost = comments(before) - comments(after)
    if comments(after) - comments(before) or any(not any(c in line for line in removed) for c in lost):
        return "the edit would move or lose a comment"
    return None
