"""The one text normalization shared by the linter and the scorer, so they can never disagree."""

from __future__ import annotations

import re
import unicodedata

# \w is letters, digits and underscore; [\W_] is therefore "neither a letter nor a digit".
_NOT_LETTER_OR_DIGIT = re.compile(r"[\W_]+")


def normalize(text: str) -> str:
    """NFKC, casefold, every run of non-letter/non-digit characters becomes one space, strip."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_LETTER_OR_DIGIT.sub(" ", folded).strip()


def contains_term(normalized_text: str, term: str) -> bool:
    """Whether `term`, normalized, occurs as a substring of already-normalized text.

    A term that normalizes to nothing matches nothing: an empty label must never
    pass every output.
    """
    needle = normalize(term)
    return bool(needle) and needle in normalized_text
