"""Provenance: `provenance record` writes who authored and reviewed a corpus and the sha256 of every
file; `provenance verify` and lint's CT801 name every file changed since."""

from __future__ import annotations

import pytest

from corpustools.cli import main
from corpustools.io.errors import InputError
from corpustools.model.status import FileStatus
from corpustools.provenance import load_record, record, verify
from tests.support.corpus import ADMIT_ID, REJECT_ID, SPEC_TEXT, write_provenance_repo
from tests.support.lint import lint_run, where

RECORD = "authoring/provenance.yaml"


@pytest.fixture
def repo(make_corpus, tmp_path, monkeypatch):
    """A repository layout: fixtures/tiny/ (the corpus), authoring/prompt.md; cwd is the repo root."""
    monkeypatch.chdir(tmp_path)
    return write_provenance_repo(tmp_path, make_corpus)


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_record_lists_every_file_with_its_hash(repo):
    data = record("fixtures/tiny", "authoring/prompt.md", "a model", "a person", RECORD, "2026-01-05")
    assert list(data["files"]) == ["corpus.yaml", f"expected/{ADMIT_ID}.yaml", f"expected/{REJECT_ID}.yaml",
                                   f"gold/{REJECT_ID}.json", f"sessions/{ADMIT_ID}.md", f"sessions/{REJECT_ID}.md"]
    assert data["corpus"] == {"path": "../fixtures/tiny", "name": "tiny", "version": 1}
    assert data["authoring_prompt"]["path"] == "prompt.md" and len(data["authoring_prompt"]["sha256"]) == 64
    text = (repo / RECORD).read_text()
    assert 'recorded: "2026-01-05"' in text and 'authored_by: "a model"' in text and 'reviewed_by: "a person"' in text
    loaded = load_record(RECORD)
    assert loaded.files == data["files"]
    assert verify(RECORD) == []


def test_record_is_identical_for_identical_input(repo):
    record("fixtures/tiny", "authoring/prompt.md", "m", "p", RECORD, "2026-01-05")
    first = (repo / RECORD).read_bytes()
    record("fixtures/tiny", "authoring/prompt.md", "m", "p", RECORD, "2026-01-05")
    assert (repo / RECORD).read_bytes() == first


def test_verify_names_changed_new_and_missing_files(repo):
    record("fixtures/tiny", "authoring/prompt.md", "m", "p", RECORD, "2026-01-05")
    (repo / "fixtures/tiny/sessions" / f"{ADMIT_ID}.md").write_text("edited\n")
    (repo / "fixtures/tiny/gold" / f"{ADMIT_ID}.json").write_text("{}\n")
    (repo / "fixtures/tiny/expected" / f"{REJECT_ID}.yaml").unlink()
    (repo / "authoring/prompt.md").write_text("# Changed prompt\n")
    assert [(d.relative, d.status) for d in verify(RECORD)] == [
        (f"expected/{REJECT_ID}.yaml", FileStatus.MISSING), (f"gold/{ADMIT_ID}.json", FileStatus.NEW),
        (f"sessions/{ADMIT_ID}.md", FileStatus.CHANGED), ("prompt.md", FileStatus.CHANGED)]


def test_record_refuses_to_write_among_the_corpus_files_or_without_a_spec(repo):
    for inside in ("fixtures/tiny/sessions/provenance.yaml", "fixtures/tiny/corpus.yaml"):
        with pytest.raises(InputError, match="inside the corpus's own files"):
            record("fixtures/tiny", "authoring/prompt.md", "m", "p", inside)
    (repo / "fixtures/tiny/corpus.yaml").write_text("name: broken\n")
    with pytest.raises(InputError, match="cannot record"):
        record("fixtures/tiny", "authoring/prompt.md", "m", "p", RECORD)


def test_commands_record_and_verify(repo, capsys):
    code, out, err = run(capsys, "provenance", "record", "fixtures/tiny", "--authoring-prompt", "authoring/prompt.md",
                         "--authored-by", "model X", "--reviewed-by", "reviewer Y", "--date", "2026-01-05")
    assert (code, out) == (0, "")
    assert err == f"wrote {RECORD} (the record of 6 files of corpus tiny version 1)\n"
    assert run(capsys, "provenance", "verify") == (0, f"{RECORD}: every file matches the record\n", "")
    (repo / "fixtures/tiny/corpus.yaml").write_text(SPEC_TEXT.replace("corpus_version: 1", "corpus_version: 2"))
    (repo / "fixtures/tiny/sessions" / f"{REJECT_ID}.md").write_text("edited\n")
    code, out, _ = run(capsys, "provenance", "verify", RECORD)
    assert code == 1
    assert out.splitlines() == [f"fixtures/tiny/corpus.yaml: changed since the record {RECORD}",
                                f"fixtures/tiny/sessions/{REJECT_ID}.md: changed since the record {RECORD}"]


