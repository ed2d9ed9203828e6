"""`corpustools lint --staged` (the pre-commit hook's lint) lints what the next commit holds: git's
index, never the working tree (issue 31, items 9, 10 and 12).

Each test makes a git repository in its tmp_path, commits a clean corpus, stages a change and then
changes the working tree differently, as a person does who stages a file and keeps editing it.
The hook's own command (`.pre-commit-hooks.yaml`'s entry) is run in this process; the real
pre-commit tool drives it in tests/test_precommit.py.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, REJECT_ID, SPEC_TEXT, session_text, write_corpus

REPO = Path(__file__).resolve().parent.parent
KEY = "AKIAZ7Q2M4XK9PLR3T8W"  # an AWS access key id's shape: CT501
SESSION = f"corpus/sessions/{ADMIT_ID}.md"
SIDECAR = f"corpus/expected/{ADMIT_ID}.yaml"
BROKEN_ID = ADMIT_UUID.upper()  # CT101: not lowercase
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(cwd: Path, *args: str | bytes) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env={**os.environ, **GIT_ENV},
                          timeout=60)
    return done.stdout.decode("utf-8", "surrogateescape")


def hook_entry() -> list[str]:
    """The lint hook's command line as .pre-commit-hooks.yaml gives it, without the program name."""
    entry = re.search(r"^  entry: corpustools (lint .*)$", (REPO / ".pre-commit-hooks.yaml").read_text(), re.M)
    assert entry is not None
    return entry.group(1).split()


