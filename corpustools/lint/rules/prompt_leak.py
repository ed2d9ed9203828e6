"""A fixture sentence reuses a sentence of the prompt under eval.

What: active when the prompt file is known (`--prompt FILE` or `lint: prompt:` in corpus.yaml).
Every sentence of the prompt — its prose, its inline example transcripts and the text values of
its JSON examples — is reduced to a skeleton as in CT701. A counted fixture sentence whose
skeleton equals one of the prompt's, or is at least `threshold` (default 90) similar by
rapidfuzz, is reported at the sentence, naming the prompt line.

Why: an author model shown the prompt copies its inline examples into the corpus. Those
fixtures test whether the model recalls the prompt's own example, not whether it extracts
knowledge, and they inflate every score.

Example (flagged, when the prompt's example transcript has the same sentence):

    [USER]: No, don't use the default render cache for profile pages.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import quoted
from corpustools.lint.families.templates import by_skeleton, prompt_reference, similarity_options

CODE = "CT703"
NAME = "prompt-leak"
SEVERITY = Severity.ERROR
OPTIONS = similarity_options(90, "a sentence skeleton at least this similar (rapidfuzz ratio) to one of "
                                 "the prompt's is reported")


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    threshold: int
    min_tokens: int
    min_words: int


SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    prompt = prompt_reference(ctx, options)
    if prompt is None:
        return
    found = []
    for skeleton, occurrences in by_skeleton(ctx, options.min_tokens, options.min_words).items():
        match = prompt.match(skeleton)
        if match is None:
            continue
        same, score = match
        where = f"{same.path}:{same.sentence.line}"
        how = (f"reuses the prompt's sentence skeleton at {where}" if score is None
               else f"is {score:.0f}% similar to the prompt's sentence at {where}")
        found += [Problem(located.pos, f"sentence {how}: {quoted(same.sentence.text)}")
                  for located in occurrences]
    yield from sorted(found, key=lambda problem: problem.pos)