def test_commands_refuse_bad_input_with_one_line(repo, capsys):
    code, _, err = run(capsys, "provenance", "verify", "nowhere.yaml")
    assert code == 2 and err == "corpustools provenance: nowhere.yaml: no such record\n"
    (repo / "bad.yaml").write_text("record_version: 1\nfiles: {a: nothex}\n")
    code, _, err = run(capsys, "provenance", "verify", "bad.yaml")
    assert code == 2 and err.startswith("corpustools provenance: bad.yaml:") and len(err.splitlines()) == 1
    code, _, err = run(capsys, "provenance", "record", "fixtures/tiny", "--authoring-prompt", "nope.md",
                       "--authored-by", "m", "--reviewed-by", "p")
    assert code == 2 and "authoring prompt: no such file" in err
    code, _, err = run(capsys, "provenance", "record", "fixtures/tiny", "--authoring-prompt", "authoring/prompt.md",
                       "--authored-by", "m", "--reviewed-by", "p", "--date", "05/01/2026")
    assert code == 2 and err == "corpustools provenance: --date '05/01/2026' is not YYYY-MM-DD\n"


def _recorded_where(capsys, corpus: str) -> tuple[int, str]:
    code, _, err = run(capsys, "provenance", "record", corpus, "--authoring-prompt", "prompt.md",
                       "--authored-by", "m", "--reviewed-by", "p", "--date", "2026-01-05")
    return code, err


def _recorded_repository(tmp_path, monkeypatch, capsys) -> tuple[int, str]:
    """`corpustools init c`, then `git init c` (the corpus is the repository), then its record."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "c"]) == 0
    (tmp_path / "c" / ".git").mkdir()
    (tmp_path / "prompt.md").write_text("# Author\n")
    capsys.readouterr()
    return _recorded_where(capsys, "c")


def test_a_corpus_at_the_top_of_its_repository_keeps_its_record_inside_it(tmp_path, monkeypatch, capsys):
    code, err = _recorded_repository(tmp_path, monkeypatch, capsys)
    assert code == 0 and err.startswith("wrote c/authoring/provenance.yaml (the record of 13 files")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c", "prompt.md"]  # nothing beside the repository
    assert run(capsys, "provenance", "verify", "--corpus", "c")[:2] == (
        0, "c/authoring/provenance.yaml: every file matches the record\n")
    assert where(lint_run("c"), "CT801") == []  # lint reads the record it wrote
    session = tmp_path / "c" / "sessions" / "admit-map-01.md"
    session.write_text(session.read_text() + "[USER]: One more thing.\n")
    assert where(lint_run("c"), "CT801") == [("c/sessions/admit-map-01.md", 1, 1)]
    code, out, _ = run(capsys, "provenance", "verify", "--corpus", "c")
    assert (code, out) == (1, "c/sessions/admit-map-01.md: changed since the record c/authoring/provenance.yaml\n")


def test_a_corpus_outside_any_repository_keeps_its_record_in_its_own_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["init", "work/c"]) == 0
    (tmp_path / "prompt.md").write_text("# Author\n")
    capsys.readouterr()
    code, err = _recorded_where(capsys, "work/c")
    assert code == 0 and err.startswith("wrote work/c/authoring/provenance.yaml (")
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == ["c"]  # not in the folder above the corpus
    assert where(lint_run("work/c"), "CT801") == []
    assert run(capsys, "provenance", "verify", "--corpus", "work/c")[0] == 0


def test_record_keeps_the_record_of_another_corpus_at_the_shared_default(repo, make_corpus, capsys):
    make_corpus(name="fixtures/other")
    (repo / "prompt.md").write_text("# Author\n")
    assert _recorded_where(capsys, "fixtures/tiny")[0] == 0
    before = (repo / RECORD).read_bytes()
    code, err = _recorded_where(capsys, "fixtures/other")
    assert code == 2 and err == (f"corpustools provenance: {RECORD}: is the provenance record of another corpus "
                                 "(fixtures/tiny); not overwritten: give --output, or set lint: provenance: in "
                                 "corpus.yaml\n")
    assert (repo / RECORD).read_bytes() == before
    assert _recorded_where(capsys, "fixtures/tiny")[0] == 0  # the corpus's own record is re-recorded


def test_ct801_judges_the_corpus_files_by_the_bytes_lint_read_without_reading_them_again(tmp_path, monkeypatch, capsys):
    # lint hashes each corpus file as it loads it; CT801 compares those digests with the record's
    # (a cold lint of 10,000 fixtures read and hashed its 20,000 files a second time)
    from corpustools.io.layout import SESSIONS_DIR, SIDECARS_DIR, SPEC_FILE
    from corpustools.model import hashing

    assert _recorded_repository(tmp_path, monkeypatch, capsys)[0] == 0
    hashed: list[str] = []
    unread = hashing.file_sha256
    monkeypatch.setattr(hashing, "file_sha256", lambda path: hashed.append(path) or unread(path))
    assert where(lint_run("c"), "CT801") == []
    corpus_files = [path for path in hashed if f"/{SESSIONS_DIR}/" in path or f"/{SIDECARS_DIR}/" in path
                    or path.endswith(SPEC_FILE)]
    assert hashed and corpus_files == []  # the prompt and the gold outputs only
    session = tmp_path / "c" / "sessions" / "admit-map-01.md"
    session.write_text(session.read_text() + "[USER]: One more thing.\n")
    assert where(lint_run("c"), "CT801") == [("c/sessions/admit-map-01.md", 1, 1)]
