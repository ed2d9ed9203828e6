"""nearmatch's candidate search on numpy arrays, for many texts (CT702 on a large corpus).

The candidates are exactly those of `nearmatch.candidate_pairs_indexed`: the same word ranks, the
same rarest-word prefixes and triple keys, the same MAX_BLOCK and length band. Only the
bookkeeping differs: every block key of every text is one int64 in an array, and keys are counted
and grouped by sorting arrays instead of one Python dict operation per key. At 10,000
generated fixtures that is 13.7 million keys of 268,729 skeletons: about 27 s of Python before,
a few seconds of sorts here (docs/performance.md). Memory is the constraint at that size (lint's
peak is in this search): the repeated keys are found by sorting a 32-bit hash of each key, a part
at a time, and only the keys whose hash repeats are kept as keys.

The blocks, restated as a property of a sorted array: a text `b` holding key K meets, before it
is inserted, the texts before it that hold K, unless more than MAX_BLOCK do (the block is dead).
So when K's holders are sorted by index, each of the first MAX_BLOCK + 1 meets every holder
before it, and later holders meet none. A key held by one text meets nothing.

numpy is imported here only: nearmatch imports this module for a search over ARRAYS_FROM texts
or more, so linting a small corpus never pays numpy's start-up.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterator, Sequence
from itertools import combinations

import numpy as np

from corpustools.lint.families.nearmatch import MAX_BLOCK, CandidatePairs, length_band, prefix_length
from corpustools.lint.families.skeleton import MASK

# Keys are generated in chunks of about this many (8 bytes each), so the transient arrays of the
# second pass stay small next to the one array of every key the first pass sorts.
CHUNK_KEYS = 1 << 19
# The most key hashes (4 bytes each) sorted at once: 32 MB; more are sorted in passes (_repeated_hashes).
PASS_KEYS = 1 << 23
LARGEST_KEY = 2**63 - 1
BITMAP_SLOTS = 1 << 24  # one byte each: 16 MB while the second pass runs, after the first's array is freed
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # 2**64 / the golden ratio, odd: _key_hashes' multiplier


class _WordIds(dict):
    """word -> a number, given in order of first sight."""

    def __missing__(self, word: str) -> int:
        number = self[word] = len(self)
        return number


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, ascending (values is sorted in place)."""
    values.sort()
    return values[np.concatenate(([True], values[1:] != values[:-1]))] if len(values) else values


