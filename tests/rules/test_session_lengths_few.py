"""CT404 session-lengths-few: a corpus with too few distinct session lengths, reported once at
corpus.yaml (the rule: corpustools/lint/rules/session_lengths_few.py). Corpora from
tests/support/monotone.py."""

from __future__ import annotations

import pytest

from tests.support.lint import messages, where
from tests.support.monotone import MONOTONE, SPEC, VARIED, corpus, run

CODE = "CT404"

pytestmark = pytest.mark.usefixtures("in_tmp")


def test_a_varied_corpus_is_clean(make_corpus):
    assert where(run(corpus(make_corpus, VARIED), CODE), CODE) == []


def test_a_monotone_corpus_is_reported_once_at_corpus_yaml(make_corpus):
    found = run(corpus(make_corpus, MONOTONE), CODE)
    assert where(found, CODE) == [("corpus/corpus.yaml", 1, 1)]
    assert messages(found, CODE) == [
        "only 5 distinct session lengths among 24 fixtures (at least 6 expected): 10 turns x7, 12 turns x6, "
        "8 turns x4, 13 turns x4, 11 turns x3; the most common, 10 turns: reject-noise-01, reject-noise-02, "
        "reject-noise-03, reject-noise-04, reject-noise-05, reject-noise-06, reject-noise-07; vary the number "
        "of turns"]


def test_the_lengths_wanted_grow_with_the_corpus_up_to_a_cap_and_the_spec_range(make_corpus):
    # 8 fixtures want 2 lengths: two are enough, one is not
    assert where(run(corpus(make_corpus, [(4, 4)] * 4 + [(5, 5)] * 4), CODE), CODE) == []
    assert len(where(run(corpus(make_corpus, [(4, 4)] * 8, name="one"), CODE), CODE)) == 1
    # 7 fixtures are too few to judge
    assert where(run(corpus(make_corpus, [(4, 4)] * 7, name="seven"), CODE), CODE) == []
    # a spec allowing 3 lengths wants no more than 3
    narrow = SPEC.replace("  min: 2\n  max: 20", "  min: 8\n  max: 10")
    shapes = [(4, 4)] * 10 + [(5, 4)] * 10 + [(5, 5)] * 10
    assert where(run(corpus(make_corpus, shapes, spec=narrow, name="narrow"), CODE), CODE) == []
