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
from collections.abc import Iterator

# JSON and YAML double-quoted escapes (YAML's \N \_ \L \P \e included; \t \n \r read as spaces, as
# a reader sees them), HTML character references (numeric, and named with their `;`), and runs of
# percent-encoded bytes (decoded together: `%E2%80%8B` is one zero-width space). Each branch starts
# with a literal, so re skips to the next `\\`, `&` or `%` at C speed (written `(?:%XX)+`, the
# last branch hid its `%` and the pattern was tried at every position of every file: 4x slower).
ESCAPE = re.compile(r"\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[0abefvntrNLP_/\\\"' ])"
                     r"|&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
                     r"|%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2})*")
_SINGLE = {"0": "\x00", "a": "\x07", "b": "\x08", "e": "\x1b", "f": "\x0c", "v": "\x0b", "t": " ", "n": " ",
           "r": " ", "N": "\x85", "L": "\u2028", "P": "\u2029", "_": "\u00a0", "/": "/", "\\": "\\",
           '"': '"', "'": "'", " ": " "}
ESCAPE_CHARS = frozenset("\\&%")
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_\-]{20,}={0,2}")
# Where such runs start, found at C speed: the text as bytes (one per character, `?` for what
# Latin-1 cannot hold) with every base64 character made `a` and every other a space, searched for
# 20 `a`s. _BASE64_RUN alone tries its class at every position of every file: 4 times slower.
_BASE64_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-")
_BASE64_MARKS = bytes(ord("a") if byte in _BASE64_BYTES else ord(" ") for byte in range(256))
_TWENTY = b"a" * 20


def _base64_runs(text: str) -> Iterator[re.Match]:
    """The matches of _BASE64_RUN in `text`, as _BASE64_RUN.finditer(text) gives them."""
    marked = text.encode("latin-1", "replace").translate(_BASE64_MARKS)
    pos = 0
    while (start := marked.find(_TWENTY, pos)) >= 0:
        match = _BASE64_RUN.match(text, start)
        assert match is not None  # 20 base64 characters start there
        yield match
        pos = match.end()
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


def unescaped(line: str) -> str | None:
    """`line` with every escape decoded; None when it has none (escape_columns maps it back)."""
    if ESCAPE_CHARS.isdisjoint(line):
        return None
    decoded, count = ESCAPE.subn(lambda match: _decoded(match.group()), line)
    return decoded if count else None


def escape_columns(line: str) -> list[int]:
    """For each character of unescaped(line), the index in `line` of the character or escape it
    came from, plus one entry, len(line), for the end. Computed only for a line where something
    was found: most decoded lines find nothing."""
    columns: list[int] = []
    pos = 0
    for match in ESCAPE.finditer(line):
        columns.extend(range(pos, match.start()))
        columns.extend([match.start()] * len(_decoded(match.group())))
        pos = match.end()
    columns.extend(range(pos, len(line) + 1))
    return columns


def _printable_text(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if text and all(c.isprintable() or c in "\t\n\r" for c in text) else None


def base64_texts(text: str) -> list[tuple[int, str]]:
    """(index in `text`, decoded text) of every base64 blob (standard or URL-safe alphabet, 20 or
    more characters, padding optional) that decodes to printable UTF-8 text. A blob without both
    capitals and small letters is not tried: base64 of text has both (a hash, a UUID, an
    identifier in one case is not base64 of text)."""
    found = []
    for match in _base64_runs(text):
        blob = match.group()[:MAX_BLOB].rstrip("=")
        if blob.islower() or blob.isupper() or len(blob) % 4 == 1:
            continue
        standard, urlsafe = ("+" in blob or "/" in blob), ("-" in blob or "_" in blob)
        if standard and urlsafe:
            continue
        padded = blob + "=" * (-len(blob) % 4)
        try:
            data = (base64.urlsafe_b64decode(padded) if urlsafe
                    else base64.b64decode(padded, validate=True))
        except (binascii.Error, ValueError):
            continue
        decoded = _printable_text(data)
        if decoded is not None:
            found.append((match.start(), decoded))
    return found
