"""A session file cannot be read: unreadable, not UTF-8, or its frontmatter is missing, unclosed or unparseable.

What: every file under `sessions/` must be UTF-8 text (no byte-order mark, LF line endings, not
empty) that starts with a `---` line, holds YAML frontmatter, and closes it with a second `---`
line. A symbolic link under `sessions/` is reported here too: links are never followed.

Why: every other session rule needs the file parsed, so a session that fails here is otherwise
checked by nothing, and the scorer would FAIL it without saying why.

Example (the frontmatter never closes):

    ---
    schema_version: 1
    session_id: 3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d
    [USER]: Add a cron hook ...

    sessions/admit-convention-01.md:1:1: CT001 [error] frontmatter never closes: no second '---' line
"""

from collections.abc import Iterator

from corpustools.io.layout import SESSIONS_DIR
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.structure import loader_problems
from corpustools.lint.fixes import LINE_ENDS_FIX
from corpustools.lint.options import NoOptions
from corpustools.model.corpus import SESSION_PARSE

CODE = "CT001"
NAME = "session-parse"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = (LINE_ENDS_FIX,)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from loader_problems(ctx.corpus, SESSION_PARSE, SESSIONS_DIR)
