"""The committed states of a folder, read from git: which commits changed it and the bytes of its
files at each, for `run init --refresh` to find the corpus a run was made against.

Read-only and local: `git log`, `git ls-tree` and `git cat-file` (never a fetch). A blob is read
only when its size (`--batch-check`) is within the cap every read has (io/textfile.MAX_FILE_BYTES),
and streamed, never held whole but by a caller that asks for its bytes. Paths are given and returned relative to the folder, POSIX style; only regular files
(mode 100644 or 100755) are listed, never links or submodules, as the corpus hash counts them.
"""

from __future__ import annotations

import hashlib
import subprocess
import threading
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass

from corpustools.io.textfile import MAX_FILE_BYTES

_GIT_TIMEOUT = 120  # seconds: local commands over the history of one folder
MAX_COMMITS = 2000  # a search reads at most this many commits, newest first


class NoHistory(Exception):
    """git is missing, the folder is in no repository, or git failed; the message says which."""


def _git(args: list[str], cwd: str, stdin: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, input=stdin, capture_output=True, timeout=_GIT_TIMEOUT,
                              check=False, stdin=None if stdin is not None else subprocess.DEVNULL)
    except FileNotFoundError:
        raise NoHistory("git is not installed") from None
    except (OSError, subprocess.TimeoutExpired) as err:
        raise NoHistory(f"git could not be run: {err}") from None
    if done.returncode != 0:
        why = " ".join(done.stderr.decode("utf-8", "replace").split())[:200] or f"exit {done.returncode}"
        raise NoHistory(f"not in a git repository, or git failed: {why}")
    return done.stdout


@dataclass(frozen=True)
class Commit:
    sha: str
    files: dict[str, str]  # path relative to the folder -> blob id, regular files only


def commits(folder: str, paths: list[str]) -> list[str]:
    """The commits that changed any of `paths` (relative to `folder`), newest first, at most
    MAX_COMMITS; NoHistory when there is no history to read."""
    out = _git(["log", f"--max-count={MAX_COMMITS}", "--format=%H", "--", *paths], folder)
    return [line for line in out.decode("ascii", "replace").split("\n") if line]


def tree(folder: str, sha: str, paths: list[str]) -> Commit:
    """The regular files at commit `sha` among `paths` (a path ending in `/` lists that folder's own
    files, not its subfolders), by path relative to `folder`."""
    out = _git(["ls-tree", "-z", sha, "--", *paths], folder)
    files = {}
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, kind, blob = meta.decode("ascii").split()
        if kind == "blob" and mode in ("100644", "100755"):
            files[name.decode("utf-8", "surrogateescape")] = blob
    return Commit(sha, files)


def blob_sizes(folder: str, ids: list[str]) -> dict[str, int]:
    """blob id -> its size in bytes, from one `git cat-file --batch-check` (no content is read)."""
    unique = list(dict.fromkeys(ids))
    if not unique:
        return {}
    out = _git(["cat-file", "--batch-check"], folder, ("\n".join(unique) + "\n").encode("ascii"))
    sizes = {}
    for blob, line in zip(unique, out.split(b"\n"), strict=False):
        header = line.split()
        if len(header) != 3 or header[1] != b"blob" or not header[2].isdigit():
            raise NoHistory(f"git cat-file could not read {blob}")
        sizes[blob] = int(header[2])
    return sizes


READ_CHUNK = 1 << 20  # bytes: a blob reaches its reader a chunk at a time


def each_blob(folder: str, ids: list[str], take: Callable[[str, Iterator[bytes]], None], *,
              max_bytes: int = MAX_FILE_BYTES) -> dict[str, int]:
    """Give each blob of `ids` no larger than `max_bytes` to `take(blob id, its bytes in chunks)`,
    streamed from one `git cat-file --batch`, in the order of `ids` (once each); return the blobs
    over `max_bytes` with their sizes: those are never read (sizes come from `--batch-check`
    first). No blob is held whole here: a 600 MB file committed once is skipped unread."""
    sizes = blob_sizes(folder, ids)
    wanted = [blob for blob, size in sizes.items() if size <= max_bytes]
    over = {blob: size for blob, size in sizes.items() if size > max_bytes}
    if not wanted:
        return over
    try:
        process = subprocess.Popen(["git", "cat-file", "--batch"], cwd=folder, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        raise NoHistory("git is not installed") from None
    except OSError as err:
        raise NoHistory(f"git could not be run: {err}") from None
    assert process.stdin is not None and process.stdout is not None
    # The ids are written by a thread while this one reads, so that neither pipe can fill while the
    # other side waits; a timer ends a git that stops answering.
    names = ("\n".join(wanted) + "\n").encode("ascii")
    writer = threading.Thread(target=_write_and_close, args=(process.stdin, names), daemon=True)
    timer = threading.Timer(_GIT_TIMEOUT, process.kill)
    writer.start()
    timer.start()
    try:
        for blob in wanted:
            header = process.stdout.readline(200).split()
            if len(header) != 3 or header[1] != b"blob" or header[2] != str(sizes[blob]).encode("ascii"):
                raise NoHistory(f"git cat-file could not read {blob}")
            chunks = _chunks(process.stdout, sizes[blob])
            try:
                take(blob, chunks)
            finally:
                chunks.close()  # reads what `take` left of the blob: the stream stays in step
            if process.stdout.read(1) != b"\n":  # every content is followed by a newline
                raise NoHistory(f"git cat-file could not read {blob}")
    finally:
        timer.cancel()
        process.stdout.close()
        process.kill()
        process.wait()
        writer.join()
    return over


def _write_and_close(pipe, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except OSError:  # git ended early: the reader says why
        pass


def _chunks(stream, size: int) -> Generator[bytes, None, None]:
    """Exactly `size` bytes of `stream`, READ_CHUNK at a time; NoHistory when it ends first. Closed
    before its end, it reads (and drops) the rest."""
    left = size
    try:
        while left > 0:
            chunk = stream.read(min(left, READ_CHUNK))
            if not chunk:
                raise NoHistory("git cat-file stopped in the middle of a blob")
            left -= len(chunk)
            yield chunk
    finally:
        while left > 0:
            chunk = stream.read(min(left, READ_CHUNK))
            if not chunk:
                break
            left -= len(chunk)


def digests(folder: str, ids: list[str], *, max_bytes: int = MAX_FILE_BYTES) -> dict[str, str | None]:
    """blob id -> the SHA-256 (hex) of its bytes, hashed as they stream in; None for a blob over
    `max_bytes`, never read."""
    found: dict[str, str | None] = {}

    def take(blob: str, chunks: Iterator[bytes]) -> None:
        digest = hashlib.sha256()
        for chunk in chunks:
            digest.update(chunk)
        found[blob] = digest.hexdigest()

    for blob in each_blob(folder, ids, take, max_bytes=max_bytes):
        found[blob] = None
    return found


def blobs(folder: str, ids: list[str], *, max_bytes: int = MAX_FILE_BYTES) -> dict[str, bytes]:
    """blob id -> its bytes; NoHistory when one is over `max_bytes` (not read)."""
    found: dict[str, bytes] = {}

    def take(blob: str, chunks: Iterator[bytes]) -> None:
        found[blob] = b"".join(chunks)

    for blob, size in each_blob(folder, ids, take, max_bytes=max_bytes).items():
        raise NoHistory(f"blob {blob} is {size} bytes, over the {max_bytes} byte limit; not read")
    return found
