"""The corpus model: loading a corpus folder with source positions, segmenting sessions into turns,
recording (never raising) problems per file, and the corpus hash."""

from __future__ import annotations

import hashlib
import os

import pytest

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.lint.config import ConfigError
from corpustools.model.corpus import (
    SESSION_PARSE,
    SIDECAR_PARSE,
    SIDECAR_SCHEMA,
    SPEC_INVALID,
    corpus_files,
    load_corpus,
)
from corpustools.model.hashing import corpus_sha256
from corpustools.model.session import parse_session
from corpustools.model.spec import category_from_name, is_fixture_name
from tests.support.corpus import ADMIT_ID, REJECT_ID, VALID_FILES, session_text, sidecar_text, write_corpus


def _snapshot(root):
    """Every path under root with its bytes and mtime: loading must change none of it."""
    found = {}
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files) + dirs:
            path = os.path.join(folder, name)
            stat = os.lstat(path)
            data = open(path, "rb").read() if os.path.isfile(path) and not os.path.islink(path) else None
            found[os.path.relpath(path, root)] = (data, stat.st_mtime_ns)
    return found


# --- loading a valid corpus --------------------------------------------------------------------

def test_valid_corpus_loads_without_problems(make_corpus):
    root = make_corpus()
    corpus = load_corpus(str(root))
    assert corpus.problems == ()
    assert corpus.fixture_ids == [ADMIT_ID, REJECT_ID]
    assert sorted(corpus.sessions) == sorted(corpus.sidecars) == [ADMIT_ID, REJECT_ID]
    spec = corpus.spec
    assert (spec.name, spec.corpus_version, spec.prompt_name, spec.prompt_version) == ("tiny", 1, "proposal-extract", 5)
    assert (spec.turns_min, spec.turns_max, spec.harnesses) == (2, 10, ("claude",))
    assert [(c.id, c.count, c.expect) for c in spec.categories] == [
        ("admit-convention", 1, "practice"), ("reject-noise", 1, "empty")]
    assert spec.category("reject-noise").pos == Pos(str(root / "corpus.yaml"), 15, 5)
    assert spec.category("nope") is None


def test_spec_defaults_for_harnesses_and_turns(make_corpus):
    spec_text = VALID_FILES["corpus.yaml"].replace("harnesses: [claude]\nturns:\n  min: 2\n  max: 10\n", "")
    corpus = load_corpus(str(make_corpus({"corpus.yaml": spec_text})))
    assert corpus.problems == ()
    assert (corpus.spec.harnesses, corpus.spec.turns_min, corpus.spec.turns_max) == (("claude",), 8, 20)


def test_sidecar_values_and_positions(make_corpus):
    root = make_corpus()
    sidecar = load_corpus(str(root)).sidecars[ADMIT_ID]
    path = str(root / "expected" / f"{ADMIT_ID}.yaml")
    assert (sidecar.fixture_id, sidecar.category, sidecar.expect_empty) == (ADMIT_ID, "admit-convention", False)
    assert (sidecar.max_unexpected_proposals, sidecar.notes, sidecar.path) == (0, "A tiny fixture for tests.", path)
    (point,) = sidecar.points
    assert (point.id, point.type, point.pos) == ("expire-via-queue", "practice", Pos(path, 5, 5))
    assert [(t.text, str(t.pos)) for t in point.must_match_all] == [
        ("queue worker", f"{path}:8:9"), ("expired signups", f"{path}:9:9")]
    assert point.must_not_match == ()
    # every key is addressable for a diagnostic
    assert sidecar.doc.pos(("notes",)) == Pos(path, 11, 1)
    assert sidecar.doc.pos(("expected_points", 0, "type")) == Pos(path, 6, 5)


def test_must_not_match_terms_keep_positions(make_corpus):
    points = ("\n  - id: p\n    type: map\n    must_match_all: [branch]\n"
              "    must_not_match:\n      - bookmobile\n")
    root = make_corpus({f"expected/{ADMIT_ID}.yaml": sidecar_text(points=points)})
    (point,) = load_corpus(str(root)).sidecars[ADMIT_ID].points
    path = str(root / "expected" / f"{ADMIT_ID}.yaml")
    assert [(t.text, t.pos) for t in point.must_match_all] == [("branch", Pos(path, 7, 22))]
    assert [(t.text, t.pos) for t in point.must_not_match] == [("bookmobile", Pos(path, 9, 9))]


