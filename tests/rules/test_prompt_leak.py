"""CT703 prompt-leak: its findings, the near-misses that stay clean and its options (the rule:
corpustools/lint/rules/prompt_leak.py; the sentence splitting and the near-duplicate search it is
built on: tests/test_lint_templates.py). Samples are the shared valid corpus with a turn appended to a
session (tests/support/templates.py)."""

from __future__ import annotations

import pytest

from tests.support.lint import messages, where
from tests.support.templates import ADMIT_SHOWN, REJECT_SHOWN, TEMPLATE_A, run_of, with_turns

CODE = "CT703"

pytestmark = pytest.mark.usefixtures("in_tmp")


PROMPT = """\
# Extraction prompt

Read the transcript and extract the durable project knowledge it teaches.

**Input transcript:**

```
[USER]: No, don't use the default render cache for `profile` pages. Use the PII cache instead.
```

```json
{"practice": [{"body": "For pages that render personal data, the default Drupal render cache is not acceptable because it stores plaintext."}]}
```
"""


def test_fixture_reusing_the_prompts_examples_is_reported(make_corpus, tmp_path):
    (tmp_path / "prompt.md").write_text(PROMPT, encoding="utf-8")
    overrides = with_turns(
        admit=[("USER", "No, don't use the default render cache for `signup` pages.")],
        reject=[("AGENT", "For pages that render personal data, the default Backdrop render cache is not "
                          "acceptable because it stores plaintext.")])
    run = run_of(make_corpus, overrides, prompt="prompt.md")
    assert where(run, CODE) == [(ADMIT_SHOWN, 11, 9), (REJECT_SHOWN, 11, 10)]
    assert messages(run, CODE) == [
        "sentence reuses the prompt's sentence skeleton at prompt.md:8: "
        "\"No, don't use the default render cache for `profile` pages\"",
        "sentence reuses the prompt's sentence skeleton at prompt.md:12: "
        "'For pages that render personal data, the default Drupal render cache is not a...'"]


def test_near_copies_are_reported_and_only_with_a_prompt(make_corpus, tmp_path):
    (tmp_path / "prompt.md").write_text(PROMPT, encoding="utf-8")
    overrides = with_turns(admit=[("USER", "No, don't ever use the default render cache for `signup` pages.")])
    run = run_of(make_corpus, overrides, prompt="prompt.md")
    assert where(run, CODE) == [(ADMIT_SHOWN, 11, 9)]
    assert messages(run, CODE)[0].startswith("sentence is 95% similar to the prompt's sentence at prompt.md:8: ")
    assert where(run_of(make_corpus, overrides), CODE) == []  # no prompt: inactive


def test_passes_a_corpus_in_its_own_words(make_corpus, tmp_path):
    (tmp_path / "prompt.md").write_text(PROMPT, encoding="utf-8")
    assert where(run_of(make_corpus, with_turns(admit=[("USER", TEMPLATE_A)]), prompt="prompt.md"), CODE) == []
