"""An entry of `lint: per_point_ignores:` in corpus.yaml switches nothing off.

What: each entry of `lint: per_point_ignores:` names a point id and the rules whose findings at
that point (inside its entry of a sidecar's `expected_points` or `optional_points`, in every
sidecar holding a point of that id) are not reported. An entry whose point is in no sidecar, or
one of whose rules found nothing at that point in this run, is reported at the entry. A rule
that did not run (`--select`, `--ignore`, `lint: ignore:`) is not judged.

Why: a suppression that switches nothing off is stale: the point was renamed or its terms were
fixed, and the entry documents an exception that no longer exists; it would silently hide the
same finding if it came back, and a misspelt point id hides nothing at all. Delete the entry, or
the code it no longer needs.

Example:

    lint:
      per_point_ignores:
        - point: latex-allergy
          codes: [CT604, CT612]
          reason: an allergy is one word

    corpus.yaml:4:7: CT615 [warning] lint.per_point_ignores: CT612 finds nothing at point 'latex-allergy'; remove CT612 from this entry
    corpus.yaml:7:7: CT615 [warning] lint.per_point_ignores: no sidecar has a point 'latex-allergie' (did you mean latex-allergy?); delete this entry
"""

from collections.abc import Iterator

from corpustools.io.suggest import closest
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions

CODE = "CT615"
NAME = "point-ignore-unused"
SEVERITY = Severity.WARNING
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it
AFTER_OTHER_RULES = True  # it reads which entries the engine used while the other rules' findings were kept


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    known = sorted({point.id for sidecar in ctx.corpus.sidecars.values() for point in sidecar.all_points})
    use = ctx.ignore_use
    for index, entry in enumerate(ctx.point_ignores):
        if entry.point not in known:
            close = closest(entry.point, known)
            hint = f" (did you mean {close}?)" if close else ""
            yield Problem(entry.pos, f"lint.per_point_ignores: no sidecar has a point {entry.point!r}{hint}; "
                                     "delete this entry")
            continue
        used = use.used.get(index, set())
        unused = [code for code in entry.codes if code in use.ran and code not in used]
        if not unused:
            continue
        if len(unused) == len(entry.codes):
            what = "delete this entry"
        else:
            what = f"remove {', '.join(unused)} from this entry"
        finds = "finds" if len(unused) == 1 else "find"
        yield Problem(entry.pos, f"lint.per_point_ignores: {' and '.join(unused)} {finds} nothing at point "
                                 f"{entry.point!r}; {what}")
