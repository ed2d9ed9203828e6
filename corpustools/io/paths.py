"""How corpustools shows a path: relative to the working folder (text and JSON reports), or to the
repository root (GitHub annotations and SARIF), always with forward slashes, so a report reads the
same on every OS."""

from __future__ import annotations

import os

from corpustools.io.inputs import note_probe


def display_path(path: str, cwd: str | None = None) -> str:
    """`path` relative to the working directory, with forward slashes (identical on every OS)."""
    relative = os.path.relpath(os.path.abspath(path), cwd or os.getcwd())
    return relative.replace(os.sep, "/")


def given_path(path: str) -> str:
    """`path` as the caller gave it, tidied (no `./`, no `a/..`) and with forward slashes: how the
    engine names a file in what it finds. Never relative to the working folder: which folder a
    report is read from is the reporters' business (display_path), not the engine's."""
    return os.path.normpath(path).replace(os.sep, "/")


def enclosing_repository(path: str) -> str | None:
    """The nearest ancestor-or-self folder of `path` holding `.git` (a folder, or the file a
    worktree or submodule has), absolute; None outside any repository. No subprocess: git need
    not be installed."""
    folder = os.path.abspath(path)
    while not _lexists(os.path.join(folder, ".git")):
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return folder


def _lexists(path: str) -> bool:
    note_probe(path)  # a .git made or removed above a corpus moves its record and its reports' paths
    return os.path.lexists(path)


def repository_root(cwd: str) -> str:
    """The repository `cwd` is in (enclosing_repository), else `cwd` itself: what SARIF and GitHub
    annotation paths are relative to."""
    return enclosing_repository(cwd) or os.path.abspath(cwd)


def root_relative(path: str, root: str, cwd: str) -> str:
    """A displayed (working-directory relative) path made relative to `root`, with forward
    slashes; a path outside `root` keeps its `..` segments."""
    return os.path.relpath(os.path.join(os.path.abspath(cwd), path), root).replace(os.sep, "/")
