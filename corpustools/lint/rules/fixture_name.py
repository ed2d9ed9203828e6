"""A fixture's basename is not `<category>-<NN>` with its sidecar's category.

What: a fixture is named after its category and a two-digit number: a sidecar with
`category: admit-gotcha` belongs to `admit-gotcha-01`, `admit-gotcha-02`, ... Reported at the
sidecar's `category` key; a fixture with no readable sidecar is reported at its session when its
name is not `<a spec category>-<NN>`.

Why: names are how people find fixtures and how reports group them; a fixture named after one
category but labeled as another is almost always a mislabel.

Example:

    # expected/admit-convention-01.yaml
    category: admit-gotcha

    expected/admit-convention-01.yaml:2:1: CT204 [error] fixture name 'admit-convention-01' is not 'admit-gotcha-<NN>' (its category is admit-gotcha)
"""

from collections.abc import Iterator

from corpustools.io.positions import Pos
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.structure import sidecar_value, spec_categories
from corpustools.lint.options import NoOptions
from corpustools.model.spec import category_from_name, is_fixture_name

CODE = "CT204"
NAME = "fixture-name"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    corpus = ctx.corpus
    for fixture_id in corpus.fixture_ids:
        category = sidecar_value(corpus, fixture_id, "category")
        if isinstance(category, str):
            if not is_fixture_name(fixture_id, category):
                doc = corpus.sidecar_docs[fixture_id]
                yield Problem(doc.pos(("category",)), f"fixture name {fixture_id!r} is not "
                              f"'{category}-<NN>' (its category is {category})")
        elif fixture_id not in corpus.sidecar_paths and corpus.spec is not None:
            if category_from_name(fixture_id, spec_categories(corpus)) is None:
                yield Problem(Pos(corpus.session_paths[fixture_id], 1, 1), f"fixture name {fixture_id!r} "
                              "is not '<category>-<NN>' with a category of the spec")
