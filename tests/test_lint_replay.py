"""lint's replay (issue 36; corpustools/lint/replay.py): a lint whose command line and every input
are as they were at the last lint of that command line prints what that lint printed, byte for
byte, and exits as it did; any change to anything the run read (a byte of any file of the corpus,
a name, the prompt, the KB, the provenance record and what it names, how the PATHs resolve, the
arguments, the working folder, the environment, the code) runs lint again.

Each lint runs in this process (tests/support/bench.run_main) with its own cache folder; `replays`
notes, lint by lint, whether the replay answered.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from corpustools.lint import cache as lint_cache
from corpustools.lint import replay
from tests.support.bench import run_main, tree_digest, write_generated
from tests.support.corpus import ADMIT_ID, write_corpus

REPO = Path(__file__).resolve().parent.parent
FORMATS = ("text", "json", "json-summary", "github", "sarif")


@pytest.fixture
def replays(monkeypatch) -> list[bool]:
    """Whether each lint of the test was replayed, in order."""
    seen: list[bool] = []
    real = replay.Recording.replay

    def noting(self, out, err):
        code = real(self, out, err)
        seen.append(code is not None)
        return code

    monkeypatch.setattr(replay.Recording, "replay", noting)
    return seen


def lint(cache: Path | None, *argv: str) -> tuple[int, str, str]:
    """`corpustools lint ARGV...` with the cache folder `cache` (None: --no-cache)."""
    return run_main("lint", *(["--cache-dir", str(cache)] if cache is not None else ["--no-cache"]), *argv)


def settle(*tops: Path) -> None:
    """Date every file and folder under `tops` a minute back: a file changed just before a lint may
    have changed during it, and such a run is not recorded (replay.RACY_NS)."""
    then = time.time() - 60
    for top in tops:
        for folder, folders, names in os.walk(top):
            for name in [*folders, *names]:
                os.utime(os.path.join(folder, name), (then, then), follow_symlinks=False)
        os.utime(top, (then, then))


def replayed_as_fresh(cache: Path, replays: list[bool], *argv: str) -> tuple[int, str, str]:
    """Lint twice with the cache: the second lint is a replay, and both print and exit as a lint
    without the cache does. Returns what they printed."""
    fresh = lint(None, *argv)
    first = lint(cache, *argv)
    replays.clear()
    again = lint(cache, *argv)
    assert replays == [True], "an unchanged lint was not replayed"
    assert first == again == fresh
    return again


def missed_after(change, cache: Path, replays: list[bool], *argv: str, settled: tuple[Path, ...] = ()) -> None:
    """A replayed lint, then `change()`: the next lint runs again and prints what a lint without
    the cache prints; the one after it is replayed again. `settled`: folders whose dates go back
    after the change (an input outside the corpus changed just before a lint is not recorded)."""
    first = lint(cache, *argv)
    replays.clear()
    assert lint(cache, *argv) == first and replays == [True], "an unchanged lint was not replayed"
    change()
    settle(*settled)
    replays.clear()
    changed = lint(cache, *argv)
    assert replays == [False], "a lint was replayed after a change to what it reads"
    assert changed == lint(None, *argv)
    replays.clear()
    assert lint(cache, *argv) == changed and replays == [True]


@pytest.mark.parametrize("corpus", sorted(path.name for path in (REPO / "fixtures").iterdir()
                                          if (path / "corpus.yaml").is_file()))
@pytest.mark.parametrize("format", FORMATS)
def test_a_replay_prints_what_a_fresh_lint_prints(corpus, format, tmp_path, monkeypatch, replays):
    monkeypatch.chdir(REPO)
    replayed_as_fresh(tmp_path / "cache", replays, "--format", format, f"fixtures/{corpus}")


@pytest.fixture
def generated(tmp_path, monkeypatch) -> Path:
    """A generated corpus (bench/make_corpus.py's: corpus.yaml names the prompt, the KB and the
    provenance record outside it) with defects planted, as the working folder."""
    out = write_generated(tmp_path / "gen", 60, seed=3, defects=1)
    (out / "corpus" / "notes.md").write_text("not a fixture: read by the secret scan only\n")
    (out / "corpus" / "runs" / "r1").mkdir(parents=True)
    (out / "corpus" / "runs" / "r1" / "a.json").write_text('{"items": []}\n')
    (out / "corpus" / "gold").mkdir()
    (out / "corpus" / "gold" / "x.json").write_text('{"items": []}\n')
    settle(out)
    monkeypatch.chdir(out)
    return out


@pytest.mark.parametrize("format", FORMATS)
def test_the_planted_defect_corpus_replays_as_fresh(format, generated, tmp_path, replays):
    code, _out, _err = replayed_as_fresh(tmp_path / "cache", replays, "--format", format, "corpus")
    assert code == 1


def _append(path: Path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text)


def _first(folder: Path, pattern: str) -> Path:
    return sorted(folder.glob(pattern))[0]


# One change of each kind of input: inside the corpus, outside it, and how the PATHs resolve.
CHANGES = {
    "a session byte": lambda g: _append(_first(g / "corpus/sessions", "*.md"), "x"),
    "a sidecar byte": lambda g: _append(_first(g / "corpus/expected", "*.yaml"), "\n"),
    "a gold byte": lambda g: _append(g / "corpus/gold/x.json", " "),
    "a run byte": lambda g: _append(g / "corpus/runs/r1/a.json", " "),
    "an unloaded file": lambda g: _append(g / "corpus/notes.md", "password = hunter2hunter2\n"),
    "corpus.yaml": lambda g: _append(g / "corpus/corpus.yaml", "# a comment\n"),
    "a new file": lambda g: (g / "corpus/runs/r1/b.json").write_text('{"items": []}\n'),
    "a removed file": lambda g: (g / "corpus/notes.md").unlink(),
    "a renamed file": lambda g: (g / "corpus/notes.md").rename(g / "corpus/notes2.md"),
    "a new folder": lambda g: (g / "corpus/runs/r2").mkdir(),
    "a removed folder": lambda g: shutil.rmtree(g / "corpus/gold"),
    "a file made a link": lambda g: ((g / "corpus/notes.md").unlink(), (g / "corpus/notes.md").symlink_to("corpus.yaml")),
    "the prompt": lambda g: _append(g / "prompt.md", "Never mention the word anthology.\n"),
    "a new KB file": lambda g: (g / "kb/new.md").write_text("A knowledge base page.\n"),
    "a KB file": lambda g: _append(_first(g / "kb", "*.md"), "More knowledge.\n"),
    "the provenance record": lambda g: _append(g / "provenance.yaml", "# reviewed again\n"),
    "the provenance record removed": lambda g: (g / "provenance.yaml").unlink(),
    "a file the record names": lambda g: (g / "prompt.md").write_text("Another authoring prompt.\n"),
    "a new corpus below the linted folder": lambda g: write_corpus(g / "second"),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_to_any_input_runs_lint_again(change, generated, tmp_path, replays):
    where = "." if change == "a new corpus below the linted folder" else "corpus"
    missed_after(lambda: CHANGES[change](generated), tmp_path / "cache", replays, where, settled=(generated,))


def test_a_schema_file_is_an_input(tmp_path, monkeypatch, replays):
    shutil.copytree(REPO / "fixtures" / "ticket-triage", tmp_path / "corpus")
    monkeypatch.chdir(tmp_path)
    schema = tmp_path / "corpus" / "output.schema.json"
    missed_after(lambda: schema.write_text(schema.read_text().replace('"title"', '"description"', 1)),
                 tmp_path / "cache", replays, "corpus")


def test_a_corpus_yaml_above_a_linted_file_runs_lint_again(tmp_path, monkeypatch, replays):
    root = write_corpus(tmp_path / "corpus")
    monkeypatch.chdir(tmp_path)
    argv = ("--format", "json", f"corpus/sessions/{ADMIT_ID}.md")
    missed_after(lambda: (root / "sessions" / "corpus.yaml").write_text("corpus_version: 1\n"), tmp_path / "cache",
                 replays, *argv)


def test_a_git_folder_made_above_the_corpus_runs_lint_again(tmp_path, monkeypatch, replays):
    """Where the repository is decides the default provenance record and SARIF's paths."""
    write_corpus(tmp_path / "top" / "corpus")
    monkeypatch.chdir(tmp_path / "top")
    missed_after(lambda: (tmp_path / "top" / ".git").mkdir(), tmp_path / "cache", replays, "--format", "sarif",
                 "corpus", settled=(tmp_path / "top",))


