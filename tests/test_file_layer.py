"""The file layer under a hostile user: where corpustools writes (never through a link, never into
any corpus, never half a file), what it opens (regular files only: no hang on a FIFO or a device),
what it exits with when its output pipe is gone, how it names files whose names are not UTF-8 or
hold control characters, and Ctrl-C. Each test is a finding of an audit that reproduced on the
code before this hardening."""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.bench import run_main, tree_digest
from tests.support.corpus import ADMIT_ID, REJECT_ID, sidecar_text
from tests.support.score import good_results
from tests.support.work import hang_guard

PROMPT = "Version: 5\n\n[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo")
needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")


def _cli(*argv) -> tuple[int, str, str]:
    """main() in this process within the hang guard; never an internal error."""
    with hang_guard(" ".join(map(str, argv))):
        code, out, err = run_main(*[str(a) for a in argv])
    assert "internal error" not in err and "Traceback" not in err, err
    return code, out, err


def _process(*argv, env=None, cwd=None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "corpustools", *[str(a) for a in argv]], capture_output=True,
                          timeout=60, env=env, cwd=cwd, **kwargs)


@pytest.fixture
def prompt(tmp_path) -> Path:
    path = tmp_path / "prompt.md"
    path.write_text(PROMPT)
    return path


# -- writes: never through a link ------------------------------------------------------------------

def test_render_all_refuses_a_link_planted_in_the_out_folder(make_corpus, tmp_path, prompt):
    corpus = make_corpus()
    out = tmp_path / "rendered"
    out.mkdir()
    session = corpus / "sessions" / f"{ADMIT_ID}.md"
    (out / f"{ADMIT_ID}.md").symlink_to(session)
    before = tree_digest(tmp_path)
    code, _, err = _cli("render", corpus, "--all", "--out", out, "--prompt", prompt)
    assert code == 2 and "symbolic link" in err and f"{ADMIT_ID}.md" in err
    assert tree_digest(tmp_path) == before  # the session untouched, and nothing else written


@pytest.mark.parametrize("command", ["score", "compare", "provenance"])
def test_output_options_refuse_a_link(make_corpus, tmp_path, prompt, command):
    corpus = make_corpus()
    results = good_results(tmp_path / "run")
    victim = tmp_path / "victim.md"
    victim.write_text("keep me\n")
    link = tmp_path / "report.md"
    link.symlink_to(victim)
    argv = {"score": ("score", corpus, results, "--output", link),
            "compare": ("compare", corpus, "--base", results, "--candidate", results, "--output", link),
            "provenance": ("provenance", "record", corpus, "--authoring-prompt", prompt, "--authored-by", "a",
                           "--reviewed-by", "b", "--output", link)}[command]
    code, _, err = _cli(*argv)
    assert code == 2 and "symbolic link" in err and err.count("\n") == 1
    assert victim.read_text() == "keep me\n" and link.is_symlink()


# -- writes: never into any corpus ------------------------------------------------------------------

def test_render_refuses_another_corpus_sessions_folder(make_corpus, prompt):
    a, b = make_corpus(name="a"), make_corpus(name="b")
    before = tree_digest(b)
    code, _, err = _cli("render", a, "--all", "--out", b / "sessions", "--prompt", prompt)
    assert code == 2 and "never writes there" in err
    assert tree_digest(b) == before


def test_score_refuses_another_corpus_spec(make_corpus, tmp_path):
    a, b = make_corpus(name="a"), make_corpus(name="b")
    before = tree_digest(b)
    code, _, err = _cli("score", a, good_results(tmp_path / "run"), "--output", b / "corpus.yaml")
    assert code == 2 and "never writes there" in err
    assert tree_digest(b) == before


def test_provenance_record_refuses_a_link_to_a_sessions_folder(make_corpus, tmp_path, prompt):
    a, b = make_corpus(name="a"), make_corpus(name="b")
    (tmp_path / "records").symlink_to(b / "sessions", target_is_directory=True)
    before = tree_digest(b)
    code, _, err = _cli("provenance", "record", a, "--authoring-prompt", prompt, "--authored-by", "x",
                        "--reviewed-by", "y", "--output", tmp_path / "records" / "provenance.yaml")
    assert code == 2 and "never writes there" in err
    assert tree_digest(b) == before