def test_session_frontmatter_and_turn_positions(make_corpus):
    root = make_corpus()
    session = load_corpus(str(root)).sessions[ADMIT_ID]
    path = str(root / "sessions" / f"{ADMIT_ID}.md")
    fm = session.frontmatter
    assert fm.data["harness"] == "claude" and fm.data["captured_at"] == "2026-01-05T10:00:00Z"
    assert [(key, str(fm.pos((key,)))) for key in fm.data] == [
        ("schema_version", f"{path}:2:1"), ("session_id", f"{path}:3:1"),
        ("harness", f"{path}:4:1"), ("captured_at", f"{path}:5:1")]
    assert session.body_line == 7
    assert [(t.role, t.pos.line, t.end_line) for t in session.turns] == [
        ("USER", 7, 7), ("AGENT", 8, 8), ("USER", 9, 9), ("AGENT", 10, 10)]
    assert session.turns[0].text.startswith("Add a cron hook")
    user = [t.text for t in session.turns if t.role == "USER"]
    assert any("queue worker" in text for text in user) and not any("drafted the hook" in text for text in user)
    assert any("drafted the hook" in t.text for t in session.turns if t.role == "AGENT")


# --- segmenting --------------------------------------------------------------------------------

FM = "---\nschema_version: 1\nsession_id: x\nharness: claude\ncaptured_at: '2026-01-15T10:00:00.000Z'\n---\n"


def _segments(body):
    return parse_session(FM + body, "s.md", "s").segments


def test_qualified_tags_are_turns_of_their_role():
    segments = _segments("[USER /self-review-apply feedback/r2.xml]: apply it\n[AGENT tool output]: done\n")
    assert [(s.tag, s.role, s.text) for s in segments] == [
        ("USER /self-review-apply feedback/r2.xml", "USER", "apply it"), ("AGENT tool output", "AGENT", "done")]


def test_consecutive_agent_turns_stay_separate():
    segments = _segments("[USER]: go\n[AGENT]: one\n[AGENT]: two\n[AGENT]: three\n")
    assert [(s.role, s.text, s.pos.line) for s in segments] == [
        ("USER", "go", 7), ("AGENT", "one", 8), ("AGENT", "two", 9), ("AGENT", "three", 10)]


def test_a_segment_spans_lines_until_the_next_tag():
    segments = _segments("[USER]: first line\n  indented\n\n```\ncode [USER]: not a tag\n```\n[AGENT]: ok\n")
    assert segments[0].text == "first line\n  indented\n\n```\ncode [USER]: not a tag\n```"
    assert (segments[0].pos.line, segments[0].end_line) == (7, 12)
    assert (segments[1].pos.line, segments[1].end_line) == (13, 13)


def test_last_segment_ends_at_the_last_line_of_the_file():
    assert _segments("[USER]: a\n[AGENT]: b\n")[-1].end_line == 8
    assert _segments("[USER]: a\n[AGENT]: b")[-1].end_line == 8  # no final newline
    assert _segments("[USER]: a\n[AGENT]: b\n\n\n")[-1].end_line == 10  # trailing blank lines belong to it


def test_stray_text_before_the_first_tag_is_a_roleless_segment_at_its_first_line():
    segments = _segments("\n\nhello there\n[USER]: hi\n")
    assert [(s.tag, s.role, s.text, s.pos.line) for s in segments] == [
        ("", None, "hello there", 9), ("USER", "USER", "hi", 10)]
    assert [s.role for s in parse_session(FM + "\n\nhello\n[USER]: hi\n", "s.md", "s").turns] == ["USER"]


def test_blank_lines_before_the_first_tag_are_not_a_segment():
    assert [s.tag for s in _segments("\n\n[USER]: hi\n")] == ["USER"]


@pytest.mark.parametrize("tag", ["SYSTEM", "user", "Agent", "USERS", "TOOL result"])
def test_unknown_and_lowercase_tags_are_segments_without_a_role(tag):
    session = parse_session(FM + f"[USER]: hi\n[{tag}]: hidden\n[AGENT]: ok\n", "s.md", "s")
    assert [(s.tag, s.role) for s in session.segments] == [("USER", "USER"), (tag, None), ("AGENT", "AGENT")]
    assert [t.role for t in session.turns] == ["USER", "AGENT"]
    assert session.segments[1].pos == Pos("s.md", 8, 1)
    assert not any("hidden" in t.text for t in session.turns)


