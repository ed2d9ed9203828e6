"""Two sessions share a session_id (reported at both).

What: every session's `session_id` is unique in the corpus (compared case-insensitively).

Why: a copied session file with its id left unchanged makes results and run manifests ambiguous,
and usually means a fixture was cloned rather than written.

Example (two sessions with one id):

    sessions/admit-convention-01.md:3:1: CT102 [error] session_id 3f2b8c1e-... is also used by admit-convention-02; give the copy a fresh one: python3 -c "import uuid; print(uuid.uuid4())"
    sessions/admit-convention-02.md:3:1: CT102 [error] session_id 3f2b8c1e-... is also used by admit-convention-01; give the copy a fresh one: python3 -c "import uuid; print(uuid.uuid4())"
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.fixes import UNSAFE, Fix, Planned, Unfixable, fresh_session_id, session_at
from corpustools.lint.options import NoOptions


def _sessions_by_id(ctx: LintContext) -> dict[str, list[str]]:
    """Lowercased session_id -> the fixtures that have it, in fixture id order."""
    by_id: dict[str, list[str]] = {}
    for fixture_id in sorted(ctx.corpus.sessions):
        value = ctx.corpus.sessions[fixture_id].frontmatter.data.get("session_id")
        if isinstance(value, str) and value.strip():
            by_id.setdefault(value.strip().lower(), []).append(fixture_id)
    return by_id


def _renew(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    fixture_id = session_at(ctx, problem.pos)
    group = next((f for f in _sessions_by_id(ctx).values() if fixture_id in f), None)
    if fixture_id is None or group is None or group[0] == fixture_id:
        return None  # the first session (by fixture id) keeps the id
    return fresh_session_id(ctx, fixture_id, f"also {group[0]}'s")


CODE = "CT102"
NAME = "uuid-duplicate"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "corpus"
# A random (version 4) UUID, as sessions carry them; Python is there wherever corpustools runs.
FRESH_UUID = 'python3 -c "import uuid; print(uuid.uuid4())"'
FIXES = (Fix(UNSAFE, "gives every session but the first (by fixture id) of those sharing an id a new random "
                     "UUID v4; the session's identity changes, and the provenance record drifts", _renew),)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    by_id = _sessions_by_id(ctx)
    for session_id, fixtures in sorted(by_id.items()):
        for fixture_id in fixtures if len(fixtures) > 1 else ():
            others = ", ".join(f for f in fixtures if f != fixture_id)
            session = ctx.corpus.sessions[fixture_id]
            yield Problem(session.frontmatter.pos(("session_id",)),
                          f"session_id {session_id} is also used by {others}; give the copy a fresh one: "
                          f"{FRESH_UUID}")
