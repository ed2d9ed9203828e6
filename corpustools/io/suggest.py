"""Did-you-mean: the one way corpustools finds what a misspelt key, value or name was meant to be
(difflib's ratio, as ruff and git suggest), so every message that offers a correction agrees."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6  # difflib's default: 'must_mach_all' -> 'must_match_all', 'nots' -> 'notes'


def closest(word: str, candidates: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The candidate nearest to `word`, or None when none is near enough (compared as given)."""
    found = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=cutoff)
    return found[0] if found else None
