"""An admit fixture's user turn restates a sentence of the knowledge base.

What: active when a KB folder is given (`--kb DIR` or `lint: kb:` in corpus.yaml). Every sentence
of every KB document (its YAML frontmatter skipped) is normalized, and so is every counted
sentence of the user's turns (`[USER]`, or the tags `session.roles` maps to `user`) of admit
fixtures (fixtures whose category expects anything but `empty`: an item type or `subset`). A
fixture sentence equal to a KB sentence, or at least `threshold` (default
90) similar by rapidfuzz, is reported at the sentence, naming the KB file and line. Whole
sentences are compared, not skeletons: the concern is the wording itself.

Why: the user in an admit fixture is supposed to teach something in their own words. A user
turn that recites the knowledge base tests recall of a document the model may have seen, and an
extraction that copies it back scores well without extracting anything.

Example (flagged, when a KB document says the same sentence):

    [USER]: Custom serialization normalizers need an explicit normalizer service tag with priority.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import quoted
from corpustools.lint.families.templates import admit_user_sentences, kb_reference, similarity_options

CODE = "CT704"
NAME = "kb-verbatim"
SEVERITY = Severity.WARNING
OPTIONS = similarity_options(90, "a sentence at least this similar (rapidfuzz ratio) to a KB sentence "
                                 "is reported")


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    threshold: int
    min_tokens: int
    min_words: int


SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    kb = kb_reference(ctx, options)
    if kb is None:
        return
    for located in admit_user_sentences(ctx, options.min_tokens, options.min_words):
        match = kb.match(located.sentence.normalized)
        if match is None:
            continue
        same, score = match
        how = "verbatim" if score is None else f"nearly verbatim ({score:.0f}% similar)"
        yield Problem(located.pos, f"user sentence restates the knowledge base {how} at "
                                   f"{same.path}:{same.sentence.line}: {quoted(same.sentence.text)}")
