"""What the structural rules (CT0xx-CT4xx) share: the loader's problems by kind, and the facts about a
fixture that several rules read (its sidecar values, its category, its naming)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping

from corpustools.io.positions import Pos
from corpustools.lint.diagnostic import Problem
from corpustools.model.corpus import BAD_NAME, STRAY_LINK, Corpus
from corpustools.model.spec import category_from_name


def loader_problems(corpus: Corpus, kind: str, link_folder: str | None = None) -> Iterator[Problem]:
    """The loader's problems of `kind`; with `link_folder`, also its stray-link problems there
    (a symbolic link under sessions/ is a session that cannot be read, and likewise for expected/)
    and its file names that are not UTF-8."""
    folder = os.path.abspath(os.path.join(corpus.root, link_folder)) if link_folder else None
    for problem in corpus.problems:
        if problem.kind == kind:
            yield problem
        elif folder and problem.kind in (STRAY_LINK, BAD_NAME):
            path = os.path.abspath(problem.pos.path)
            if path == folder or os.path.dirname(path) == folder:
                yield problem


def missing_partners(paths: Mapping[str, str], partners: Mapping[str, str], message: str) -> Iterator[Problem]:
    """A problem at line 1 of each file in `paths` (fixture id -> path) whose fixture id has no
    file in `partners`, by fixture id; `message` names the missing file with `{fixture_id}`."""
    for fixture_id, path in sorted(paths.items()):
        if fixture_id not in partners:
            yield Problem(Pos(path, 1, 1), message.format(fixture_id=fixture_id))


def sidecar_value(corpus: Corpus, fixture_id: str, key: str):
    """A top-level value of the fixture's sidecar if it parsed as a mapping (schema-valid or not)."""
    doc = corpus.sidecar_docs.get(fixture_id)
    return doc.data.get(key) if doc is not None else None


def fixture_category(corpus: Corpus, fixture_id: str) -> str | None:
    """The sidecar's category when it has one, else the one the basename implies."""
    category = sidecar_value(corpus, fixture_id, "category")
    if isinstance(category, str):
        return category
    return category_from_name(fixture_id, spec_categories(corpus))


def spec_categories(corpus: Corpus) -> frozenset[str]:
    """The category ids corpus.yaml declares (none without a valid spec)."""
    return frozenset(c.id for c in corpus.spec.categories) if corpus.spec is not None else frozenset()
