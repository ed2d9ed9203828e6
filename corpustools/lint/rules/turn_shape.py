"""A session has no `[USER]` turn, or does not begin with the speaker `session.opens_with` names.

What: a session has at least one turn of the user (`[USER]`, or a tag corpus.yaml's
`session.roles` maps to `user`), and its first turn is spoken by whoever `session.opens_with`
names: `user` (the default: the user asks, the agent answers), `agent` (a front desk or a
support line that greets first) or `any` (either may). A warning: a session that opens
mid-conversation can be deliberate, but usually a first turn was lost in editing.

Why: the extractor learns practices from what the user taught; a session with no user turn can
only ever yield map points, and one that starts with the wrong speaker hides what it was asked.
Who opens a session is a property of the corpus's session format, not a universal rule: declare it
once in corpus.yaml (`session: opens_with: agent`) rather than silencing this rule.

Example:

    [AGENT]: I read the module.
    [USER]: Thanks.

    sessions/reject-noise-01.md:7:1: CT403 [warning] session begins with an [AGENT] turn, not [USER]

With `session: {roles: {RECEPTIONIST: agent, PATIENT: user}, opens_with: agent}`, a session
opening with `[PATIENT]:` reads `session begins with a [PATIENT] turn, not [RECEPTIONIST]
(corpus.yaml session.opens_with: agent)`.
"""

from collections.abc import Iterator

from corpustools.io.positions import Pos
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.model.contract import ANY, USER

CODE = "CT403"
NAME = "turn-shape"
SEVERITY = Severity.WARNING
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    session_format = ctx.corpus.session_format
    if not session_format.tags(USER):
        return  # corpus.yaml maps no tag to the user: CT003 says so
    user = session_format.tag_list(USER)
    opener = session_format.opens_with
    expected = session_format.tag_list(opener) if opener != ANY and session_format.tags(opener) else None
    declared = "" if opener == USER else f" (corpus.yaml session.opens_with: {opener})"
    for _fixture_id, session in sorted(ctx.corpus.sessions.items()):
        turns = session.turns
        if not any(t.speaker == USER for t in turns):
            where = turns[0].pos if turns else Pos(session.path, session.body_line, 1)
            yield Problem(where, f"session has no {user} turn")
        elif expected is not None and turns[0].speaker != opener:
            tag = turns[0].tag[:60]
            yield Problem(turns[0].pos, f"session begins with {article(tag)} [{tag}] turn, not {expected}{declared}")


def article(word: str) -> str:
    """`an` before a tag that sounds like it starts with a vowel (`an [AGENT]`), else `a`."""
    return "an" if word[:1].upper() in "AEIO" else "a"
