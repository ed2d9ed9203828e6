"""The structural rules (CT0xx-CT4xx, CT801): each has a failing sample, asserting code, line and
column (the shared valid corpus passes them all: test_lint_engine.py). Samples are the shared
valid corpus (tests/support/corpus.py) with one file changed."""

from __future__ import annotations

import os

import pytest

from tests.support.corpus import (
    ADMIT_ID,
    ADMIT_TURNS,
    ADMIT_UUID,
    REJECT_ID,
    REJECT_TURNS,
    REJECT_UUID,
    SPEC_TEXT,
    VALID_FILES,
    session_text,
    sidecar_text,
)
from tests.support.lint import lint_run, messages, where

ADMIT_SESSION = f"sessions/{ADMIT_ID}.md"
REJECT_SESSION = f"sessions/{REJECT_ID}.md"
ADMIT_SIDECAR = f"expected/{ADMIT_ID}.yaml"
REJECT_SIDECAR = f"expected/{REJECT_ID}.yaml"


pytestmark = pytest.mark.usefixtures("in_tmp")


# (code, overrides, expected (path inside the corpus, line, col) of every diagnostic of that code)
FAILING = [
    ("CT001", {ADMIT_SESSION: "[USER]: no frontmatter here\n"}, [(ADMIT_SESSION, 1, 1)]),
    ("CT001", {ADMIT_SESSION: "---\nschema_version: 1\n[USER]: never closed\n"}, [(ADMIT_SESSION, 1, 1)]),
    ("CT001", {ADMIT_SESSION: b"---\nschema_version: 1\n---\n[USER]: caf\xe9\n"}, [(ADMIT_SESSION, 4, 12)]),
    ("CT001", {ADMIT_SESSION: "---\nsession_id: [unclosed\n---\n[USER]: x\n"}, [(ADMIT_SESSION, 3, 1)]),
    ("CT002", {ADMIT_SIDECAR: VALID_FILES[ADMIT_SIDECAR] + "category: again\n"}, [(ADMIT_SIDECAR, 12, 1)]),
    ("CT002", {ADMIT_SIDECAR: "- just\n- a list\n"}, [(ADMIT_SIDECAR, 1, 1)]),
    ("CT003", {"corpus.yaml": None}, [("corpus.yaml", 1, 1)]),
    ("CT003", {"corpus.yaml": SPEC_TEXT.replace("count: 1\n    expect: practice", "count: two\n    expect: practice")},
     [("corpus.yaml", 12, 5)]),
    ("CT004", {ADMIT_SESSION: session_text(captured_at="2026-01-05 10:00")}, [(ADMIT_SESSION, 5, 1)]),
    ("CT004", {ADMIT_SESSION: session_text(captured_at="'2026-01-05T10:00:00+02:00'")}, [(ADMIT_SESSION, 5, 1)]),
    ("CT004", {ADMIT_SESSION: session_text(captured_at="'2026-13-05T10:00:00Z'")}, [(ADMIT_SESSION, 5, 1)]),
    ("CT004", {ADMIT_SESSION: session_text(extra_frontmatter="model: some-model\n")}, [(ADMIT_SESSION, 6, 1)]),
    ("CT004", {ADMIT_SESSION: session_text(harness="codex")}, [(ADMIT_SESSION, 4, 1)]),
    ("CT004", {ADMIT_SESSION: session_text(schema_version="'1'")}, [(ADMIT_SESSION, 2, 1)]),
    ("CT004", {ADMIT_SESSION: "---\nschema_version: 1\nsession_id: " + ADMIT_UUID + "\nharness: claude\n---\n"
               + "".join(f"[{t}]: {x}\n" for t, x in ADMIT_TURNS)}, [(ADMIT_SESSION, 1, 1)]),
    ("CT005", {ADMIT_SIDECAR: VALID_FILES[ADMIT_SIDECAR].replace("must_match_all", "must_match")},
     [(ADMIT_SIDECAR, 7, 5)]),  # must_match unexpected (did you mean must_match_all?): one mistake, said once
    ("CT005", {ADMIT_SIDECAR: VALID_FILES[ADMIT_SIDECAR].replace("max_unexpected_proposals: 0", "max_unexpected_proposals: -1")},
     [(ADMIT_SIDECAR, 10, 1)]),
    ("CT101", {ADMIT_SESSION: session_text(ADMIT_UUID.upper())}, [(ADMIT_SESSION, 3, 1)]),
    ("CT101", {ADMIT_SESSION: session_text("3f2b8c1e-9a4d-1e7b-8c21-5d6f7a8b9c0d")}, [(ADMIT_SESSION, 3, 1)]),
    ("CT101", {ADMIT_SESSION: session_text("3f2b8c1e-9a4d-4e7b-7c21-5d6f7a8b9c0d")}, [(ADMIT_SESSION, 3, 1)]),
    ("CT101", {ADMIT_SESSION: session_text("not-a-uuid")}, [(ADMIT_SESSION, 3, 1)]),
    ("CT102", {REJECT_SESSION: session_text(ADMIT_UUID, REJECT_TURNS)},
     [(ADMIT_SESSION, 3, 1), (REJECT_SESSION, 3, 1)]),
    ("CT201", {ADMIT_SIDECAR: None}, [(ADMIT_SESSION, 1, 1)]),
    ("CT202", {REJECT_SESSION: None}, [(REJECT_SIDECAR, 1, 1)]),
    ("CT203", {ADMIT_SIDECAR: sidecar_text("admit-convention-02")}, [(ADMIT_SIDECAR, 1, 1)]),
    ("CT204", {REJECT_SIDECAR: sidecar_text(REJECT_ID, "admit-convention", expect_empty=True)},
     [(REJECT_SIDECAR, 2, 1)]),
    ("CT204", {"sessions/stray.md": session_text("0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a", REJECT_TURNS)},
     [("sessions/stray.md", 1, 1)]),
    ("CT205", {ADMIT_SIDECAR: None, f"expected/{ADMIT_ID}.yml": VALID_FILES[ADMIT_SIDECAR]},
     [(f"expected/{ADMIT_ID}.yml", 1, 1)]),
    ("CT205", {f"sessions/{REJECT_ID}.MD": VALID_FILES[REJECT_SESSION], "expected/notes.txt": "x\n",
               f"expected/{ADMIT_ID}.yaml.bak": "x\n", "sessions/.draft.markdown": "x\n"},
     [(f"sessions/{REJECT_ID}.MD", 1, 1)]),
    ("CT301", {"corpus.yaml": SPEC_TEXT.replace("count: 1\n    expect: empty", "count: 3\n    expect: empty")},
     [("corpus.yaml", 16, 5)]),
    ("CT302", {REJECT_SIDECAR: sidecar_text(REJECT_ID, "reject-nosie", expect_empty=True)}, [(REJECT_SIDECAR, 2, 1)]),
    ("CT303", {ADMIT_SIDECAR: sidecar_text(points="\n  - id: signup-table\n    type: map\n    must_match_all:\n"
                                           "      - signup table\n      - newsletter module\n")},
     [(ADMIT_SIDECAR, 4, 1)]),
    ("CT303", {REJECT_SIDECAR: sidecar_text(REJECT_ID, "reject-noise", points=" []\n")}, [(REJECT_SIDECAR, 3, 1)]),
    ("CT303", {ADMIT_SIDECAR: sidecar_text(expect_empty=True, points=None).replace(" []", "\n  - id: expire-via-queue\n"
               "    type: practice\n    must_match_all:\n      - queue worker\n      - expired signups")},
     [(ADMIT_SIDECAR, 3, 1)]),
    ("CT401", {"corpus.yaml": SPEC_TEXT.replace("min: 2", "min: 5")}, [(ADMIT_SESSION, 7, 1), (REJECT_SESSION, 7, 1)]),
    ("CT401", {"corpus.yaml": SPEC_TEXT.replace("max: 10", "max: 3")}, [(ADMIT_SESSION, 7, 1), (REJECT_SESSION, 7, 1)]),
    ("CT402", {REJECT_SESSION: session_text(REJECT_UUID, body="Hello there\n[USER]: Fix the typo.\n[SYSTEM]: hidden\n"
                                            "[user]: lower\n[AGENT]:\n[AGENT]: Done.\n")},
     [(REJECT_SESSION, 7, 1), (REJECT_SESSION, 9, 1), (REJECT_SESSION, 10, 1), (REJECT_SESSION, 11, 1)]),
    ("CT403", {REJECT_SESSION: session_text(REJECT_UUID, REJECT_TURNS[1:] + REJECT_TURNS[:1])}, [(REJECT_SESSION, 7, 1)]),
    ("CT403", {REJECT_SESSION: session_text(REJECT_UUID, [t for t in REJECT_TURNS if t[0] == "AGENT"])},
     [(REJECT_SESSION, 7, 1)]),
]


