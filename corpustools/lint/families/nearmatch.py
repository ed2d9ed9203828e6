"""Near-duplicate search among many short texts, well below quadratic.

Comparing every pair of 400,000 sentences is 8*10^10 comparisons; instead candidates are blocked
two ways before rapidfuzz scores them:

- Shared rare words (prefix filtering). Each text's distinct words are ordered rarest first
  (document frequency over the indexed texts, then the word itself, so the order is
  deterministic). Two texts at least `t`% alike by characters are assumed to share all but
  2(100-t)% of their distinct words (on sentences with one or two words edited, 99.9% do); then
  their `prefix_length + 2` rarest words share at least three words, so each text is blocked
  under every *triple* of its rarest words (packed into one integer) and two texts are
  candidates only if they share such a triple. Triples of rare words make small blocks where
  single words or pairs would not: in prose even a sentence's rarer words, and pairs of them,
  are shared by many sentences. (Blocking on pairs of the `prefix_length + 1` rarest words was
  slower at 10,000 fixtures, and a prototype of it lost 43 of 900 planted near-duplicates
  where triples lost none; tests/test_lint_templates.py plants one-word swaps to keep it so.)
- Bounded blocks. A key held by more than MAX_BLOCK texts is too common to be evidence of a
  template (it is made of the most frequent words): once that many texts hold it, it is never
  read again. No search reads more than a fixed number of candidates, so the search stays
  linear in the number of texts. The price: sentences made only of very common words can be
  missed (deterministically: texts are indexed in the order given, and callers sort them).
- Length band. The Indel similarity rapidfuzz's `ratio` computes is at most
  2*min(a, b)/(a + b) for lengths a and b, so only candidates in the band of lengths that could
  reach the threshold are scored.

The MASK placeholder of a skeleton is not a word and never forms a block.

A key held by one text never makes two texts candidates. At 10,000 generated fixtures nearly
all of the 13.7 million triple keys are one skeleton's own, and keeping them one Python object
each cost 27 s and most of a gigabyte; so from ARRAYS_FROM texts on, near_pairs finds the same
candidates on numpy arrays (nearmatch_arrays: keys counted and grouped by sorting). Below it,
NearIndex's dicts do it, and lint of a small corpus never imports numpy. Both give the same
candidates, in the same order (tests/test_lint_templates.py compares them).
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from corpustools.lint.families.skeleton import MASK

MAX_BLOCK = 64
# From this many texts near_pairs searches on numpy arrays (nearmatch_arrays): below it, importing
# numpy would cost more than it saves.
ARRAYS_FROM = 4_000
DEAD = None  # a block held by too many texts: never read or grown again


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
    overlap = max(1, math.ceil(distinct_words * (2 * threshold / 100 - 1)))
    return max(1, min(distinct_words, distinct_words - overlap + 1))


def length_band(length: int, threshold: float) -> tuple[float, float]:
    """Lengths another text may have and still reach `threshold` against one of `length`."""
    t = max(threshold, 1e-9) / 100
    return length * t / (2 - t), length * (2 - t) / t


class NearIndex:
    """Texts blocked by triples of their rarest words, searchable for near matches.

    Word rarity is counted over `vocabulary` (the texts a search is about). With `insert`, those
    texts are indexed at once; near_pairs instead inserts each text after searching for it.
    """

    def __init__(self, vocabulary: Sequence[str], threshold: float, *, insert: bool = True) -> None:
        self.threshold = threshold
        self.texts: list[str] = []
        self.lengths: list[int] = []
        # key -> member indexes; most keys have one member, kept as a bare int to save memory;
        # DEAD once more than MAX_BLOCK texts hold the key
        self.blocks: dict[int, int | list[int] | None] = {}
        self._widths: dict[int, int] = {}  # distinct known words -> how many rarest to block under (keys)
        frequency: Counter = Counter()
        for text in vocabulary:
            frequency.update(_words(text))
        # rarest first; ties by the word itself, so the order never depends on input order
        self.rank = {word: rank for rank, word in enumerate(sorted(frequency, key=lambda w: (frequency[w], w)))}
        # With `insert`: the ranks of every indexed text's rarest words, all a block key is made of.
        # A search skips the keys it would make of other words: no block holds them.
        self._blocked_ranks: set[int] | None = None
        if insert:
            self._blocked_ranks = set()
            for text in vocabulary:
                rarest = self._rarest(text)
                self._blocked_ranks.update(rarest)
                self._insert(text, self._keys_of(rarest))

    def _rarest(self, text: str) -> list[int]:
        """The ranks of the text's rarest words it is blocked under, ascending."""
        rank = self.rank
        # the text's distinct words the vocabulary has (MASK never is one: see _words)
        ranks = sorted([rank[w] for w in rank.keys() & text.split()])
        width = self._widths.get(len(ranks))
        if width is None:
            width = self._widths[len(ranks)] = prefix_length(len(ranks), self.threshold) + 2
        return ranks[:width]

    def keys(self, text: str) -> list[int]:
        """The block keys of a text: each triple of its rarest words (its two or one words, if it
        has no more), as distinct numbers: word ranks a < b < c are (a * n + b) * n + c for a
        vocabulary of n words; a pair a < b is -1 - n - (a * n + b); one word a is -1 - a."""
        return self._keys_of(self._rarest(text))

    def _keys_of(self, rarest: list[int]) -> list[int]:
        if len(rarest) >= 3:
            return self._triples(rarest)
        size = len(self.rank)
        if len(rarest) == 2:
            return [-1 - size - (rarest[0] * size + rarest[1])]
        return [-1 - r for r in rarest]

    def _triples(self, ranks: list[int]) -> list[int]:
        size = len(self.rank)
        return [(a * size + b) * size + c for a, b, c in combinations(ranks, 3)]

    def _searched_keys(self, text: str) -> list[int]:
        """keys(text), less those no block can hold (made of a word no indexed text is blocked under)."""
        rarest = self._rarest(text)
        blocked = self._blocked_ranks
        if blocked is None:
            return self._keys_of(rarest)
        if len(rarest) >= 3:
            kept = [r for r in rarest if r in blocked]
            return self._triples(kept) if len(kept) >= 3 else []
        return self._keys_of(rarest) if all(r in blocked for r in rarest) else []

    def _insert(self, text: str, keys: list[int]) -> int:
        index = len(self.texts)
        self.texts.append(text)
        self.lengths.append(len(text))
        blocks = self.blocks
        for key in keys:
            if key not in blocks:
                blocks[key] = index
                continue
            members = blocks[key]
            if isinstance(members, int):
                blocks[key] = [members, index]
            elif members is not DEAD:
                if len(members) < MAX_BLOCK:
                    members.append(index)
                else:
                    blocks[key] = DEAD
        return index

    def _candidates(self, length: int, keys: list[int]) -> list[int]:
        low, high = length_band(length, self.threshold)
        lengths, blocks, found = self.lengths, self.blocks, set()
        for key in keys:
            members = blocks.get(key)
            if members is None:  # unknown or DEAD
                continue
            for index in (members,) if isinstance(members, int) else members:
                if low <= lengths[index] <= high:
                    found.add(index)
        return sorted(found)

    def _score(self, text: str, candidates: list[int]) -> list[tuple[int, float]]:
        from rapidfuzz.fuzz import ratio  # rapidfuzz: a lint run only; --list-rules loads this module

        texts, cutoff, found = self.texts, self.threshold, []
        for index in candidates:
            score = ratio(text, texts[index], score_cutoff=cutoff)
            if score >= cutoff:  # rapidfuzz returns 0 below the cutoff
                found.append((index, score))
        return sorted(found, key=lambda item: (-item[1], item[0]))

    def candidates(self, text: str) -> list[int]:
        """Indexes of the indexed texts that could be `threshold` alike to `text`, ascending."""
        return self._candidates(len(text), self._searched_keys(text))

    def matches(self, text: str) -> list[tuple[int, float]]:
        """(index, score) of every indexed text scoring at least `threshold`, best first."""
        candidates = self.candidates(text)
        return self._score(text, candidates) if candidates else []  # most texts searched have none


