"""Hints: where in a whole file's text a finder may find something, so that the scan runs the finder
only on those lines (scan.candidate_lines). A hint, given the text, returns a search: offset -> the
first offset at or after it that it points at, or -1. Each finder's hint must point at every line
where the finder could find anything; it may point at more. The text a hint is given is many files
joined by newlines (scan.Batch): a hint must not depend on where the text starts or ends (no `^`,
`$`, no lookbehind at its start), nor match across a newline (a needle may end with one: it points
at a line that ends so, as tokens' prefixes cut by a line break do)."""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterable
from typing import Any

Search = Callable[[int], int]
Hint = Callable[[str], Search]


class LazyPattern:
    """A regex compiled on first use (re's compiler costs a millisecond for a large pattern): a
    pattern only rare text needs (a private-key block, a phone number's context, a line of markup)
    costs a lint run nothing until such text is there."""

    def __init__(self, source: str, flags: int = 0):
        self.source, self.flags = source, flags
        self._pattern: re.Pattern | None = None

    def __getattr__(self, name: str) -> Any:
        if self._pattern is None:
            self._pattern = re.compile(self.source, self.flags)
        found = getattr(self._pattern, name)
        setattr(self, name, found)  # looked up as an attribute from now on, __getattr__ no more
        return found


def regex_hint(pattern: re.Pattern) -> Hint:
    """A hint from a pattern that matches wherever the finder can find anything."""
    def search(text: str) -> Search:
        return lambda pos: match.start() if (match := pattern.search(text, pos)) is not None else -1
    return search


def _find(haystack: str, needle: str) -> Search:
    """Next occurrence of `needle`; each stretch of the text is searched once, however often asked."""
    next_at = -2

    def search(pos: int) -> int:
        nonlocal next_at
        if -1 != next_at < pos:
            next_at = haystack.find(needle, pos)
        return next_at
    return search


def _first(searches: list[Search]) -> Search:
    """Where the first of `searches` points, for offsets asked in increasing order (as
    scan.candidate_lines asks): a heap of each search's next hit, so a hit costs one search and a
    heap step, not one call per needle."""
    heap = [(at, index) for index, search in enumerate(searches) if (at := search(0)) >= 0]
    heapq.heapify(heap)

    def search(pos: int) -> int:
        while heap and heap[0][0] < pos:
            index = heap[0][1]
            at = searches[index](pos)
            if at < 0:
                heapq.heappop(heap)
            else:
                heapq.heapreplace(heap, (at, index))
        return heap[0][0] if heap else -1
    return search


def _by_first_character(needles: Iterable[str]) -> list[str | re.Pattern]:
    """`needles` grouped by their first character: a needle alone in its group stays a string
    (str.find is the fastest search for one literal), a group becomes one pattern
    (`x(?:ai\\-|app\\-|ox)`). re looks for a pattern's leading literal character at C speed and
    tries the rest only there, so the text is searched once per first character instead of once
    per needle: 38 needles of CT501 are 17 searches, half the time on the shipped corpus."""
    groups: dict[str, list[str]] = {}
    for needle in sorted(set(needles)):
        groups.setdefault(needle[0], []).append(needle)
    return [group[0] if len(group) == 1 else
            re.compile(re.escape(first) + "(?:" + "|".join(re.escape(needle[1:]) for needle in group) + ")")
            for first, group in groups.items()]


def _searches(text: str, groups: list[str | re.Pattern]) -> list[Search]:
    return [_find(text, group) if isinstance(group, str) else regex_hint(group)(text) for group in groups]


def literal_hint(needles: Iterable[str], any_case: Iterable[str] = ()) -> Hint:
    """A hint from literal needles (`any_case` ones in any letter case), searched at C speed by
    their first character (see _by_first_character); a regex alternating between dozens of
    literals would try each at every position."""
    needles = sorted(set(needles))
    lowered = sorted({needle.lower() for needle in any_case})
    exact, folded = _by_first_character(needles), _by_first_character(lowered)
    # An ASCII text (most batches: scan._batches) holds no needle in another script: those are
    # not searched for there.
    ascii_exact = _by_first_character(needle for needle in needles if needle.isascii())
    ascii_folded = _by_first_character(needle for needle in lowered if needle.isascii())
    any_case_pattern = re.compile("|".join(map(re.escape, lowered)), re.IGNORECASE) if lowered else None

    def search(text: str) -> Search:
        narrow = text.isascii()
        searches = _searches(text, ascii_exact if narrow else exact)
        if any_case_pattern is not None:  # there are folded needles
            lower = text.lower()
            if len(lower) == len(text):
                searches += _searches(lower, ascii_folded if narrow else folded)
            else:  # lowercasing moved offsets (a few non-ASCII letters): search case-insensitively
                searches.append(regex_hint(any_case_pattern)(text))
        return _first(searches)
    return search


def any_hint(*hints: Hint) -> Hint:
    """Where any of `hints` points."""
    return lambda text: _first([hint(text) for hint in hints])
