"""Two fixtures share a sentence skeleton: one was written from the other's template.

What: every turn sentence of every session is reduced to its skeleton (corpustools.lint.skeleton:
numbers, UUIDs, code spans, quoted strings, paths, file names, identifiers and capitalised names
become `*`; the rest is normalized). Sentences shorter than `min_tokens` skeleton tokens (default
8) or with fewer than `min_words` unmasked words (default 3) are stock phrases and do not count.
Each occurrence of a skeleton that also occurs in another fixture is reported at the sentence,
naming the first occurrence in another fixture and how many more fixtures share it.

Why: an LLM asked for many fixtures reuses its own sentence frames and swaps the names. The
corpus then measures one template many times instead of many sessions, and a prompt that
learned the frame scores well for the wrong reason. Identical skeletons are found by hashing,
so the rule costs one pass over the corpus.

Example (flagged, in two fixtures):

    [USER]: The id is wrong: every `branch` id is the ILS location code, lowercased.
    [USER]: The id is wrong: every `venue` id is the CRM location code, lowercased.
"""

from __future__ import annotations

from corpustools.lint.diagnostic import ERROR, Problem
from corpustools.lint.labels import quoted
from corpustools.lint.templates import by_skeleton, elsewhere, sentence_options

CODE = "CT701"
NAME = "template-reuse"
SEVERITY = ERROR
OPTIONS = sentence_options(8, 3)
SUPPRESSIBLE = True


def check(ctx, options):
    for skeleton, found in by_skeleton(ctx, options.min_tokens, options.min_words).items():
        sources = {located.source for located in found}
        if len(sources) < 2:
            continue
        other_than = elsewhere(found)
        more = len(sources) - 2
        also = f" and {more} more fixture{'s' if more != 1 else ''}" if more else ""
        for located in found:
            other = other_than(located.source)
            assert other is not None  # the group has two sources at least
            yield Problem(located.pos, f"sentence template reused: same skeleton as {other.source} "
                                       f"line {other.sentence.line}{also}: {quoted(skeleton)}")