@pytest.mark.parametrize("code, overrides, expected", FAILING, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(FAILING)])
def test_failing_sample(make_corpus, code, overrides, expected):
    run = lint_run(make_corpus(overrides))
    assert where(run, code) == [(f"corpus/{path}", line, col) for path, line, col in expected]
    assert run.crashes == ()


def test_stray_links_are_reported_under_their_folder(make_corpus, tmp_path):
    root = make_corpus()
    if not hasattr(os, "symlink"):
        pytest.skip("no symbolic links on this platform")
    os.symlink(root / ADMIT_SESSION, root / "sessions" / "linked-01.md")
    os.symlink(root / ADMIT_SIDECAR, root / "expected" / "linked-01.yaml")
    run = lint_run(root)
    assert where(run, "CT001") == [("corpus/sessions/linked-01.md", 1, 1)]
    assert where(run, "CT002") == [("corpus/expected/linked-01.yaml", 1, 1)]
    assert "symbolic link" in messages(run, "CT001")[0]


def test_qualified_tags_and_consecutive_agent_segments_are_turns(make_corpus):
    body = ("[USER]: Please review the queue worker.\n[AGENT]: Reading it.\n[AGENT]: Found one issue.\n"
            "[USER /self-review-apply notes/review.xml]: Apply the review.\n"
            "[AGENT NARRATION OF SELF-REVIEW notes/review.xml]: Applied; expired signups now go through the queue worker.\n")
    run = lint_run(make_corpus({ADMIT_SESSION: session_text(body=body)}))
    assert where(run, "CT402") == [] and where(run, "CT401") == [] and where(run, "CT403") == []


