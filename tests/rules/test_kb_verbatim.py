"""CT704 kb-verbatim: its findings, the near-misses that stay clean and its options (the rule:
corpustools/lint/rules/kb_verbatim.py; the sentence splitting and the near-duplicate search it is
built on: tests/test_lint_templates.py). Samples are the shared valid corpus with a turn appended to a
session (tests/support/templates.py)."""

from __future__ import annotations

import pytest

from tests.support.corpus import REJECT_TURNS
from tests.support.lint import messages, where
from tests.support.templates import ADMIT_SHOWN, run_of, with_turns

CODE = "CT704"

pytestmark = pytest.mark.usefixtures("in_tmp")


KB_SENTENCE = "Expired signups go through the queue worker, because the mailing vendor needs an unsubscribe call for each one."


def write_kb(tmp_path, body: str, frontmatter: str = "schema_version: 2\nsummary: queue rules\n"):
    folder = tmp_path / "kb" / "processing"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "practice-queue.md").write_text(f"---\n{frontmatter}---\n# Queue\n\n{body}\n", encoding="utf-8")
    return "kb"


def test_admit_user_turn_restating_the_kb_is_reported(make_corpus, tmp_path):
    kb = write_kb(tmp_path, "- " + KB_SENTENCE)  # admit session line 9 says it after "Never delete rows directly here."
    run = run_of(make_corpus, {}, kb=kb)
    assert where(run, CODE) == [(ADMIT_SHOWN, 9, 42)]
    assert messages(run, CODE) == [
        "user sentence restates the knowledge base verbatim at kb/processing/practice-queue.md:7: "
        "'Expired signups go through the queue worker, because the mailing vendor needs...'"]


def test_near_verbatim_is_reported(make_corpus, tmp_path):
    kb = write_kb(tmp_path, "Expired signups go through the queue worker because the mailing vendor needs an "
                            "unsubscribe call.")
    run = run_of(make_corpus, {}, kb=kb)
    assert where(run, CODE) == [(ADMIT_SHOWN, 9, 42)]
    assert messages(run, CODE)[0].startswith("user sentence restates the knowledge base nearly verbatim (94% similar) at "
                                              "kb/processing/practice-queue.md:7: ")


def test_only_admit_user_turns_count(make_corpus, tmp_path):
    # the KB says what the admit fixture's agent says, and what the reject fixture's user says
    kb = write_kb(tmp_path, "I moved the cleanup into a queue worker and the cron hook now only enqueues "
                            "their ids. " + REJECT_TURNS[0][1])
    run = run_of(make_corpus, with_turns(reject=[("USER", KB_SENTENCE)]), kb=kb)
    assert where(run, CODE) == []
    assert where(run_of(make_corpus, {}), CODE) == []  # no KB: inactive


def test_kb_frontmatter_is_not_kb_text(make_corpus, tmp_path):
    kb = write_kb(tmp_path, "Something else entirely about the signup form.",
                  frontmatter=f"summary: {KB_SENTENCE}\n")
    assert where(run_of(make_corpus, {}, kb=kb), CODE) == []
