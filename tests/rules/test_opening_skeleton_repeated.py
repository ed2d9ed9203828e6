"""CT705 opening-skeleton-repeated: sessions opening with one sentence frame, reported once at the
first (the rule: corpustools/lint/rules/opening_skeleton_repeated.py). Corpora from
tests/support/monotone.py."""

from __future__ import annotations

import pytest

from tests.support.lint import messages, where
from tests.support.monotone import VARIED, corpus, run

CODE = "CT705"

pytestmark = pytest.mark.usefixtures("in_tmp")


def test_a_varied_corpus_is_clean(make_corpus):
    assert where(run(corpus(make_corpus, VARIED), CODE), CODE) == []


def test_a_repeated_opening_skeleton_is_reported_once_at_the_first_session(make_corpus):
    openings = [f"I'm working on the `fern_{name}` module and need help." for name in ("events", "holds", "ils")]
    openings += ["Hello."] * 5 + [None] * 16  # a bare greeting is not an opening skeleton
    found = run(corpus(make_corpus, VARIED, openings=openings), CODE)
    assert where(found, CODE) == [("corpus/sessions/reject-noise-01.md", 7, 9)]
    assert messages(found, CODE) == [
        "opening sentence skeleton 'i m working on the * module and need help' opens 3 sessions: reject-noise-01, "
        "reject-noise-02, reject-noise-03; vary how sessions start"]
    two = openings[1:] + [None]
    assert where(run(corpus(make_corpus, VARIED, openings=two, name="two"), CODE), CODE) == []
