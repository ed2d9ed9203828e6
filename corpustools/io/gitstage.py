"""What git has staged for the next commit: the names it changes (deletions included) and the staged
bytes of every file, for the pre-commit hook (`corpustools lint --staged`) to lint exactly what
the commit will hold, never the working tree.

pre-commit passes a hook only the staged files that still exist, so a deleted session, the old
name of a renamed sidecar or a file turned into a link never reaches `lint` as a file name, and
the corpus it broke would pass; and a file staged and then edited again holds, on disk, what the
commit does not. Asking git for the change and reading the index closes both gaps.

Read-only and local: `git rev-parse`, `git diff --cached`, `git ls-files --stage` and one `git
cat-file --batch` (raw blobs: no filter, no textconv; `GIT_NO_LAZY_FETCH`: a partial clone never
fetches a missing blob) for the files whose working-tree bytes are not the staged blob's: a file
that is (its git object id, computed from the bytes read, is the staged one) is copied from the
working tree, which costs less than git inflating the object. Every name travels NUL-separated (`-z`), never quoted, split or stripped:
a name may begin or end with a space, hold a newline or bytes that are not UTF-8 (kept as
surrogate escapes, os.fsdecode's spelling). The index is the one git uses for this commit
(GIT_INDEX_FILE, set by `git commit` for its hooks, is honoured).
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.textfile import MAX_FILE_BYTES

_GIT_TIMEOUT = 60  # seconds: local commands on the index; never a network operation
# Read-only: no index refresh written behind the user's back, no blob fetched from a promisor remote.
_GIT_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_NO_LAZY_FETCH": "1"}
REGULAR_MODES = ("100644", "100755")
LINK_MODE, GITLINK_MODE = "120000", "160000"
_CHUNK = 1 << 16
_MAX_LINK_BYTES = 4096  # a symbolic link's target (PATH_MAX)
# Stage 0 is a path's one version; a conflicted path has 1 (base), 2 (ours), 3 (theirs): ours first.
_STAGE_RANK = {"0": 0, "2": 1, "3": 2, "1": 3}


@dataclass(frozen=True)
class IndexEntry:
    mode: str  # 100644 / 100755 (a file), 120000 (a symbolic link), 160000 (a submodule's commit)
    blob: str  # the object id


@dataclass(frozen=True)
class StagedIndex:
    """The repository's top folder, the names the next commit changes and every entry of the index,
    by path relative to `top` (POSIX, as git spells it)."""

    top: str
    changed: tuple[str, ...]
    entries: Mapping[str, IndexEntry]


def _git_env() -> dict[str, str]:
    return {**os.environ, **_GIT_ENV}


def _failed(stderr: bytes, returncode: int) -> InputError:
    why = " ".join(stderr.decode("utf-8", "replace").split())[:200] or f"exit {returncode}"
    return InputError(Pos(""), f"--staged: not inside a git repository, or git failed: {why}")


def _git(args: list[str], cwd: str) -> bytes:
    return _git_together([args], cwd)[0]


def _git_together(commands: list[list[str]], cwd: str) -> list[bytes]:
    """The standard output of each git command of `commands`, run side by side (the hook waits for
    the slowest, not for the sum: each git start-up costs a few milliseconds); InputError (one line)
    for the first that cannot run or fails, the others stopped."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        try:
            for args in commands:
                started.append(subprocess.Popen(["git", *args], cwd=cwd, stdin=subprocess.DEVNULL,
                                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_git_env()))
            done = [(process, *process.communicate(timeout=_GIT_TIMEOUT)) for process in started]
        except FileNotFoundError:
            raise InputError(Pos(""), "--staged asks git for the staged files, and git is not installed") from None
        except (OSError, subprocess.TimeoutExpired) as err:
            raise InputError(Pos(""), f"--staged: git could not be run: {err}") from None
    finally:
        for process in started:
            if process.returncode is None:  # a failure above: never a git left running
                process.kill()
                process.communicate()
    for process, _out, stderr in done:
        if process.returncode != 0:
            raise _failed(stderr, process.returncode)
    return [out for _process, out, _err in done]


def _names(output: bytes) -> list[str]:
    """NUL-terminated names, each exactly as git wrote it."""
    return [os.fsdecode(name) for name in output.split(b"\0") if name]


def repository_top(cwd: str = ".") -> str:
    """The top folder of the work tree holding `cwd`, absolute. `rev-parse --show-toplevel` has no
    -z: its one line ends with one newline, which alone is dropped (a folder's name may end with
    a space or a newline of its own)."""
    out = _git(["rev-parse", "--show-toplevel"], cwd)
    if not out.endswith(b"\n") or len(out) < 2:
        raise InputError(Pos(""), "--staged: git did not name the repository's top folder")
    return os.fsdecode(out[:-1])