def test_a_busy_repository_does_not_keep_a_lint_from_being_replayed(tmp_path, monkeypatch, replays):
    """A `.git` above the corpus is an input by its kind alone: git writing its index just before
    a lint does not keep that lint from being recorded."""
    write_corpus(tmp_path / "top" / "corpus")
    settle(tmp_path / "top")
    (tmp_path / "top" / ".git").mkdir()
    (tmp_path / "top" / ".git" / "index").write_bytes(b"just written")
    monkeypatch.chdir(tmp_path / "top")
    first = lint(tmp_path / "cache", "corpus")
    (tmp_path / "top" / ".git" / "index").write_bytes(b"written again")
    replays.clear()
    assert lint(tmp_path / "cache", "corpus") == first and replays == [True]


def test_the_command_line_working_folder_environment_and_code_are_the_key(generated, tmp_path, monkeypatch,
                                                                          replays):
    cache = tmp_path / "cache"
    replayed_as_fresh(cache, replays, "corpus")
    for argv in (("corpus", "--strict"), ("--format", "json", "corpus"), ("corpus/",)):
        replays.clear()
        assert lint(cache, *argv) == lint(None, *argv) and replays == [False], argv
    monkeypatch.setenv("NO_COLOR", "1")
    replays.clear()
    lint(cache, "corpus")
    assert replays == [False]
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.chdir(generated / "corpus")
    replays.clear()
    assert lint(cache, ".") == lint(None, ".") and replays == [False]
    monkeypatch.chdir(generated)
    replays.clear()
    lint(cache, "corpus")
    assert replays == [True]
    monkeypatch.setattr(replay, "code_identity", lambda: "another code")
    replays.clear()
    assert lint(cache, "corpus") == lint(None, "corpus") and replays == [False]


