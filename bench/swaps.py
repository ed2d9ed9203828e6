"""bench/swaps.py [N] [--seed S]: CT702's threshold calibration and recall on N one-noun swaps.

A one-noun swap is a generated sentence of 12+ words with one noun replaced by another noun of the
same length, what `make_corpus.py --defects` plants for CT702 (here at a random noun, not only the
last). This prints how the N (original, swapped) skeleton pairs score (rapidfuzz's ratio: the
lowest, how many fall under 90 and under CT702's default threshold), which is what the default
threshold was calibrated on (docs/lint-rules.md, CT702), and then how many of them CT702's
near-duplicate search (nearmatch.near_pairs over all 2N skeletons) misses, and in what CPU time.
tests/test_lint_templates.py runs the same search on 1,500 swaps and requires none missed.

    python bench/swaps.py 100000        # the calibration of the default threshold (85)
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from grammar import long_sentence
from vocabulary import NOUNS


def skeleton_of(sentence: str) -> str:
    """The skeleton of a line holding one sentence."""
    from corpustools.lint.families.skeleton import line_sentences

    found = line_sentences(sentence, 1)
    if len(found) != 1:
        raise ValueError(f"not one sentence: {sentence!r}")
    return found[0].skeleton


def one_noun_swaps(count: int, seed: int) -> tuple[list[str], list[tuple[str, str]]]:
    """Skeletons of distinct generated sentences of 12+ words, sorted, and `count` (original,
    swapped) skeleton pairs among them."""
    rng = random.Random(seed)
    skeletons: set[str] = set()
    swaps: list[tuple[str, str]] = []
    while len(swaps) < count:
        words = long_sentence(rng).text.split()
        nouns = [i for i in range(1, len(words)) if words[i] in NOUNS]
        if len(words) < 12 or not nouns:
            continue
        position = rng.choice(nouns)
        others = [n for n in NOUNS if len(n) == len(words[position]) and n != words[position]]
        original = skeleton_of(" ".join(words))
        words[position] = rng.choice(others)
        swapped = skeleton_of(" ".join(words))
        if original in skeletons or swapped in skeletons or original == swapped:
            continue
        skeletons.update((original, swapped))
        swaps.append((original, swapped))
    return sorted(skeletons), swaps


def main(argv: list[str] | None = None) -> int:
    from rapidfuzz.fuzz import ratio

    from corpustools.lint.families.nearmatch import near_pairs
    from corpustools.lint.options import defaults
    from corpustools.lint.rules import template_near

    parser = argparse.ArgumentParser(prog="bench/swaps.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, nargs="?", default=100_000, help="number of swaps (default 100,000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    threshold = float(defaults(template_near).threshold)
    texts, swaps = one_noun_swaps(args.n, args.seed)
    scores = sorted(ratio(original, swapped) for original, swapped in swaps)
    print(f"{len(swaps):,} one-noun swaps (seed {args.seed}): lowest score {scores[0]:.1f}; "
          f"{sum(s < 90 for s in scores):,} under 90, {sum(s < threshold for s in scores):,} under {threshold:g}")
    started = time.process_time()
    found = {(texts[p.a], texts[p.b]) for p in near_pairs(texts, threshold)}
    seconds = time.process_time() - started
    missed = sum((min(a, b), max(a, b)) not in found for a, b in swaps)
    print(f"near_pairs at {threshold:g} over {len(texts):,} skeletons: {missed:,} swaps missed, "
          f"{len(found):,} pairs found, {seconds:.1f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