def test_a_tag_only_counts_at_the_start_of_a_line():
    segments = _segments("[USER]: I typed [AGENT]: in the middle\n [AGENT]: indented\n")
    assert len(segments) == 1 and segments[0].text.endswith(" [AGENT]: indented")


def test_an_empty_segment_has_empty_text():
    segments = _segments("[USER]:\n[AGENT]:   \n[USER]:x\n")
    assert [s.text.strip() for s in segments] == ["", "", "x"]


# --- frontmatter errors ------------------------------------------------------------------------

@pytest.mark.parametrize("text, line, words", [
    ("[USER]: no frontmatter\n", 1, "frontmatter missing"),
    ("---\nschema_version: 1\n[USER]: hi\n", 1, "never closes"),
    ("---\n- a\n- b\n---\n[USER]: hi\n", 2, "not a YAML mapping"),
    ("---\n---\n[USER]: hi\n", 1, "not a YAML mapping"),
    ("---\nschema_version: 1\nharness: a\nharness: b\n---\n[USER]: hi\n", 4, "duplicate key"),
    ("---\nschema_version: [1\n---\n[USER]: hi\n", 3, "YAML error"),
])
def test_bad_frontmatter_is_an_input_error_at_its_line(text, line, words):
    with pytest.raises(InputError) as caught:
        parse_session(text, "s.md", "s")
    assert caught.value.pos.path == "s.md" and caught.value.pos.line == line
    assert words in caught.value.message


# --- problems are values, recorded per file ----------------------------------------------------

def test_bad_files_become_problems_and_the_rest_still_loads(make_corpus):
    root = make_corpus({
        f"sessions/{ADMIT_ID}.md": "no frontmatter here\n",
        f"expected/{ADMIT_ID}.yaml": "- just\n- a list\n",
        f"expected/{REJECT_ID}.yaml": sidecar_text(REJECT_ID, "reject-noise", expect_empty=True, max_unexpected=-1),
    })
    corpus = load_corpus(str(root))
    got = [(os.path.relpath(p.pos.path, root), p.pos.line, p.kind) for p in corpus.problems]
    assert got == [
        (f"expected/{ADMIT_ID}.yaml", 1, SIDECAR_PARSE),
        (f"expected/{REJECT_ID}.yaml", 5, SIDECAR_SCHEMA),  # at the max_unexpected_proposals key
        (f"sessions/{ADMIT_ID}.md", 1, SESSION_PARSE),
    ]
    assert "/max_unexpected_proposals" in corpus.problems[1].message
    assert sorted(corpus.sessions) == [REJECT_ID]
    assert sorted(corpus.sidecar_docs) == [REJECT_ID] and corpus.sidecars == {}
    assert corpus.fixture_ids == [ADMIT_ID, REJECT_ID]  # seen, even though they did not parse


def test_sidecar_schema_errors_point_at_the_offending_key(make_corpus):
    text = sidecar_text().replace("    type: practice\n", "    type: rule\n")
    root = make_corpus({f"expected/{ADMIT_ID}.yaml": text})
    (problem,) = load_corpus(str(root)).problems
    assert (problem.kind, problem.pos.line, problem.pos.col) == (SIDECAR_SCHEMA, 6, 5)
    assert problem.message.startswith("/expected_points/0/type: ")


@pytest.mark.parametrize("spec_text, line, words", [
    (None, 0, "corpus.yaml is missing"),
    ("- a list\n", 1, "not a YAML mapping"),
    (VALID_FILES["corpus.yaml"].replace("expect: empty", "expect: nothing"), 17, "/categories/1/expect"),
    (VALID_FILES["corpus.yaml"].replace("id: reject-noise", "id: admit-convention"), 15, "declared twice"),
    (VALID_FILES["corpus.yaml"].replace("min: 2", "min: 12"), 7, "min 12 is greater than max 10"),
])
def test_spec_problems(make_corpus, spec_text, line, words):
    root = make_corpus({"corpus.yaml": spec_text})
    corpus = load_corpus(str(root))
    assert corpus.spec is None
    (problem,) = [p for p in corpus.problems if p.kind == SPEC_INVALID]
    assert problem.pos.path == str(root / "corpus.yaml") and problem.pos.line == line
    assert words in problem.message
    assert sorted(corpus.sessions) == [ADMIT_ID, REJECT_ID]  # the rest still loads