@dataclass(frozen=True)
class CandidatePairs:
    """The pairs of texts to score: (a[i], b[i]) with a < b, sorted. Two arrays of machine
    integers, not a tuple per pair: at 10,000 fixtures CT702 has 444,356 of them."""

    a: array
    b: array

    @classmethod
    def of(cls, pairs: Iterable[tuple[int, int]]) -> CandidatePairs:
        ordered = sorted(pairs)
        return cls(array("q", [a for a, _ in ordered]), array("q", [b for _, b in ordered]))


def candidate_pairs_indexed(texts: Sequence[str], threshold: float) -> CandidatePairs:
    """Every two texts the blocks make candidates: each text is searched for among the texts
    before it (NearIndex's blocks and length band), then inserted."""
    index = NearIndex(texts, threshold, insert=False)
    found: list[tuple[int, int]] = []
    for b, text in enumerate(texts):
        keys = index.keys(text)
        found += [(a, b) for a in index._candidates(len(text), keys)]
        index._insert(text, keys)
    return CandidatePairs.of(found)


def candidate_pairs(texts: Sequence[str], threshold: float) -> CandidatePairs:
    """candidate_pairs_indexed(texts, threshold), on numpy arrays for ARRAYS_FROM texts or more."""
    if len(texts) >= ARRAYS_FROM:
        from corpustools.lint.families import nearmatch_arrays  # numpy: only ARRAYS_FROM texts or more

        found = nearmatch_arrays.candidate_pairs(texts, threshold)
        if found is not None:
            return found
    return candidate_pairs_indexed(texts, threshold)


def near_pairs(texts: Sequence[str], threshold: float) -> list[NearPair]:
    """Every pair of distinct candidate texts scoring at least `threshold` (identical texts are
    not pairs), sorted by (a, b); the score is rapidfuzz's ratio of text b to text a."""
    from rapidfuzz.fuzz import ratio  # rapidfuzz: a lint run only; --list-rules loads this module

    pairs = []
    candidates = candidate_pairs(texts, threshold)
    for a, b in zip(candidates.a, candidates.b, strict=True):
        if texts[a] != texts[b]:
            score = ratio(texts[b], texts[a], score_cutoff=threshold)
            if score >= threshold:  # rapidfuzz returns 0 below the cutoff
                pairs.append(NearPair(a, b, score))
    return pairs
