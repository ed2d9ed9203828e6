"""A session_id is not a canonical lowercase UUID version 4.

What: `session_id` must look like `3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d`: 36 characters, lowercase
hex in 8-4-4-4-12 groups, version nibble `4` (first digit of the third group) and variant nibble
`8`, `9`, `a` or `b` (first digit of the fourth group).

Why: session ids key results and run manifests across tools; one canonical spelling means two
spellings of one id can never be two sessions, and a hand-typed pattern (`1111...`,
`10000000-0000-4000-...`) shows up as not random.

Example (uppercase):

    session_id: 3F2B8C1E-9A4D-4E7B-8C21-5D6F7A8B9C0D

    sessions/admit-convention-01.md:3:1: CT101 [error] session_id '3F2B8C1E-...' is not lowercase
"""

import re
from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions

CODE = "CT101"
NAME = "uuid-invalid"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it

_SHAPE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def uuid_problem(value: object) -> str | None:
    """Why `value` is not a canonical UUID v4, or None when it is one."""
    if not isinstance(value, str) or not _SHAPE.fullmatch(value):
        return "is not a UUID (8-4-4-4-12 hex digits)"
    if value != value.lower():
        return "is not lowercase"
    if value[14] != "4":
        return f"is UUID version {value[14]}, not 4"
    if value[19] not in "89ab":
        return f"has variant nibble {value[19]!r}, not 8, 9, a or b"
    return None


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    for fixture_id in sorted(ctx.corpus.sessions):
        session = ctx.corpus.sessions[fixture_id]
        data = session.frontmatter.data
        if "session_id" not in data:
            continue  # CT004 reports the missing key
        problem = uuid_problem(data["session_id"])
        if problem:
            shown = str(data["session_id"])
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            yield Problem(session.frontmatter.pos(("session_id",)), f"session_id {shown!r} {problem}")
