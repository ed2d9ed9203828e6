"""CT405 session-shape-dominant: one (user, agent) shape held by too many fixtures, reported once at
corpus.yaml (the rule: corpustools/lint/rules/session_shape_dominant.py). Corpora from
tests/support/monotone.py."""

from __future__ import annotations

import pytest

from tests.support.lint import messages, where
from tests.support.monotone import MONOTONE, SPEC, VARIED, corpus, run

CODE = "CT405"

pytestmark = pytest.mark.usefixtures("in_tmp")


def test_a_varied_corpus_is_clean(make_corpus):
    assert where(run(corpus(make_corpus, VARIED), CODE), CODE) == []


def test_a_monotone_corpus_is_reported_once_at_corpus_yaml(make_corpus):
    found = run(corpus(make_corpus, MONOTONE), CODE)
    assert where(found, CODE) == [("corpus/corpus.yaml", 1, 1)]
    assert messages(found, CODE) == [
        "7 of 24 fixtures (29%, more than 25%) have 5 user + 5 agent turns: reject-noise-01, reject-noise-02, "
        "reject-noise-03, reject-noise-04, reject-noise-05, reject-noise-06, reject-noise-07; shapes: "
        "5 user + 5 agent x7, 6 user + 6 agent x6, 4 user + 4 agent x4, 7 user + 6 agent x4, "
        "6 user + 5 agent x3; vary who speaks when"]


def test_shape_share_is_an_option_and_exactly_the_share_passes(make_corpus):
    shapes = [(5, 5)] * 6 + [shape for shape in VARIED if shape != (5, 5)][:18]  # 6 of 24 is 25%: not more
    assert where(run(corpus(make_corpus, shapes), CODE), CODE) == []
    strict = SPEC + "lint:\n  rules:\n    CT405:\n      max_share: 0.2\n"
    assert len(where(run(corpus(make_corpus, shapes, spec=strict, name="strict"), CODE), CODE)) == 1
