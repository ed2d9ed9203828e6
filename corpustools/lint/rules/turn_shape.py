"""A session has no `[USER]` turn, or does not begin with one.

What: a session starts with a turn of the user (`[USER]`, or a tag corpus.yaml's `session.roles`
maps to `user`) and has at least one. A warning: a session that opens mid-conversation can be
deliberate, but usually a first turn was lost in editing.

Why: the extractor learns practices from what the user taught; a session with no user turn can
only ever yield map points, and one that starts with the agent hides what it was asked.

Example:

    [AGENT]: I read the module.
    [USER]: Thanks.

    sessions/reject-noise-01.md:7:1: CT403 [warning] session begins with an [AGENT] turn, not [USER]
"""

from corpustools.io.positions import Pos
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.model.contract import USER

CODE = "CT403"
NAME = "turn-shape"
SEVERITY = Severity.WARNING
OPTIONS = ()
SUPPRESSIBLE = True


def check(ctx, options):
    if not ctx.corpus.session_format.tags(USER):
        return  # corpus.yaml maps no tag to the user: CT003 says so
    user = ctx.corpus.session_format.tag_list(USER)
    for _fixture_id, session in sorted(ctx.corpus.sessions.items()):
        turns = session.turns
        if not any(t.speaker == USER for t in turns):
            where = turns[0].pos if turns else Pos(session.path, session.body_line, 1)
            yield Problem(where, f"session has no {user} turn")
        elif turns[0].speaker != USER:
            yield Problem(turns[0].pos, f"session begins with an [{turns[0].tag[:60]}] turn, not {user}")
