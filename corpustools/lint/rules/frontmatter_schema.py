"""A session's frontmatter keys are not exactly schema_version, session_id, harness and captured_at, or a value is wrong.

What: the frontmatter is a mapping with exactly the keys `schema_version`, `session_id`, `harness`
and `captured_at`, or exactly those corpus.yaml lists in `session.frontmatter` (`session_id`
always among them); `schema_version`, when a key, is the integer 1; `harness` is one of the spec's
`harnesses`; `captured_at` is an ISO 8601 UTC timestamp (`2026-01-05T10:00:00Z`, optional
fraction, `Z` or `+00:00`). Whether `session_id` is a proper UUID is CT101's job.

Why: the frontmatter says what a session is and where it came from; an extra key (`author:`,
`model:`) is usually metadata that belongs elsewhere, and a local-time timestamp makes the
corpus's capture order ambiguous.

Example (a local time, and an unknown key):

    captured_at: 2026-01-05 10:00
    model: some-model

    sessions/admit-convention-01.md:5:1: CT004 [error] captured_at '2026-01-05 10:00' is not an ISO 8601 UTC timestamp such as 2026-01-05T10:00:00Z
    sessions/admit-convention-01.md:6:1: CT004 [error] unexpected frontmatter key 'model' (allowed: schema_version, session_id, harness, captured_at)
"""

import re
from collections.abc import Iterator
from datetime import datetime

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.fixes import UNSAFE, Fix, Planned, Unfixable, key_at, rename_key, session_at
from corpustools.lint.options import NoOptions


def _rename_unknown_key(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    fixture_id = session_at(ctx, problem.pos)
    if fixture_id is None:
        return None
    session = ctx.corpus.sessions[fixture_id]
    keys = ctx.corpus.session_format.frontmatter  # the contract's required keys, exactly
    keypath = key_at(session.frontmatter, problem.pos)
    if keypath is None or len(keypath) != 1 or keypath[0] in keys:
        return None
    return rename_key(session.path, session.frontmatter, keypath, keys, keys)


CODE = "CT004"
NAME = "frontmatter-schema"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = (Fix(UNSAFE, "renames a frontmatter key to the one it was evidently meant as: exactly one close spelling "
                     "(difflib, ignoring case) among the declared keys that the frontmatter lacks (`sesion_id` -> "
                     "`session_id`)", _rename_unknown_key),)

_UTC = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2})(\.[0-9]{1,9})?(Z|\+00:00)")


def is_utc_timestamp(value: object) -> bool:
    if not isinstance(value, str):
        return False
    match = _UTC.fullmatch(value)
    if not match:
        return False
    try:
        datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S")
    except ValueError:  # 2026-13-40T25:00:00Z has the shape but is no time
        return False
    return True


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    spec = ctx.corpus.spec
    keys = ctx.corpus.session_format.frontmatter
    for fixture_id in sorted(ctx.corpus.sessions):
        session = ctx.corpus.sessions[fixture_id]
        doc = session.frontmatter
        data = doc.data  # a mapping: a session whose frontmatter is not one does not parse (CT001)
        for key in data:
            if key not in keys:
                yield Problem(doc.pos((key,)), f"unexpected frontmatter key {key!r} "
                              f"(allowed: {', '.join(keys)})")
        missing = [key for key in keys if key not in data]
        if missing:
            yield Problem(doc.pos(), f"frontmatter is missing {', '.join(missing)}")
        version = data.get("schema_version", 1)
        if "schema_version" in keys and (type(version) is not int or version != 1):
            yield Problem(doc.pos(("schema_version",)), f"schema_version is {version!r}; only 1 is known")
        harness = data.get("harness")
        if "harness" in keys and "harness" in data and spec is not None and harness not in spec.harnesses:
            yield Problem(doc.pos(("harness",)), f"harness {harness!r} is not one of the spec's harnesses "
                          f"({', '.join(spec.harnesses)})")
        if "captured_at" in keys and "captured_at" in data and not is_utc_timestamp(data["captured_at"]):
            yield Problem(doc.pos(("captured_at",)), f"captured_at {str(data['captured_at'])[:60]!r} is not an "
                          "ISO 8601 UTC timestamp such as 2026-01-05T10:00:00Z")
