"""Did-you-mean: the one way corpustools finds what a misspelt key, value or name was meant to be
(difflib's ratio, as ruff and git suggest), so every message that offers a correction agrees."""

from __future__ import annotations

import re
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


def unknown_choice_message(value: str, choices: Iterable[str]) -> str:
    """The one line for a value that is none of an argument's choices (argparse's words, then what
    it was probably meant to be, then every choice): every choice that has a whole word of it
    (`report` -> `score-report` or `compare-report` ...), else the closest choice (`jsn` -> `json`)."""
    choices = list(choices)
    nearest = _sharing_a_word(value, choices)
    if not nearest:
        meant = closest(value, choices)
        nearest = [meant] if meant is not None else []
    suggestion = f": did you mean {' or '.join(repr(name) for name in nearest)}?" if nearest else ""
    return f"invalid choice: {value!r}{suggestion} (choose from {', '.join(repr(name) for name in choices)})"


def _sharing_a_word(value: str, choices: list[str]) -> list[str]:
    words = set(_WORDS.findall(value.casefold()))
    return [name for name in choices if words & set(_WORDS.findall(name.casefold()))]


def closest(word: str, candidates: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The candidate nearest to `word`, or None when none is near enough (compared as given).

    Whole words both names share at their start or end do not count towards nearness: the
    `-01` every fixture id ends with made `escalate-silent-01` look like `new-patient-01`."""
    import difflib  # only when a name is wrong: not paid by every run that might suggest one

    scored = []
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    for candidate in sorted(set(candidates)):
        matcher.set_seq1(candidate)
        # Setting shared words aside never raises the ratio (both lose the same matched
        # characters), so difflib's quick upper bounds still rule a candidate out early.
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            rest = _unshared(word, candidate)
            near = matcher.ratio() if rest is None else difflib.SequenceMatcher(None, rest[1], rest[0]).ratio()
            if near >= cutoff:
                scored.append((near, candidate))
    return max(scored)[1] if scored else None


_WORDS = re.compile(r"[^-_./ ]+")  # separators apart: `pass-rate` is `pass_rate` mistyped


def _unshared(word: str, candidate: str) -> tuple[str, str] | None:
    """What is left of each name once the words both share at either end are set aside; None
    (compare the whole names) when nothing is shared, nothing of one name would be left, or what
    is left of both is a number (`-02` for `-01` is a near miss)."""
    ours, theirs = _WORDS.findall(word), _WORDS.findall(candidate)
    shortest = min(len(ours), len(theirs))
    start = 0
    while start < shortest and ours[start] == theirs[start]:
        start += 1
    end = 0
    while end < shortest - start and ours[-1 - end] == theirs[-1 - end]:
        end += 1
    left, right = " ".join(ours[start:len(ours) - end]), " ".join(theirs[start:len(theirs) - end])
    if not (start or end) or not left or not right or (left.isdigit() and right.isdigit()):
        return None
    return left, right
