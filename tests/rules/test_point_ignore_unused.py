"""CT615 point-ignore-unused: a `lint: per_point_ignores:` entry of corpus.yaml that switches no
finding off, reported at the entry once the rules it names have run (the rule:
corpustools/lint/rules/point_ignore_unused.py; a whole corpus's entries: tests/test_second_user.py)."""

from __future__ import annotations

import pytest

from tests.support.corpus import SPEC_TEXT
from tests.support.labels import labels, point
from tests.support.lint import lint_run, messages, where

CODE = "CT615"
ENTRY_LINE = SPEC_TEXT.count("\n") + 3  # lint:, per_point_ignores:, then the entry
IGNORING = SPEC_TEXT + ("lint:\n  per_point_ignores:\n    - point: p\n      codes: [term-rare-phrase]\n"
                        "      reason: the vendor is named as the user named it\n")
SAID_ONCE = point("p", "practice", ["queue worker", "mailing vendor"])  # CT612: said once, in one wording
SAID_TWICE = point("p", "practice", ["queue worker", "expired signups"])

pytestmark = pytest.mark.usefixtures("in_tmp")


def run_of(make_corpus, points: str, select: str):
    run = lint_run(make_corpus({**labels(points), "corpus.yaml": IGNORING}), select=frozenset(select.split(",")))
    assert run.crashes == ()
    return run


def test_an_entry_that_switches_nothing_off_is_reported_at_the_entry(make_corpus):
    run = run_of(make_corpus, SAID_TWICE, "CT612,CT615")
    assert where(run, CODE) == [("corpus/corpus.yaml", ENTRY_LINE, 7)]
    assert messages(run, CODE) == ["lint.per_point_ignores: CT612 finds nothing at point 'p'; delete this entry"]


def test_an_entry_that_switches_a_finding_off_is_clean(make_corpus):
    run = run_of(make_corpus, SAID_ONCE, "CT612,CT615")
    assert where(run, CODE) == [] and where(run, "CT612") == []


def test_an_entry_whose_rules_did_not_run_is_not_judged(make_corpus):
    assert where(run_of(make_corpus, SAID_TWICE, "CT615"), CODE) == []
