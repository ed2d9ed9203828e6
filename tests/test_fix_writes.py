"""`lint --fix` never loses an edit and never replaces a read-only file (issue 31, items 13 and 14).

An editor that saves a file while --fix writes it keeps its bytes: the fix is reported as not
written (exit 2). Deterministic: an "editor save" runs at the critical points --fix passes through
(right after its last read of the file before writing, right after the atomic swap, with and without
the swap the platform may lack); and, slower, the audit's reproduction: a watcher process saving
sidecars over and over while --fix fixes hundreds of them. A read-only (0444) file is refused like
every other writer refuses one, root included (who could write it).
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.bench import run_main, write_generated
from tests.support.work import HANG_GUARD_SECONDS

REPO = Path(__file__).resolve().parent.parent
SIDECAR = "expected/admit-gotcha-01.yaml"
TERM_LINE = re.compile(r"^      - ([a-z][a-z ]+)$", re.MULTILINE)
NOT_WRITTEN_CHANGED = "CT603 fix not written: changed since lint read it; not written (run --fix again)"


def plant_capital_term(path: Path) -> tuple[bytes, bytes]:
    """A CT603 finding (a term not in lowercase) in the sidecar: (its bytes, the bytes --fix makes)."""
    text = path.read_text()
    found = TERM_LINE.search(text)
    assert found is not None, text
    broken = text[:found.start(1)] + found.group(1).upper() + text[found.end(1):]
    path.write_text(broken)
    return broken.encode(), text.encode()


def planted_with_an_edit(corpus: Path) -> tuple[Path, bytes, bytes]:
    """The sidecar with a CT603 finding planted: (its path, the bytes --fix makes, the bytes an
    editor saves: the planted bytes and one more line)."""
    path = corpus / SIDECAR
    was, fixed = plant_capital_term(path)
    return path, fixed, was + b"# the editor's edit\n"


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    return write_generated(tmp_path_factory.mktemp("generated"), 20)


@pytest.fixture
def corpus(generated, tmp_path) -> Path:
    import shutil

    shutil.copytree(generated, tmp_path / "out", symlinks=True)
    return tmp_path / "out" / "corpus"


def save_by_rename(path: Path, data: bytes) -> None:
    """How most editors save: a new file renamed over the old one."""
    temporary = path.with_name(f".{path.name}.editor")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def save_in_place(path: Path, data: bytes) -> None:
    """How some editors save: the open file truncated and written again."""
    with open(path, "r+b") as handle:
        handle.truncate(0)
        handle.write(data)


SAVES = {"rename": save_by_rename, "in place": save_in_place}

# An editor in a process of its own: it opens the file for writing, says so, and writes the bytes
# into that open file only when told to (the test says "go" after --fix has returned).
EDITOR = r"""
import os, sys, time
path, data, opened, go = sys.argv[1], bytes.fromhex(sys.argv[2]), sys.argv[3], sys.argv[4]
with open(path, "r+b") as handle:
    open(opened, "w").close()
    while not os.path.exists(go):
        time.sleep(0.01)
    handle.truncate(0)
    handle.write(data)
