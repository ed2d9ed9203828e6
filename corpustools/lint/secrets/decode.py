"""Decoded views of a line: what its escapes, entities, percent-encoding and base64 blobs stand for.

A key written `\\x41KIA...` in a YAML string, `\\u0067hp_...` in JSON, `&#65;KIA...` in HTML,
`%41KIA...` in a URL or base64-encoded anywhere is the key to whoever decodes it, so the finders
read the decoded text too. One decoder covers every escape syntax at once (JSON and YAML
backslash escapes, HTML character references, percent-encoding); each decoded character knows the
column of the escape it came from. A base64 blob of 20 or more characters is decoded when it is
printable UTF-8 text, and what it says is reported at the blob. One level only: an escape inside
a decoded escape is not decoded again.
"""

from __future__ import annotations

import base64
import binascii
import html
import re

# JSON and YAML double-quoted escapes (YAML's \N \_ \L \P \e included; \t \n \r read as spaces, as
# a reader sees them), HTML character references (numeric, and named with their `;`), and runs of
# percent-encoded bytes (decoded together: `%E2%80%8B` is one zero-width space).
_ESCAPE = re.compile(r"\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[0abefvntrNLP_/\\\"' ])"
                     r"|&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
                     r"|(?:%[0-9A-Fa-f]{2})+")
_SINGLE = {"0": "\x00", "a": "\x07", "b": "\x08", "e": "\x1b", "f": "\x0c", "v": "\x0b", "t": " ", "n": " ",
           "r": " ", "N": "\x85", "L": "\u2028", "P": "\u2029", "_": "\u00a0", "/": "/", "\\": "\\",
           '"': '"', "'": "'", " ": " "}
ESCAPE_CHARS = frozenset("\\&%")
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_\-]{20,}={0,2}")
MAX_BLOB = 64 * 1024  # characters of one base64 run decoded (its start: the rest is as long as a file)


def _decoded(escape: str) -> str:
    if escape[0] == "\\":
        kind = escape[1]
        if kind in "xuU":
            code = int(escape[2:], 16)
            return chr(code) if code <= 0x10FFFF else "\ufffd"
        return _SINGLE[kind]
    if escape[0] == "&":
        return html.unescape(escape)
    return bytes.fromhex(escape.replace("%", "")).decode("utf-8", errors="replace")


def unescaped(line: str) -> tuple[str, list[int]] | None:
    """`line` with every escape decoded, and for each of its characters the index in `line` of the
    character or escape it came from (plus one entry, len(line), for the end); None when `line`
    has no escape."""
    if ESCAPE_CHARS.isdisjoint(line):
        return None
    parts: list[str] = []
    columns: list[int] = []
    pos = 0
    for match in _ESCAPE.finditer(line):
        parts.append(line[pos:match.start()])
        columns.extend(range(pos, match.start()))
        decoded = _decoded(match.group())
        parts.append(decoded)
        columns.extend([match.start()] * len(decoded))
        pos = match.end()
    if pos == 0:
        return None
    parts.append(line[pos:])
    columns.extend(range(pos, len(line) + 1))
    return "".join(parts), columns


def _printable_text(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if text and all(c.isprintable() or c in "\t\n\r" for c in text) else None


def base64_texts(line: str) -> list[tuple[int, str]]:
    """(index in `line`, decoded text) of every base64 blob (standard or URL-safe alphabet, 20 or
    more characters, padding optional) that decodes to printable UTF-8 text."""
    found = []
    for match in _BASE64_RUN.finditer(line):
        blob = match.group()[:MAX_BLOB].rstrip("=")
        standard, urlsafe = ("+" in blob or "/" in blob), ("-" in blob or "_" in blob)
        if (standard and urlsafe) or len(blob) % 4 == 1:
            continue
        padded = blob + "=" * (-len(blob) % 4)
        try:
            data = (base64.urlsafe_b64decode(padded) if urlsafe
                    else base64.b64decode(padded, validate=True))
        except (binascii.Error, ValueError):
            continue
        text = _printable_text(data)
        if text is not None:
            found.append((match.start(), text))
    return found
