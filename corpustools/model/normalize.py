"""The one text normalization shared by the linter and the scorer, so they can never disagree, and
the two rules of what a term matches (docs/scoring.md, "What a term matches").

`normalize` is the normalization every similarity rule reads (skeletons, templates, near
duplicates: CT70x) and `substring` matching keeps. A `Matching` is one rule of what a label's term
matches in an output or a transcript: `WORDS` (the default) or `SUBSTRING` (corpus.yaml's
`output: {matching: substring}`). The scorer, the label rules (CT6xx), the near-miss evidence and
the HTML report's marks all ask the corpus's one `Matching`, so lint and score cannot disagree.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

# \w is letters, digits and underscore; [\W_] is therefore "neither a letter nor a digit".
_NOT_LETTER_OR_DIGIT = re.compile(r"[\W_]+")
# normalize()'s tokens: runs of letters and digits (what _NOT_LETTER_OR_DIGIT separates).
_ALPHANUMERIC_RUN = re.compile(r"[^\W_]+")
# The words matching's tokens: a number (digits, and digits joined by one `.` or `,` between
# digits: 2.5, 1,000, 4.400), or a run of letters (and the other word characters that are no
# decimal digit). A letter next to a digit is therefore a word boundary: 10mg is `10 mg`.
_WORD_OR_NUMBER = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
# The same tokens in a folded ASCII text (most turns), where they are ASCII digits and lowercase
# letters: a pattern of plain character sets, searched faster than Unicode's classes.
_ASCII_WORD_OR_NUMBER = re.compile(r"[0-9]+(?:[.,][0-9]+)*|[a-z]+")
_DIGIT = re.compile(r"\d")

# A possessive or contraction 's after a letter or digit, ending a word: "content's", "it's".
# Dropped so that "the content's UUID" contains the term `content uuid`; a quoted 's ('s', 'sql')
# is not after a letter or digit, or not at a word's end, and stays.
_APOSTROPHE_S = re.compile(r"(?<=[^\W_])['\u2019]s(?![^\W_])")

# Scripts written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar): every
# character of them may start a word, or no term could be found inside a sentence of them.
_UNSPACED_CLASS = ("[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf"
                   "\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
_FIRST_UNSPACED = "\u0e00"  # every character before it is of a spaced script


@lru_cache(maxsize=1)
def _unspaced_pattern() -> re.Pattern[str]:
    # compiled on the first character past U+0E00: its ranges cost about 2 ms to compile, which a
    # corpus in a spaced script (most) would pay at every start for nothing
    return re.compile(_UNSPACED_CLASS)


def _is_unspaced(char: str) -> bool:
    """Whether `char` is of a script written without spaces between words."""
    return char >= _FIRST_UNSPACED and _unspaced_pattern().match(char) is not None


def _fold(text: str) -> str:
    """NFKC, casefold, and a word-final 's dropped ("content's" -> "content")."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if "'" in folded or "\u2019" in folded:
        folded = _APOSTROPHE_S.sub("", folded)
    return folded


def normalize(text: str) -> str:
    """NFKC, casefold, drop a word-final 's ("content's" -> "content"), every run of
    non-letter/non-digit characters becomes one space, strip."""
    return _NOT_LETTER_OR_DIGIT.sub(" ", _fold(text)).strip()


def normalize_words(text: str) -> str:
    """Words matching's normalization: as normalize(), except that a number keeps the `.` or `,`
    between its digits (`2.5`, `1,000`) and a letter next to a digit is a word boundary
    (`10mg` -> `10 mg`, `5MG` -> `5 mg`)."""
    folded = _fold(text)
    return " ".join((_ASCII_WORD_OR_NUMBER if folded.isascii() else _WORD_OR_NUMBER).findall(folded))