def _entry(cache: Path) -> Path:
    entries = list(cache.glob(f"{lint_cache.REPLAY_ENTRIES}/*.json"))
    assert len(entries) == 1
    return entries[0]


# An entry that is not exactly what this code writes: each, even one that says "all clean", is ignored.
BROKEN = {
    "not JSON": lambda data: data[:-1],
    "empty": lambda data: b"",
    "another format": lambda data: data.replace(replay.FORMAT.encode(), b"corpustools-lint-replay-0"),
    "another code": lambda data: json.dumps({**json.loads(data), "code": "0" * 64}).encode(),
    "another key": lambda data: json.dumps({**json.loads(data), "key": "0" * 64}).encode(),
    "an extra field": lambda data: json.dumps({**json.loads(data), "more": 1}).encode(),
    "a bad exit code": lambda data: json.dumps({**json.loads(data), "exit": 2}).encode(),
    "a bad output": lambda data: json.dumps({**json.loads(data), "output": [[3, "x"]]}).encode(),
}


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_a_broken_entry_is_ignored_and_rewritten(broken, tmp_path, replays):
    root = write_corpus(tmp_path / "corpus", {"notes.md": "password = hunter2hunter2\n"})
    cache = tmp_path / "cache"
    expected = lint(None, str(root))
    assert expected[0] == 1
    assert lint(cache, str(root)) == expected
    entry = _entry(cache)
    entry.write_bytes(BROKEN[broken](entry.read_bytes()))
    replays.clear()
    assert lint(cache, str(root)) == expected and replays == [False]
    replays.clear()
    assert lint(cache, str(root)) == expected and replays == [True]  # rewritten


