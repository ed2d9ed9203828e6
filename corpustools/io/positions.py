"""Source positions: every value a check can complain about knows where it came from; and the one
way corpustools shows a name or a message it did not write itself (`printable`). The errors a
user reads are corpustools.io.errors."""

from __future__ import annotations

import re
from dataclasses import dataclass

# C0 and C1 controls (newline and tab included), DEL, the Unicode line and paragraph separators, and
# lone surrogates (a file name byte that is not UTF-8 arrives as U+DC80..U+DCFF).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match) -> str:
    char = match.group()
    number = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if 0xDC80 <= number <= 0xDCFF:  # an undecodable byte of a file name, as the byte it was
        return f"\\x{number - 0xDC00:02x}"
    return f"\\x{number:02x}" if number < 0x100 else f"\\u{number:04x}"


def printable(text: str) -> str:
    """`text` on one line, safe for a terminal: control characters, line separators and lone
    surrogates become backslash escapes (`\\n`, `\\x1b`, `\\xff`, `\\u2028`). A newline in a file
    name can then never forge a diagnostic line. Every human-readable report and message goes
    through this function; JSON and SARIF rely on JSON's own escaping."""
    if not _UNPRINTABLE.search(text):
        return text
    try:  # a UTF-8 name read under a locale that is not UTF-8: show it as it is, as under UTF-8
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name produces (say, from a JSON escape)
        pass
    return _UNPRINTABLE.sub(_escape, text)


def printable_lines(lines) -> str:
    """Report lines joined by newlines (with a final one), each made `printable`."""
    return "".join(printable(line) + "\n" for line in lines)


@dataclass(frozen=True, order=True)
class Pos:
    """A 1-based line and column in a file. Line 0 means 'the file as a whole'."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return printable(self.path)
        return f"{printable(self.path)}:{self.line}:{max(self.col, 1)}"


@dataclass(frozen=True)
class Problem:
    """Something wrong at a place, as a value: what a lint rule yields, and what loading a corpus
    records for a file it could not load (then `kind` says how it failed, corpustools.model.corpus)."""

    pos: Pos
    message: str  # one line, no trailing period needed
    kind: str = ""

    def sort_key(self) -> tuple:
        return self.pos, self.kind, self.message

    def __str__(self) -> str:
        """`path:line:col: message` (the way InputError says it); the message alone with no file."""
        where = str(self.pos)
        return f"{where}: {printable(self.message)}" if where else printable(self.message)
