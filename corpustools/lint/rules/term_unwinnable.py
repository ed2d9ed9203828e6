"""A `must_match_all` term or `item_fields` value that the transcript never says can never be matched.

What: each `must_match_all` term is normalized and looked for in the session's normalized turns,
one turn at a time, by the corpus's matching (corpus.yaml's `output.matching`; by default a term
starts at a word start and one ending in a digit ends where its number ends, so `5 mg` is not
found in `2.5 mg`: docs/scoring.md). A term found in no turn is reported at the term. An entry of
alternatives (`- [tracking sync, trackingsync]`) is reported, at the entry, only when none of its
alternatives is said: one is enough for a faithful output to match it. Terms that normalize to
nothing are CT606's. A point's `item_fields` string value (`dose: "5 mg"`) is looked for the same
way and reported at the value when no turn says it (for a list of values, when none is said); a
number, boolean or null value is compared as JSON, never looked for.

Why: a point is captured only when an output contains every one of its terms. A faithful
extraction restates what the session says; a term the session never says can reach the output
only if the model invents it, so the label fails the outputs it should pass.

Example (flagged), in a session that says "ILS location code" but never "branch code", and
"amlodipine 2.5 mg" but never "5 mg":

    must_match_all:
      - branch code
      - location code
      - [branch id, branch key]      # flagged too when the session says neither
    item_fields:
      dose: "5 mg"                   # flagged: "2.5 mg" is another number
"""

from __future__ import annotations

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import entries_never_said, item_values_never_said
from corpustools.lint.options import NoOptions

CODE = "CT601"
NAME = "term-unwinnable"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from entries_never_said(ctx, "must_match_all", "no faithful extraction can match it")
    yield from item_values_never_said(ctx, "no faithful extraction can match it")