def staged_index(cwd: str = ".") -> StagedIndex:
    """The index of the repository holding `cwd`: its top, the names staged (added, changed,
    deleted, renamed: old and new name, or with a new mode or type; `--no-renames` lists a rename
    as both) and every entry (stage 0; an unmerged path by its "ours" side). InputError (one line)
    when git is missing or `cwd` is in no repository."""
    top = repository_top(cwd)
    diff, listing = _git_together([["-c", "diff.relative=false", "diff", "--cached", "--name-only", "-z", "--no-renames",
                                    "--no-ext-diff"], ["ls-files", "--stage", "-z", "--full-name"]], top)
    changed = _names(diff)
    entries: dict[str, IndexEntry] = {}
    ranks: dict[str, int] = {}
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, blob, stage = meta.decode("ascii").split()
        path = os.fsdecode(name)
        rank = _STAGE_RANK.get(stage, len(_STAGE_RANK))
        if rank < ranks.get(path, len(_STAGE_RANK) + 1):
            entries[path], ranks[path] = IndexEntry(mode, blob), rank
    return StagedIndex(top, tuple(sorted(set(changed))), entries)


def staged_paths(cwd: str = ".") -> list[str]:
    """Every name staged in the repository holding `cwd` (see staged_index), as absolute paths,
    sorted. A deleted name does not exist any more."""
    index = staged_index(cwd)
    return sorted(os.path.join(index.top, *name.split("/")) for name in index.changed)


# --- the staged bytes, written out ----------------------------------------------------------------

def _safe_parts(name: str) -> list[str] | None:
    """`name`'s components, or None for one git would never store (absolute, `..`, `.git`, empty)."""
    parts = name.split("/")
    if any(part in ("", ".", "..") or part.lower() == ".git" or "\0" in part for part in parts):
        return None
    return parts


class _BlobReader:
    """One `git cat-file --batch` reading `blobs` in order: a thread writes their ids (so neither
    side waits on the other's pipe), and each blob's bytes are streamed as it comes."""

    def __init__(self, top: str, blobs: list[str]) -> None:
        try:
            self.process = subprocess.Popen(["git", "cat-file", "--batch", "--buffer"], cwd=top, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_git_env())
        except FileNotFoundError:
            raise InputError(Pos(""), "--staged asks git for the staged files, and git is not installed") from None
        except OSError as err:
            raise InputError(Pos(""), f"--staged: git could not be run: {err}") from None
        self.watchdog = threading.Timer(_GIT_TIMEOUT * 10, self.process.kill)  # a stuck git never hangs a hook
        self.watchdog.daemon = True
        self.watchdog.start()
        self.feeder = threading.Thread(target=self._feed, args=(blobs,), daemon=True)
        self.feeder.start()

    def _feed(self, blobs: list[str]) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            for blob in blobs:
                stdin.write(blob.encode("ascii") + b"\n")
            stdin.close()
        except OSError:  # git stopped: the reader says so
            pass

    def close(self) -> None:
        self.watchdog.cancel()
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.process.kill()
        self.process.wait()
        self.feeder.join()

    def stream(self, blob: str, shown: str) -> Iterator[bytes]:
        """The next blob's bytes (it must be `blob`), in chunks."""
        stdout = self.process.stdout
        assert stdout is not None
        try:
            header = stdout.readline().split()
        except OSError as err:
            raise InputError(Pos(shown), f"git cat-file could not read the staged file: {err}") from None
        if len(header) != 3 or header[0] != blob.encode("ascii") or header[1] != b"blob":
            raise InputError(Pos(shown), f"git could not read the staged file (object {blob} is "
                                         f"{b' '.join(header[1:]).decode('ascii', 'replace') or 'missing'})")
        left = int(header[2])
        while left > 0:
            chunk = stdout.read(min(_CHUNK, left))
            if not chunk:
                raise InputError(Pos(shown), "git cat-file stopped before the end of the staged file")
            left -= len(chunk)
            yield chunk
        stdout.read(1)  # the newline after the content


