"""A sidecar cannot be read as a YAML mapping: unreadable, not UTF-8, invalid YAML, a duplicate key, or not a mapping.

What: every file under `expected/` must be UTF-8 YAML whose top level is a mapping, with no key
given twice. A symbolic link under `expected/` is reported here too: links are never followed.

Why: a sidecar is the fixture's label; if it cannot be read, the fixture checks nothing. Duplicate
keys are an error rather than "last one wins", because the silently dropped value is usually the
one the author meant.

Example (a key given twice):

    fixture_id: admit-convention-01
    category: admit-convention
    category: admit-gotcha

    expected/admit-convention-01.yaml:3:1: CT002 [error] YAML error: found duplicate key "category" ... (first defined at line 2)
"""

from collections.abc import Iterator

from corpustools.io.layout import SIDECARS_DIR
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.structure import loader_problems
from corpustools.lint.fixes import LINE_ENDS_FIX
from corpustools.lint.options import NoOptions
from corpustools.model.corpus import SIDECAR_PARSE

CODE = "CT002"
NAME = "sidecar-parse"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = (LINE_ENDS_FIX,)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from loader_problems(ctx.corpus, SIDECAR_PARSE, SIDECARS_DIR)
