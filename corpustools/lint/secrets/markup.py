"""Views of a line as a reader puts it back together, which the finders read beside its folded view
(scan.py makes them for the lines a finder's hint points at, and maps their columns back through
the fold):

- markup removed (`markup_windows`, `unmarked`): Markdown emphasis, strikethrough and code-span
  backticks inside a word (`AKIA**Z7Q2**M4…`, ``ghp_`abc`…``), underscores at a word's edges
  (`_ghp_…_`), backslash escapes (`sk\\_live\\_…`; a line with one is also a view of its own,
  `markdown_unescaped`, so that the prefix it hides is searched for), link syntax (`[AKIA](#)Z7Q2…`), HTML
  comments and tags (`AKIA<!-- -->Z7Q2…`, `sk_live_<span>…</span>`), and string literals joined by
  `+`, `.` or nothing (`"AKIA" + "Z7Q2…"`): each renders or evaluates as one token;
- lines joined (`joins_at`): a word that runs on from one line into the next ones, as text wraps,
  after a continuation mark (`\\`), a hyphen, the next line's indentation or its quote or comment
  marker (`> `, `# `, `// `), or emphasis around each part; a string literal continued on the next
  line; and a secret-ish key whose value is the next line (`password:` / `  Tr0ub4dor…`). A
  finding there must start on the first line and cross its break (one within a line is the
  line's own);
- private-key blocks (`key_blocks`): a PEM block's lines as one line, header through END line
  (tokens.PrivateKeyShape), so that a key's fingerprint covers its whole body; made for every
  file (a search for `PRIVATE KEY`).

Each view gives, for each of its characters and for its end, the index in the line it came from
(for a joined view, the first line's; a later line's characters at the first line's end).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from corpustools.lint.secrets.hints import LazyPattern

_WORD = r"A-Za-z0-9_\-"
# What a reader removes from a word: an HTML comment or tag, emphasis (`*`, `**`, `***`),
# strikethrough, code-span backticks, a backslash escaping punctuation, link syntax around a
# word, `__` inside a word, an underscore at a word's edge, and the quotes and operator between
# two string literals.
_MARKUP = LazyPattern(
    r"<!--[^\n]{0,2000}?-->"
    r"|</?[A-Za-z][A-Za-z0-9]{0,20}(?:[ \t/][^<>\n]{0,200})?>"
    r"|\*{1,3}|~~|`{1,3}"
    r"|\\(?=[!-/:-@\[-`{-~])"
    r"|\[(?=[^\]\n]{1,200}\]\([^)\n]{0,300}\))|\]\([^)\n]{0,300}\)"
    rf"|(?<=[A-Za-z0-9\-])__(?=[A-Za-z0-9\-])"
    r"|(?<![A-Za-z0-9_\\])__?(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])__?(?=[\s.,;:!?)\]}\"']|$)"
    rf"|(?<=[{_WORD}])([\"'])[ \t]{{0,8}}(?:[+.&][ \t]{{0,8}})?\1(?=[{_WORD}])"
)
# Where the markup view may differ from the line in a way that joins a token: markup inside a word,
# a tag or comment glued to one on both sides, a Markdown escape of an emphasis character, link
# syntax glued to a word, two string literals joined, an underscore that starts a word. Searched
# in a line a finder's hint points at (scan._derived_views), never in a whole file.
_WORD_CLASS = f"[{_WORD}]"
_TRIGGER_SOURCES = (
    rf"\*(?=\*{{0,2}}{_WORD_CLASS})(?<={_WORD_CLASS}\*)",
    rf"~~(?={_WORD_CLASS})(?<={_WORD_CLASS}~~)",
    rf"`(?=`{{0,2}}{_WORD_CLASS})(?<={_WORD_CLASS}`)",
    r"_(?:(?=_?[A-Za-z0-9])(?<![A-Za-z0-9_\\]_)|(?=_[A-Za-z0-9\-])(?<=[A-Za-z0-9\-]_))",
    rf"<(?=(?:!--[^\n]{{0,2000}}?--|/?[A-Za-z][^<>\n]{{0,200}})>{_WORD_CLASS})(?<=[^\s>]<)",
    r"\\(?=[_*\-~`])(?<=[A-Za-z0-9]\\)",
    rf"\]\([^)\n]{{0,300}}\)(?={_WORD_CLASS})",
    rf"\"(?=[ \t]{{0,8}}(?:[+.&][ \t]{{0,8}})?\"{_WORD_CLASS})(?<={_WORD_CLASS}\")",
    rf"'(?=[ \t]{{0,8}}(?:[+.&][ \t]{{0,8}})?'{_WORD_CLASS})(?<={_WORD_CLASS}')",
)
_TRIGGER = LazyPattern("|".join(_TRIGGER_SOURCES))
# The same, one pattern per trigger: each starts with a literal, which re finds at C speed in a
# long line (the alternation above tries each branch at every position; fine in a short line).
_TRIGGER_PARTS = tuple(LazyPattern(source) for source in _TRIGGER_SOURCES)


_MARKUP_CHARACTERS = re.compile(r"[*~`<\\\[\]\"'_]")  # a line without any has no markup view


def _each_trigger(line: str) -> list[re.Match]:
    return sorted((hit for pattern in _TRIGGER_PARTS for hit in pattern.finditer(line)), key=lambda hit: hit.start())


def unmarked(line: str) -> tuple[str, list[int]] | None:
    """`line` without its markup (see the module docstring) and, for each character of that and
    for its end, the index in `line` it came from; None when nothing is removed."""
    if _MARKUP_CHARACTERS.search(line) is None:
        return None
    parts: list[str] = []
    columns: list[int] = []
    pos = 0
    for match in _MARKUP.finditer(line):
        parts.append(line[pos:match.start()])
        columns.extend(range(pos, match.start()))
        pos = match.end()
    if not parts:
        return None
    parts.append(line[pos:])
    columns.extend(range(pos, len(line) + 1))
    return "".join(parts), columns


# A Markdown backslash escape of a character a token holds (`ghp\\_…`, `sk\\_live\\_…`, `xoxb\\-…`): the
# escaped text is searched for needles too (scan.scanned_file), since the escape hides the prefix.
MARKDOWN_ESCAPE = re.compile(r"\\(?=[_*\-~`])")


def markdown_unescaped(line: str) -> tuple[str, list[int]]:
    """`line` without the backslashes of its Markdown escapes, and for each character (and the
    end) the index in `line` it came from."""
    columns = [index for index in range(len(line) + 1) if index == len(line) or not (
        line[index] == "\\" and MARKDOWN_ESCAPE.match(line, index))]
    return MARKDOWN_ESCAPE.sub("", line), columns


MARKUP_REACH = 600  # characters around a hit the markup view reads: more than a token is long


def markup_windows(line: str) -> list[tuple[int, int]]:
    """(start, end) of each stretch of `line` whose markup view may join a token: MARKUP_REACH
    characters either side of each trigger (so that a 1 MB line costs its stretches, not itself
    each time), widened to whole words, overlaps merged. Empty for a line without markup."""
    if _MARKUP_CHARACTERS.search(line) is None:
        return []
    windows: list[tuple[int, int]] = []
    for hit in _TRIGGER.finditer(line) if len(line) < 2000 else _each_trigger(line):
        at = hit.start()
        start = line.rfind(" ", 0, max(0, at - MARKUP_REACH)) + 1
        end = line.find(" ", min(len(line), at + MARKUP_REACH))
        end = len(line) if end < 0 else end
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], end)
        else:
            windows.append((start, end))
    return windows


@dataclass(frozen=True)
class Joined:
    """Lines read as one (see joins_at): the view's text, the 0-based number of its first line,
    the index in that line each character came from (a later line's at the first line's end; one
    more entry for the end), and where each line break was joined (a finding must cross one)."""

    first: int
    text: str
    columns: list[int]
    breaks: tuple[int, ...]
    kind: str  # WORDS: a word run on over line breaks; KEY_VALUE: a key and its value on the next line


# The kinds of reader views: markup removed; a word joined over line breaks; a key and its value.
MARKUP, WORDS, KEY_VALUE = "markup", "words", "key-value"


_KEY = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=")
_QUOTES = frozenset("\"'")
_EDGE_MARKS = "*~`"  # emphasis around a word's part: `**AKIAZ7Q2**` / `**M4…**` is one word
_ENDS = _KEY | _QUOTES | frozenset(" \t\\:" + _EDGE_MARKS)  # what a line a join starts from ends with
# A continued line's own start: indentation, and a quote, comment or list marker repeated on
# every line of a block (`> `, `# `, `// `, `* `, `- `, `-- `, `; `).
_LINE_MARKER = LazyPattern(r"[ \t]*(?:(?:>|#|//|--|;|\*|-)(?=[ \t])[ \t]*|(?:>|#|//)(?=\S))?")
_HEAD = re.compile(r"\S*")
_TAIL = re.compile(r"\S*$")
# A line that ends with a key and its separator, whose value is the next line.
_KEY_ALONE = LazyPattern(r"[A-Za-z_][A-Za-z0-9_.\-]{0,80}[\"']?[ \t]*[:=]")
_SECRET_STEM = LazyPattern(r"pass|pwd|secret|token|key|salt|cred", re.IGNORECASE)
_CONTINUATION = "\\"
MAX_JOINED = 4  # lines one view may join: a token wrapped at 20 columns or wider
MAX_RUN = 300  # characters of a line's last or next word a join takes


def _is_generated(parts: list[str]) -> bool:
    """Words that may hold parts of a token: a digit, or a capital after a word's first character
    (prose wrapped over a line break, a sentence starting on the next line, have neither)."""
    return any(c.isdigit() or c.isupper() for part in parts for c in part[1:]) or any(
        c.isdigit() for part in parts for c in part[:1])


_MARKER_STARTS = frozenset(">#/-*;")


def _head(line: str) -> tuple[str, bool]:
    """The first word of a line past its indentation and marker (without a continuation mark),
    and whether that word is all the line holds."""
    text = line.lstrip(" \t")
    if text[:1] in _MARKER_STARTS:
        text = line[_LINE_MARKER.match(line).end():]  # it matches the empty string
    words = text.split(None, 1)
    if not words:
        return "", False
    word = words[0][:MAX_RUN]
    whole = len(words) == 1 and len(word) == len(words[0])
    return (word[:-1], whole) if word.endswith(_CONTINUATION) else (word, whole)


def _tail(line: str) -> tuple[str, int, bool]:
    """The last word of a line (its trailing blanks and continuation mark dropped), where it
    starts, and whether it ends a string literal the next line may continue (`"AKIA" +`)."""
    stripped = line.rstrip(" \t")
    if stripped.endswith(_CONTINUATION):
        stripped = stripped[:-1]
    literal = stripped.rstrip(" \t+.&")
    if literal[-1:] in _QUOTES:
        start = max(literal.rfind(" ", 0, len(literal) - 1) + 1, len(stripped) - MAX_RUN)
        return stripped[start:], start, True
    word = _TAIL.search(stripped).group()[-MAX_RUN:]  # type: ignore[union-attr]  # matches the empty string
    return word, len(stripped) - len(word), False


def may_join(line: str, kind: str) -> bool:
    """Whether a join of `kind` may start at `line` (the quick test before joins_at): it ends with
    a separator (KEY_VALUE) or with what a word or a string literal may end with (WORDS)."""
    return bool(line) and line[-1] in (":=" if kind == KEY_VALUE else _ENDS)


def joins_at(lines: list[str], number: int, kind: str) -> list[Joined]:
    """The joined views of `kind` that start at `lines[number]` (0-based): its last word run on
    into the next lines (WORDS), or the key it ends with and its value on the next line
    (KEY_VALUE); see the module docstring."""
    line = lines[number]
    if number + 1 >= len(lines) or not may_join(line, kind):
        return []
    tail, start, literal = _tail(line)
    if not tail:
        return []
    if kind == KEY_VALUE:
        key_alone = _KEY_ALONE.fullmatch(tail) and _SECRET_STEM.search(tail)
        return _key_and_value(lines, number, tail, start) if key_alone else []
    parts, breaks, last = [tail], [], number
    while last + 1 < len(lines) and len(parts) <= MAX_JOINED:
        head, whole = _head(lines[last + 1])
        runs_on = head.lstrip(_EDGE_MARKS)[:1] in _KEY and parts[-1].rstrip(_EDGE_MARKS)[-1:] in _KEY
        if not head or head.endswith(":") or not (head[0] in _QUOTES if literal else runs_on):
            break
        breaks.append(sum(map(len, parts)))
        parts.append(head)
        last += 1
        if literal or not whole:
            break  # the word ends on this line
    text = "".join(parts)
    if not breaks or not (literal or _is_generated(parts)):
        return []
    columns = [*range(start, start + len(tail)), *[len(line)] * (len(text) - len(tail) + 1)]
    joined = [Joined(number, text, columns, tuple(breaks), WORDS)]
    if tail.endswith("-") and not tail.endswith("--"):  # a hyphen at a line's end may be the wrap's own
        cut = len(tail) - 1
        joined.append(Joined(number, text[:cut] + text[cut + 1:], columns[:cut] + columns[cut + 1:],
                             tuple(b - 1 for b in breaks), WORDS))
    return joined


def run_on_end(text: str, pos: int, remaining: int) -> int:
    """Where a word joined over the line break at text[pos] ends, about `remaining` characters of
    it still to come: through the first word of each next line (past its marker) while some are,
    as joins_at reads them, for at most MAX_JOINED lines."""
    for _ in range(MAX_JOINED):
        if remaining <= 0 or pos >= len(text) or text[pos] != "\n":
            break
        start = _LINE_MARKER.match(text, pos + 1).end()  # it matches the empty string
        word = _HEAD.match(text, start).group()  # type: ignore[union-attr]  # matches the empty string
        pos = start + len(word)  # the whole word: a redaction may cut more than the secret, never less
        remaining -= len(word)
    return pos


def _key_and_value(lines: list[str], number: int, tail: str, start: int) -> list[Joined]:
    """`password:` and a next line holding only its value (`  Tr0ub4dor9x`), read as one line."""
    head, whole = _head(lines[number + 1])
    if not head or not whole or head.endswith(":") or head[0] in "-#{[|>&*!":
        return []
    text = f"{tail} {head}"
    line = lines[number]
    columns = [*range(start, start + len(tail)), *[len(line)] * (len(head) + 2)]
    return [Joined(number, text, columns, (len(tail) + 1,), KEY_VALUE)]


# A private-key block's header; its lines: base64, a header field (`Proc-Type: 4,ENCRYPTED`), a
# blank line, the END line. Each line is read without its indentation, quote or comment marker
# and the quotes, commas, `\n` escapes and `+` of a string literal around it.
_BLOCK_HEADER = re.compile(r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_BLOCK_LINE_END = LazyPattern(r"(?:\\n|\\r|[\s\"',;\\]|(?<=[\s\"'])\+)*$")
_BLOCK_BASE64 = LazyPattern(r"[A-Za-z0-9+/]{1,100}={0,2}")
_BLOCK_FIELD = LazyPattern(r"[A-Za-z][A-Za-z0-9\-]{0,30}:[ \t][^\n]{0,200}")
MAX_BLOCK_LINES = 400  # a 16384-bit RSA key is about 200 lines of 64


def key_blocks(text: str) -> Iterator[tuple[int, int, str]]:
    """(0-based line number, column of the header, the block as one line) for each private-key
    header of `text` that ends its line and is followed by lines of base64: the header, each line
    of base64 and the END line joined by single spaces (header fields and blank lines left out)."""
    pos = 0
    while (at := text.find("PRIVATE KEY", pos)) >= 0:
        pos = at + 1
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at)
        line_end = len(text) if line_end < 0 else line_end
        header = _BLOCK_HEADER.search(text, line_start, line_end)
        if header is None or header.start() > at or _BLOCK_LINE_END.match(text, header.end(), line_end) is None:
            continue  # no header, or the block goes on on its header's line (tokens.py reads that line)
        parts = _block_lines(text, line_end)
        if parts:
            yield text.count("\n", 0, line_start), header.start() - line_start, " ".join([header.group(), *parts])


def _block_lines(text: str, pos: int) -> list[str]:
    """The base64 lines and the END line of the block whose header line ends at `pos`; empty when
    no base64 line follows."""
    parts: list[str] = []
    for _ in range(MAX_BLOCK_LINES):
        if pos >= len(text):
            break
        end = text.find("\n", pos + 1)
        end = len(text) if end < 0 else end
        line = text[pos + 1:end]
        pos = end
        body = line[_LINE_MARKER.match(line).end():]  # it matches the empty string
        body = body.lstrip("\"'")
        body = body[:_BLOCK_LINE_END.search(body).start()]  # it matches at the end at least
        if body.startswith("-----END"):
            if parts:
                parts.append(body[:body.find("-----", 8) + 5] if body.find("-----", 8) > 0 else body)
            break
        if not body or _BLOCK_FIELD.fullmatch(body):
            continue
        if not _BLOCK_BASE64.fullmatch(body):
            break
        parts.append(body)
    return parts
