"""The folded view of a line that the secret finders read, and the way back to the original columns.

A secret disguised with invisible or look-alike characters is still a secret: `AKIA` + U+200B +
the rest, a fullwidth `ＡＫＩＡ…`, a Cyrillic `А`, `password＝…`, `１０.20.0.7`. Folding drops every
character a reader does not see as part of a word: every default-ignorable code point (Unicode's
Default_Ignorable_Code_Point property: zero-width spaces and joiners, soft hyphen, word joiner,
bidi controls, variation selectors, tags, the BOM), every character of the general categories Cc
(controls but tab), Cf (format), Mn and Me (combining and enclosing marks), Zl, Zp and Zs (every
space but U+0020), and the blank symbols (BRAILLE PATTERN BLANK, Hangul fillers). It applies NFKC
to each remaining character alone and maps confusable letters, digits and punctuation to ASCII
with the table generated from Unicode's confusables data (confusables.txt, read once on import).
Lines of printable ASCII are their own folded view and are never folded; findings in a folded
line are reported at the column of the original character they start at (`column_map`).
"""

from __future__ import annotations

import bisect
import functools
import os
import re
import unicodedata


def read_confusables() -> dict[int, int]:
    """code point -> the ASCII code point it imitates, from confusables.txt beside this module
    (written by tools/make_confusables.py; `#` lines are comments, a line's third field a name)."""
    # Found from this module's path, as schemastore finds the schemas: the package is files.
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "confusables.txt")
    table = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.startswith("#"):
                code, target, _name = line.split(" ", 2)
                table[int(code.removeprefix("U+"), 16)] = ord(target)
    return table


CONFUSABLES = read_confusables()

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt), as inclusive ranges.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
_STARTS = tuple(start for start, _ in DEFAULT_IGNORABLE)
# The same set as a regex class, for searching whole texts (CT407).
IGNORABLE_CLASS = "[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in DEFAULT_IGNORABLE) + "]"


def is_default_ignorable(char: str) -> bool:
    code = ord(char)
    at = bisect.bisect_right(_STARTS, code) - 1
    return at >= 0 and code <= DEFAULT_IGNORABLE[at][1]


# General categories a reader does not see as a character of a word: controls (DEL, U+0001, NEL),
# format characters (U+FFF9, U+200B), combining marks (an accent or overlay on the previous
# letter), enclosing marks, line and paragraph separators, and spaces other than U+0020 (NBSP,
# thin, ideographic: a token split by one reads as one token). Tab stays a separator.
DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Mn", "Me", "Zl", "Zp", "Zs"})
KEPT = frozenset(" \t\n")  # a newline too: a whole text folds line for line
# Blank symbols of other categories that render as nothing: BRAILLE PATTERN BLANK, the Hangul fillers.
BLANKS = frozenset("\u2800\u115f\u1160\u3164\uffa0")


def is_invisible(char: str) -> bool:
    """Dropped from the folded view: see DROPPED_CATEGORIES, BLANKS and DEFAULT_IGNORABLE."""
    if char in KEPT:
        return False
    return unicodedata.category(char) in DROPPED_CATEGORIES or char in BLANKS or is_default_ignorable(char)


def fold_char(char: str) -> str:
    """What one character becomes in the folded view (empty when it is dropped). Each character is
    folded alone, so a combining mark never composes with the letter before it."""
    if is_invisible(char):
        return ""
    normal = unicodedata.normalize("NFKC", char)
    return "".join(chr(CONFUSABLES.get(ord(c), ord(c))) for c in normal if not is_invisible(c))


class _FoldTable(dict):
    """str.translate table that computes each character's fold once and remembers it."""

    def __missing__(self, code: int) -> str:
        folded = self[code] = fold_char(chr(code))
        return folded


_TABLE = _FoldTable()


@functools.cache
def _joins(char: str) -> bool:
    """Whether folding `char` can join the text around it into one token: it is dropped, or it
    becomes an ASCII letter, digit, `_` or `-` (a look-alike)."""
    folded = _TABLE[ord(char)]
    return not folded or any(c.isascii() and (c.isalnum() or c in "_-") for c in folded)


def folding_joins(line: str) -> bool:
    """Whether fold(line) may find a token that `line` as written does not split the same way, and
    the other way round: some character of it is dropped or becomes a word character (a line whose
    only non-ASCII characters are dashes, arrows or curly quotes reads the same either way)."""
    return any(_joins(char) for char in set(line) if not char.isascii() or char < " " or char == "\x7f")


_ASCII_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


def needs_folding(text: str) -> bool:
    """Whether fold(text) may differ from `text`: it has a non-ASCII character or an ASCII control
    other than tab and newline."""
    return not text.isascii() or _ASCII_CONTROL.search(text) is not None


# What fold may change: anything but tab, newline and printable ASCII (each of which folds to
# itself). Only these runs go through str.translate, whose per-character table lookup is what a
# Markdown file with a few curly quotes would otherwise pay on every character.
_FOLDABLE_RUN = re.compile("[^\t\n\x20-\x7e]+")


def _fold_run(match: re.Match) -> str:
    return match.group().translate(_TABLE)


def fold(line: str) -> str:
    """The folded view of `line`; `line` itself when nothing in it folds."""
    return _FOLDABLE_RUN.sub(_fold_run, line) if needs_folding(line) else line


def column_map(line: str) -> list[int]:
    """For each character of fold(line), the 0-based index of the character of `line` it came
    from; one extra entry, len(line), stands for the end of the line."""
    columns = []
    for index, char in enumerate(line):
        columns.extend([index] * len(_TABLE[ord(char)]))
    columns.append(len(line))
    return columns