def test_a_report_beside_a_corpus_is_still_fine(make_corpus, tmp_path):
    corpus = make_corpus()
    code, _, err = _cli("score", corpus, good_results(tmp_path / "run"), "--format", "markdown",
                        "--output", corpus / "RESULTS-report.md")
    assert code == 0 and (corpus / "RESULTS-report.md").read_text().startswith("**2/2 fixtures passed**")


@needs_fifo
def test_a_fifo_as_output_is_refused_without_blocking(make_corpus, tmp_path):
    corpus = make_corpus()
    fifo = tmp_path / "report.md"
    os.mkfifo(fifo)
    code, _, err = _cli("score", corpus, good_results(tmp_path / "run"), "--output", fifo)
    assert code == 2 and "FIFO" in err


# -- writes: never half a file ----------------------------------------------------------------------

def _history(tmp_path, rows: int) -> Path:
    from corpustools.score.history import HISTORY_COLUMNS, TITLE

    path = tmp_path / "RESULTS.md"
    header = ["| " + " | ".join(HISTORY_COLUMNS) + " |", "|" + "|".join("---" for _ in HISTORY_COLUMNS) + "|"]
    body = [f"| row-{i} |" + " x |" * (len(HISTORY_COLUMNS) - 1) for i in range(rows)]
    path.write_text("\n".join([TITLE, ""] + header + body + ["", "Notes below the table.", ""]))
    return path


def test_a_full_disk_leaves_the_history_whole(make_corpus, tmp_path, monkeypatch):
    corpus, results = make_corpus(), good_results(tmp_path / "run")
    history = _history(tmp_path, 30)
    before = history.read_bytes()
    real_fsync = os.fsync

    def full_disk(fd):
        real_fsync(fd)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full_disk)
    code, _, err = _cli("score", corpus, results, "--append-history", history)
    assert code == 2 and "No space left" in err and "unchanged" in err
    assert history.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["RESULTS.md", "corpus", "run"]  # no temporary left


def test_run_init_force_replaces_run_yaml_whole(make_corpus, tmp_path, prompt, monkeypatch):
    corpus, results = make_corpus(), tmp_path / "run"
    assert _cli("run", "init", results, "--corpus", corpus, "--prompt", prompt)[0] == 0
    before = (results / "run.yaml").read_bytes()
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left")))
    code, _, err = _cli("run", "init", results, "--corpus", corpus, "--prompt", prompt, "--model", "m", "--force")
    assert code == 2 and (results / "run.yaml").read_bytes() == before
    assert os.listdir(results) == ["run.yaml"]


def test_a_hard_link_in_the_out_folder_is_replaced_not_written_through(make_corpus, tmp_path, prompt):
    corpus = make_corpus()
    out = tmp_path / "rendered"
    out.mkdir()
    session = corpus / "sessions" / f"{ADMIT_ID}.md"
    before = session.read_bytes()
    os.link(session, out / f"{ADMIT_ID}.md")  # same inode: writing in place would change the session
    code, _, _ = _cli("render", corpus, "--all", "--out", out, "--prompt", prompt)
    assert code == 0 and session.read_bytes() == before
    assert (out / f"{ADMIT_ID}.md").read_text().startswith("Version: 5")


def test_a_replaced_file_keeps_its_permissions(make_corpus, tmp_path):
    corpus = make_corpus()
    report = tmp_path / "report.md"
    report.write_text("old\n")
    report.chmod(0o640)
    assert _cli("score", corpus, good_results(tmp_path / "run"), "--format", "markdown", "--output", report)[0] == 0
    assert report.stat().st_mode & 0o777 == 0o640 and report.read_text().startswith("**2/2 fixtures passed**")


