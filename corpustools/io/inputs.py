"""The files a command has read, so that none of them is ever written over (corpustools.io.writing).

Every file corpustools reads goes through `textfile.read_bytes`, which notes it here; a reader of
a folder whose files are inputs (a run folder's results, a KB folder) notes the folder too, so a
file that does not exist yet but would be read next time (`--output KB/new.md`) is an input as
well. The notes live for one command: `cli` runs each command inside `tracking_inputs()`; outside
one (a library caller), nothing is noted and nothing is refused for being an input.

A file a command reads in order to replace it (the history `--append-history` appends to, the
worksheet `adjudicate` checks for answers) is claimed first with `claim_update`: reading it then is
not reading an input, and every other write onto it is refused.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos

_Identity = tuple[int, int]  # (st_dev, st_ino): noted for every read, free from its fstat


@dataclass(frozen=True)
class InputFolder:
    """A folder whose files ending in one of `suffixes` (or named one of `names`) are inputs:
    directly in it, or anywhere below it when `recursive`."""

    path: str  # resolved
    what: str  # how a message names it: "the knowledge base (--kb)", "a results folder"
    suffixes: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    recursive: bool = False

    def would_hold(self, target: str) -> bool:
        """Whether the resolved path `target` is (or would become) one of this folder's inputs."""
        parent, name = os.path.split(target)
        if parent != self.path and not (self.recursive and parent.startswith(self.path.rstrip(os.sep) + os.sep)):
            return False
        return name in self.names or (bool(self.suffixes) and name.endswith(self.suffixes))


@dataclass
class Inputs:
    """What one command has read so far."""

    files: dict[_Identity, str] = field(default_factory=dict)  # identity -> the path it was read as
    folders: list[InputFolder] = field(default_factory=list)
    updates: dict[str, str] = field(default_factory=dict)  # resolved path claimed for update -> its option
    update_files: set[_Identity] = field(default_factory=set)  # identities of the claimed files that exist
    # Every path whose state the command asked about (a file it tried to read, a probe such as
    # "is there a .git here?"): lint's replay (corpustools.lint.replay) digests those outside the
    # corpora it lints, so that a run is replayed only when each would answer the same.
    probes: set[str] = field(default_factory=set)


_ACTIVE: ContextVar[Inputs | None] = ContextVar("corpustools_inputs", default=None)


@contextlib.contextmanager
def tracking_inputs() -> Iterator[Inputs]:
    """Note every input read inside the block (one command)."""
    token = _ACTIVE.set(Inputs())
    try:
        yield _ACTIVE.get()  # type: ignore[misc]
    finally:
        _ACTIVE.reset(token)


def note_file(path: str, info: os.stat_result) -> None:
    """`path` (its fstat `info`) was read as an input; called by textfile.read_bytes."""
    inputs = _ACTIVE.get()
    if inputs is None:
        return
    identity = (info.st_dev, info.st_ino)
    if identity not in inputs.update_files:
        inputs.files.setdefault(identity, path)


def note_probe(path: str) -> None:
    """The command's result depends on what `path` is (absent, a file and its bytes, a folder, a
    link): called for every file read (textfile.read_bytes) and by the probes of a path that may be
    outside the corpus a command reads (the provenance record, a repository's `.git`)."""
    inputs = _ACTIVE.get()
    if inputs is not None:
        inputs.probes.add(path)


def note_folder(path: str, what: str, *, suffixes: tuple[str, ...] = (), names: tuple[str, ...] = (),
                recursive: bool = False) -> None:
    """The files of folder `path` matching `suffixes` or `names` are inputs, including those not
    written yet; `what` names the folder in a refusal."""
    inputs = _ACTIVE.get()
    if inputs is not None:
        inputs.folders.append(InputFolder(os.path.realpath(path), what, suffixes, names, recursive))


def _identity(path: str) -> _Identity | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino




def _refusal(inputs: Inputs, path: str, *, updating: bool) -> str | None:
    """Why writing `path` would destroy or change an input of this command, or None."""
    identity = _identity(path)
    resolved = os.path.realpath(path)
    # The same file under the same name. (A hard link's other name may be replaced: the rename
    # gives that name a new file and leaves the input as it was.)
    if identity is not None and identity in inputs.files and os.path.realpath(inputs.files[identity]) == resolved:
        return "is one of this command's own inputs; not overwritten (write the report elsewhere)"
    for folder in inputs.folders:
        if folder.would_hold(resolved):
            return f"would be one of this command's own inputs (a file of {folder.what}); not written (write elsewhere)"
    option = inputs.updates.get(resolved)
    if option is not None and not updating:
        return f"is the file {option} writes; one file is never two outputs (write the report elsewhere)"
    return None


def refuse_input(path: str, *, updating: bool = False) -> None:
    """InputError when writing `path` would overwrite (or add to) one of this command's inputs.
    `updating`: this is the write of the file claimed with `claim_update`."""
    inputs = _ACTIVE.get()
    if inputs is None:
        return
    why = _refusal(inputs, path, updating=updating)
    if why is not None:
        raise InputError(Pos(path), why)


def claim_update(path: str, option: str) -> None:
    """Declare that this command reads `path` in order to replace it (`option` names it in
    messages): InputError when it is one of the inputs read so far; from now on reading it is not
    reading an input, and any other write onto it is refused. Claim it after every other input is
    read: a file read after the claim under the claimed file's identity is taken for the claimed one."""
    refuse_input(path)
    inputs = _ACTIVE.get()
    if inputs is None:
        return
    inputs.updates[os.path.realpath(path)] = option
    identity = _identity(path)
    if identity is not None:
        inputs.update_files.add(identity)


def refuse_inputs_inside(folder: str) -> None:
    """InputError when `folder` (an output folder, e.g. `render --out`) is, holds or is below
    one of this command's inputs, or is a folder whose files are inputs."""
    inputs = _ACTIVE.get()
    if inputs is None:
        return
    root = os.path.realpath(folder)
    inside = root.rstrip(os.sep) + os.sep
    for path in inputs.files.values():
        resolved = os.path.realpath(path)
        if resolved == root or resolved.startswith(inside):
            raise InputError(Pos(folder), f"holds {path}, one of this command's own inputs; corpustools never "
                                          "writes into a folder holding its input (choose another folder)")
    for input_folder in inputs.folders:
        if input_folder.path == root or input_folder.path.startswith(inside):
            raise InputError(Pos(folder), f"holds {input_folder.what}, read as input; choose another folder")
        if input_folder.recursive and root.startswith(input_folder.path.rstrip(os.sep) + os.sep):
            raise InputError(Pos(folder), f"is inside {input_folder.what}, read as input; choose another folder")
