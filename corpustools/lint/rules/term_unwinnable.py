"""A `must_match_all` term that the transcript never says can never be matched.

What: each `must_match_all` term is normalized (corpustools.model.normalize: NFKC, casefold,
punctuation to spaces) and looked for in the session's normalized turns, one turn at a time. A
term found in no turn is reported at the term. An entry of alternatives (`- [tracking sync,
trackingsync]`) is reported, at the entry, only when none of its alternatives is said: one is
enough for a faithful output to match it. Terms that normalize to nothing are CT606's.

Why: a point is captured only when an output contains every one of its terms. A faithful
extraction restates what the session says; a term the session never says can reach the output
only if the model invents it, so the label fails the outputs it should pass.

Example (flagged), in a session that says "ILS location code" but never "branch code":

    must_match_all:
      - branch code
      - location code
      - [branch id, branch key]      # flagged too when the session says neither
"""

from __future__ import annotations

from corpustools.lint.diagnostic import Severity
from corpustools.lint.families.labels import entries_never_said

CODE = "CT601"
NAME = "term-unwinnable"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True


def check(ctx, options):
    yield from entries_never_said(ctx, "must_match_all", "no faithful extraction can match it")