@dataclass(frozen=True, eq=False)
class Matching:
    """One rule of what a term matches: how a text and a term are normalized, and where in a
    normalized text the normalized term counts as found. A term that normalizes to nothing matches
    nothing: an empty label must never pass every output."""

    name: str  # what corpus.yaml's output.matching says
    normalize_text: Callable[[str], str]  # the normalization
    _tokens: re.Pattern  # the normalization's tokens, joined by one space: what _source_spans replays
    at_words: bool  # a term starts at a word start, and one ending in a digit ends where its number ends

    def normalize(self, text: str) -> str:
        return self.normalize_text(text)

    def needle(self, term: str) -> str:
        """The term normalized: a label's few terms are looked for in every item and turn, so
        each is normalized once."""
        return _normalized_term(self.normalize_text, term)

    def contains(self, normalized_text: str, term: str) -> bool:
        """Whether `term` occurs in already-normalized text under this rule."""
        needle = self.needle(term)
        if not needle or needle not in normalized_text:
            return False
        return not self.at_words or next(self._places(normalized_text, needle, overlapping=False), None) is not None

    def count(self, normalized_text: str, term: str) -> int:
        """How many times `term` occurs in already-normalized text, occurrences never overlapping."""
        needle = self.needle(term)
        if not needle:
            return 0
        if not self.at_words:
            return normalized_text.count(needle)
        return sum(1 for _ in self._places(normalized_text, needle, overlapping=False))

    def occurrences(self, normalized_text: str, term: str) -> tuple[tuple[int, int], ...]:
        """(start, end) in already-normalized text of each occurrence count() counts: where
        several terms name one thing (an entry of alternatives), a place two of them match is one."""
        needle = self.needle(term)
        if not needle:
            return ()
        return tuple((at, at + len(needle)) for at in self._places(normalized_text, needle, overlapping=False))

    def same_value(self, expected, got) -> bool:
        """Whether a result's JSON value `got` is the sidecar's `expected` one (expected_fields,
        item_fields): a string equals after this normalization (`5mg` is `5 mg` under words, `2.5 mg`
        is not); a number, a boolean or null exactly, of its own JSON type (`true` is not `1`, `"1"`
        is not `1`)."""
        if isinstance(expected, str):
            return isinstance(got, str) and self.normalize(expected) == self.normalize(got)
        if isinstance(expected, bool) or expected is None:
            return got is expected
        return isinstance(got, (int, float)) and not isinstance(got, bool) and got == expected

    def spans(self, text: str, term: str) -> tuple[tuple[int, int], ...]:
        """(start, end) offsets in the original `text` of every place where `term` occurs in its
        normalized form, so a report can mark the very characters the scorer matched.

        Occurrences may overlap ("aaa" holds "aa" twice). A span covers whole source characters: a
        term matching half of the ligature "\ufb01" marks the ligature. Agrees with contains() by
        construction: the occurrences are searched in the normalized text itself; only their
        mapping back to `text` comes from _source_spans.
        """
        needle = self.needle(term)
        if not needle:
            return ()
        normalized = self.normalize(text)
        places = list(self._places(normalized, needle, overlapping=True))
        if not places:
            return ()
        sources = _source_spans(text, normalized, self._tokens)
        return tuple((sources[at][0], sources[at + len(needle) - 1][1]) for at in places)

    def _places(self, normalized_text: str, needle: str, *, overlapping: bool) -> Iterator[int]:
        """Where `needle` (normalized, not empty) occurs in `normalized_text`, in order."""
        step = 1 if overlapping else len(needle)
        ends_in_number = self.at_words and _DIGIT.match(needle[-1]) is not None
        unspaced_start = self.at_words and _is_unspaced(needle[0])
        at = normalized_text.find(needle)
        while at != -1:
            end = at + len(needle)
            if not self.at_words or (
                    (at == 0 or unspaced_start or normalized_text[at - 1].isspace()
                     or _is_unspaced(normalized_text[at - 1]))
                    and not (ends_in_number and end < len(normalized_text) and not normalized_text[end].isspace())):
                yield at
                at = normalized_text.find(needle, at + step)
            else:
                at = normalized_text.find(needle, at + 1)


@lru_cache(maxsize=65536)
def _normalized_term(normalization: Callable[[str], str], term: str) -> str:
    return normalization(term)


# Words: a term matches only where it starts at a word start, and may end inside a word
# (`cache tag` finds `cache tags`, `revers` finds `reversal`), except that a term ending in a digit
# matches only where that number ends (`5 mg` is not in `2.5 mg`, `25 mg` or `0.5 mg`).
WORDS = Matching("words", normalize_words, _WORD_OR_NUMBER, True)
# Substring: a term matches wherever its normalized form is a substring of the normalized text
# (the only rule before `matching` existed: `tag` is found in `hashtag`, `5 mg` in `2.5 mg`).
SUBSTRING = Matching("substring", normalize, _ALPHANUMERIC_RUN, False)
MATCHINGS = {matching.name: matching for matching in (WORDS, SUBSTRING)}


def _source_spans(text: str, normalized: str, tokens: re.Pattern) -> list[tuple[int, int]]:
    """For each character of `normalized` (the `tokens` of _fold(text) joined by one space), the
    span of `text` it came from; a space that joins two tokens with nothing between them
    (`10mg` -> `10 mg`) is the empty span where the second begins.

    Replays the normalization on pieces of `text` that NFKC treats independently; should that
    replay ever disagree with it (an exotic composition across pieces), every character maps to
    the whole text: coarse, never wrong.
    """
    folded: list[tuple[str, int, int]] = []  # (character, source start, source end)
    for start, end in _nfkc_pieces(text):
        folded += [(ch, start, end) for ch in unicodedata.normalize("NFKC", text[start:end]).casefold()]
    folded_text = "".join(ch for ch, _, _ in folded)
    if "'" in folded_text or "\u2019" in folded_text:
        dropped = {i for m in _APOSTROPHE_S.finditer(folded_text) for i in range(m.start(), m.end())}
        folded = [c for i, c in enumerate(folded) if i not in dropped]
        folded_text = "".join(ch for ch, _, _ in folded)
    mapped: list[tuple[int, int]] = []
    replayed: list[str] = []
    last = None  # where the previous token ended
    for token in tokens.finditer(folded_text):
        if last is not None:  # the one space before this token: the characters it replaced
            gap = folded[last:token.start()]
            mapped.append((gap[0][1], gap[-1][2]) if gap else (folded[token.start()][1],) * 2)
        mapped += [(s, e) for _, s, e in folded[token.start():token.end()]]
        replayed.append(token.group())
        last = token.end()
    if " ".join(replayed) != normalized:
        return [(0, len(text))] * len(normalized)
    return mapped


def _nfkc_pieces(text: str) -> list[tuple[int, int]]:
    """Split `text` into (start, end) pieces whose NFKC forms concatenate to the NFKC of the
    whole: a starter with its combining marks, merged with the next piece whenever normalizing
    the two together differs (Hangul jamo, and other compositions between starters)."""
    pieces: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        if pieces and unicodedata.combining(ch):
            pieces[-1] = (pieces[-1][0], i + 1)
            continue
        if pieces:
            start, end = pieces[-1]
            before, piece = text[start:end], text[end:i + 1]
            if unicodedata.normalize("NFKC", before + piece) != (
                    unicodedata.normalize("NFKC", before) + unicodedata.normalize("NFKC", piece)):
                pieces[-1] = (start, i + 1)
                continue
        pieces.append((i, i + 1))
    return pieces