def _forged(entry: Path) -> bytes:
    data = json.loads(entry.read_bytes())
    return json.dumps({**data, "exit": 0, "output": [[1, "All checks passed.\n"]]}).encode()


def test_a_linked_or_foreign_entry_is_ignored(tmp_path, replays):
    root = write_corpus(tmp_path / "corpus", {"notes.md": "password = hunter2hunter2\n"})
    cache = tmp_path / "cache"
    assert lint(cache, str(root))[0] == 1
    entry = _entry(cache)
    forged = tmp_path / "forged.json"
    forged.write_bytes(_forged(entry))
    entry.write_bytes(forged.read_bytes())
    assert lint(cache, str(root))[0] == 0  # the control: an entry of the user's own is what lint prints
    entry.unlink()
    entry.symlink_to(forged)
    assert lint(cache, str(root))[0] == 1, "an entry read through a link was trusted"
    assert not entry.is_symlink() and json.loads(forged.read_bytes())["exit"] == 0  # replaced; the target untouched
    if os.getuid() == 0:  # only root can give a file to another user
        entry.write_bytes(forged.read_bytes())
        os.chown(entry, 12345, 12345)
        assert lint(cache, str(root))[0] == 1, "another user's entry was trusted"


def test_what_is_not_replayed_is_not_recorded(tmp_path, monkeypatch, replays):
    root = write_corpus(tmp_path / "corpus", {"notes.md": "password = hunter2hunter2\n"})
    cache = tmp_path / "cache"
    monkeypatch.chdir(tmp_path)
    never_looked = (("--no-cache", "corpus"), ("--no-c", "corpus"))
    for argv in (*never_looked, ("--output", str(tmp_path / "report.txt"), "corpus"), ("--diff", "corpus"),
                 ("--list-rules",), ("--explain", "CT501"), ("--select", "CT9", "corpus")):
        replays.clear()
        for _ in range(2):
            run_main("lint", "--cache-dir", str(cache), *argv)
        assert not list(cache.glob(f"{lint_cache.REPLAY_ENTRIES}/*.json")), argv
        assert replays == ([] if argv in never_looked else [False, False]), argv
    replays.clear()
    for _ in range(2):  # an abbreviated --cache-dir: only the parser reads it, so no entry is looked up
        assert run_main("lint", "--ca", str(cache), "corpus")[0] == 1
    assert replays == [] and not list(cache.glob(f"{lint_cache.REPLAY_ENTRIES}/*.json"))
    assert root.exists()


def test_nothing_is_written_inside_the_corpus_and_the_entry_holds_no_more_than_was_printed(generated, tmp_path):
    cache = tmp_path / "cache"
    before = tree_digest(generated)
    code, out, err = lint(cache, "--format", "json", "corpus")
    assert lint(cache, "--format", "json", "corpus") == (code, out, err)
    assert tree_digest(generated) == before
    entry = json.loads(_entry(cache).read_bytes())
    assert ["".join(text for stream, text in entry["output"] if stream == n) for n in (1, 2)] == [out, err]
    held = {json.dumps(value) for key, value in entry.items() if key != "output"}
    for diagnostic in json.loads(out):
        assert not any(diagnostic["message"] in text for text in held)  # only digests, paths and arguments


def test_a_lint_of_a_folder_named_like_a_secret_is_not_recorded(tmp_path, monkeypatch, replays):
    """The report shows such a path redacted; an entry would hold it as given, so there is none."""
    name = "corpus-AKIAZ7Q2M4XK9PLR3T8W"
    write_corpus(tmp_path / name)
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    assert lint(cache, name) == lint(cache, name) == lint(None, name)
    assert replays == [False, False]
    assert not list(cache.glob(f"{lint_cache.REPLAY_ENTRIES}/*.json"))
    assert not [path for path in cache.rglob("*") if path.is_file() and b"AKIAZ7Q2M4XK9PLR3T8W" in path.read_bytes()]


