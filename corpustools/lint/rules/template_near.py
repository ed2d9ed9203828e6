"""Two fixtures' sentence skeletons are near-identical: a template with a word or two changed.

What: the counted sentence skeletons of all fixtures (see CT701) are compared with rapidfuzz's
`ratio`; two different skeletons from different fixtures scoring at least `threshold` (default
90) are near-identical. Each occurrence is reported once, at the sentence, naming the most
similar sentence of another fixture (its fixture, line and score) and how many more there are.
Identical skeletons are CT701's.

Why: the same template reuse as CT701, after the author changed an adverb or reordered a
clause. The search blocks candidates by shared rare words and by length band
(corpustools.lint.nearmatch), so it stays far below comparing every pair as the corpus grows.

Example (flagged, in two fixtures):

    [USER]: Every `branch` id is the ILS location code, lowercased, and nothing else.
    [USER]: Every `venue` id is always the CRM location code, lowercased, and nothing else.

Options (under `lint: rules: CT702:` in corpus.yaml): `threshold` (0-100), `min_tokens`,
`min_words`.
"""

from __future__ import annotations

from corpustools.lint.diagnostic import WARNING, Problem
from corpustools.lint.labels import quoted
from corpustools.lint.nearmatch import near_pairs
from corpustools.lint.templates import by_skeleton, sentence_options

CODE = "CT702"
NAME = "template-near"
SEVERITY = WARNING
OPTIONS = {"threshold": 90, "min_tokens": 8, "min_words": 3}
SUPPRESSIBLE = True


def check(ctx, options):
    threshold = float(options.get("threshold", OPTIONS["threshold"]))
    groups = by_skeleton(ctx, *sentence_options(options, OPTIONS))
    skeletons = list(groups)
    matches: dict = {}  # location key -> (located, [(score, other located)])
    for pair in near_pairs(skeletons, threshold):
        for mine, theirs in ((pair.a, pair.b), (pair.b, pair.a)):
            for located in groups[skeletons[mine]]:
                others = [o for o in groups[skeletons[theirs]] if o.source != located.source]
                if others:
                    entry = matches.setdefault(located.sort_key(), (located, []))
                    entry[1].extend((pair.score, other) for other in others)
    for key in sorted(matches):
        located, others = matches[key]
        others.sort(key=lambda item: (-item[0], item[1].sort_key()))
        score, best = others[0]
        more = len({other.source for _, other in others} - {best.source})
        also = f" and {more} more fixture{'s' if more != 1 else ''}" if more else ""
        yield Problem(located.pos, f"sentence skeleton is {score:.0f}% similar to one in "
                                   f"{best.source} line {best.sentence.line}{also}: "
                                   f"{quoted(located.sentence.skeleton)}")
