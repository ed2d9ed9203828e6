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
