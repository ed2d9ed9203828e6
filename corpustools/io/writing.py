"""Where and how corpustools writes: anywhere the user names, except into any corpus's own files.

A corpus is a folder holding corpus.yaml; its own files are corpus.yaml, sessions/, expected/ and
gold/. A report, a history table or a runs/ folder beside them is the user's business, but no
command may ever overwrite or add to the files that make up a corpus - the one named on the
command line or any other.

Every write goes through `write_text`, which:
- refuses (InputError, nothing written) a target that is a symbolic link, not a regular file
  (a folder, FIFO, device or socket), or resolves inside the protected part of any corpus
  (found by walking up from the resolved path);
- writes a temporary file in the target's folder, fsyncs it and renames it over the target, so
  a reader, a crash or a full disk sees the old file or the new one, never half of one (the
  temporary file is removed on any failure).
`update_text` adds an exclusive lock around read-change-write, so concurrent appends all land.

The one deliberate exception is `lint --fix`, which edits the corpus it was asked to fix, through
`rewrite_corpus_file` and `rename_corpus_file` only: never `write_text`, whose refusal stays whole.
They write only corpus.yaml and the files directly in sessions/ and expected/ of that corpus (the
files lint reads and reports on), never through a link inside the corpus, never into another
corpus's own files, atomically as above, and only while the file still holds the bytes the fix
was computed from.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterable

from corpustools.io.layout import GOLD_DIR, SESSIONS_DIR, SIDECARS_DIR, SPEC_FILE
from corpustools.io.positions import InputError, Pos, printable
from corpustools.io.textfile import file_kind

PROTECTED = (SPEC_FILE, SESSIONS_DIR, SIDECARS_DIR, GOLD_DIR)


def protected_part(path: str) -> str | None:
    """The corpus part (`<corpus>/sessions`, ...) that `path` resolves into, or None. Every folder
    on the resolved path that holds a corpus.yaml counts, not only the corpus being worked on."""
    parts = os.path.realpath(path).split(os.sep)
    for i in range(1, len(parts)):
        if parts[i] in PROTECTED:
            folder = os.sep.join(parts[:i]) or os.sep
            if os.path.lexists(os.path.join(folder, SPEC_FILE)):
                return os.path.join(folder, parts[i])
    return None


def refuse_corpus_path(path: str, corpus_root: str | None = None) -> None:
    """Raise InputError if writing `path` would touch a file that defines a corpus: `corpus_root`
    (even when its corpus.yaml is missing) or any corpus above the resolved path."""
    target = os.path.realpath(path)
    if corpus_root is not None:
        root = os.path.realpath(corpus_root)
        for name in PROTECTED:
            protected = os.path.join(root, name)
            if target == protected or target.startswith(protected + os.sep):
                raise InputError(Pos(path), f"is inside the corpus's own files ({name}); corpustools never writes there")
    part = protected_part(path)
    if part is not None:
        raise InputError(Pos(path), f"is inside the own files of the corpus at {os.path.dirname(part)} "
                                    f"({os.path.basename(part)}); corpustools never writes there")


def refuse_target(path: str) -> None:
    """InputError unless `path` may be written: absent or a regular file (never a link, folder,
    FIFO, device or socket), and outside every corpus's own files."""
    refuse_target_kind(path)
    refuse_corpus_path(path)


