"""CT702 template-near: its findings, the near-misses that stay clean and its options (the rule:
corpustools/lint/rules/template_near.py; the sentence splitting and the near-duplicate search it is
built on: tests/test_lint_templates.py). Samples are the shared valid corpus with a turn appended to a
session (tests/support/templates.py)."""

from __future__ import annotations

import pytest

from tests.support.corpus import ADMIT_ID
from tests.support.lint import messages, where
from tests.support.templates import REJECT_SHOWN, SECOND_A, TEMPLATE_A, TEMPLATE_NEAR, run_of, with_turns

CODE = "CT702"

pytestmark = pytest.mark.usefixtures("in_tmp")


NEAR_SECOND = "The worker reads the whole queue of `venue` rows every night and removes the expired ones with `systemd`."


def test_a_pair_of_near_identical_fixtures_is_one_finding_at_the_later_one(make_corpus):
    run = run_of(make_corpus, with_turns(admit=[("USER", TEMPLATE_A)], reject=[("AGENT", TEMPLATE_NEAR)]))
    assert where(run, CODE) == [(REJECT_SHOWN, 11, 10)]
    assert messages(run, CODE) == [
        f"sentence skeleton is 93% similar to one in {ADMIT_ID} line 11: "
        "'put the exported * for * in * and then import it with * during the next deploy'"]
    assert where(run, "CT701") == []
    # a session copied as a template and edited a little: one finding, with the count and the first
    run = run_of(make_corpus, with_turns(admit=[("USER", TEMPLATE_A), ("USER", SECOND_A)],
                                         reject=[("AGENT", TEMPLATE_NEAR), ("USER", NEAR_SECOND)]))
    assert where(run, CODE) == [(REJECT_SHOWN, 11, 10)]
    assert messages(run, CODE) == [
        f"2 sentence skeletons are near-identical to ones in {ADMIT_ID}; the first is 93% similar to {ADMIT_ID} "
        "line 11: 'put the exported * for * in * and then import it with * during the next deploy'"]


def test_passes_different_sentences_and_respects_the_threshold(make_corpus):
    run = run_of(make_corpus, with_turns(admit=[("USER", TEMPLATE_A)],
                                         reject=[("USER", "Ship the signup form with the corrected label "
                                                          "before the newsletter goes out on Friday.")]))
    assert where(run, CODE) == []
    strict = ("corpus_version: 1\nname: tiny\nprompt_under_eval: {name: p, version: 5}\nturns: {min: 2, max: 10}\n"
              "categories:\n  - {id: admit-convention, count: 1, expect: practice, tests: t}\n"
              "  - {id: reject-noise, count: 1, expect: empty, tests: t}\n"
              "lint:\n  rules:\n    CT702: {threshold: 95}\n")
    overrides = with_turns(admit=[("USER", TEMPLATE_A)], reject=[("AGENT", TEMPLATE_NEAR)])
    overrides["corpus.yaml"] = strict
    assert where(run_of(make_corpus, overrides), CODE) == []
