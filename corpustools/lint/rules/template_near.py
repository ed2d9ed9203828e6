"""Two fixtures' sentence skeletons are near-identical: a template with a word or two changed.

What: the counted sentence skeletons of all fixtures (see CT701) are compared with rapidfuzz's
`ratio`; two different skeletons from different fixtures scoring at least `threshold` (default
85) are near-identical. Each sentence is matched with its most similar sentence of another
fixture; each pair of fixtures then gets one finding, at the later fixture's (by file path) first
such sentence: how many of its sentences are near-identical to the earlier fixture's, and the
first of them with its score. Identical skeletons are CT701's.

Why: the same template reuse as CT701, after the author changed an adverb or reordered a
clause. The search blocks candidates by shared rare words and by length band
(corpustools.lint.families.nearmatch), so it stays far below comparing every pair as the corpus grows.

Example (flagged, in two fixtures):

    [USER]: Every `branch` id is the ILS location code, lowercased, and nothing else.
    [USER]: Every `venue` id is always the CRM location code, lowercased, and nothing else.

The default threshold is calibrated on one-noun swaps (a noun of a generated sentence of 12+
words replaced by another noun of the same length, as `bench/make_corpus.py --defects` plants
them): of 100,000 such swaps the lowest scored 86.2 and 249 scored under 90, which the old
default of 90 missed (one in 400). Below 85 clean text starts to meet: the
shipped corpus's most similar pair of sentences from different fixtures scores 84.9 (two test
runner summaries); generated clean corpora score at most 79.0 (1,000 fixtures) and 83.7 (10,000
fixtures).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import quoted
from corpustools.lint.families.skeleton import Skeleton
from corpustools.lint.families.templates import Located, by_skeleton, elsewhere, held_near_pairs, similarity_options

CODE = "CT702"
NAME = "template-near"
SEVERITY = Severity.WARNING
OPTIONS = similarity_options(85, "skeletons of two fixtures at least this similar (rapidfuzz ratio) are "
                                 "reported")


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    threshold: int
    min_tokens: int
    min_words: int


SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    threshold = float(options.threshold)
    groups = by_skeleton(ctx, options.min_tokens, options.min_words)
    skeletons = list(groups)
    # location (Located.sort_key) -> (located, score, the most similar sentence of another fixture)
    best: dict[tuple[object, ...], tuple[Located[Skeleton], float, Located[Skeleton]]] = {}
    for pair in held_near_pairs(ctx, skeletons, threshold):
        for mine, theirs in ((pair.a, pair.b), (pair.b, pair.a)):
            other_than = elsewhere(groups[skeletons[theirs]])
            for located in groups[skeletons[mine]]:
                other = other_than(located.source)
                if other is None:
                    continue
                key = located.sort_key()
                if key not in best or (-pair.score, other.sort_key()) < (-best[key][1], best[key][2].sort_key()):
                    best[key] = (located, pair.score, other)
    # (later fixture, earlier fixture) -> the later fixture's sentences matched in the earlier one
    pairs: dict[tuple[str, str], list[tuple[Located[Skeleton], float, Located[Skeleton]]]] = {}
    for key in sorted(best):
        located, score, other = best[key]
        if other.sort_key() < located.sort_key() and other.path != located.path:
            pairs.setdefault((located.source, other.source), []).append((located, score, other))
    for (_later, earlier), matched in sorted(pairs.items()):
        located, score, other = matched[0]  # the first by position: `best` was walked in order
        where = f"{earlier} line {other.sentence.line}"
        what = (f"sentence skeleton is {score:.0f}% similar to one in {where}" if len(matched) == 1
                else f"{len(matched)} sentence skeletons are near-identical to ones in {earlier}; the first is "
                     f"{score:.0f}% similar to {where}")
        yield Problem(located.pos, f"{what}: {quoted(located.sentence.skeleton)}")
