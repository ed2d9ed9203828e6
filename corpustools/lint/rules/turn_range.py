"""A session's number of turns is outside the spec's `turns` min..max.

What: the number of turns, the segments of a declared role tag (`[USER]`/`[AGENT]` unless
corpus.yaml's `session.roles` declares others; consecutive `[AGENT]` segments count one each)
is between `turns.min` and `turns.max` of corpus.yaml (default 8..20). Reported at the session's
first body line.

Why: a two-turn session is too easy and a fifty-turn one is not what the prompt sees in
production; the range keeps the corpus realistic and its runs affordable.

Example (`turns: {min: 8, max: 20}`, a session with 5 turns):

    sessions/reject-noise-01.md:7:1: CT401 [error] session has 5 turns; the spec allows 8 to 20
"""

from collections.abc import Iterator

from corpustools.io.positions import Pos
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions

CODE = "CT401"
NAME = "turn-range"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    spec = ctx.corpus.spec
    if spec is None:
        return
    for _fixture_id, session in sorted(ctx.corpus.sessions.items()):
        count = len(session.turns)
        if not spec.turns_min <= count <= spec.turns_max:
            noun = "turn" if count == 1 else "turns"
            yield Problem(Pos(session.path, session.body_line, 1),
                          f"session has {count} {noun}; the spec allows {spec.turns_min} to {spec.turns_max}")
