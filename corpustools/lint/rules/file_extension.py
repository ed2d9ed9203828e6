"""A file under `sessions/` or `expected/` is named like a fixture file but is never read as one.

What: the loader reads exactly `sessions/<fixture id>.md` and `expected/<fixture id>.yaml`. A file
there that was evidently meant as one of them is reported: another case or spelling of the
extension (`expected/admit-convention-01.yml`, `.YAML`, `sessions/admit-convention-01.MD`,
`.markdown`), no extension at all, or a sidecar under `sessions/` (a session under `expected/`).
Hidden files, folders and other extensions (`notes.txt`, `x.yaml.bak`) are left alone. The message
says what to rename the file to, or, when that name is taken, that the file is a stray copy.

Why: a misnamed sidecar is silently not scored: its session is reported as having no sidecar
(CT201) at best, and a misnamed session with a sidecar is a fixture that never runs. The file name
the author chose deserves a direct answer, not silence. `corpustools score` prints the same message
as a warning.

Example:

    expected/admit-convention-01.yml:1:1: CT205 [error] not read as a sidecar: sidecars are named <fixture id>.yaml; rename it to admit-convention-01.yaml
"""

import os
from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.structure import loader_problems
from corpustools.lint.fixes import SAFE, Fix, Planned, RenameFile, Unfixable
from corpustools.lint.options import NoOptions
from corpustools.model.corpus import MISNAMED, misnamed_target


def _rename(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    path = problem.pos.path
    folder = os.path.dirname(path)
    found = misnamed_target(os.path.basename(folder), os.path.basename(path))
    if found is None:
        return None
    where, name, _ = found
    target = os.path.join(os.path.dirname(folder), where, name)
    shown = name if where == os.path.basename(folder) else f"{where}/{name}"
    if os.path.lexists(target):
        return Unfixable(f"{shown} exists; merge the two by hand")
    if not os.path.isdir(os.path.dirname(target)):
        return Unfixable(f"there is no {where}/ folder to move it to")
    return Planned((RenameFile(path, target),), f"renamed to {shown}")


CODE = "CT205"
NAME = "file-extension"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = (Fix(SAFE, "renames the file to the name the loader reads (`x.yml` -> `x.yaml`), when no file has "
             "that name yet", _rename),)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from loader_problems(ctx.corpus, MISNAMED)
