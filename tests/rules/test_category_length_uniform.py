"""CT406 category-length-uniform: a category whose fixtures all have one length, reported at its entry
(the rule: corpustools/lint/rules/category_length_uniform.py). Corpora from
tests/support/monotone.py."""

from __future__ import annotations

import pytest

from tests.support.lint import messages, where
from tests.support.monotone import VARIED, corpus, run

CODE = "CT406"

pytestmark = pytest.mark.usefixtures("in_tmp")


def test_a_varied_corpus_is_clean(make_corpus):
    assert where(run(corpus(make_corpus, VARIED), CODE), CODE) == []


def test_a_category_whose_fixtures_share_one_length_is_reported_at_its_entry(make_corpus):
    shapes = [(5, 5), (6, 4), (4, 6)] + VARIED[:5]
    categories = ["admit-convention"] * 3 + ["reject-noise"] * 5
    found = run(corpus(make_corpus, shapes, categories), CODE)
    assert where(found, CODE) == [("corpus/corpus.yaml", 11, 5)]  # the `- id: admit-convention` entry
    assert messages(found, CODE) == [
        "all 3 fixtures of category admit-convention have 10 turns: admit-convention-01, admit-convention-02, "
        "admit-convention-03; vary their lengths"]
    # two fixtures alike are chance, not a finding
    found = run(corpus(make_corpus, shapes[1:], categories[1:], name="two"), CODE)
    assert where(found, CODE) == []