"""


def needs_leases(folder: Path) -> None:
    """Skip where --fix can take no lease on a file in `folder` (not Linux, a file system without
    leases): there an editor writing into a file it holds open is the residual risk docs/security.md
    states, not a failure."""
    from corpustools.io import writing

    probe = folder / ".lease-probe"
    probe.write_bytes(b"")
    lease = writing._Lease.take(str(probe))
    probe.unlink()
    if lease is None:
        pytest.skip("no file lease can be taken here")
    lease.release()


class EditorProcess:
    """Another program that opens `path` for writing now and writes `data` into that open file
    later (`finish`), as an editor saving in place. --fix's lease on the file makes its open wait;
    the constructor returns once the open has returned or is waiting on a lease (/proc/locks lists
    the process breaking one)."""

    def __init__(self, path: Path, data: bytes, folder: Path):
        self.opened, self.go = folder / f"opened-{os.urandom(4).hex()}", folder / f"go-{os.urandom(4).hex()}"
        self.process = subprocess.Popen([sys.executable, "-c", EDITOR, str(path), data.hex(), str(self.opened),
                                         str(self.go)])
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        while not (self.opened.exists() or self._waiting_on_a_lease()):
            assert self.process.poll() is None, "the editor process ended before it opened the file"
            assert time.monotonic() < deadline, "the editor process neither opened the file nor waited on a lease"
            time.sleep(0.005)

    def _waiting_on_a_lease(self) -> bool:
        with open("/proc/locks") as locks:
            return any("BREAKER" in line and str(self.process.pid) in line.split() for line in locks)

    def finish(self) -> None:
        self.go.write_text("")
        assert self.process.wait(timeout=HANG_GUARD_SECONDS) == 0


@pytest.fixture
def editors(tmp_path):
    """Start an EditorProcess: editors(path, data); each is told to write and waited for by finish_all()."""
    started: list[EditorProcess] = []

    class Editors:
        def __call__(self, path: Path, data: bytes) -> EditorProcess:
            started.append(EditorProcess(path, data, tmp_path))
            return started[-1]

        @staticmethod
        def finish_all() -> None:
            for editor in started:
                editor.finish()

    yield Editors()
    for editor in started:
        if editor.process.poll() is None:
            editor.go.write_text("")
            editor.process.wait(timeout=HANG_GUARD_SECONDS)


def _inside(function: str) -> bool:
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == function:
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


def fix_with_a_save_after_the_last_read(monkeypatch, corpus: Path, path: Path, save: str, edited: bytes):
    """`lint --fix CORPUS` with an editor saving `edited` to `path` the moment --fix has read it
    while writing the fixes (its last look before the write): (exit code, standard error)."""
    from corpustools.io import textfile

    real_read = textfile.read_bytes
    saved: list[str] = []

    def read_then_edit(name, *args, **kwargs):
        data = real_read(name, *args, **kwargs)
        if os.path.abspath(name) == str(path) and not saved and _inside("write_fixes"):
            SAVES[save](path, edited)
            saved.append(name)
        return data

    monkeypatch.setattr(textfile, "read_bytes", read_then_edit)
    code, _, err = run_main("lint", "--fix", str(corpus))
    assert saved, "the editor never saved: --fix did not read the file before writing it"
    return code, err


@pytest.mark.parametrize("save", sorted(SAVES))
def test_an_edit_saved_after_the_last_read_before_the_write_is_kept(corpus, monkeypatch, save):
    # The audit's window: --fix has read the file a last time (to check it still holds the bytes
    # the fix was computed from) and is about to put the fixed file in its place.
    path, _, edited = planted_with_an_edit(corpus)

    code, err = fix_with_a_save_after_the_last_read(monkeypatch, corpus, path, save, edited)

    assert path.read_bytes() == edited
    assert code == 2
    assert NOT_WRITTEN_CHANGED in err, err
    assert not [name for name in os.listdir(path.parent) if name.startswith(".")]  # no temporary file left


def save_at_this_moment(save: str, path: Path, edited: bytes, editors) -> None:
    """An editor's save at this moment: a new file renamed over `path` now, or (in place) another
    process that opens `path` now and writes into that open file once --fix has returned."""
    if save == "in place":
        editors(path, edited)
    else:
        save_by_rename(path, edited)


@pytest.mark.parametrize("save", sorted(SAVES))
@pytest.mark.parametrize("when", ["before the swap", "after the swap"])
def test_an_edit_saved_at_the_swap_is_kept(corpus, monkeypatch, editors, save, when):
    # The fixed file takes the old one's place in one step (renameat2 RENAME_EXCHANGE), and the
    # old one is read after that step: an edit saved just before is swapped back; a save just after
    # (by rename) is a later save over the fixed file, which wins. An editor opening the old file
    # at either moment (in place) waits on --fix's lease, which --fix sees: the old file goes back.
    from corpustools.io import writing

    if save == "in place":
        needs_leases(corpus)
    path, fixed, edited = planted_with_an_edit(corpus)
    real_exchange = writing._exchange

    saved = []  # one save, at the swap of the edited file: not again when --fix swaps back, nor
    # at another file's swap (a save at every exchange is an editor saving again and again, whose
    # newest edit --fix keeps in the temporary file and says so, and an inode's reuse decided the rest)

    def exchange_with_an_edit(a, b):
        now = not saved and os.path.basename(a) == path.name
        if now and when == "before the swap":
            save_at_this_moment(save, path, edited, editors)
        real_exchange(a, b)
        if now and when == "after the swap":  # in place: the editor writes into the old file, now named b
            save_at_this_moment(save, Path(b) if save == "in place" else path, edited, editors)
        saved.extend([a] if now else [])

    monkeypatch.setattr(writing, "_exchange", exchange_with_an_edit)
    code, _, err = run_main("lint", "--fix", str(corpus))
    editors.finish_all()

    assert path.read_bytes() == edited, (path.read_bytes(), fixed)
    assert not [name for name in os.listdir(path.parent) if name.startswith(".")]
    if when == "after the swap" and save == "rename":
        assert code == 1 and "CT603 fixed:" in err  # the fix landed on its bytes; the later save replaced it
    else:
        assert code == 2 and NOT_WRITTEN_CHANGED in err, err


@pytest.mark.parametrize("save", sorted(SAVES))
@pytest.mark.parametrize("when", ["before the move", "after the move"])
def test_an_edit_saved_while_the_file_is_moved_aside_is_kept(corpus, monkeypatch, editors, save, when):
    # Where the platform cannot swap two names: the old file is renamed aside in one step, read,
    # and the fixed one linked in under the name only if no file took it meanwhile.
    from corpustools.io import writing

    if save == "in place":
        needs_leases(corpus)
    path, fixed, edited = planted_with_an_edit(corpus)
    real_holds, saved = writing._holds, []

    def no_swap(a, b):
        if when == "before the move":
            save_at_this_moment(save, path, edited, editors)
            saved.append(a)
        raise writing.NoExchange

    def holds_after_an_edit(name, data):
        if when == "after the move" and not saved:
            saved.append(name)
            if save == "in place":  # the editor writes into the old file, moved aside
                save_at_this_moment(save, Path(name), edited, editors)
            else:  # a new file saved under the name, which is free for that moment
                path.write_bytes(edited)
        return real_holds(name, data)

    monkeypatch.setattr(writing, "_exchange", no_swap)
    monkeypatch.setattr(writing, "_holds", holds_after_an_edit)
    code, _, err = run_main("lint", "--fix", str(corpus))
    editors.finish_all()

    assert saved
    assert path.read_bytes() == edited, (path.read_bytes(), fixed)
    assert not [name for name in os.listdir(path.parent) if name.startswith(".")]
    assert code == 2 and NOT_WRITTEN_CHANGED in err, err


def test_without_an_edit_the_fix_is_written_with_or_without_the_swap(corpus, monkeypatch):
    from corpustools.io import writing

    path = corpus / SIDECAR
    _, fixed = plant_capital_term(path)
    os.chmod(path, 0o640)
    assert run_main("lint", "--fix", str(corpus))[0] == 0
    assert path.read_bytes() == fixed and stat.S_IMODE(path.stat().st_mode) == 0o640

    def no_swap(a, b):
        raise writing.NoExchange

    monkeypatch.setattr(writing, "_exchange", no_swap)
    plant_capital_term(path)
    assert run_main("lint", "--fix", str(corpus))[0] == 0
    assert path.read_bytes() == fixed and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert not [name for name in os.listdir(path.parent) if name.startswith(".")]


def test_an_editor_holding_the_file_open_for_writing_keeps_its_bytes(corpus, editors):
    # The hole the lease closes: an editor opened the file before --fix and writes into that open
    # file after --fix's last check. Before, the fix took the file's place and the editor wrote
    # into the replaced file, which was then removed: the edit was lost.
    needs_leases(corpus)
    path, fixed, edited = planted_with_an_edit(corpus)
    editor = editors(path, edited)
    assert editor.opened.exists()  # it holds the file open for writing, nothing written yet

    code, _, err = run_main("lint", "--fix", str(corpus))
    editor.finish()

    assert path.read_bytes() == edited, (path.read_bytes(), fixed)
    assert code == 2 and NOT_WRITTEN_CHANGED in err, err
    assert not [name for name in os.listdir(path.parent) if name.startswith(".")]


def test_a_program_holding_the_file_open_to_read_does_not_stop_the_fix(corpus):
    path = corpus / SIDECAR
    _, fixed = plant_capital_term(path)
    with open(path, "rb"):  # a viewer: it cannot write through this descriptor
        code, _, err = run_main("lint", "--fix", str(corpus))
    assert (code, path.read_bytes()) == (0, fixed), err


@pytest.mark.parametrize("failure", [errno.EACCES, errno.EINVAL])
def test_where_no_lease_can_be_taken_the_fix_is_written_as_before(corpus, monkeypatch, failure):
    # EACCES: a file this user does not own (without CAP_LEASE); EINVAL: a file system without
    # leases, or leases disabled. --fix goes on without the lease (docs/security.md).
    import fcntl

    real_fcntl = fcntl.fcntl

    def no_lease(fd, command, *args):
        if command == fcntl.F_SETLEASE:
            raise OSError(failure, os.strerror(failure))
        return real_fcntl(fd, command, *args)

    monkeypatch.setattr(fcntl, "fcntl", no_lease)
    path = corpus / SIDECAR
    _, fixed = plant_capital_term(path)
    assert run_main("lint", "--fix", str(corpus))[0] == 0
    assert path.read_bytes() == fixed


def test_sigio_is_ignored_only_while_a_lease_is_held(corpus, monkeypatch):
    # A broken lease signals its holder with SIGIO, whose default action ends the process: --fix
    # ignores it while it holds a lease (this process survives the editors above) and puts the
    # disposition back after. In another thread, where it cannot change it, --fix goes on without
    # a lease rather than risk being ended.
    import signal
    import threading

    from corpustools.io import writing

    needs_leases(corpus)
    real_exchange, real_lease, at_swap, leases = writing._exchange, writing._lease, [], []

    def exchange(a, b):
        at_swap.append(signal.getsignal(signal.SIGIO))
        real_exchange(a, b)

    def lease(path):
        leases.append(real_lease(path))
        return leases[-1]

    monkeypatch.setattr(writing, "_exchange", exchange)
    monkeypatch.setattr(writing, "_lease", lease)
    path = corpus / SIDECAR
    _, fixed = plant_capital_term(path)
    assert signal.getsignal(signal.SIGIO) == signal.SIG_DFL
    assert run_main("lint", "--fix", str(corpus))[0] == 0
    assert at_swap == [signal.SIG_IGN] and leases[0] is not None
    assert signal.getsignal(signal.SIGIO) == signal.SIG_DFL and path.read_bytes() == fixed

    plant_capital_term(path)
    results: list = []
    thread = threading.Thread(target=lambda: results.append(run_main("lint", "--fix", str(corpus))))
    thread.start()
    thread.join(timeout=HANG_GUARD_SECONDS)
    assert results and results[0][0] == 0 and path.read_bytes() == fixed
    assert at_swap[1] == signal.SIG_DFL and leases[1] is None


@pytest.mark.parametrize("save", sorted(SAVES))
def test_a_rename_fix_keeps_an_edit_saved_meanwhile(corpus, monkeypatch, save):
    # CT205: expected/x.yml is renamed to x.yaml; an edit saved to x.yml at the critical point stays.
    (corpus / SIDECAR).rename(corpus / SIDECAR.replace(".yaml", ".yml"))
    path = corpus / SIDECAR.replace(".yaml", ".yml")
    edited = path.read_bytes() + b"# the editor's edit\n"

    code, err = fix_with_a_save_after_the_last_read(monkeypatch, corpus, path, save, edited)

    assert code == 2, err
    assert path.read_bytes() == edited and not (corpus / SIDECAR).exists()
    assert "CT205 fix not written: " in err, err


# --- the audit's reproduction: a watcher saving files while --fix runs ----------------------------

# A watcher process (Linux inotify through ctypes) that saves a sidecar the moment --fix has read it
# a second time: the first read is the scratch copy's, the second --fix's last look before it puts
# the fixed file in place. Saves alternate between a rename and a write in place, each with a new
# line; the last bytes saved per file are written to a log when a stop file appears.
WATCHER = r"""
import ctypes, json, os, select, struct, sys
folder, stop, ready, log = sys.argv[1:5]
base = {name: open(os.path.join(folder, name), "rb").read() for name in os.listdir(folder) if name.endswith(".yaml")}
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(0)
if fd < 0 or libc.inotify_add_watch(fd, folder.encode(), 0x10) < 0:  # IN_CLOSE_NOWRITE
    sys.exit("inotify is not available")
