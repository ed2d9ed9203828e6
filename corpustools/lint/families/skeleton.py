"""Sentences and their skeletons: what the template rules (CT701-CT704) compare.

A fixture written from a template keeps the template's wording and changes what varies between
instances. The skeleton of a sentence keeps the wording and replaces every varying part by `*`:
numbers, UUIDs, `code spans`, quoted strings, URLs, paths and file names, snake_case, camelCase
and dotted identifiers, flags and sigils (`--force`, `$var`, `#cache`), and capitalised names.
The remaining words are normalized with corpustools.model.normalize.

Decisions, so the rules behave predictably:
- A line is a hard boundary: sentences never span lines (fixture paragraphs are one line each,
  and code blocks are line-shaped). Within a line, a sentence ends at `.`, `!` or `?` followed by
  whitespace and a token that does not start with a lowercase letter ("e.g. the" does not split).
- Leading list markers, heading marks, `>` and a role tag (`[USER]:`, as in a prompt's example
  transcripts) are not part of a sentence.
- A capitalised word is a name only when it is not the sentence's first token (and it is not
  "I" or a contraction of it): the first word of a sentence is capitalised by grammar.
- A double-quoted string of at least LIFT_MIN_WORDS words is quoted prose (or a JSON text value,
  such as a prompt's example `"body": "..."`): it is masked in its sentence *and* read as
  sentences of its own, with JSON escapes `\\n` as line breaks. Shorter quoted strings are
  literals and are only masked.
- Lines are read up to MAX_LINE_CHARS and every pattern is bounded, so a pathological 1 MB line
  costs a bounded scan instead of stalling the linter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from corpustools.io.errors import InputError
from corpustools.model.normalize import normalize
from corpustools.model.session import split_frontmatter

MASK = "*"  # never produced by normalize(), which keeps only letters, digits and spaces
MAX_LINE_CHARS = 10_000
LIFT_MIN_WORDS = 5

# Markup before a line's text: indentation, list markers, heading marks, quote marks, a role tag.
_LINE_PREFIX = re.compile(
    r"[ \t]{0,40}(?:(?:[-*+>]|#{1,6}|\d{1,9}[.)])[ \t]{1,40}){0,10}(?:\[[^\]\n]{1,200}\]:[ \t]?)?")

# A long double-quoted string (JSON escapes allowed) that may be quoted prose.
_DOUBLE_QUOTED = re.compile(r'"((?:[^"\\\n]|\\.){1,5000})"|\u201c([^\u201d\n]{1,5000})\u201d')

# Length-preserving replacements for JSON escapes inside a lifted string, so columns stay exact.
_JSON_ESCAPE = re.compile(r"\\(.)")

# A plain ASCII lowercase word that nothing masked could continue (not followed by a digit, `_`,
# `/`, `\`, `(`, `@`, `-`, `.x`, `:x`, `::` or an apostrophe and a letter).
_PLAIN_WORD = r"[a-z]{1,100}(?![\w/\\(@-]|[.:][\w:/]|['\u2019]\w)"

# One token of a sentence; the first alternative that matches wins, so order is priority. The
# first two are a fast path for the common case: `words` is a run of plain words separated by
# spaces, commas or semicolons (which no token starts with, so it is exactly the plain-word
# tokens the run would otherwise be matched as one by one); `cap` is any other plain word.
# Every other word is tried against the masks first.
_TOKEN = re.compile(
    r"""
    (?P<word>""" + _PLAIN_WORD + r"""(?:[ ,;]{1,40}""" + _PLAIN_WORD + r""")*)  # plain words
    | (?P<cap>[^\W\d_]{1,100}(?![\w/\\(@-]|[.:][\w:/]|['\u2019]\w))        # any other plain word
    | (?P<mask>
        `[^`\n]{1,300}`                                         # code span
      | "[^"\n]{0,300}" | \u201c[^\u201d\n]{0,300}\u201d         # double-quoted string
      | (?<![\w'\u2019])'[^'\n]{1,200}'(?!\w)                    # single-quoted string
      | [A-Za-z][\w+.-]{0,20}://[^\s`"'<>]{1,300}                # URL
      | [0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}  # UUID
      | [\w.~@$-]{0,100}(?:/[\w.~@$*<>{}:-]{0,100}){1,30}         # path (anything with a slash)
      | (?:\\|[$@])?\w[\w-]{0,100}(?:(?:\.|::|->|\\)\w[\w-]{0,100}){1,20}(?:\(\))?  # dotted id, file name
      | \w{1,100}\(\)                                           # call
      | (?<![\w-])(?:--?|[$@\#%])[A-Za-z_][\w-]{0,100}           # flag or sigil
      | \w{0,100}_\w{0,100}                                     # snake_case
      | [^\W_]{0,100}\d\w{0,100}(?:[.:,-]\d\w{0,100}){0,10}%?      # number, date, word with a digit
    )
    | (?P<other>[^\W_]{1,100}(?:['\u2019][^\W_]{1,100})?)        # any other word: don't, well(-known)
    | (?P<stop>[.!?]{1,10})
    """,
    re.VERBOSE,
)

# camelCase and PascalCase identifiers: a lowercase letter then a capital, inside one word.
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
_SPACE = re.compile(r"\s")

_FIRST_PERSON = frozenset({"I", "I'm", "I'll", "I've", "I'd", "I\u2019m", "I\u2019ll", "I\u2019ve", "I\u2019d"})


@dataclass(frozen=True, slots=True)
class Skeleton:
    """Where a sentence of a file starts and its skeleton, without its text: what the rules that
    compare skeletons across fixtures read (CT701, CT702, CT703, CT705), and what lint's cache
    holds of a session for them (families/templates.session_skeletons)."""

    line: int
    col: int  # 1-based character column
    skeleton: str  # normalized words and MASK, single-spaced
    tokens: int  # number of skeleton items
    words: int  # skeleton items that are not MASK

    def counts(self, min_tokens: int, min_words: int) -> bool:
        """Long and worded enough to be a template rather than a stock phrase."""
        return self.tokens >= min_tokens and self.words >= min_words


@dataclass(frozen=True, slots=True)
class Sentence(Skeleton):
    """One sentence of a file: where it starts, its skeleton, and what it says."""

    text: str  # as written

    @property
    def normalized(self) -> str:
        return normalize(self.text)


def _run_words(run: list[str]) -> list[str]:
    """normalize(" ".join(run)).split(), for unmasked tokens (words, and runs of plain words
    separated by spaces, commas or semicolons). Most runs are ASCII letters without an
    apostrophe, which normalize() only lowercases and splits at those separators: done directly."""
    joined = " ".join(run)
    if joined.isascii() and "'" not in joined:
        return joined.lower().replace(",", " ").replace(";", " ").split()
    return normalize(joined).split()


def _close(begin: int, end: int, parts: list[str], run: list[str]) -> tuple[int, int, str, int, int]:
    if run:
        parts += _run_words(run)
    count = len(parts)
    return begin, end, " ".join(parts), count, count - parts.count(MASK)


def _scan(text: str, start: int, end: int) -> Iterator[tuple[int, int, str, int, int]]:
    """(begin, end, skeleton, tokens, words) of each sentence of `text[start:end]`, in one pass.

    A `.`/`!`/`?` ends a sentence when whitespace follows it and the next token does not start
    with a lowercase letter; consecutive unmasked words are normalized together. A word is masked
    as a name when it is camelCase/PascalCase or capitalised where grammar would not capitalise it
    (not the sentence's first token, not "I"). The hottest loop of a lint: a token costs a few
    operations here.
    """
    parts: list[str] = []
    run: list[str] = []
    begin = last = stop = -1
    space, inner_capital = _SPACE.search, _INNER_CAPITAL.search
    for match in _TOKEN.finditer(text, start, end):
        kind = match.lastgroup
        if kind == "stop":
            if begin >= 0:
                stop = match.end()
            continue
        token = match[0]
        if stop >= 0:
            if not token[0].islower() and space(text, stop, match.start()):
                yield _close(begin, last, parts, run)
                parts, run, begin = [], [], -1
            stop = -1
        first = begin < 0
        if first:
            begin = match.start()
        last = match.end()
        if kind == "word":  # plain lowercase words: never a name, never masked
            run.append(token)
            continue
        if kind != "mask":
            # a name: an inner capital (none when the rest has no capital: most words), or a
            # capital that grammar did not put there
            rest = token[1:]
            if not ((rest and not rest.islower() and inner_capital(token))
                    or (not first and token[0].isupper() and token not in _FIRST_PERSON)):
                run.append(token)
                continue
        if run:
            parts += _run_words(run)
            run = []
        parts.append(MASK)
    if begin >= 0:
        yield _close(begin, last, parts, run)


def _long_quotes(line: str, start: int) -> list[tuple[int, int]]:
    """Spans of the contents of double-quoted strings of at least LIFT_MIN_WORDS words."""
    spans = []
    for match in _DOUBLE_QUOTED.finditer(line, start):
        group = 1 if match.group(1) is not None else 2
        if len(match.group(group).split()) >= LIFT_MIN_WORDS:
            spans.append((match.start(group), match.end(group)))
    return spans


def _unescape_preserving_length(text: str) -> str:
    """JSON escapes to same-length text: `\\n`, `\\t`, `\\r` become a line break, others a space."""
    return _JSON_ESCAPE.sub(lambda m: "\n " if m.group(1) in "ntr" else " " + m.group(1), text)


def line_sentences(text: str, line: int, col0: int = 0) -> list[Sentence]:
    """Sentences of one line of a file, by column; `col0` is the 0-based column where `text` starts."""
    text = text[:MAX_LINE_CHARS]
    prefix = _LINE_PREFIX.match(text)
    assert prefix is not None  # every part of the pattern is optional
    start = prefix.end()
    spans = _long_quotes(text, start) if ('"' in text or "\u201c" in text) else []
    if not spans:
        return [Sentence(line, col0 + begin + 1, skeleton, count, words, text[begin:end])
                for begin, end, skeleton, count, words in _scan(text, start, len(text))]
    outer, prose = list(text), list(text)
    for begin, end in spans:  # same-length rewrites keep every column exact
        outer[begin - 1:end + 1] = '"x"' + " " * (end - begin - 1)
        prose[begin:end] = _unescape_preserving_length(text[begin:end])
    outer_text, prose_text = "".join(outer), "".join(prose)
    found = []
    for begin, end, skeleton, count, words in _scan(outer_text, start, len(text)):
        for span_begin, span_end in spans:  # a sentence ending in a lifted string ends at its quote
            if span_begin <= end <= span_end:
                end = span_end + 1
        found.append(Sentence(line, col0 + begin + 1, skeleton, count, words, text[begin:end]))
    for span_begin, span_end in spans:
        for part_begin, part_end in _line_ranges(prose_text, span_begin, span_end):
            found += [Sentence(line, col0 + begin + 1, skeleton, count, words, prose_text[begin:end])
                      for begin, end, skeleton, count, words in _scan(prose_text, part_begin, part_end)]
    return sorted(found, key=lambda s: s.col)


def _line_ranges(text: str, begin: int, end: int) -> Iterator[tuple[int, int]]:
    """`text[begin:end]` cut at line breaks, as (begin, end) ranges."""
    for part in text[begin:end].split("\n"):
        yield begin, begin + len(part)
        begin += len(part) + 1


def lines_sentences(lines: Iterable[tuple[int, int, str]]) -> Iterator[Sentence]:
    """Sentences of (line number, 0-based start column, text) lines, in order."""
    for line, col0, text in lines:
        yield from line_sentences(text, line, col0)


def text_sentences(text: str, first_line: int = 1) -> Iterator[Sentence]:
    """Sentences of a whole text whose first line is file line `first_line`."""
    return lines_sentences((first_line + offset, 0, line) for offset, line in enumerate(text.split("\n")))


def strip_frontmatter(text: str) -> tuple[str, int]:
    """(body, file line of its first line) of a Markdown file with optional `---` YAML frontmatter,
    split as a session's is (corpustools.model.session.split_frontmatter)."""
    try:
        _, body, first_line = split_frontmatter(text, "")
    except InputError:  # no frontmatter, or one never closed: not frontmatter, read it all
        return text, 1
    return body, first_line
