"""CT205 file-extension: its failing samples, each at its file, line and column (the rule:
corpustools/lint/rules/file_extension.py). Samples are the shared valid corpus (tests/support/corpus.py,
which every rule passes: tests/test_lint_engine.py) with files changed."""

from __future__ import annotations

import pytest

from tests.support.corpus import ADMIT_ID, REJECT_ID, VALID_FILES
from tests.support.lint import ADMIT_SIDECAR, REJECT_SESSION, in_corpus, lint_run, sample_found_at

CODE = "CT205"

pytestmark = pytest.mark.usefixtures("in_tmp")

FAILING = [  # (overrides, (path inside the corpus, line, col) of every finding)
    ({ADMIT_SIDECAR: None, f"expected/{ADMIT_ID}.yml": VALID_FILES[ADMIT_SIDECAR]},
     [(f"expected/{ADMIT_ID}.yml", 1, 1)]),
    ({f"sessions/{REJECT_ID}.MD": VALID_FILES[REJECT_SESSION], "expected/notes.txt": "x\n",
      f"expected/{ADMIT_ID}.yaml.bak": "x\n", "sessions/.draft.markdown": "x\n"},
     [(f"sessions/{REJECT_ID}.MD", 1, 1)]),
]


@pytest.mark.parametrize("overrides, expected", FAILING)
def test_failing_sample(make_corpus, overrides, expected):
    assert sample_found_at(make_corpus, CODE, overrides) == in_corpus(expected)


def test_near_miss_fixture_file_names_say_what_to_rename_them_to(make_corpus):
    body = VALID_FILES[ADMIT_SIDECAR]
    root = make_corpus({ADMIT_SIDECAR: None, f"expected/{ADMIT_ID}.YAML": body, f"expected/{REJECT_ID}": body,
                        "sessions/draft-01.markdown": "x\n", "sessions/lost-01.yml": body,
                        "expected/lost-02.md": "x\n", f"sessions/{REJECT_ID}.yaml": body})
    (root / "expected" / "a-folder.yml").mkdir()  # a folder is not a misnamed file
    run = lint_run(root)
    assert [(d.path, d.message) for d in run.diagnostics if d.code == CODE] == [
        (f"corpus/expected/{ADMIT_ID}.YAML", "not read as a sidecar: sidecars are named <fixture id>.yaml; "
         f"rename it to {ADMIT_ID}.yaml"),
        ("corpus/expected/lost-02.md", "not read: a session belongs in sessions/; move it to sessions/lost-02.md"),
        (f"corpus/expected/{REJECT_ID}", "not read as a sidecar: sidecars are named <fixture id>.yaml and "
         f"{REJECT_ID}.yaml is the one read; merge the two and delete this file"),
        ("corpus/sessions/draft-01.markdown", "not read as a session: sessions are named <fixture id>.md; "
         "rename it to draft-01.md"),
        ("corpus/sessions/lost-01.yml", "not read: a sidecar belongs in expected/; move it to expected/lost-01.yaml"),
        (f"corpus/sessions/{REJECT_ID}.yaml", f"not read: a sidecar belongs in expected/ and "
         f"expected/{REJECT_ID}.yaml is the one read; merge the two and delete this file"),
    ]
    assert all(d.severity == "error" for d in run.diagnostics if d.code == CODE)