def refuse_target_kind(path: str) -> None:
    """InputError unless `path` is absent or a regular file (never a link, folder, FIFO, device or socket)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as err:
        raise InputError(Pos(path), f"cannot write: {err.strerror or err}") from None
    if mode is not None and stat.S_ISLNK(mode):
        raise InputError(Pos(path), "is a symbolic link; corpustools never writes through a link")
    if mode is not None and not stat.S_ISREG(mode):
        raise InputError(Pos(path), f"is {file_kind(mode)}; corpustools writes only regular files")


def refuse_inputs(path: str, inputs: Iterable[str]) -> None:
    """InputError when `path` is one of the files the command reads (a result, a run manifest, a
    worksheet): a report written over its own input would destroy it."""
    target = os.path.realpath(path)
    for source in inputs:
        if os.path.realpath(source) == target:
            raise InputError(Pos(path), "is one of this command's own inputs; not overwritten (write the report "
                                        "elsewhere)")


def run_folder_inputs(folders: Iterable[str]) -> list[str]:
    """The files a run folder holds that score reads: every `*.json` result and `run.yaml`."""
    found = []
    for folder in folders:
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        found += [os.path.join(folder, name) for name in names if name.endswith(".json") or name == "run.yaml"]
    return found


def shown_path(path: str) -> str:
    """A written path as a person finds it again: relative to the working folder when under it
    (forward slashes), else absolute."""
    absolute = os.path.abspath(path)
    cwd = os.getcwd()
    if absolute == cwd or absolute.startswith(cwd.rstrip(os.sep) + os.sep):
        return os.path.relpath(absolute, cwd).replace(os.sep, "/")
    return absolute


def say_wrote(err, path: str, detail: str = "") -> None:
    """The one line every command prints on standard error once it has written a file or folder:
    `wrote PATH`, then ` (detail)` when there is one. Standard output keeps only the report."""
    print(printable(f"wrote {shown_path(path)}" + (f" ({detail})" if detail else "")), file=err)


def emit(text: str, output: str | None, corpus_root: str | None, out, inputs: Iterable[str] = (), *, err) -> None:
    """A report goes to `output` (never inside a corpus's own files, never over one of the
    command's `inputs`; `wrote PATH` on `err`), or to `out` when none."""
    if output:
        refuse_corpus_path(output, corpus_root)
        refuse_inputs(output, inputs)
        write_text(output, text)
        say_wrote(err, output)
    else:
        out.write(text)


def _encoded(path: str, text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InputError(Pos(path), f"not written: the text holds {err.object[err.start]!r}, which is not valid "
                                    "Unicode (a file name or argument that is not UTF-8?)") from None


def write_text(path: str, text: str) -> None:
    """Write a whole text file (LF line endings, UTF-8) by renaming a fsynced temporary file over
    it; InputError (the target unchanged, no temporary file left) when refused or unwritable.

    The text is encoded before anything is opened, so text that is not valid Unicode (a file
    name or argument that was not UTF-8) leaves an existing file untouched."""
    data = _encoded(path, text)
    refuse_target(path)
    _replace(path, data)


def _replace(path: str, data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, fsync it and rename it over `path` (keeping a
    replaced file's permissions); InputError, nothing changed and no temporary file left, on failure."""
    folder = os.path.dirname(path) or "."
    temporary = None
    try:
        os.makedirs(folder, exist_ok=True)
        try:
            mode = stat.S_IMODE(os.lstat(path).st_mode)  # keep a replaced file's permissions
        except FileNotFoundError:
            mode = None
        temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.urandom(6).hex()}.tmp")
        # O_EXCL | O_NOFOLLOW: never an existing file, never through a link; 0o666 less the umask.
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_CLOEXEC", 0), 0o666)
        with open(fd, "wb", closefd=True) as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
        temporary = None
        _fsync_folder(folder)
    except OSError as err:
        raise InputError(Pos(path), f"cannot write: {err.strerror or err}; the file is unchanged") from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


# --- lint --fix: the one writer into a corpus ----------------------------------------------------

def refuse_corpus_fix(path: str, corpus_root: str) -> None:
    """InputError unless `lint --fix` may write `path` of the corpus at `corpus_root`: corpus.yaml
    or a file directly in its sessions/ or expected/, reached without a link from the corpus folder
    (links above it are the user's layout), absent or a regular file, and inside no other corpus's
    own files."""
    root = os.path.realpath(corpus_root)
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(corpus_root))
    parts = relative.split(os.sep)
    if not (parts == [SPEC_FILE] or (len(parts) == 2 and parts[0] in (SESSIONS_DIR, SIDECARS_DIR))):
        raise InputError(Pos(path), "is not one of the corpus's own files lint reads; --fix writes only those")
    folder = os.path.join(root, *parts[:-1])
    if os.path.realpath(os.path.join(folder, parts[-1])) != os.path.join(folder, parts[-1]) or (
            len(parts) == 2 and os.path.islink(os.path.join(corpus_root, parts[0]))):
        raise InputError(Pos(path), "is reached through a symbolic link; corpustools never writes through a link")
    refuse_target_kind(path)
    part = protected_part(path)
    if part is not None and os.path.dirname(part) != root:
        raise InputError(Pos(path), f"is inside the own files of another corpus, at {os.path.dirname(part)}; "
                                    "not written")


def _refuse_changed(path: str, was: bytes) -> None:
    from corpustools.io.textfile import read_bytes

    try:
        now = read_bytes(path)
    except InputError as err:
        raise InputError(Pos(path), f"cannot be read again before writing ({err.message}); not written") from None
    if now != was:
        raise InputError(Pos(path), "changed since lint read it; not written (run --fix again)")


def rewrite_corpus_file(path: str, corpus_root: str, was: bytes, data: bytes) -> None:
    """Replace the corpus file `path` (refuse_corpus_fix) with `data`, atomically, only while it
    still holds `was`, the bytes the fix was computed from."""
    refuse_corpus_fix(path, corpus_root)
    _refuse_changed(path, was)
    _replace(path, data)


def rename_corpus_file(path: str, new_path: str, corpus_root: str, was: bytes) -> None:
    """Rename the corpus file `path` to `new_path` (both refuse_corpus_fix), only while `path`
    still holds `was` and never over an existing file."""
    refuse_corpus_fix(path, corpus_root)
    refuse_corpus_fix(new_path, corpus_root)
    _refuse_changed(path, was)
    if os.path.lexists(new_path):
        raise InputError(Pos(path), f"not renamed: {os.path.basename(new_path)} exists")
    try:
        try:  # a hard link never replaces an existing name: no window in which one could be lost
            os.link(path, new_path, follow_symlinks=False)
        except FileExistsError:
            raise InputError(Pos(path), f"not renamed: {os.path.basename(new_path)} exists") from None
        except OSError:  # a file system without hard links
            if os.path.lexists(new_path):
                raise InputError(Pos(path), f"not renamed: {os.path.basename(new_path)} exists") from None
            os.rename(path, new_path)
        else:
            os.unlink(path)
    except OSError as err:
        raise InputError(Pos(path), f"cannot rename: {err.strerror or err}; the file is unchanged") from None
    _fsync_folder(os.path.dirname(new_path) or ".")


def _fsync_folder(folder: str) -> None:
    """Make the rename itself durable where the platform allows (not on every file system)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _lock_folder(path: str) -> int | None:
    """Take an exclusive lock on the folder holding `path`; the descriptor to close to release it
    (None where there is no flock). The folder, not the file: write_text renames a new inode over
    the file, so a lock on the file's own inode would serialize nothing."""
    try:
        import fcntl
    except ImportError:  # no flock on this platform: appends are not serialized
        return None
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as err:
        raise InputError(Pos(path), f"cannot lock its folder: {err.strerror or err}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except BaseException:
        os.close(fd)
        raise
    return fd


def update_text(path: str, change: Callable[[], str]) -> None:
    """Under an exclusive lock on `path`'s folder, write `change()`: `change` reads the file's
    current text itself, so two processes appending at once never lose each other's rows."""
    refuse_target(path)
    lock = _lock_folder(path)
    try:
        write_text(path, change())
    finally:
        if lock is not None:
            os.close(lock)  # closing the descriptor releases the lock
