"""Writing YAML that corpustools.io.yamlload reads back to exactly the values written.

Only scalars are written here; callers lay out their own mappings and lists, one key per line, so
that a file meant for a person's editor reads like the examples in the docs. Every scalar is
either plain (a short identifier-like text), a JSON string (a valid YAML 1.2 double-quoted
scalar), or, for multi-line text, a literal block scalar that is checked to read back unchanged.
"""

from __future__ import annotations

import re

from corpustools.io.documents import dump_json
from corpustools.io.errors import InputError
from corpustools.io.yamlload import parse_yaml

# Characters json.dumps leaves as they are but a YAML reader refuses (DEL, C1 controls, a BOM,
# U+FFFE/F) or folds into a line break (NEL, the line and paragraph separators). Lone surrogates
# stay as they are: they are not Unicode, and corpustools.io.writing refuses to write them.
_YAML_ESCAPE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
# What may stand in a block scalar's lines unescaped: tab, and printable characters.
_BLOCK_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
# A plain scalar that YAML 1.2 can only read as this very string (no indicator, no number, no
# `key: value`, no comment), written bare because quotes around every id tire a reader.
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./()\[\]',;-]*(?: [A-Za-z0-9_./()\[\]',;-]+)*")
_NOT_PLAIN = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}
# The same inside a flow sequence, where `[`, `]` and `,` end a plain scalar.
_FLOW_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./()';-]*(?: [A-Za-z0-9_./()';-]+)*")


def flow_scalar(value) -> str:
    """A JSON scalar (string, number, boolean, null) as a YAML 1.2 flow scalar; deterministic."""
    return _YAML_ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", dump_json(value))


def flow_json(value) -> str:
    """Any JSON value, an object or an array too, as one YAML 1.2 flow node (JSON is YAML 1.2)."""
    return flow_scalar(value)


def inline_scalar(value) -> str:
    """A scalar for the end of a `key: ` line: bare when that is unambiguous, else quoted."""
    if isinstance(value, str) and _PLAIN.fullmatch(value) and value.lower() not in _NOT_PLAIN:
        return value
    return flow_scalar(value)


def flow_sequence(values) -> str:
    """A list of JSON scalars as a one-line YAML flow sequence, `[tracking sync, trackingsync]`:
    each string bare when that is unambiguous inside a flow sequence, else quoted."""
    return "[" + ", ".join(
        value if isinstance(value, str) and _FLOW_PLAIN.fullmatch(value) and value.lower() not in _NOT_PLAIN
        else flow_scalar(value) for value in values) + "]"


def _literal_block(text: str, key_indent: int) -> list[str]:
    """`|` header plus lines for multi-line `text`, the value of a key at `key_indent` spaces; the
    content is indented two more (an indentation indicator, relative to the key, says so when the
    text starts with a space or an empty line)."""
    indicator = "2" if text[:1] in (" ", "\n") else ""
    if not text.endswith("\n"):
        chomping = "-"
    elif text.endswith("\n\n") or text == "\n":
        chomping = "+"
    else:
        chomping = ""
    body = text[:-1] if text.endswith("\n") else text
    pad = " " * (key_indent + 2)
    return [f"|{indicator}{chomping}"] + [pad + line if line else "" for line in body.split("\n")]


def _reads_back(text: str) -> bool:
    """Whether `text` written as a literal block (at the top level: the layout is the same at
    any depth) reads back as itself."""
    block = _literal_block(text, 0)
    try:
        doc = parse_yaml("\n".join(["k: " + block[0]] + block[1:]) + "\n", "<check>")
    except InputError:
        return False
    return isinstance(doc.data, dict) and doc.data.get("k") == text


def scalar_lines(key: str, value, indent: int) -> list[str]:
    """`key: value` at `indent` spaces, as one line, or several for multi-line text."""
    head = f"{' ' * indent}{key}: "
    if isinstance(value, str) and "\n" in value and not _BLOCK_UNSAFE.search(value):
        # The block rules follow the YAML spec; reading the block back guards what they might miss
        # (a quoted string is always right, only less pleasant to read).
        if _reads_back(value):
            block = _literal_block(value, indent)
            return [head + block[0]] + block[1:]
    return [head + inline_scalar(value)]