def test_fractional_utc_timestamps_pass(make_corpus):
    for stamp in ("'2026-02-17T09:41:26.000Z'", "2026-02-17T09:41:26+00:00"):
        run = lint_run(make_corpus({ADMIT_SESSION: session_text(captured_at=stamp)}, name=f"c{len(stamp)}"))
        assert where(run, "CT004") == []


def test_missing_sidecar_does_not_also_miscount_its_category(make_corpus):
    run = lint_run(make_corpus({ADMIT_SIDECAR: "not: [valid\n"}))
    assert where(run, "CT002") == [(f"corpus/{ADMIT_SIDECAR}", 2, 1)]
    assert where(run, "CT301") == [] and where(run, "CT201") == []


def test_category_count_counts_by_sidecar_category(make_corpus):
    extra = {"sessions/admit-convention-02.md": session_text("0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a", ADMIT_TURNS),
             "expected/admit-convention-02.yaml": sidecar_text("admit-convention-02")}
    run = lint_run(make_corpus(extra))
    assert where(run, "CT301") == [("corpus/corpus.yaml", 12, 5)]
    assert "has 2 fixtures, the spec says 1" in messages(run, "CT301")[0]


def test_broken_files_do_not_stop_the_rest(make_corpus):
    run = lint_run(make_corpus({ADMIT_SESSION: b"\xff\xfe garbage", REJECT_SIDECAR: "a: [\n",
                                "corpus.yaml": "corpus_version: 1\n"}))
    codes = {d.code for d in run.diagnostics}
    assert {"CT001", "CT002", "CT003"} <= codes
    assert run.crashes == ()


def test_near_miss_fixture_file_names_say_what_to_rename_them_to(make_corpus):
    body = VALID_FILES[ADMIT_SIDECAR]
    root = make_corpus({ADMIT_SIDECAR: None, f"expected/{ADMIT_ID}.YAML": body, f"expected/{REJECT_ID}": body,
                        "sessions/draft-01.markdown": "x\n", "sessions/lost-01.yml": body,
                        "expected/lost-02.md": "x\n", f"sessions/{REJECT_ID}.yaml": body})
    (root / "expected" / "a-folder.yml").mkdir()  # a folder is not a misnamed file
    run = lint_run(root)
    assert [(d.path, d.message) for d in run.diagnostics if d.code == "CT205"] == [
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
    assert all(d.severity == "error" for d in run.diagnostics if d.code == "CT205")