reads, last, saves = {}, {}, 0
open(ready, "w").close()
while not os.path.exists(stop):
    if not select.select([fd], [], [], 0.05)[0]:
        continue
    data, at = os.read(fd, 1 << 16), 0
    while at < len(data):
        _, mask, _, size = struct.unpack_from("iIII", data, at)
        name = data[at + 16:at + 16 + size].rstrip(b"\0").decode()
        at += 16 + size
        reads[name] = reads.get(name, 0) + 1
        if name not in base or reads[name] != 2:
            continue
        path, saved = os.path.join(folder, name), base[name] + b"# saved by the watcher\n"
        if saves % 2:
            with open(path, "r+b") as handle:
                handle.truncate(0)
                handle.write(saved)
        else:
            with open(os.path.join(folder, ".watcher.tmp"), "wb") as handle:
                handle.write(saved)
            os.replace(os.path.join(folder, ".watcher.tmp"), path)
        saves += 1
        last[name] = saved.decode()
with open(log, "w") as handle:
    json.dump({"last": last, "saves": saves}, handle)
"""


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the watcher uses Linux's inotify")
def test_a_watcher_saving_files_during_fix_loses_no_edit(tmp_path):
    out = write_generated(tmp_path / "out", 100)
    corpus = out / "corpus"
    planted = {}  # name -> (the broken text, the fixed text)
    for path in sorted((corpus / "expected").glob("*.yaml")):
        if TERM_LINE.search(path.read_text()):
            broken, good = plant_capital_term(path)
            planted[path.name] = (broken.decode(), good.decode())
    assert len(planted) > 40
    stop, ready, log = tmp_path / "stop", tmp_path / "ready", tmp_path / "log.json"
    watcher = subprocess.Popen([sys.executable, "-c", WATCHER, str(corpus / "expected"), str(stop), str(ready), str(log)])
    try:
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        while not ready.exists() and watcher.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ready.exists(), "the watcher did not start"
        done = subprocess.run([sys.executable, "-m", "corpustools", "lint", "--fix", "-q", str(corpus)],
                              capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=300)
    finally:
        stop.write_text("")
        watcher.wait(timeout=60)
    saves = json.loads(log.read_text())
    assert "Traceback" not in done.stderr, done.stderr

    # Every file the watcher saved keeps its save: the fix is reported not written, or it had landed
    # on exactly the bytes it was computed from before the save replaced it. Nothing else is left.
    lost = [name for name in saves["last"] if (corpus / "expected" / name).read_text() != saves["last"][name]]
    assert not lost, f"{len(lost)} of {saves['saves']} saves lost"
    for name, (_, good) in planted.items():
        if name not in saves["last"]:
            assert (corpus / "expected" / name).read_text() == good, name
    assert not [name for name in os.listdir(corpus / "expected") if name.startswith(".") and "watcher" not in name]
    assert done.returncode == (2 if " fix not written: " in done.stderr else 1), done.stderr


# --- item 14: a read-only file ------------------------------------------------------------------------

@pytest.mark.parametrize("option", [[], ["--force"]])
def test_a_read_only_sidecar_is_not_fixed(corpus, option):
    path = corpus / SIDECAR
    was, _ = plant_capital_term(path)
    os.chmod(path, 0o444)

    code, _, err = run_main("lint", "--fix", *option, str(corpus))

    assert code == 2
    assert "CT603 fix not written: is read-only; not replaced (make it writable to let --fix replace it)" in err, err
    assert path.read_bytes() == was and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_a_read_only_file_is_not_renamed(corpus):
    old = corpus / SIDECAR.replace(".yaml", ".yml")
    (corpus / SIDECAR).rename(old)
    os.chmod(old, 0o444)

    code, _, err = run_main("lint", "--fix", str(corpus))

    assert code == 2 and "CT205 fix not written: is read-only; not renamed (make it writable to let --fix rename it)" in err
    assert old.exists() and not (corpus / SIDECAR).exists()