def lint(capsys, *argv: str) -> tuple[int, str, str]:
    from corpustools.cli import main

    code = main(["lint", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def hook(capsys, *files: str) -> tuple[int, str, str]:
    """What the lint hook runs for a commit whose passed files are `files`."""
    return lint(capsys, *hook_entry()[1:], "--", *files)


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    """A repository (the working folder) holding one clean corpus, committed."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    top = tmp_path / "work"
    write_corpus(top / "corpus")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # never a repository around tmp_path
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "a clean corpus")
    monkeypatch.chdir(top)
    return top


def _write(top: Path, relative: str, text: str) -> None:
    path = top / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


# --- item 9: the index, not the working tree ----------------------------------------------------

def test_a_key_staged_then_removed_from_the_working_copy_is_still_found(repo, capsys):
    clean = (repo / SESSION).read_text()
    _write(repo, SESSION, clean.replace("Add a cron hook", f"Add a cron hook ({KEY})"))
    git(repo, "add", SESSION)
    _write(repo, SESSION, clean)  # the working copy no longer holds it; the commit would

    code, out, err = lint(capsys, "--staged")

    assert code == 1, out + err
    assert re.search(rf"^{re.escape(SESSION)}:\d+:\d+: CT501 \[error\] AWS access key id", out, re.M), out
    assert KEY not in out + err
    assert hook(capsys, SESSION)[0] == 1  # the hook's own command line


def test_a_staged_fix_with_a_broken_working_copy_passes(repo, capsys):
    git(repo, "add", SESSION)  # nothing new staged
    _write(repo, SESSION, session_text(BROKEN_ID, ADMIT_TURNS) + f"{KEY}\n")  # never staged
    _write(repo, "corpus/notes.md", f"{KEY}\n")  # untracked: not part of the commit
    _write(repo, SIDECAR, (repo / SIDECAR).read_text() + "# reviewed\n")
    git(repo, "add", SIDECAR)

    assert lint(capsys, "--staged") == (0, "All checks passed.\n", "")
    assert lint(capsys, "corpus")[0] == 1  # the working tree itself is broken


def test_a_file_edited_on_disk_while_the_hook_runs_is_linted_as_staged(repo, capsys, monkeypatch):
    # An editor saves (in place, and by a rename) while the hook lints: the files staged and
    # identical on disk when the hook began are still read as the index holds them.
    from corpustools.lint import staged

    real = staged.lint_target

    def editing(*args, **kwargs):
        with open(repo / SESSION, "a") as handle:  # in place: the same inode
            handle.write(f"{KEY}\n")
        (repo / "corpus/swap").write_text((repo / SIDECAR).read_text().replace(ADMIT_UUID, BROKEN_ID))
        os.replace(repo / "corpus/swap", repo / SIDECAR)  # by a rename
        return real(*args, **kwargs)

    monkeypatch.setattr(staged, "lint_target", editing)
    _write(repo, "corpus/README.md", "# the corpus\n")
    git(repo, "add", "corpus/README.md")

    assert hook(capsys, "corpus/README.md") == (0, "All checks passed.\n", "")
    monkeypatch.setattr(staged, "lint_target", real)
    code, out, err = lint(capsys, "corpus")
    assert code == 1, out + err  # what the editor saved is broken


def test_a_file_deleted_in_the_index_is_absent_even_if_it_is_still_on_disk(repo, capsys):
    git(repo, "rm", "-q", "--cached", SESSION)  # the commit deletes it; the file stays on disk

    code, out, _ = lint(capsys, "--staged")

    assert code == 1
    assert out.splitlines() == [f"{SIDECAR}:1:1: CT202 [error] sidecar has no session: "
                                f"sessions/{ADMIT_ID}.md is missing", "Found 1 error in 2 fixtures."]


def test_every_file_lint_reads_comes_from_the_index(repo, capsys):
    # corpus.yaml names a prompt and an output-free check; the staged prompt holds a sentence a
    # session copies (CT703), the working copy of the prompt does not.
    copied = ADMIT_TURNS[2][1]
    _write(repo, "prompt.md", f"# Prompt\n\nRead the transcript.\n\n{copied}\n")
    _write(repo, "corpus/corpus.yaml", SPEC_TEXT + "lint:\n  prompt: ../prompt.md\n")
    git(repo, "add", "-A")
    _write(repo, "prompt.md", "# Prompt\n\nRead the transcript.\n")
    _write(repo, "corpus/corpus.yaml", SPEC_TEXT)  # unstaged: lint would not read the prompt at all

    code, out, err = lint(capsys, "--staged", "-q")

    assert code == 1, out + err
    assert re.search(rf"^{re.escape(SESSION)}:\d+:\d+: CT703 \[error\] .*prompt\.md:5", out, re.M), out
    assert "corpustools-staged" not in out + err  # every path is the real one


def test_a_prompt_outside_the_repository_is_read_where_it_is(repo, capsys):
    copied = ADMIT_TURNS[2][1]
    (repo.parent / "prompt.md").write_text(f"# Prompt\n\n{copied}\n")  # beside the repository, never staged
    _write(repo, "corpus/corpus.yaml", SPEC_TEXT + "lint:\n  prompt: ../../prompt.md\n")
    git(repo, "add", "-A")

    code, out, _ = lint(capsys, "--staged", "-q")

    assert code == 1 and re.search(r" CT703 \[error\] .*\.\./prompt\.md:3", out), out + _


def test_the_prompt_given_on_the_command_line_comes_from_the_index(repo, capsys):
    copied = ADMIT_TURNS[2][1]
    _write(repo, "prompt.md", f"# Prompt\n\n{copied}\n")
    git(repo, "add", "-A")
    _write(repo, "prompt.md", "# Prompt\n")
    _write(repo, SIDECAR, (repo / SIDECAR).read_text() + "# touched\n")
    git(repo, "add", SIDECAR)

    code, out, _ = lint(capsys, "--staged", "-q", "--prompt", "prompt.md")

    assert code == 1 and re.search(r" CT703 \[error\] .*prompt\.md:3", out), out
    assert lint(capsys, "corpus", "-q", "--prompt", "prompt.md")[0] == 0  # on disk it copies nothing


def test_a_path_whose_corpus_has_nothing_staged_is_a_usage_error_or_skipped(repo, tmp_path, capsys):
    write_corpus(repo / "untracked")  # on disk, never added
    code, out, err = lint(capsys, "--staged", "untracked")
    assert (code, out) == (2, "")
    assert err.startswith("corpustools lint: untracked: the corpus has no file staged in the git repository at "), err
    assert lint(capsys, "--staged", "--skip-outside-corpora", "untracked") == (0, "All checks passed.\n", "")
    assert lint(capsys, "--staged", "corpus")[0] == 0  # a tracked corpus named by a PATH is linted as staged


def test_the_copy_is_private_and_removed(repo, tmp_path, monkeypatch, capsys):
    import tempfile

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # TMPDIR set: the copy goes there, not in memory
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    seen = []
    from corpustools.lint import staged

    real_lint = staged.lint_target

    def spy(target, *args, **kwargs):
        folder = Path(target.root)
        while folder.parent != scratch:
            folder = folder.parent
        seen.append((folder, os.stat(folder).st_mode & 0o777))
        return real_lint(target, *args, **kwargs)

    monkeypatch.setattr(staged, "lint_target", spy)
    _write(repo, SIDECAR, (repo / SIDECAR).read_text() + "# touched\n")
    git(repo, "add", SIDECAR)
    assert lint(capsys, "--staged")[0] == 0
    assert [mode for _, mode in seen] == [0o700]
    assert list(scratch.iterdir()) == []


def test_staged_with_fix_or_diff_is_a_usage_error(repo, capsys):
    for option in ("--fix", "--diff"):
        code, out, err = lint(capsys, "--staged", option)
        assert (code, out) == (2, "") and "--staged lints the files staged in git's index" in err, err


def test_a_prompt_missing_from_the_index_is_missing(repo, capsys):
    _write(repo, "corpus/corpus.yaml", SPEC_TEXT + "lint:\n  prompt: ../prompt.md\n")
    git(repo, "add", "-A")
    _write(repo, "prompt.md", "# Prompt\n")  # on disk, never staged

    code, out, err = lint(capsys, "--staged")

    assert (code, out) == (2, "")
    assert err == "corpustools lint: lint.prompt: prompt.md: no such file\n"


def test_the_output_schema_comes_from_the_index_even_outside_the_corpus(repo, capsys):
    from tests.support.triage import OUTPUT, TRIAGE_FILES, write_files

    files = {**TRIAGE_FILES, "corpus.yaml": TRIAGE_FILES["corpus.yaml"].replace(
        OUTPUT, OUTPUT.replace("schema: output.schema.json", "schema: ../shared/output.schema.json"))}
    schema = files.pop("output.schema.json")
    write_files(repo / "triage", files)
    _write(repo, "shared/output.schema.json", schema)
    git(repo, "add", "-A")
    assert lint(capsys, "--staged", "--strict") == (0, "All checks passed.\n", "")

    _write(repo, "shared/output.schema.json", "{not json\n")  # broken on disk only
    assert lint(capsys, "--staged", "--strict") == (0, "All checks passed.\n", "")
    git(repo, "add", "-A")
    _write(repo, "shared/output.schema.json", schema)  # fixed on disk only
    code, out, _ = lint(capsys, "--staged", "-q")
    assert code == 1 and re.search(r"^triage/corpus\.yaml:\d+:\d+: CT003 .*output\.schema\.json", out, re.M), out


def test_a_staged_change_to_a_file_the_corpus_reads_outside_it_lints_the_corpus(repo, capsys):
    # The prompt lint.prompt names lies beside the corpus: a commit changing only the prompt can
    # break the corpus (CT703) as much as one changing a session.
    _write(repo, "prompt.md", "# Prompt\n\nRead the transcript.\n")
    _write(repo, "corpus/corpus.yaml", SPEC_TEXT + "lint:\n  prompt: ../prompt.md\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a prompt")
    _write(repo, "prompt.md", f"# Prompt\n\n{ADMIT_TURNS[2][1]}\n")
    git(repo, "add", "prompt.md")

    code, out, _ = hook(capsys, "prompt.md")

    assert code == 1 and re.search(r" CT703 \[error\] .*prompt\.md:3", out), out


def test_a_corpus_that_reads_no_staged_file_is_not_loaded(repo, capsys, monkeypatch):
    # Another corpus in the repository whose corpus.yaml names no changed file (nor a folder holding
    # one) is neither loaded nor linted; one whose lint.prompt is the changed file is both.
    from corpustools.lint import staged

    write_corpus(repo / "unrelated")
    write_corpus(repo / "reader")
    _write(repo, "reader/corpus.yaml", SPEC_TEXT + "lint:\n  prompt: ../corpus/notes.md\n")
    _write(repo, "corpus/notes.md", "# Notes\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two more corpora")
    loaded: list[str] = []
    real = staged._copy_inputs

    def counting(mirror, root, rules):
        loaded.append(os.path.basename(mirror.real(root)))
        return real(mirror, root, rules)

    monkeypatch.setattr(staged, "_copy_inputs", counting)
    _write(repo, SIDECAR, (repo / SIDECAR).read_text() + "# a change\n")
    git(repo, "add", SIDECAR)
    assert hook(capsys, SIDECAR)[0] == 0
    assert sorted(loaded) == ["corpus"]
    loaded.clear()
    _write(repo, "corpus/notes.md", f"# Notes\n\n{ADMIT_TURNS[2][1]}\n")
    git(repo, "add", "corpus/notes.md")
    code, out, _ = hook(capsys, "corpus/notes.md")
    assert code == 1 and sorted(loaded) == ["corpus", "reader", "reader"], (loaded, out)
    assert re.search(r" CT703 \[error\] .*corpus/notes\.md:3", out), out


def test_a_corpus_yaml_naming_no_change_is_searched_not_parsed(repo, capsys, monkeypatch):
    # The bound reads every other corpus.yaml as text: one holding no name on the way to a changed
    # file (nor dots alone, an escape or a provenance key) is cleared without a YAML parse.
    from corpustools.lint import staged

    changed = f"triage/expected/{ADMIT_ID}.yaml"
    write_corpus(repo / "triage")
    write_corpus(repo / "reader")
    _write(repo, "reader/corpus.yaml", SPEC_TEXT + f"# see ../{changed}\n")  # a comment: parsed, not loaded
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two more corpora")
    parsed: list[str] = []
    real = staged.parse_yaml

    def counting(text, path, **kwargs):
        parsed.append(text)
        return real(text, path, **kwargs)

    monkeypatch.setattr(staged, "parse_yaml", counting)
    _write(repo, changed, (repo / changed).read_text() + "# a change\n")
    git(repo, "add", changed)
    # No name on the way to the change is a word of SPEC_TEXT, so corpus/corpus.yaml is cleared unread.
    assert not any(part in SPEC_TEXT for part in [*str(repo).split(os.sep), "triage", "expected", f"{ADMIT_ID}.yaml"] if part)
    assert hook(capsys, changed)[0] == 0
    assert parsed == [(repo / "reader/corpus.yaml").read_text()]


@pytest.mark.parametrize(("text", "may"), [
    ("lint:\n  kb: ..\n", True), ("lint: {kb: '../..'}\n", True), ("lint:\n  kb: .\n", True),
    ("lint:\n  kb: [/]\n", True), ("lint:\n  kb: other/../..\n", True), ("lint: {kb: ./}\n", True), ('lint:\n  prompt: "n\\x6ftes.md"\n', True),
    ("lint:\n  prompt: ../shared/notes.md\n", True), ("name: other\ntests: a \"don't do X...\"\n", False),
    ("name: other  # see ./docs\n", False)])
def test_the_text_search_never_misses_a_string_naming_a_changed_file(text, may):
    from corpustools.lint.staged import _ChangeBound

    bound = _ChangeBound.__new__(_ChangeBound)
    bound.parts = {"top", "shared", "notes.md"}
    assert bound._may_name_a_change(text) is may


@pytest.mark.parametrize("record", ["records/tiny.yaml", "authoring/provenance.yaml"])
def test_a_changed_authoring_prompt_lints_the_corpus_whose_record_names_it(repo, capsys, record):
    # corpus.yaml names its record (lint.provenance) or has the default one, the record names the
    # authoring prompt: a commit changing only the prompt makes CT801 report the corpus, which the
    # hook must lint (its corpus.yaml names no changed file).
    from corpustools.cli import main

    _write(repo, "prompts/author.md", "# Author the corpus\n")
    if record != "authoring/provenance.yaml":
        _write(repo, "corpus/corpus.yaml", SPEC_TEXT + f"lint:\n  provenance: ../{record}\n")
    assert main(["provenance", "record", "corpus", "--authoring-prompt", "prompts/author.md", "--authored-by", "a",
                 "--reviewed-by", "b", "--date", "2026-01-01"]) == 0
    write_corpus(repo / "triage")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a record")
    assert lint(capsys, "--staged", "-q")[0] == 0
    _write(repo, "prompts/author.md", "# Author the corpus, differently\n")
    git(repo, "add", "prompts/author.md")

    code, out, _ = hook(capsys, "prompts/author.md")

    assert re.search(rf"^{re.escape(record)}:\d+:\d+: CT801 \[warning\] authoring prompt \.\./prompts/author\.md is "
                     r"changed", out, re.M), (code, out)
    assert "in 2 fixtures" in out  # the corpus the record is of, not triage


def test_a_staged_file_over_the_size_cap_is_refused_as_on_disk(repo, capsys):
    from corpustools.io.textfile import MAX_FILE_BYTES

    big = (repo / SESSION).read_text() + "x" * MAX_FILE_BYTES + "\n"
    _write(repo, SESSION, big)
    git(repo, "add", SESSION)
    (repo / SESSION).write_text(session_text())
    _, staged, _ = lint(capsys, "--staged", "-q")
    _write(repo, SESSION, big)
    _, on_disk, _ = lint(capsys, "corpus", "-q")
    assert staged == on_disk and "byte limit" in staged, staged


# --- item 10: any staged file under a corpus folder ------------------------------------------------

@pytest.mark.parametrize("relative", ["corpus/README.md", "corpus/notes/keys.txt", "corpus/runs/v1/results/a.json",
                                      "corpus/calibration/worksheet.yaml"])
def test_a_key_in_any_file_under_the_corpus_fails_the_hook(repo, capsys, relative):
    _write(repo, relative, f"aws {KEY}\n")
    git(repo, "add", relative)

    code, out, _ = hook(capsys, relative)

    assert code == 1
    assert re.search(rf"^{re.escape(relative)}:1:\d+: CT501 \[error\]", out, re.M), out
    assert lint(capsys, "--staged")[0] == 1  # --staged alone, as a plain .git/hooks/pre-commit runs it


def test_the_hooks_file_pattern_passes_every_file():
    from corpustools.io.yamlload import parse_yaml

    hooks = parse_yaml((REPO / ".pre-commit-hooks.yaml").read_text(), ".pre-commit-hooks.yaml").data
    lint_hook = next(h for h in hooks if h["id"] == "corpustools-lint")
    pattern = re.compile(lint_hook.get("files", ""))
    for name in ("corpus/README.md", "corpus/runs/v1/results/a.json", "corpus/calibration/w.yaml", "corpus/x"):
        assert pattern.search(name), name


def test_a_file_outside_every_corpus_is_skipped(repo, capsys):
    _write(repo, "docs/notes.md", "nothing here\n")
    git(repo, "add", "-A")
    assert hook(capsys, "docs/notes.md") == (0, "All checks passed.\n", "")


# --- item 12: significant whitespace in git's output --------------------------------------------

def _spaced_repo(tmp_path: Path, monkeypatch) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    top = tmp_path / "work "  # the folder's name ends with a space
    write_corpus(top / " corpus ")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "a clean corpus")
    monkeypatch.chdir(top)
    return top


def test_a_deleted_session_is_caught_in_a_repository_whose_name_ends_with_a_space(tmp_path, monkeypatch, capsys):
    top = _spaced_repo(tmp_path, monkeypatch)
    git(top, "rm", "-q", f" corpus /sessions/{ADMIT_ID}.md")

    code, out, _ = lint(capsys, *hook_entry()[1:], "--")

    assert code == 1
    assert out.splitlines()[0] == (f" corpus /expected/{ADMIT_ID}.yaml:1:1: CT202 [error] sidecar has no session: "
                                   f"sessions/{ADMIT_ID}.md is missing")


@pytest.mark.parametrize("name", [" lead.md", "trail.md ", "new\nline.md", b"latin-\xe9.md"])
def test_a_key_in_a_file_with_an_unusual_name_is_found(tmp_path, monkeypatch, capsys, name):
    top = _spaced_repo(tmp_path, monkeypatch)
    relative = os.fsdecode(b" corpus /notes/" + (name if isinstance(name, bytes) else name.encode()))
    path = top / relative
    path.parent.mkdir()
    path.write_text(f"aws {KEY}\n")
    git(top, "add", "-A")
    (path).write_text("nothing\n")  # only the staged copy holds the key

    code, out, err = lint(capsys, "--staged", "--format", "json")

    assert code == 1, err
    assert '"code": "CT501"' in out and KEY not in out


def test_staged_changes_and_their_corpora_are_read_with_exact_names(tmp_path, monkeypatch):
    from corpustools.io.gitstage import staged_paths

    top = _spaced_repo(tmp_path, monkeypatch)
    git(top, "rm", "-q", f" corpus /expected/{REJECT_ID}.yaml")
    assert staged_paths() == [os.path.join(str(top), " corpus ", "expected", f"{REJECT_ID}.yaml")]


def test_the_hook_never_looks_up_a_replay(repo, capsys, monkeypatch, tmp_path):
    """A --staged lint is never recorded (lint/replay.py), so it never computes a replay key (a stat
    of every file of the package) nor looks for an entry; and it still lints what is staged."""
    from corpustools.lint import replay

    keyed: list[list[str]] = []
    monkeypatch.setattr(replay, "run_key", lambda words, *_: keyed.append(words) or "0" * 64)
    monkeypatch.setenv("CORPUSTOOLS_CACHE_DIR", str(tmp_path / "cache"))  # this test's alone
    _write(repo, f"corpus/notes/{ADMIT_ID}.md", f"aws {KEY}\n")
    git(repo, "add", "-A")

    for argv in (hook_entry()[1:], ["--stag"]):  # an abbreviation is the same option to the parser
        code, out, err = lint(capsys, *argv, "--", f"corpus/notes/{ADMIT_ID}.md")
        assert code == 1, err
        assert "CT501" in out and KEY not in out
    assert keyed == []
    assert list((tmp_path / "cache").glob("lint-*/*.json")) and not list((tmp_path / "cache").glob("replay-*/*.json"))


def test_only_a_staged_lint_is_kept_from_the_replay():
    from corpustools.lint import replay

    for words in (["lint", "--staged"], ["lint", "--whole-corpus", "--stag", "--", "a"]):
        assert replay.cache_folder(words, {"CORPUSTOOLS_CACHE_DIR": "/c"}) is None, words
    for words in (["lint", "--strict", "a"], ["lint", "--statistics"], ["lint", "--", "--staged"]):
        assert replay.cache_folder(words, {"CORPUSTOOLS_CACHE_DIR": "/c"}) is not None, words


def test_git_commands_run_side_by_side_answer_in_order_and_fail_as_one(repo):
    from corpustools.io.errors import InputError
    from corpustools.io.gitstage import _git_together

    top, listing = _git_together([["rev-parse", "--show-toplevel"], ["ls-files", "-z"]], str(repo))
    assert top == os.fsencode(str(repo)) + b"\n" and f"{SIDECAR}\0".encode() in listing
    with pytest.raises(InputError) as failed:
        _git_together([["ls-files", "-z"], ["rev-parse", "--verify", "-q", "no-such-ref"]], str(repo))
    assert "git failed" in str(failed.value) and "\n" not in str(failed.value)


@pytest.fixture
def blobs_from_git(monkeypatch) -> list[str]:
    """The object ids the hook asked git's object store for (io/gitstage._BlobReader), in order."""
    from corpustools.io import gitstage

    asked: list[str] = []
    real = gitstage._BlobReader

    class Noting(real):  # type: ignore[valid-type, misc]
        def __init__(self, top, blobs):
            asked.extend(blobs)
            super().__init__(top, blobs)

    monkeypatch.setattr(gitstage, "_BlobReader", Noting)
    return asked


def _blob(repo: Path, name: str) -> str:
    return git(repo, "ls-files", "--stage", "--", name).split()[1]


def test_a_file_the_work_tree_holds_as_staged_is_copied_from_it_any_other_from_git(repo, capsys, blobs_from_git):
    """Git's object store is read only for what the working tree does not hold byte for byte as
    staged (its object id, computed from the bytes read, decides): an edit made after staging, a
    link where the file was, a file the commit deletes are never what is linted."""
    _write(repo, SIDECAR, (repo / SIDECAR).read_text() + f"# aws {KEY}\n")
    git(repo, "add", SIDECAR)
    _write(repo, SIDECAR, (repo / SIDECAR).read_text().replace(KEY, "nothing here"))  # not what is staged
    (repo / "corpus/elsewhere.md").write_text((repo / SESSION).read_text())
    (repo / SESSION).unlink()
    (repo / SESSION).symlink_to("../elsewhere.md")  # the same bytes, through a link: never followed
    staged_blobs = {_blob(repo, SIDECAR), _blob(repo, SESSION)}

    code, out, err = hook(capsys, SIDECAR)

    assert code == 1, err
    assert f"{SIDECAR}:" in out and "CT501" in out and KEY not in out
    assert set(blobs_from_git) == staged_blobs and len(blobs_from_git) == 2
    blobs_from_git.clear()
    git(repo, "add", "-A")  # every staged file is now what the working tree holds, the link staged as one
    code, out, err = hook(capsys, SIDECAR)
    assert code == 1 and f"{SESSION}:1:1: CT001 [error] is a symbolic link" in out, out + err
    assert blobs_from_git == [_blob(repo, SESSION)]  # a link's target is read from git


def test_a_sha256_repository_is_linted_from_its_index(tmp_path, monkeypatch, capsys, blobs_from_git):
    top = tmp_path / "work"
    write_corpus(top / "corpus")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    try:
        git(top, "init", "-q", "--object-format=sha256")
    except subprocess.CalledProcessError:
        pytest.skip("this git cannot make a SHA-256 repository")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "a clean corpus")
    monkeypatch.chdir(top)
    _write(top, "corpus/notes.md", f"aws {KEY}\n")
    git(top, "add", "-A")
    assert len(_blob(top, "corpus/notes.md")) == 64

    code, out, err = hook(capsys, "corpus/notes.md")

    assert code == 1, err
    assert "corpus/notes.md:1:5: CT501" in out and KEY not in out
    assert blobs_from_git == []  # every file read from the working tree, its SHA-256 object id checked