def test_entries_are_private_and_the_most_recently_used_are_kept(tmp_path, monkeypatch, replays):
    monkeypatch.setattr(replay, "KEPT", 2)
    write_corpus(tmp_path / "corpus")
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    for argv in (("corpus",), ("--strict", "corpus"), ("corpus",), ("-q", "corpus")):
        lint(cache, *argv)
        time.sleep(0.01)
    entries = list(cache.glob(f"{lint_cache.REPLAY_ENTRIES}/*.json"))
    assert len(entries) == 2
    for path in entries:
        assert oct(path.stat().st_mode & 0o777) == oct(0o600)
    replays.clear()
    lint(cache, "corpus")
    lint(cache, "--strict", "corpus")
    assert replays == [True, False]  # the one used last was kept, the one unused since was not
    assert run_main("cache", "clean", "--cache-dir", str(cache))[0] == 0
    assert not cache.exists()


def test_a_replay_writes_the_same_bytes_to_a_terminal_pipe_and_combined_streams(tmp_path):
    """In separate processes: standard output and error, and the two in one stream (2>&1), are the
    same bytes replayed as linted; a replay loads no YAML, jsonschema, rule or parser of every command."""
    root = write_corpus(tmp_path / "corpus", {"notes.md": "password = hunter2hunter2\n"})
    env = {**os.environ, "CORPUSTOOLS_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "corpustools", "lint", "--format", "github", "--statistics", str(root)]
    runs = [subprocess.run(command, capture_output=True, env=env, cwd=tmp_path, timeout=300) for _ in range(2)]
    assert [(r.returncode, r.stdout, r.stderr) for r in runs][0] == [(r.returncode, r.stdout, r.stderr) for r in runs][1]
    assert runs[0].returncode == 1 and runs[0].stdout and runs[0].stderr
    combined = [subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=tmp_path,
                               timeout=300).stdout for _ in range(2)]
    assert combined[0] == combined[1]
    coloured = {**env, "FORCE_COLOR": "1"}
    text = [subprocess.run(command[:4] + command[6:], capture_output=True, env=coloured, cwd=tmp_path, timeout=300)
            for _ in range(2)]
    assert text[0].stdout == text[1].stdout and b"\x1b[" in text[0].stdout  # the colours are replayed too
    probe = ("import sys, runpy; sys.argv = ['corpustools', *sys.argv[1:]]\n"
             "try:\n    runpy.run_module('corpustools', run_name='__main__')\n"
             "except SystemExit:\n    pass\n"
             "loaded = [m for m in ('yaml', 'jsonschema', 'corpustools.lint.engine', 'corpustools.lint.rules',"
             " 'corpustools.commands.lint', 'corpustools.api') if m in sys.modules]\n"
             "sys.stderr.write('LOADED ' + repr(loaded) + '\\n')\n")
    loaded = subprocess.run([sys.executable, "-c", probe, *command[3:]], capture_output=True,
                            env=env, cwd=tmp_path, timeout=300)
    assert b"LOADED []" in loaded.stderr


def test_concurrent_lints_each_print_what_a_fresh_lint_prints(tmp_path):
    root = write_corpus(tmp_path / "corpus", {"notes.md": "password = hunter2hunter2\n"})
    cache = tmp_path / "cache"
    command = [sys.executable, "-m", "corpustools", "lint", "--format", "json", "--cache-dir", str(cache), str(root)]
    for round in range(3):
        _append(root / "notes.md", f"token = hunter{round}hunter{round}\n")
        settle(root)
        expected = lint(None, str(root), "--format", "json")
        processes = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
        for process in processes:
            out, err = process.communicate(timeout=300)
            assert (process.returncode, out.decode(), err.decode()) == expected
        assert json.loads(_entry(cache).read_bytes())["format"] == replay.FORMAT
        assert not list(cache.rglob("*.tmp"))