def new_file(path: str) -> int:
    """A descriptor of `path` opened for writing as a new file (O_EXCL | O_NOFOLLOW: never an existing
    file, never through a link), private to this user."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                   | getattr(os, "O_CLOEXEC", 0), 0o600)


def _write_blob(chunks: Iterable[bytes], target: str) -> None:
    """The staged file's bytes (`chunks`) at `target`, a new file. At most MAX_FILE_BYTES + 1 bytes
    are kept (no reader reads more); a larger file is extended to its whole size without its bytes
    (a sparse file), so every reader refuses it as over the cap exactly as it would on disk.
    Unbuffered writes on the descriptor: most staged files are one chunk, written by one call."""
    fd = new_file(target)
    try:
        kept = size = 0
        for chunk in chunks:
            size += len(chunk)
            if kept <= MAX_FILE_BYTES:
                part = memoryview(chunk)[:MAX_FILE_BYTES + 1 - kept]
                while part:
                    part = part[os.write(fd, part):]
                kept = min(size, MAX_FILE_BYTES + 1)
        if size > kept:
            os.ftruncate(fd, size)
    finally:
        os.close(fd)


def _blob_id(data: bytes, like: str) -> str | None:
    """The object id git gives a blob of `data`, in the hash of the id `like` (40 hex digits: SHA-1;
    64: SHA-256, a repository of that object format); None when that hash is not to be had."""
    name = {40: "sha1", 64: "sha256"}.get(len(like))
    if name is None:
        return None
    try:
        digest = hashlib.new(name, usedforsecurity=False)
    except ValueError:  # a hash the system's OpenSSL refuses (FIPS mode)
        return None
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


def _as_staged_in_work_tree(path: str, blob: str) -> bytes | None:
    """The bytes of the working-tree file at `path` when they are exactly the staged blob `blob`
    (their git object id is its id), else None (changed since it was staged, converted on checkout,
    unreadable, no regular file, over the size cap): git's object store is then read. The bytes
    checked are the bytes returned, so an edit racing this read is either not seen or not used;
    a link is never followed to the file, and a folder link on the way leads only to bytes whose id
    is the staged one. Reading the file is cheaper than asking git to inflate the object."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            return None
        parts, size = [], 0
        while chunk := os.read(fd, max(info.st_size - size + 1, 1)):
            parts.append(chunk)
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                return None
        data = b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if _blob_id(data, blob) == blob else None


def _link_target(reader: _BlobReader, blob: str, shown: str) -> str:
    data = b""
    for chunk in reader.stream(blob, shown):
        data = (data + chunk)[:_MAX_LINK_BYTES]
    return os.fsdecode(data.replace(b"\0", b""))


def _under_a_file(index: StagedIndex, parts: list[str], clear: set[str]) -> bool:
    """Whether a file or link entry lies on the way to `parts` (never in a valid index: writing
    there would go through it). `clear`: folders (index names) found to have none on their way,
    added to as they are found, so each folder is checked once a write."""
    for i in range(len(parts) - 1, 0, -1):
        folder = "/".join(parts[:i])
        if folder in clear:
            break
        entry = index.entries.get(folder)
        if entry is not None and entry.mode != GITLINK_MODE:
            return True
    for i in range(1, len(parts)):
        clear.add("/".join(parts[:i]))
    return False


def write_staged(index: StagedIndex, names: Iterable[str], mirror: str) -> list[str]:
    """Write the staged entries `names` (paths relative to the top) under the folder `mirror`, at the
    same relative paths: a file with its staged bytes (see _write_blob: read from the working tree
    when the file there is byte for byte the staged blob, see _as_staged_in_work_tree, else from
    git's objects), a symbolic link as a link
    (never followed), a submodule as an empty folder. Only new files and folders, only inside
    `mirror`, never through a link; a name that is no entry, or that another entry's link or file
    would have to hold, is left out. The names written, sorted."""
    real_mirror = os.path.realpath(mirror)
    checked: set[str] = set()  # folders made and found to be no link
    clear: set[str] = set()  # folders no file or link entry lies on the way to (_under_a_file)
    planned: list[tuple[str, IndexEntry, str]] = []
    for name in sorted(set(names)):
        entry, parts = index.entries.get(name), _safe_parts(name)
        if entry is None or parts is None or _under_a_file(index, parts, clear):
            continue
        target = os.path.join(mirror, *parts)
        folder = os.path.dirname(target)
        if folder not in checked:
            os.makedirs(folder, exist_ok=True)
            if os.path.realpath(folder) != os.path.join(real_mirror, *parts[:-1]):
                continue  # a link on the way: never written through
            checked.add(folder)
        if os.path.lexists(target):
            continue
        if entry.mode == GITLINK_MODE:
            os.mkdir(target)
        planned.append((name, entry, target))
    blobs = []
    for name, entry, target in planned:
        if entry.mode == GITLINK_MODE:
            continue
        data = _as_staged_in_work_tree(os.path.join(index.top, *name.split("/")), entry.blob) if (
            entry.mode in REGULAR_MODES) else None
        if data is not None:  # the staged bytes, read where they are cheapest to read
            _write_blob((data,), target)
        else:
            blobs.append((name, entry, target))
    if blobs:
        reader = _BlobReader(index.top, [entry.blob for _, entry, _ in blobs])
        try:
            for name, entry, target in blobs:
                if entry.mode == LINK_MODE:
                    os.symlink(_link_target(reader, entry.blob, name), target)
                else:
                    _write_blob(reader.stream(entry.blob, name), target)
        finally:
            reader.close()
    return [name for name, _, _ in planned]