def _append_rows(corpus: str, results: str, history: str, count: int) -> None:
    from corpustools.score.history import append_row

    for i in range(count):
        append_row(history, [f"p{os.getpid()}-{i}"] + ["x"] * 10)


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_concurrent_appends_never_lose_a_row(make_corpus, tmp_path):
    history = _history(tmp_path, 30)
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_append_rows, args=("", "", str(history), 10)) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert all(worker.exitcode == 0 for worker in workers)
    text = history.read_text()
    assert text.count("\n| row-") == 30 and text.count("\n| p") == 30
    assert text.endswith("Notes below the table.\n")


# -- reads: regular files only, never a hang ---------------------------------------------------------

@needs_dev_zero
def test_a_gold_link_to_dev_zero_neither_hangs_lint_nor_verify(make_corpus, tmp_path, prompt):
    corpus = make_corpus()
    (corpus / "gold").mkdir()
    (corpus / "gold" / f"{ADMIT_ID}.json").write_text('{"practice": [], "map": []}\n')
    record = tmp_path / "provenance.yaml"
    assert _cli("provenance", "record", corpus, "--authoring-prompt", prompt, "--authored-by", "a",
                "--reviewed-by", "b", "--output", record)[0] == 0
    (corpus / "gold" / f"{REJECT_ID}.json").symlink_to("/dev/zero")
    code, out, _ = _cli("provenance", "verify", record)
    assert code == 0 and "every file matches" in out  # a link is not a corpus file: never read
    code, out, err = _cli("lint", "--format", "json", corpus)
    assert code in (0, 1)


def test_a_folder_named_like_a_gold_output_is_no_internal_error(make_corpus, tmp_path, prompt):
    corpus = make_corpus()
    (corpus / "gold" / f"{ADMIT_ID}.json").mkdir(parents=True)
    code, _, _ = _cli("lint", corpus)
    assert code in (0, 1)
    code, _, _ = _cli("provenance", "record", corpus, "--authoring-prompt", prompt, "--authored-by", "a",
                      "--reviewed-by", "b", "--output", tmp_path / "provenance.yaml")
    assert code == 0


@needs_fifo
@pytest.mark.parametrize("place", ["session", "sidecar", "corpus.yaml", "gold", "result", "run.yaml", "prompt",
                                   "validate"])
def test_a_fifo_anywhere_is_refused_without_a_hang(make_corpus, tmp_path, prompt, place):
    corpus = make_corpus()
    results = good_results(tmp_path / "run")
    where = {"session": corpus / "sessions" / f"{ADMIT_ID}.md", "sidecar": corpus / "expected" / f"{ADMIT_ID}.yaml",
             "corpus.yaml": corpus / "corpus.yaml", "gold": corpus / "gold" / f"{ADMIT_ID}.json",
             "result": results / f"{ADMIT_ID}.json", "run.yaml": results / "run.yaml", "prompt": prompt,
             "validate": tmp_path / "output.json"}[place]
    where.parent.mkdir(exist_ok=True)
    if where.exists():
        where.unlink()
    os.mkfifo(where)
    if place == "validate":
        code, out, err = _cli("validate", "proposal-output", where)
        assert code == 2 and "FIFO" in err and err.count("\n") == 1
        return
    if place == "prompt":
        code, _, err = _cli("run", "init", tmp_path / "run2", "--corpus", corpus, "--prompt", prompt)
        assert code == 2 and "FIFO" in err
        code, _, err = _cli("lint", "--prompt", prompt, corpus)
        assert code == 2 and "FIFO" in err
        return
    assert _cli("lint", corpus)[0] in (0, 1)
    code, out, err = _cli("score", corpus, results, "--format", "json")
    if place == "corpus.yaml":  # not a corpus then: one line saying what it is
        assert code == 2 and "FIFO" in err and err.count("\n") == 1
        return
    assert code == 0
    if place == "result":
        verdict = next(f for f in json.loads(out)["fixtures"] if f["id"] == ADMIT_ID)
        assert verdict["reasons"][0].startswith("invalid-result") and "FIFO" in verdict["reasons"][0]
    assert _cli("run", "init", tmp_path / "run2", "--corpus", corpus, "--prompt", prompt)[0] == 0


