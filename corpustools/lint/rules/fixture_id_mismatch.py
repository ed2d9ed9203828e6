"""A sidecar's `fixture_id` differs from its file's basename.

What: `expected/admit-convention-01.yaml` says `fixture_id: admit-convention-01`.

Why: the basename pairs the sidecar with its session; a `fixture_id` that says otherwise is a
copied sidecar whose id was not updated, and reports would name the wrong fixture.

Example:

    # expected/admit-convention-02.yaml
    fixture_id: admit-convention-01

    expected/admit-convention-02.yaml:1:1: CT203 [error] fixture_id 'admit-convention-01' differs from the file name 'admit-convention-02'
"""

import os
from collections.abc import Iterator

from corpustools.io.yamledit import YamlEdit
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.fixes import SAFE, EditYaml, Fix, Planned, Unfixable
from corpustools.lint.options import NoOptions


def _set_to_file_name(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    for fixture_id, doc in ctx.corpus.sidecar_docs.items():
        value = doc.data.get("fixture_id")
        if os.path.abspath(doc.path) == os.path.abspath(problem.pos.path) and isinstance(value, str):
            return Planned((EditYaml(doc.path, YamlEdit("set", ("fixture_id",), value, fixture_id)),),
                           f"fixture_id {value!r} set to the file name {fixture_id!r}")
    return None


CODE = "CT203"
NAME = "fixture-id-mismatch"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = (Fix(SAFE, "sets `fixture_id` to the file's basename (the basename is what pairs the fixture)",
             _set_to_file_name),)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    for fixture_id, doc in sorted(ctx.corpus.sidecar_docs.items()):
        value = doc.data.get("fixture_id")
        if isinstance(value, str) and value != fixture_id:
            yield Problem(doc.pos(("fixture_id",)),
                          f"fixture_id {value!r} differs from the file name {fixture_id!r}")
