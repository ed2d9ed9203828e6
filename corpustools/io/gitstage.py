"""The names git has staged for the next commit, deletions included: what the pre-commit hook
lints (`corpustools lint --staged`).

pre-commit passes a hook only the staged files that still exist, so a deleted session, the old
name of a renamed sidecar or a file turned into a link never reaches `lint` as a file name, and
the corpus it broke would pass. Asking git for the whole change closes that gap.

One subprocess, `git diff --cached --name-only -z --no-renames`: NUL-separated, so no name is
quoted or split; `--no-renames` lists a rename as its old and its new name. The index is the one
git uses for this commit (GIT_INDEX_FILE, set by `git commit` for its hooks, is honoured).
"""

from __future__ import annotations

import os
import subprocess

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos

_GIT_TIMEOUT = 60  # seconds: a local command on the index; never a network operation


def _git(args: list[str], cwd: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=_GIT_TIMEOUT, check=False,
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise InputError(Pos(""), "--staged asks git for the staged files, and git is not installed") from None
    except (OSError, subprocess.TimeoutExpired) as err:
        raise InputError(Pos(""), f"--staged: git could not be run: {err}") from None
    if done.returncode != 0:
        why = " ".join(done.stderr.decode("utf-8", "replace").split())[:200] or f"exit {done.returncode}"
        raise InputError(Pos(""), f"--staged: not inside a git repository, or git failed: {why}")
    return done.stdout.decode("utf-8", "surrogateescape")


def staged_paths(cwd: str = ".") -> list[str]:
    """Every name staged in the repository holding `cwd` (added, changed, deleted, renamed: old and
    new name, or with a new mode or type), as absolute paths, sorted. A deleted name does not
    exist any more. InputError (one line) when git is missing or `cwd` is in no repository."""
    top = _git(["rev-parse", "--show-toplevel"], cwd).strip()
    names = _git(["diff", "--cached", "--name-only", "-z", "--no-renames"], cwd).split("\0")
    return sorted(os.path.join(top, *name.split("/")) for name in names if name)
