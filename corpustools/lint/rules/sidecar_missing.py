"""A session has no sidecar.

What: every `sessions/<fixture_id>.md` has an `expected/<fixture_id>.yaml` beside it.

Why: a session without labels cannot be scored; the scorer would have to guess whether the
extractor should have found something in it.

Example:

    sessions/admit-convention-02.md:1:1: CT201 [error] session has no sidecar: expected/admit-convention-02.yaml is missing
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.structure import missing_partners
from corpustools.lint.options import NoOptions

CODE = "CT201"
NAME = "sidecar-missing"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    corpus = ctx.corpus
    yield from missing_partners(corpus.session_paths, corpus.sidecar_paths,
                                "session has no sidecar: expected/{fixture_id}.yaml is missing")
