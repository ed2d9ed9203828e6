"""A category's number of fixtures differs from the spec's `count` (reported at corpus.yaml).

What: for each category in `corpus.yaml`, the number of fixtures whose sidecar names that category
equals its `count`. A fixture whose sidecar cannot be read is counted by its file name.

Why: the spec's table is the corpus's design (reject and trap fixtures outnumber admits on
purpose); a missing or extra fixture silently changes what the score measures.

Example (`count: 2`, one fixture):

    corpus.yaml:14:5: CT301 [error] category admit-gotcha has 1 fixture, the spec says 2 (admit-gotcha-01)
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.structure import fixture_category
from corpustools.lint.options import NoOptions

CODE = "CT301"
NAME = "category-count"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    corpus = ctx.corpus
    spec = corpus.spec
    if spec is None or spec.doc is None:  # a loaded spec always has its document
        return
    members: dict[str | None, list[str]] = {}  # None: a fixture of no known category
    for fixture_id in corpus.fixture_ids:
        members.setdefault(fixture_category(corpus, fixture_id), []).append(fixture_id)
    for index, category in enumerate(spec.categories):
        found = members.get(category.id, [])
        if len(found) != category.count:
            listed = f" ({', '.join(found)})" if found else ""
            noun = "fixture" if len(found) == 1 else "fixtures"
            yield Problem(spec.doc.pos(("categories", index, "count")), f"category {category.id} has "
                          f"{len(found)} {noun}, the spec says {category.count}{listed}")
