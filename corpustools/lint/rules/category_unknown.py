"""A sidecar's category is not declared in the spec.

What: the `category` of every sidecar is the `id` of one of the categories in `corpus.yaml`.

Why: a fixture of an undeclared category is not counted, and its expected shape (CT303) is
unknown, so nothing checks whether its labels make sense.

Example:

    category: admit-convetion

    expected/admit-convetion-01.yaml:2:1: CT302 [error] category 'admit-convetion' is not in corpus.yaml (did you mean admit-convention?)
"""

from collections.abc import Iterator

from corpustools.io.suggest import closest
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions

CODE = "CT302"
NAME = "category-unknown"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    spec = ctx.corpus.spec
    if spec is None:
        return
    known = [c.id for c in spec.categories]
    for _fixture_id, doc in sorted(ctx.corpus.sidecar_docs.items()):
        category = doc.data.get("category")
        if isinstance(category, str) and category not in known:
            close = closest(category, known)
            hint = f" (did you mean {close}?)" if close else ""
            yield Problem(doc.pos(("category",)), f"category {category!r} is not in corpus.yaml{hint}")
