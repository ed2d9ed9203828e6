"""Did-you-mean: the one way corpustools finds what a misspelt key, value or name was meant to be
(difflib's ratio, as ruff and git suggest), so every message that offers a correction agrees."""

from __future__ import annotations

from collections.abc import Iterable

CUTOFF = 0.6  # difflib's default: 'must_mach_all' -> 'must_match_all', 'nots' -> 'notes'


def unknown_key_message(key, allowed: Iterable[str], meant: str | None = None) -> str:
    """The one line for a key that is not allowed where it stands: the key it was meant to be
    (`meant`, else the closest allowed key), or the keys allowed there."""
    allowed = sorted(set(allowed))
    meant = meant if meant is not None else closest(str(key), allowed)
    if meant is not None:
        return f"unknown key {key!r}: did you mean {meant!r}?"
    return f"unknown key {key!r} (allowed here: {', '.join(allowed)})"


def closest(word: str, candidates: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The candidate nearest to `word`, or None when none is near enough (compared as given)."""
    import difflib  # only when a name is wrong: not paid by every run that might suggest one

    found = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=cutoff)
    return found[0] if found else None
