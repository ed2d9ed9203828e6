"""The committed states of a folder, read from git: which commits changed it and the bytes of its
files at each, for `run init --refresh` to find the corpus a run was made against.

Read-only and local: `git log`, `git ls-tree` and one `git cat-file --batch` per search (never a
fetch). Paths are given and returned relative to the folder, POSIX style; only regular files
(mode 100644 or 100755) are listed, never links or submodules, as the corpus hash counts them.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

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


def blobs(folder: str, ids: list[str]) -> dict[str, bytes]:
    """blob id -> its bytes, read by one `git cat-file --batch`."""
    unique = list(dict.fromkeys(ids))
    if not unique:
        return {}
    out = _git(["cat-file", "--batch"], folder, ("\n".join(unique) + "\n").encode("ascii"))
    found, at = {}, 0
    for blob in unique:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        if len(header) != 3 or header[1] != b"blob":
            raise NoHistory(f"git cat-file could not read {blob}")
        size = int(header[2])
        found[blob] = out[end + 1:end + 1 + size]
        at = end + 1 + size + 1  # the content, then a newline
    return found
