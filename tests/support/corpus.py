"""A small valid corpus that a test can break one file of.

`VALID_FILES` maps relative POSIX paths to the text of a corpus that lints clean: corpus.yaml with
two categories (one `practice`, one `empty`; turns 2..10), and one session and one sidecar each.
`session_text()` and `sidecar_text()` build variants without copying whole files around;
`write_corpus(root, overrides)` writes one (conftest's `make_corpus` fixture calls it under tmp_path).
"""

from __future__ import annotations

import os
from pathlib import Path

ADMIT_ID = "admit-convention-01"
REJECT_ID = "reject-noise-01"
ADMIT_UUID = "3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d"
REJECT_UUID = "b7e4d2a9-1c3f-4a8e-9d5b-0e6f2c7a1b84"

# The scaffold's two categories (corpustools/scaffold.py), written out rather than derived: the
# tests assert line numbers in this text, and the scaffold's comments and turn range (6-20) are for
# a new user, not for a corpus tests break one file of.
SPEC_TEXT = """\
corpus_version: 1
name: tiny
prompt_under_eval:
  name: proposal-extract
  version: 5
harnesses: [claude]
turns:
  min: 2
  max: 10
categories:
  - id: admit-convention
    count: 1
    expect: practice
    tests: the user teaches a project convention
  - id: reject-noise
    count: 1
    expect: empty
    tests: productive, but only typo fixes
"""

ADMIT_TURNS = (
    ("USER", "Add a cron hook to the newsletter module that clears expired signups."),
    ("AGENT", "I read the newsletter module and drafted the hook with a delete query over the signup table."),
    ("USER", "Never delete rows directly here. Expired signups go through the queue worker, because the "
             "mailing vendor needs an unsubscribe call for each one."),
    ("AGENT", "Understood. I moved the cleanup into a queue worker and the cron hook now only enqueues "
              "their ids."),
)

REJECT_TURNS = (
    ("USER", "Please fix the typo in the help text of the signup form."),
    ("AGENT", "The label said Subscirbe; I changed it to Subscribe and rebuilt the caches."),
    ("USER", "Thanks, that looks right now."),
    ("AGENT", "Done. The form renders the corrected label on the signup page."),
)


def session_text(session_id: str = ADMIT_UUID, turns=ADMIT_TURNS, *, harness: str = "claude",
                 captured_at: str = "'2026-01-05T10:00:00Z'", schema_version: str = "1",
                 extra_frontmatter: str = "", body: str | None = None) -> str:
    """A session file. `turns` is a sequence of (TAG, text); `body` replaces the whole body."""
    if body is None:
        body = "".join(f"[{tag}]: {text}\n" for tag, text in turns)
    return (f"---\nschema_version: {schema_version}\nsession_id: {session_id}\nharness: {harness}\n"
            f"captured_at: {captured_at}\n{extra_frontmatter}---\n{body}")


def sidecar_text(fixture_id: str = ADMIT_ID, category: str = "admit-convention", *,
                 expect_empty: bool = False, points: str | None = None, max_unexpected: int = 0,
                 notes: str = "A tiny fixture for tests.", optional: str | None = None) -> str:
    """A sidecar file. `points` is the YAML of the expected_points list (default: one practice point
    for the admit fixture, none when expect_empty); `optional`, when given, of optional_points."""
    if points is None:
        points = " []\n" if expect_empty else (
            "\n  - id: expire-via-queue\n    type: practice\n    must_match_all:\n"
            "      - queue worker\n      - expired signups\n")
    return (f"fixture_id: {fixture_id}\ncategory: {category}\nexpect_empty: {str(expect_empty).lower()}\n"
            f"expected_points:{points}" + (f"optional_points:{optional}" if optional is not None else "") +
            f"max_unexpected_proposals: {max_unexpected}\nnotes: {notes}\n")


VALID_FILES = {
    "corpus.yaml": SPEC_TEXT,
    f"sessions/{ADMIT_ID}.md": session_text(ADMIT_UUID, ADMIT_TURNS),
    f"sessions/{REJECT_ID}.md": session_text(REJECT_UUID, REJECT_TURNS),
    f"expected/{ADMIT_ID}.yaml": sidecar_text(ADMIT_ID, "admit-convention"),
    f"expected/{REJECT_ID}.yaml": sidecar_text(REJECT_ID, "reject-noise", expect_empty=True),
}


def key_paths(value, path=()):
    """The key path of every node of plain data (mapping keys and list indexes), the root first."""
    yield path
    if isinstance(value, dict):
        for key in value:
            yield from key_paths(value[key], path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from key_paths(item, path + (index,))


def write_corpus(root, overrides: dict | None = None) -> Path:
    """Write VALID_FILES, with `overrides` applied (text replaces, None removes), under `root`."""
    root = Path(root)
    files = dict(VALID_FILES)
    files.update(overrides or {})
    for relative, text in sorted(files.items()):
        if text is None:
            continue
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            with open(path, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
    for folder in ("sessions", "expected"):
        os.makedirs(root / folder, exist_ok=True)
    return root


def write_provenance_repo(root: Path, make_corpus) -> Path:
    """A repository layout under `root` (the working folder): fixtures/tiny/ (the shared valid corpus,
    with a gold file) and authoring/prompt.md, the prompt a provenance record names; returns `root`."""
    (root / ".git").mkdir()
    make_corpus(name="fixtures/tiny")
    (root / "fixtures/tiny/gold").mkdir()
    (root / "fixtures/tiny/gold" / f"{REJECT_ID}.json").write_text('{"practice": [], "map": []}\n')
    (root / "authoring").mkdir()
    (root / "authoring/prompt.md").write_text("# Author the corpus\n")
    return root
