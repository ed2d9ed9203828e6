"""CT701 template-reuse: its findings, the near-misses that stay clean and its options (the rule:
corpustools/lint/rules/template_reuse.py; the sentence splitting and the near-duplicate search it is
built on: tests/test_lint_templates.py). Samples are the shared valid corpus with a turn appended to a
session (tests/support/templates.py)."""

from __future__ import annotations

import pytest

from tests.support.corpus import ADMIT_ID, session_text
from tests.support.lint import messages, where
from tests.support.templates import REJECT_SHOWN, SECOND_A, SECOND_B, TEMPLATE_A, TEMPLATE_B, run_of, with_turns

CODE = "CT701"

pytestmark = pytest.mark.usefixtures("in_tmp")


def test_a_pair_of_fixtures_is_one_finding_at_the_later_one(make_corpus):
    run = run_of(make_corpus, with_turns(admit=[("USER", "Good. " + TEMPLATE_A)], reject=[("USER", TEMPLATE_B)]))
    assert where(run, CODE) == [(REJECT_SHOWN, 11, 9)]
    assert messages(run, CODE) == [
        f"sentence template reused: 1 sentence shares its skeleton with {ADMIT_ID} line 11: "
        "'put the exported * for * in * and import it with * during the deploy'"]
    assert where(run, "CT702") == []  # identical is not "near"
    # A session copied as a template: one finding for the pair, with the count and the first sentence.
    run = run_of(make_corpus, with_turns(admit=[("USER", TEMPLATE_A), ("USER", SECOND_A)],
                                         reject=[("USER", TEMPLATE_B), ("USER", SECOND_B)]))
    assert where(run, CODE) == [(REJECT_SHOWN, 11, 9)]
    assert messages(run, CODE) == [
        f"sentence template reused: 2 sentences share their skeleton with {ADMIT_ID}; the first is {ADMIT_ID} "
        "line 11: 'put the exported * for * in * and import it with * during the deploy'"]


def test_ignores_repeats_inside_one_fixture_and_stock_phrases(make_corpus):
    run = run_of(make_corpus, with_turns(admit=[("USER", TEMPLATE_A), ("USER", TEMPLATE_B)],
                                         reject=[("USER", "Running the tests now.")]))
    assert where(run, CODE) == []
    run = run_of(make_corpus, with_turns(admit=[("USER", "Running the tests now.")],
                                         reject=[("USER", "Running the tests now.")]))
    assert where(run, CODE) == []


def test_names_the_first_fixture_that_has_the_sentence(make_corpus):
    overrides = with_turns(admit=[("USER", TEMPLATE_A)], reject=[("USER", TEMPLATE_B)])
    overrides["sessions/admit-convention-02.md"] = session_text(
        "0d6c4b8a-2e1f-4a3b-9c5d-7e8f9a0b1c2d", (("USER", "Rename the field."), ("AGENT", "Renamed it."),
                                                 ("USER", TEMPLATE_A.replace("Drush", "Make"))))
    run = run_of(make_corpus, overrides)
    # one finding per later fixture, each naming the first holder; none at the first holder
    assert where(run, CODE) == [("corpus/sessions/admit-convention-02.md", 9, 9), (REJECT_SHOWN, 11, 9)]
    assert all(m.startswith(f"sentence template reused: 1 sentence shares its skeleton with {ADMIT_ID} line 11: ")
               for m in messages(run, CODE))