def _distinct_words(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(holder, word) of each distinct word of each text, by holder, MASK left out; and the words
    by number. Each text's words are made distinct as a set, so no array of every token is made
    and sorted (at 10,000 fixtures that array and its sort were the search's largest memory)."""
    ids = _WordIds()
    words = array("i")
    counts = array("i")
    number = ids.__getitem__
    for text in texts:
        distinct = set(text.split())
        distinct.discard(MASK)
        words.extend(map(number, distinct))
        counts.append(len(distinct))
    holder = np.repeat(np.arange(len(texts), dtype=np.intc), np.frombuffer(counts, dtype=np.intc))
    return holder, np.frombuffer(words, dtype=np.intc), list(ids)


def _ranked(word: np.ndarray, vocabulary: list[str]) -> np.ndarray:
    """Each word's rank: rarest first by document frequency, ties by the word itself (NearIndex.rank);
    int32, as the word numbers are."""
    size = len(vocabulary)
    frequency = np.bincount(word, minlength=size)
    spelling = np.empty(size, dtype=np.int64)
    spelling[sorted(range(size), key=vocabulary.__getitem__)] = np.arange(size)
    rank = np.empty(size, dtype=word.dtype)
    rank[np.lexsort((spelling, frequency))] = np.arange(size)
    return rank[word]


def _rarest_rows(texts: Sequence[str], threshold: float) -> tuple[list[tuple[np.ndarray, np.ndarray]], int]:
    """For each width w: (holders, a rows x w matrix of their w rarest word ranks, ascending), the
    texts whose block keys come from w words (NearIndex.keys); and the vocabulary size.

    Every array here has one element per distinct word of each text (millions at 10,000 fixtures):
    holders, ranks and positions are int32 (two billion distinct words would be tens of gigabytes of
    text first), and so is the sort key when it fits."""
    holder, word, vocabulary = _distinct_words(texts)
    size = len(vocabulary)
    scale = max(size, 1)
    ranked = _ranked(word, vocabulary)
    del word
    # The sort key, text then rank, in 32 bits when it fits (it does up to some 10,000 fixtures)
    ordered = holder.astype(np.int32 if len(texts) * scale < 2**31 else np.int64)
    ordered *= scale
    ordered += ranked
    del ranked
    ordered.sort()  # by text, then rank: each text keeps its place and its count, so `holder` stays right
    ordered %= scale
    rank = ordered.astype(holder.dtype, copy=False)
    del ordered
    distinct = np.bincount(holder, minlength=len(texts))
    prefix = np.array([prefix_length(n, threshold) for n in range(int(distinct.max(initial=0)) + 1)])
    width = np.minimum(prefix[distinct] + 2, distinct).astype(holder.dtype)
    # Where each text's `width` rarest ranks are: its first rank's place, then the next ones.
    kept = np.repeat((np.cumsum(distinct) - distinct).astype(holder.dtype), width)
    kept += np.arange(len(kept), dtype=holder.dtype)
    kept -= np.repeat((np.cumsum(width) - width).astype(holder.dtype), width)
    holder = holder[kept]
    rank = rank[kept]
    del kept
    width_of = width[holder]
    rows = []
    # The widths in use, ascending: np.unique's values, without its import of numpy.ma (10 ms)
    for w in np.flatnonzero(np.bincount(width[width > 0])).tolist():
        chosen = width_of == w
        rows.append((holder[chosen][::w], rank[chosen].reshape(-1, w)))
    return rows, size


def _keys_per_text(width: int) -> int:
    return math.comb(width, 3) if width >= 3 else 1


def _keys(ranks: np.ndarray, size: int) -> np.ndarray:
    """NearIndex.keys of rows of rarest ranks: one row of keys per text, triples in the order of
    itertools.combinations."""
    width = ranks.shape[1]
    ranks = ranks.astype(np.int64)  # a key is up to size**3: computed in 64 bits
    if width == 1:
        return -1 - ranks
    if width == 2:
        return (-1 - size - (ranks[:, 0] * size + ranks[:, 1]))[:, None]
    first, second, third = np.array(list(combinations(range(width), 3))).T
    keys = ranks[:, first] * size
    keys += ranks[:, second]
    keys *= size
    keys += ranks[:, third]
    return keys


def _chunks(rows: list[tuple[np.ndarray, np.ndarray]], size: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(holders, their keys as a matrix) in chunks of about CHUNK_KEYS keys."""
    for holders, ranks in rows:
        step = max(1, CHUNK_KEYS // _keys_per_text(ranks.shape[1]))
        for start in range(0, len(holders), step):
            yield holders[start:start + step], _keys(ranks[start:start + step], size)


def _key_hashes(keys: np.ndarray) -> np.ndarray:
    """A 32-bit hash of each 64-bit key (Fibonacci hashing: the high half of the key times an odd
    constant, modulo 2**64). Equal keys hash equal; distinct keys rarely do."""
    mixed = keys.view(np.uint64) * _GOLDEN
    mixed >>= np.uint64(32)
    return mixed.astype(np.uint32)


def _repeated_hashes(rows: list[tuple[np.ndarray, np.ndarray]], size: int) -> np.ndarray:
    """The hashes (_key_hashes) more than one block key has, ascending: found by sorting every
    key's hash, in as many passes as it takes to sort at most PASS_KEYS at once (pass p sorts the
    hashes whose top bits are p; making the keys again is cheap next to sorting them)."""
    total = sum(len(holders) * _keys_per_text(ranks.shape[1]) for holders, ranks in rows)
    bits = max(0, math.ceil(math.log2(max(total, 1) / PASS_KEYS)))
    top = np.uint32(32 - bits)
    counts = np.zeros(1 << bits, dtype=np.int64)
    if bits:
        for _, keys in _chunks(rows, size):
            counts += np.bincount(_key_hashes(keys.ravel()) >> top, minlength=1 << bits)
    else:
        counts[0] = total
    repeated = []
    for part, count in enumerate(counts.tolist()):
        hashes = np.empty(count, dtype=np.uint32)
        filled = 0
        for _, keys in _chunks(rows, size):
            chunk = _key_hashes(keys.ravel())
            if bits:
                chunk = chunk[(chunk >> top) == part]
            hashes[filled:filled + chunk.size] = chunk
            filled += chunk.size
        hashes.sort()
        repeated.append(_distinct(hashes[1:][hashes[1:] == hashes[:-1]]))
        del hashes
    return np.concatenate(repeated)


def _shared_keys(rows: list[tuple[np.ndarray, np.ndarray]], size: int) -> tuple[np.ndarray, np.ndarray]:
    """(key, holder) of every key more than one text holds, sorted by key, then holder; and,
    rarely, a key one text holds (it meets nothing in _blocked_pairs).

    Two steps keep memory to four bytes per key at most: the first finds the hashes more than one
    key has (_repeated_hashes), the second makes the keys again and keeps those whose hash
    repeats (every key two texts hold, and the few keys of one text whose hash another key
    shares; most keys are one text's own). The second looks a hash up in the sorted repeated
    hashes only when a bitmap of their low bits says it may be there: the binary searches were
    most of its time."""
    repeated = _repeated_hashes(rows, size)
    key, holder = [np.empty(0, dtype=np.int64)], [np.empty(0, dtype=np.int32)]
    if len(repeated):
        maybe_repeated = np.zeros(BITMAP_SLOTS, dtype=np.bool_)
        maybe_repeated[repeated & (BITMAP_SLOTS - 1)] = True
        for holders, keys in _chunks(rows, size):
            flat = keys.ravel()
            hashes = _key_hashes(flat)
            maybe = np.flatnonzero(maybe_repeated[hashes & (BITMAP_SLOTS - 1)])
            found = np.minimum(np.searchsorted(repeated, hashes[maybe]), len(repeated) - 1)
            shared = maybe[repeated[found] == hashes[maybe]]
            key.append(flat[shared])
            holder.append(holders[shared // keys.shape[1]])
        del maybe_repeated
    every_key, every_holder = np.concatenate(key), np.concatenate(holder)
    del key, holder  # each array alive once: the parts or the whole
    order = np.lexsort((every_holder, every_key))
    return every_key[order], every_holder[order]


def _blocked_pairs(key: np.ndarray, holder: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(a, b) with a < b of every two texts that meet in a block: for (key, holder) sorted by key
    then holder, each of a key's first MAX_BLOCK + 1 holders with every holder before it."""
    if not len(key):
        return key, holder
    first = np.concatenate(([True], key[1:] != key[:-1]))
    start = np.flatnonzero(first)[np.cumsum(first) - 1]  # where each element's key starts
    earlier = np.arange(len(key)) - start  # how many holders of the key come before it
    meets = np.flatnonzero((earlier >= 1) & (earlier <= MAX_BLOCK))
    count = earlier[meets]
    b = np.repeat(holder[meets], count)
    a = holder[np.repeat(start[meets], count) + np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)]
    return a, b


def _machine_integers(values: np.ndarray) -> array:
    integers = array("q")
    integers.frombytes(values.astype(np.int64).tobytes())
    return integers


def candidate_pairs(texts: Sequence[str], threshold: float) -> CandidatePairs | None:
    """nearmatch.candidate_pairs_indexed(texts, threshold); None when the vocabulary is too large
    for a triple key to fit in 64 bits (over two million words)."""
    rows, size = _rarest_rows(texts, threshold)
    if size ** 3 > LARGEST_KEY:
        return None
    shared = _shared_keys(rows, size)
    del rows
    a, b = _blocked_pairs(*shared)
    del shared
    count = len(texts)
    pair = _distinct(a.astype(np.int64) * count + b)
    a, b = np.divmod(pair, count)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=count)
    each_length = _distinct(lengths.copy())
    bands = np.array([length_band(n, threshold) for n in each_length.tolist()], dtype=np.float64).reshape(-1, 2)
    band = bands[np.searchsorted(each_length, lengths[b])]
    in_band = (band[:, 0] <= lengths[a]) & (lengths[a] <= band[:, 1])
    return CandidatePairs(_machine_integers(a[in_band]), _machine_integers(b[in_band]))
