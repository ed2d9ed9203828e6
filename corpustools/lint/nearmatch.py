"""Near-duplicate search among many short texts, well below quadratic.

Comparing every pair of 400,000 sentences is 8*10^10 comparisons; instead candidates are blocked
two ways before rapidfuzz scores them:

- Shared rare words (prefix filtering). Each text's distinct words are ordered rarest first
  (document frequency over the indexed texts, then the word itself, so the order is
  deterministic). Two texts at least `t`% alike by characters are assumed to share all but
  about 2(100-t)% of their words, plus one; then their `prefix_length + 1` rarest words share at
  least two words, so each text is blocked under every *pair* of its rarest words and two texts
  are candidates only if they share such a pair. Pairs of rare words make small blocks where
  single words would not: in prose even a sentence's rarer words are shared by many sentences.
- Length band. The Indel similarity rapidfuzz's `ratio` computes is at most
  2*min(a, b)/(a + b) for lengths a and b, so each block is kept sorted by length and only the
  band of lengths that could reach the threshold is read.

The MASK placeholder of a skeleton is not a word and never forms a block.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from itertools import combinations
from dataclasses import dataclass
from typing import Sequence

from corpustools.lint.skeleton import MASK


@dataclass(frozen=True)
class NearPair:
    """Texts `a` and `b` (indexes, a < b for a self-join) scored `score` (0..100) by rapidfuzz."""

    a: int
    b: int
    score: float


def _words(text: str) -> set[str]:
    return {word for word in text.split() if word != MASK}


def prefix_length(distinct_words: int, threshold: float) -> int:
    """How many of a text's rarest words to block it under, for a 0..100 character threshold."""
    if distinct_words <= 0:
        return 0
    overlap = max(1, math.ceil(distinct_words * (2 * threshold / 100 - 1)) - 1)
    return max(1, min(distinct_words, distinct_words - overlap + 1))


def _length_band(length: int, threshold: float) -> tuple[float, float]:
    """Lengths another text may have and still reach `threshold` against one of `length`."""
    t = max(threshold, 1e-9) / 100
    return length * t / (2 - t), length * (2 - t) / t


class NearIndex:
    """The texts to search, blocked by their rarest words; build once, query many times."""

    def __init__(self, texts: Sequence[str], threshold: float) -> None:
        self.texts = list(texts)
        self.threshold = threshold
        word_sets = [_words(text) for text in self.texts]
        self.frequency = Counter(word for words in word_sets for word in words)
        blocks: dict[str, list[tuple[int, int]]] = {}
        for index, words in enumerate(word_sets):
            for key in self._keys(words):
                blocks.setdefault(key, []).append((len(self.texts[index]), index))
        self.blocks = {key: sorted(entries) for key, entries in blocks.items()}

    def _keys(self, words: set[str]) -> list[str]:
        """The block keys of a text: each pair of its rarest words (its one word, if it has one)."""
        known = sorted((self.frequency[w], w) for w in words if w in self.frequency)
        rarest = [word for _, word in known[:prefix_length(len(known), self.threshold) + 1]]
        if len(rarest) < 2:
            return rarest
        return [f"{a} {b}" for a, b in combinations(rarest, 2)]

    def candidates(self, text: str) -> list[int]:
        """Indexes of the texts that could be `threshold` alike to `text`, ascending."""
        low, high = _length_band(len(text), self.threshold)
        found: set[int] = set()
        for key in self._keys(_words(text)):
            block = self.blocks.get(key, ())
            start = bisect.bisect_left(block, (math.ceil(low), -1))
            for length, index in block[start:]:
                if length > high:
                    break
                found.add(index)
        return sorted(found)

    def matches(self, text: str, *, exclude_up_to: int = -1) -> list[tuple[int, float]]:
        """(index, score) of every indexed text scoring at least `threshold` against `text`,
        best first; indexes <= `exclude_up_to` are skipped (a self-join passes its own index)."""
        from rapidfuzz import fuzz, process

        choices = [i for i in self.candidates(text) if i > exclude_up_to]
        if not choices:
            return []
        found = process.extract(text, [self.texts[i] for i in choices], scorer=fuzz.ratio,
                                score_cutoff=self.threshold, limit=None)
        return sorted(((choices[position], score) for _, score, position in found),
                      key=lambda item: (-item[1], item[0]))


def near_pairs(texts: Sequence[str], threshold: float) -> list[NearPair]:
    """Every pair of distinct texts scoring at least `threshold` (identical texts are not pairs)."""
    index = NearIndex(texts, threshold)
    pairs = []
    for a, text in enumerate(index.texts):
        for b, score in index.matches(text, exclude_up_to=a):
            if index.texts[b] != text:
                pairs.append(NearPair(a, b, score))
    return sorted(pairs, key=lambda p: (p.a, p.b))
