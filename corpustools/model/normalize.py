"""The one text normalization shared by the linter and the scorer, so they can never disagree."""

from __future__ import annotations

import re
import unicodedata

# \w is letters, digits and underscore; [\W_] is therefore "neither a letter nor a digit".
_NOT_LETTER_OR_DIGIT = re.compile(r"[\W_]+")

# A possessive or contraction 's after a letter or digit, ending a word: "content's", "it's".
# Dropped so that "the content's UUID" contains the term `content uuid`; a quoted 's ('s', 'sql')
# is not after a letter or digit, or not at a word's end, and stays.
_APOSTROPHE_S = re.compile(r"(?<=[^\W_])['\u2019]s(?![^\W_])")


def normalize(text: str) -> str:
    """NFKC, casefold, drop a word-final 's ("content's" -> "content"), every run of
    non-letter/non-digit characters becomes one space, strip."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if "'" in folded or "\u2019" in folded:
        folded = _APOSTROPHE_S.sub("", folded)
    return _NOT_LETTER_OR_DIGIT.sub(" ", folded).strip()


def contains_term(normalized_text: str, term: str) -> bool:
    """Whether `term`, normalized, occurs as a substring of already-normalized text.

    A term that normalizes to nothing matches nothing: an empty label must never
    pass every output.
    """
    needle = normalize(term)
    return bool(needle) and needle in normalized_text


def term_spans(text: str, term: str) -> tuple[tuple[int, int], ...]:
    """(start, end) offsets in the original `text` of every place where `term` occurs in
    normalize(text), so a report can mark the very characters the scorer matched.

    Occurrences may overlap ("aaa" holds "aa" twice). A span covers whole source characters: a
    term matching half of the ligature "\ufb01" marks the ligature. Agrees with contains_term by
    construction: the occurrences are searched in normalize(text) itself; only their mapping back
    to `text` comes from _source_spans.
    """
    needle = normalize(term)
    if not needle:
        return ()
    normalized = normalize(text)
    sources = _source_spans(text, normalized)
    spans = []
    at = normalized.find(needle)
    while at != -1:
        spans.append((sources[at][0], sources[at + len(needle) - 1][1]))
        at = normalized.find(needle, at + 1)
    return tuple(spans)


def _source_spans(text: str, normalized: str) -> list[tuple[int, int]]:
    """For each character of `normalized` (== normalize(text)), the span of `text` it came from.

    Replays normalize() on pieces of `text` that NFKC treats independently; should that replay
    ever disagree with normalize() (an exotic composition across pieces), every character maps to
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
    last = 0
    for run in _NOT_LETTER_OR_DIGIT.finditer(folded_text):
        mapped += [(s, e) for _, s, e in folded[last:run.start()]]
        mapped.append((folded[run.start()][1], folded[run.end() - 1][2]))  # the run becomes one space
        last = run.end()
    mapped += [(s, e) for _, s, e in folded[last:]]
    replayed = _NOT_LETTER_OR_DIGIT.sub(" ", folded_text)
    strip_left = len(replayed) - len(replayed.lstrip())
    mapped = mapped[strip_left:strip_left + len(replayed.strip())]
    if replayed.strip() != normalized:
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
