"""Two fixtures share a sentence skeleton: one was written from the other's template.

What: every turn sentence of every session is reduced to its skeleton (corpustools.lint.families.skeleton:
numbers, UUIDs, code spans, quoted strings, paths, file names, identifiers and capitalised names
become `*`; the rest is normalized). Sentences shorter than `min_tokens` skeleton tokens (default
8) or with fewer than `min_words` unmasked words (default 3) are stock phrases and do not count.
A sentence whose skeleton also occurs in an earlier fixture (by file path) counts against that
fixture, the first to have it. Each pair of fixtures gets one finding, at the later fixture's
first shared sentence: how many of its sentences share a skeleton with the earlier fixture, and
the first of them. A fixture copied as a template is one finding, not one per sentence.

Why: an LLM asked for many fixtures reuses its own sentence frames and swaps the names. The
corpus then measures one template many times instead of many sessions, and a prompt that
learned the frame scores well for the wrong reason. Identical skeletons are found by hashing,
so the rule costs one pass over the corpus.

Example (flagged, in two fixtures):

    [USER]: The id is wrong: every `branch` id is the ILS location code, lowercased.
    [USER]: The id is wrong: every `venue` id is the CRM location code, lowercased.

    sessions/admit-map-02.md:7:9: CT701 [error] sentence template reused: 1 sentence shares its skeleton with admit-map-01 line 7: 'the id is wrong every * id is the * location code lowercased'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import quoted
from corpustools.lint.families.skeleton import Skeleton
from corpustools.lint.families.templates import Located, by_skeleton, sentence_options

CODE = "CT701"
NAME = "template-reuse"
SEVERITY = Severity.ERROR
OPTIONS = sentence_options(8, 3)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    min_tokens: int
    min_words: int


SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    # (later fixture, earlier fixture) -> the later fixture's shared sentences, each with its first
    # occurrence in the earlier one
    pairs: dict[tuple[str, str], list[tuple[Located[Skeleton], Located[Skeleton]]]] = {}
    for found in by_skeleton(ctx, options.min_tokens, options.min_words).values():
        first = found[0]
        for located in found:
            if located.source != first.source:
                pairs.setdefault((located.source, first.source), []).append((located, first))
    for (_later, earlier), shared in sorted(pairs.items()):
        mine, theirs = min(shared, key=lambda pair: pair[0].sort_key())
        where = f"{earlier} line {theirs.sentence.line}"
        what = (f"1 sentence shares its skeleton with {where}" if len(shared) == 1
                else f"{len(shared)} sentences share their skeleton with {earlier}; the first is {where}")
        yield Problem(mine.pos, f"sentence template reused: {what}: {quoted(mine.sentence.skeleton)}")
