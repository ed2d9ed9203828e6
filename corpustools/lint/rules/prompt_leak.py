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

from corpustools.lint.diagnostic import ERROR, Problem
from corpustools.lint.labels import quoted
from corpustools.lint.options import Option
from corpustools.lint.templates import by_skeleton, prompt_reference, sentence_options

CODE = "CT703"
NAME = "prompt-leak"
SEVERITY = ERROR
OPTIONS = (
    Option("threshold", int, 90, "a sentence skeleton at least this similar (rapidfuzz ratio) to one of "
           "the prompt's is reported", min=0, max=100),
    *sentence_options(8, 3),
)
SUPPRESSIBLE = True


def check(ctx, options):
    threshold, min_tokens, min_words = float(options.threshold), options.min_tokens, options.min_words
    prompt = prompt_reference(ctx, min_tokens, min_words, threshold)
    if prompt is None:
        return
    found = []
    for skeleton, occurrences in by_skeleton(ctx, min_tokens, min_words).items():
        same = prompt.exact(skeleton)
        if same is not None:
            how = f"reuses the prompt's sentence skeleton at {same.path}:{same.sentence.line}"
        else:
            nearest = prompt.nearest(skeleton)
            if nearest is None:
                continue
            same, score = nearest
            how = f"is {score:.0f}% similar to the prompt's sentence at {same.path}:{same.sentence.line}"
        found += [Problem(located.pos, f"sentence {how}: {quoted(same.sentence.text)}")
                  for located in occurrences]
    yield from sorted(found, key=lambda problem: problem.pos)