def test_symbolic_links_are_reported_not_followed(make_corpus, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text(session_text())
    root = make_corpus()
    os.symlink(outside, root / "sessions" / "linked-01.md")
    corpus = load_corpus(str(root))
    assert [(os.path.relpath(p.pos.path, root), p.kind) for p in corpus.problems] == [
        ("sessions/linked-01.md", SESSION_PARSE)]
    assert "symbolic link" in corpus.problems[0].message
    # listed (so it pairs with its sidecar and is scored), never read
    assert "linked-01" not in corpus.sessions and "linked-01" in corpus.fixture_ids
    assert "sessions/linked-01.md" not in corpus_files(str(root))


def test_a_linked_corpus_yaml_is_not_read_nor_hashed(make_corpus, tmp_path):
    outside = tmp_path / "spec.yaml"
    outside.write_text(VALID_FILES["corpus.yaml"])
    root = make_corpus({"corpus.yaml": None})
    os.symlink(outside, root / "corpus.yaml")
    corpus = load_corpus(str(root))
    assert corpus.spec is None
    assert [(p.kind, "symbolic link" in p.message) for p in corpus.problems] == [(SPEC_INVALID, True)]
    assert "corpus.yaml" not in corpus_files(str(root))


def test_files_without_the_suffix_or_hidden_are_not_fixtures_and_near_misses_are_problems(make_corpus):
    root = make_corpus({"sessions/notes.txt": "x\n", "sessions/.draft.md": "x\n", "expected/x.yml": "a: 1\n"})
    corpus = load_corpus(str(root))
    assert corpus.fixture_ids == [ADMIT_ID, REJECT_ID]
    assert [(os.path.relpath(p.pos.path, root), p.kind) for p in corpus.problems] == [
        (os.path.join("expected", "x.yml"), "misnamed")]  # lint CT205, a score warning


def test_missing_corpus_folder_raises_input_error(tmp_path):
    with pytest.raises(InputError) as caught:
        load_corpus(str(tmp_path / "nope"))
    assert "no such corpus folder" in str(caught.value)


def test_loading_writes_nothing_into_the_corpus(make_corpus):
    root = make_corpus({f"sessions/{ADMIT_ID}.md": b"\xef\xbb\xbf---\n", "expected/broken.yaml": "a: [\n"})
    before = _snapshot(root)
    load_corpus(str(root))
    corpus_sha256(str(root))
    assert _snapshot(root) == before


# --- the corpus hash ---------------------------------------------------------------------------

def test_corpus_files_are_spec_sessions_and_sidecars_only(make_corpus):
    root = make_corpus({"gold/admit-convention-01.json": "{}", "README.md": "hi\n", "results/run.yaml": "a: 1\n"})
    assert corpus_files(str(root)) == [
        "corpus.yaml", f"expected/{ADMIT_ID}.yaml", f"expected/{REJECT_ID}.yaml",
        f"sessions/{ADMIT_ID}.md", f"sessions/{REJECT_ID}.md"]


def test_a_folder_named_like_a_corpus_file_is_not_hashed(make_corpus, capsys):
    # It is a load problem (the scorer FAILs a sidecar folder as sidecar-invalid), never a crash.
    from corpustools.cli import main

    root = make_corpus()
    before = corpus_sha256(str(root))
    (root / "sessions" / "odd-01.md").mkdir()
    (root / "expected" / "odd-02.yaml").mkdir()
    assert corpus_sha256(str(root)) == before
    (root / "no-results").mkdir()  # an empty run: every result missing
    assert main(["score", str(root), str(root / "no-results"), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "odd-02.yaml: is a directory, not a file" in out


def test_corpus_hash_is_the_documented_definition(make_corpus):
    root = make_corpus()
    lines = b"".join(
        f"{rel}\0{hashlib.sha256((root / rel).read_bytes()).hexdigest()}\n".encode()
        for rel in sorted(VALID_FILES))
    assert corpus_sha256(str(root)) == hashlib.sha256(lines).hexdigest()


def test_corpus_hash_ignores_gold_and_results_and_file_creation_order(tmp_path):
    plain = write_corpus(tmp_path / "a")
    extra = write_corpus(tmp_path / "b", {"gold/x.json": "{}", "results/v5/run.yaml": "a: 1\n"})
    # same files written in reverse order
    reverse = tmp_path / "c"
    for rel in sorted(VALID_FILES, reverse=True):
        (reverse / rel).parent.mkdir(parents=True, exist_ok=True)
        (reverse / rel).write_bytes(VALID_FILES[rel].encode())
    assert corpus_sha256(str(plain)) == corpus_sha256(str(extra)) == corpus_sha256(str(reverse))


@pytest.mark.parametrize("change", ["edit", "rename", "add", "remove"])
def test_corpus_hash_changes_with_any_corpus_file(make_corpus, change):
    root = make_corpus()
    before = corpus_sha256(str(root))
    session = root / "sessions" / f"{ADMIT_ID}.md"
    if change == "edit":
        session.write_text(session.read_text() + "[AGENT]: one more\n")
    elif change == "rename":
        session.rename(root / "sessions" / "admit-convention-02.md")
    elif change == "add":
        (root / "expected" / "extra-01.yaml").write_text(sidecar_text("extra-01"))
    else:
        session.unlink()
    assert corpus_sha256(str(root)) != before


def test_optional_points_and_point_notes_are_read_with_their_list(make_corpus):
    points = "\n  - id: p\n    type: practice\n    notes: The user's rule.\n    must_match_all: [queue]\n"
    optional = "\n  - id: o\n    type: map\n    must_match_all: [signup table]\n    must_not_match: [cron]\n"
    root = make_corpus({f"expected/{ADMIT_ID}.yaml": sidecar_text(points=points, optional=optional)})
    sidecar = load_corpus(str(root)).sidecars[ADMIT_ID]
    path = str(root / "expected" / f"{ADMIT_ID}.yaml")
    (point,), (extra,) = sidecar.points, sidecar.optional_points
    assert (point.notes, point.optional, point.keypath) == ("The user's rule.", False, ("expected_points", 0))
    assert (extra.id, extra.type, extra.notes, extra.optional, extra.keypath) == (
        "o", "map", None, True, ("optional_points", 0))
    assert extra.pos == Pos(path, 10, 5)
    assert [t.text for t in extra.must_not_match] == ["cron"]
    assert [p.id for p in sidecar.all_points] == ["p", "o"]


def test_a_sidecar_without_optional_points_has_none(make_corpus):
    sidecar = load_corpus(str(make_corpus())).sidecars[ADMIT_ID]
    assert sidecar.optional_points == () and sidecar.points[0].notes is None


@pytest.mark.parametrize("fixture_id, category", [
    ("admit-convention-01", "admit-convention"),
    ("admit-convention-99", "admit-convention"),
    ("admit-convention-1", None),  # the number is exactly two digits
    ("admit-convention-001", None),
    ("admit-convention", None),
    ("admit-convention-0a", None),
    ("reject-noise-01", None),  # not a declared category
])
def test_the_category_a_fixture_name_implies(fixture_id, category):
    assert category_from_name(fixture_id, {"admit-convention", "admit"}) == category
    assert is_fixture_name(fixture_id, "admit-convention") is (category == "admit-convention")


def test_bad_input_of_every_kind_has_one_class_and_one_format():
    assert str(InputError(Pos("a.yaml", 3, 2), "bad\nvalue")) == "a.yaml:3:2: bad\\nvalue"
    assert str(InputError(Pos("a.yaml"), "unreadable")) == "a.yaml: unreadable"
    assert str(InputError(Pos(""), "--date 'x' is not YYYY-MM-DD")) == "--date 'x' is not YYYY-MM-DD"
    error = ConfigError(Pos("corpus.yaml", 21, 5), "lint.rules.CT702.threshold: 200 is over 100")
    assert isinstance(error, InputError)
    assert str(error) == "corpus.yaml:21:5: lint.rules.CT702.threshold: 200 is over 100"