# -- exit codes: decided by the findings, not by the pipe --------------------------------------------

def _broken_corpus(make_corpus):
    return make_corpus({f"expected/{ADMIT_ID}.yaml": "fixture_id: [\n"})  # CT002: lint exits 1


def test_lint_into_a_pipe_closed_at_once_still_exits_1(make_corpus):
    corpus = _broken_corpus(make_corpus)
    reader, writer = os.pipe()
    os.close(reader)  # `lint ... | true`: nobody reads
    try:
        done = subprocess.run([sys.executable, "-m", "corpustools", "lint", str(corpus)], stdout=writer,
                              stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(writer)
    assert done.returncode == 1
    assert done.stderr == b"", done.stderr  # no traceback, no "Exception ignored" at shutdown


@pytest.mark.skipif(not os.path.exists("/bin/bash"), reason="needs bash for PIPESTATUS")
def test_validate_into_head_still_exits_1(tmp_path):
    paths = []
    for i in range(200):  # more output than a pipe buffer holds, so the writer meets the closed pipe
        path = tmp_path / f"out-{i:03}.json"
        path.write_text('{"practice": [], "map": []}\n' if i else "{}\n")
        paths.append(str(path))
    done = subprocess.run(f"{sys.executable} -m corpustools validate proposal-output {' '.join(paths)} | head -1; "
                          "exit ${PIPESTATUS[0]}", shell=True, executable="/bin/bash", capture_output=True,
                          timeout=60)
    assert done.returncode == 1 and done.stdout.count(b"\n") == 1
    assert b"Traceback" not in done.stderr and b"Exception ignored" not in done.stderr


def test_a_closed_stdout_is_no_internal_error(tmp_path):
    (tmp_path / "bad.json").write_text("{}\n")
    done = subprocess.run(f"{sys.executable} -m corpustools validate proposal-output bad.json >&-", shell=True,
                          capture_output=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 1 and done.stderr == b"", done.stderr


# -- file names: UTF-8 whatever the locale; undecodable ones named, escaped -------------------------

def _c_locale_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONUTF8", "PYTHONIO"))}
    return {**env, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "PYTHONIOENCODING": "ascii"}


def test_the_corpus_hash_does_not_depend_on_the_locale(make_corpus, tmp_path):
    corpus = make_corpus({"sessions/café-01.md": "---\nschema_version: 1\n---\n[USER]: hi\n",
                          "expected/café-01.yaml": sidecar_text("café-01")})
    (tmp_path / "p.md").write_text(PROMPT)
    hashes = set()
    for name, env in (("utf8", {**os.environ, "LC_ALL": "C.UTF-8"}), ("c", _c_locale_env())):
        done = _process("run", "init", tmp_path / name, "--corpus", corpus, "--prompt", tmp_path / "p.md", env=env)
        assert done.returncode == 0, done.stderr
        manifest = (tmp_path / name / "run.yaml").read_text()
        hashes.add(next(line for line in manifest.splitlines() if line.startswith("corpus_sha256")))
    assert len(hashes) == 1, hashes
    # and a message naming a non-ASCII file reads the same under both locales
    shown = set()
    (corpus / "sessions" / "café-01.md").write_text("no frontmatter\n")
    for env in ({**os.environ, "LC_ALL": "C.UTF-8"}, _c_locale_env()):
        done = _process("render", corpus, "café-01", "--prompt", tmp_path / "p.md", env=env, cwd=tmp_path)
        shown.add(done.stderr)
    assert len(shown) == 1 and "café-01.md".encode() in shown.pop()


@pytest.mark.skipif(sys.platform == "darwin", reason="the file system refuses names that are not UTF-8")
@pytest.mark.parametrize("command", ["score", "compare", "run"])
def test_an_undecodable_file_name_is_one_escaped_line(make_corpus, tmp_path, prompt, command):
    corpus = make_corpus()
    os.link(corpus / "sessions" / f"{ADMIT_ID}.md", os.fsdecode(bytes(corpus / "sessions") + b"/bad\xff.md"))
    (corpus / "sessions" / os.fsdecode(b"notes\xff.txt")).write_text("not a fixture: ignored\n")
    results = good_results(tmp_path / "run")
    argv = {"score": ("score", corpus, results),
            "compare": ("compare", corpus, "--base", results, "--candidate", results),
            "run": ("run", "init", tmp_path / "run2", "--corpus", corpus, "--prompt", prompt)}[command]
    code, out, err = _cli(*argv)
    assert code == 2 and err.count("\n") == 1 and "bad\\xff.md" in err and "not valid UTF-8" in err


@pytest.mark.skipif(sys.platform == "darwin", reason="the file system refuses names that are not UTF-8")
def test_lint_reports_an_undecodable_session_name_escaped(make_corpus):
    corpus = make_corpus()
    (corpus / "sessions" / os.fsdecode(b"bad\xff.md")).write_text("---\n---\n")
    code, out, _ = _cli("lint", corpus)
    assert code == 1 and "sessions/bad\\xff.md:1:1: CT001 [error] file name is not valid UTF-8" in out


# -- unreadable files and lone surrogates: the ordinary one-line treatment -----------------------------

def _deny(monkeypatch, denied: Path) -> None:
    """os.open fails with EACCES for `denied` (a mode-000 file, even when the tests run as root)."""
    real_open = os.open

    def guarded(path, flags, *args, **kwargs):
        if os.fspath(path) == str(denied):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)


def test_an_unreadable_session_is_a_warning_for_score_and_no_crash_for_run_init(make_corpus, tmp_path, prompt,
                                                                                monkeypatch):
    corpus = make_corpus()
    session = corpus / "sessions" / f"{ADMIT_ID}.md"
    _deny(monkeypatch, session)
    code, out, err = _cli("score", corpus, good_results(tmp_path / "run"), "--format", "json")
    assert code == 0
    warnings = json.loads(out)["corpus_warnings"]
    assert any(f"{ADMIT_ID}.md" in w and "Permission denied" in w for w in warnings), warnings
    assert _cli("run", "init", tmp_path / "run2", "--corpus", corpus, "--prompt", prompt)[0] == 0
    code, _, err = _cli("provenance", "record", corpus, "--authoring-prompt", prompt, "--authored-by", "a",
                        "--reviewed-by", "b", "--output", tmp_path / "provenance.yaml")
    assert code == 2 and err.count("\n") == 1 and "Permission denied" in err and f"{ADMIT_ID}.md" in err


def test_a_lone_surrogate_result_is_invalid(make_corpus, tmp_path):
    corpus = make_corpus()
    results = good_results(tmp_path / "run")
    result = results / f"{ADMIT_ID}.json"
    data = json.loads(result.read_text())
    data["practice"][0]["title"] = "x\ud800"
    result.write_text(json.dumps(data))  # ASCII JSON: "x\\ud800", valid escape syntax, not Unicode
    code, out, _ = _cli("validate", "proposal-output", result)
    assert code == 1 and "lone surrogate" in out
    report = tmp_path / "report.json"
    code, _, err = _cli("score", corpus, results, "--format", "json", "--output", report)
    assert code == 0, err
    verdict = next(f for f in json.loads(report.read_text())["fixtures"] if f["id"] == ADMIT_ID)
    assert verdict["reasons"][0].startswith("invalid-result") and "/practice/0/title" in verdict["reasons"][0]


# -- Ctrl-C: 130, never a traceback ----------------------------------------------------------------

# Sends SIGINT to itself while corpustools imports its commands, the window the audit hit.
_INTERRUPT_DURING_IMPORT = """
import builtins, os, signal, sys
real_import = builtins.__import__
def interrupting(name, *args, **kwargs):
    if name == "corpustools.commands" or name.startswith("corpustools.commands."):
        os.kill(os.getpid(), signal.SIGINT)
    return real_import(name, *args, **kwargs)
builtins.__import__ = interrupting
sys.argv = [{argv0!r}, "--version"]
{entry}
"""


@pytest.mark.parametrize("argv0, entry", [
    ("corpustools", "from corpustools.cli import main; sys.exit(main())"),  # the console script
    ("-m", "import runpy; runpy.run_module('corpustools', run_name='__main__')"),  # python -m corpustools
])
def test_ctrl_c_while_starting_exits_130_without_a_traceback(argv0, entry):
    done = subprocess.run([sys.executable, "-c", _INTERRUPT_DURING_IMPORT.format(argv0=argv0, entry=entry)],
                          capture_output=True, timeout=60)
    assert done.returncode == 130 and b"Traceback" not in done.stderr, done.stderr


def test_ctrl_c_while_running_exits_130(make_corpus, monkeypatch):
    from corpustools import lint

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(lint, "lint_paths", interrupted)
    assert run_main("lint", str(make_corpus())) == (130, "", "")


# The instant the package's __init__ has run: a sitecustomize (on PYTHONPATH, for the child only)
# adds an audit hook that writes one byte to a pipe the first time Python opens a file of the
# corpustools package other than __init__: the module the command loads next (cli.py for the
# console script, __main__.py for `python -m`).
# A module of the package is a file right in a folder named corpustools (or its __pycache__): not
# any path through one, as a clone named corpustools with its .venv inside would make the console
# script itself and every library of the venv.
_MARK_HOOK = """
import os, re, sys
_fd = [int(os.environ["CT_TEST_MARK_FD"])]
_module = re.compile(r"/corpustools/(?:__pycache__/)?(?!__init__[.])[A-Za-z_][A-Za-z0-9_]*[.](?:cpython-[0-9]+[.])?pyc?$")
def _hook(event, args):
    if _fd and event == "open" and isinstance(args[0], str) and _module.search(args[0].replace(os.sep, "/")):
        os.write(_fd.pop(), b"x")
sys.addaudithook(_hook)
"""
_CONSOLE_SCRIPT = Path(sys.executable).with_name("corpustools")
_ENTRIES = {"console script": [str(_CONSOLE_SCRIPT)], "python -m": [sys.executable, "-m", "corpustools"]}
_SHIPPED = Path(__file__).resolve().parent.parent / "fixtures" / "prompt-eval"  # lint takes a while on it


def _interrupted(entry: list[str], delay: float, tmp_path: Path, *, after_init: bool) -> tuple[int, str]:
    """Start `entry` linting the shipped corpus; SIGINT it `delay` seconds after the package's
    __init__ has run (`after_init`), or after it was started; (exit status, stderr)."""
    import select
    import signal

    read_end, write_end = os.pipe()
    env = dict(os.environ)
    if after_init:
        (tmp_path / "sitecustomize.py").write_text(_MARK_HOOK, encoding="utf-8")
        env.update(PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])),
                   CT_TEST_MARK_FD=str(write_end))
    try:
        process = subprocess.Popen([*entry, "lint", str(_SHIPPED)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   env=env, pass_fds=(write_end,),
                                   # a test run started in the background has SIGINT ignored: not the child
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        os.close(write_end)
        if after_init:
            assert select.select([read_end], [], [], 60)[0], "the package never loaded its next module"
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        os.close(read_end)
    return process.returncode, err.decode("utf-8", "replace")


@pytest.mark.skipif(not hasattr(os, "pipe") or sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("entry", sorted(_ENTRIES))
def test_ctrl_c_from_the_packages_first_instruction_on_exits_130_without_a_traceback(entry, tmp_path):
    """Issue 31 item 16. Once the package's __init__ has run (the first code of ours the command
    runs; the handler is its first effect), a SIGINT at any instant exits 130 with nothing on
    standard error: here at 10 delays from 0 ms after the command opens its next module. On main
    the handler came with that module (cli.py's or __main__.py's first lines): a Ctrl-C while it was
    found and read printed a KeyboardInterrupt traceback."""
    if entry == "console script" and not _CONSOLE_SCRIPT.exists():
        pytest.skip("no corpustools console script beside this Python")
    for delay in (0, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1):
        code, err = _interrupted(_ENTRIES[entry], delay, tmp_path, after_init=True)
        assert (code, err) == (130, ""), (delay, err[-800:])


@pytest.mark.skipif(not hasattr(os, "pipe") or sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_at_any_early_instant_never_shows_a_traceback_of_ours(tmp_path):
    """A fresh process interrupted from 0 ms on: before Python reaches our first instruction the
    signal is Python's own business (its start-up and the console script's imports: killed by the
    signal, or its own message); from there on, exit 130 and nothing on standard error. Never a
    traceback through a file of ours."""
    import signal

    if not _CONSOLE_SCRIPT.exists():
        pytest.skip("no corpustools console script beside this Python")
    ours = str(Path(__file__).resolve().parent.parent / "corpustools")
    for delay in (0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1):
        code, err = _interrupted(_ENTRIES["console script"], delay, tmp_path, after_init=False)
        assert ours not in err and "site-packages/corpustools/" not in err, (delay, err[-800:])
        if not any(word in err for word in ("Traceback", "Fatal Python error", "Exception ignored")):
            assert (code, err) in ((130, ""), (-signal.SIGINT, "")), (delay, code, err[-800:])


def test_importing_the_package_changes_no_signal_handler():
    # Compared with the handler before the import, not with Python's default: a test run started
    # in the background inherits SIGINT ignored, and the import must keep that too.
    done = subprocess.run([sys.executable, "-c", "import signal; before = signal.getsignal(signal.SIGINT); "
                           "import corpustools, corpustools.cli; print(signal.getsignal(signal.SIGINT) is before)"],
                          capture_output=True, timeout=60)
    assert done.stdout == b"True\n", done.stderr


# -- control characters: escaped in every human-readable format --------------------------------------

def test_a_newline_in_a_file_name_cannot_forge_a_diagnostic(make_corpus):
    forged = "fake.md:1:1: CT999 [error] forged\nx-01.md"
    corpus = make_corpus({f"sessions/{forged}": "---\n---\n"})
    code, out, _ = _cli("lint", "--format", "json", corpus)
    diagnostics = json.loads(out)
    assert code == 1 and any(d["path"].endswith(forged) for d in diagnostics)  # JSON carries the real name
    for fmt in ("text", "github"):
        code, out, _ = _cli("lint", "--format", fmt, corpus, "--quiet")  # -q: no summary line
        assert code == 1 and out.count("\n") == len(diagnostics)
        assert "forged\\nx-01.md" in out


def test_control_characters_in_point_ids_are_escaped_in_reports(make_corpus, tmp_path):
    points = ("\n  - id: \"evil\\e[31m\\nPASS forged\"\n    type: practice\n    must_match_all:\n"
              "      - queue worker\n")
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": sidecar_text(points=points)})
    results = good_results(tmp_path / "run")
    for fmt in ("markdown", "text"):
        code, out, _ = _cli("score", corpus, results, results, "--format", fmt)
        assert code == 0 and "\x1b" not in out and "\nPASS forged" not in out


def test_validate_escapes_a_file_name(tmp_path):
    path = tmp_path / "a\x1b[2Jb.json"
    path.write_text("{}\n")
    code, out, _ = _cli("validate", "proposal-output", path)
    assert code == 1 and "\x1b" not in out and "a\\x1b[2Jb.json" in out


# -- speed: score reads each corpus file once ------------------------------------------------------

def test_score_reads_each_corpus_file_once_and_keeps_the_hash(make_corpus, tmp_path, monkeypatch):
    from corpustools.model import corpus as corpus_module
    from corpustools.model.hashing import corpus_sha256

    corpus = make_corpus()
    expected = corpus_sha256(str(corpus))
    reads = []
    real = corpus_module.read_bytes
    monkeypatch.setattr(corpus_module, "read_bytes", lambda path, **kw: reads.append(path) or real(path, **kw))
    code, out, _ = _cli("score", corpus, good_results(tmp_path / "run"), "--format", "json")
    assert code == 0 and json.loads(out)["corpus"]["sha256"] == expected
    assert len(reads) == len(set(reads)) == 5  # corpus.yaml, two sessions, two sidecars
