"""A session body has text before the first tag, an empty segment, or an unknown or miscased tag.

What: the body is a sequence of segments, each starting with a tag line `[USER]: ...` or
`[AGENT]: ...`, or with the role tags corpus.yaml declares in `session.roles` (qualified tags
such as `[USER /self-review-apply <file>]:` and `[AGENT NARRATION OF SELF-REVIEW <file>]:` are
allowed). Reported: text before the first tag; a segment with no text; a tag that is not a
declared role (`[SYSTEM]:`, `[TOOL]:`), naming the declared ones; a declared tag written in
another case (`[user]:`).

Why: the extractor and the scorer see only the declared roles' turns; a `[SYSTEM]:` segment's
text is silently dropped from what the labels are checked against, and an empty turn is an
editing accident.

Example:

    [SYSTEM]: You are a helpful assistant.

    sessions/admit-convention-01.md:7:1: CT402 [error] unknown tag [SYSTEM]: only [USER] and [AGENT] (optionally qualified) are turns
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.model.contract import Contract
from corpustools.model.session import Segment

CODE = "CT402"
NAME = "turn-malformed"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def segment_problem(segment: Segment, contract: Contract) -> str | None:
    """What is wrong with one segment of a session read with `contract`'s role tags, or None."""
    if segment.role is None and not segment.tag:
        return f"text before the first {contract.tag_list(joiner='or').replace(']', ']:')} tag"
    if segment.role is None:
        head = segment.tag.split(" ", 1)[0]
        declared = next((tag for tag in contract.tags() if tag.casefold() == head.casefold()), None)
        if declared is not None:
            how = "uppercase" if declared.isupper() else "written"
            return f"tag [{segment.tag[:60]}] must be {how}: [{declared}]"
        return (f"unknown tag [{segment.tag[:60]}]: only {contract.tag_list(joiner='and')} (optionally qualified) "
                "are turns")
    if not segment.text.strip():
        return f"empty [{segment.tag[:60]}] segment"
    return None


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    contract = ctx.corpus.session_format
    for _fixture_id, session in sorted(ctx.corpus.sessions.items()):
        for segment in session.segments:
            problem = segment_problem(segment, contract)
            if problem:
                yield Problem(segment.pos, problem)
