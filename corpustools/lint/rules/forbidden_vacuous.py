"""A `must_not_match` term the transcript never says: it guards against nothing.

What: each `must_not_match` term is normalized and looked for in the session's normalized
turns; a term found in no turn is reported at the term. Each part of a forbidden combination
(`- [reading list, surviving title]`) is looked for on its own: a combination with a part the
session never says almost never fires.

Why: a forbidden term exists to catch a specific wrong extraction — the abandoned approach, the
agent's rejected guess — and such an output would repeat words from the session. A term the
session never says will almost never appear, so it makes the label look stricter than it is.

Example (flagged), in a session that never mentions abbreviations:

    must_not_match: [abbreviation]
"""

from __future__ import annotations

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import terms_never_said
from corpustools.lint.options import NoOptions

CODE = "CT607"
NAME = "forbidden-vacuous"
SEVERITY = Severity.WARNING
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from terms_never_said(ctx, "must_not_match", "it guards nothing")
