"""A session body has text before the first tag, an empty segment, or an unknown or lowercase tag.

What: the body is a sequence of segments, each starting with a tag line `[USER]: ...` or
`[AGENT]: ...` (qualified tags such as `[USER /self-review-apply <file>]:` and
`[AGENT NARRATION OF SELF-REVIEW <file>]:` are allowed). Reported: text before the first tag;
a segment with no text; a tag that is not USER or AGENT (`[SYSTEM]:`, `[TOOL]:`); a lowercase
known tag (`[user]:`).

Why: the extractor and the scorer see only USER and AGENT turns; a `[SYSTEM]:` segment's text is
silently dropped from what the labels are checked against, and an empty turn is an editing
accident.

Example:

    [SYSTEM]: You are a helpful assistant.

    sessions/admit-convention-01.md:7:1: CT402 [error] unknown tag [SYSTEM]: only [USER] and [AGENT] (optionally qualified) are turns
"""

from corpustools.lint.diagnostic import Problem

CODE = "CT402"
NAME = "turn-malformed"
SEVERITY = "error"
OPTIONS = ()
SUPPRESSIBLE = True

_ROLES = ("USER", "AGENT")


def segment_problem(segment) -> str | None:
    if segment.role is None and not segment.tag:
        return "text before the first [USER]: or [AGENT]: tag"
    if segment.role is None:
        head = segment.tag.split(" ", 1)[0]
        if head.upper() in _ROLES:
            return f"tag [{segment.tag[:60]}] must be uppercase: [{head.upper()}]"
        return f"unknown tag [{segment.tag[:60]}]: only [USER] and [AGENT] (optionally qualified) are turns"
    if not segment.text.strip():
        return f"empty [{segment.tag[:60]}] segment"
    return None


def check(ctx, options):
    for _fixture_id, session in sorted(ctx.corpus.sessions.items()):
        for segment in session.segments:
            problem = segment_problem(segment)
            if problem:
                yield Problem(segment.pos, problem)
