"""A sidecar has no session.

What: every `expected/<fixture_id>.yaml` has a `sessions/<fixture_id>.md` beside it.

Why: labels for a session that does not exist usually mean a session was renamed or deleted and
its sidecar left behind; the scorer cannot run such a fixture.

Example:

    expected/admit-convention-02.yaml:1:1: CT202 [error] sidecar has no session: sessions/admit-convention-02.md is missing
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.structure import missing_partners
from corpustools.lint.options import NoOptions

CODE = "CT202"
NAME = "session-missing"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    corpus = ctx.corpus
    yield from missing_partners(corpus.sidecar_paths, corpus.session_paths,
                                "sidecar has no session: sessions/{fixture_id}.md is missing")
