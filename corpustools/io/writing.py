"""Where and how corpustools writes: anywhere the user names, except into any corpus's own files
and over any of the command's own inputs.

A corpus is a folder holding corpus.yaml, or sessions/ and expected/ (a corpus whose corpus.yaml is
lost: lint still lints it); its own files are corpus.yaml, sessions/, expected/ and gold/. A report,
a history table or a runs/ folder beside them is the user's business, but no command may ever
overwrite or add to the files that make up a corpus - the one named on the command line or any
other.

Every write goes through `write_text`, which:
- refuses (InputError, nothing written) a target that is a symbolic link, not a regular file
  (a folder, FIFO, device or socket), resolves inside the protected part of any corpus (found by
  walking up from the resolved path), is one of the files the command has read or would be read
  by it (corpustools.io.inputs), or is read-only (unless `force`);
- writes a temporary file in the target's folder, fsyncs it and renames it over the target, so
  a reader, a crash or a full disk sees the old file or the new one, never half of one (the
  temporary file is removed on any failure).
`update_text` adds an exclusive lock around read-change-write, so concurrent appends all land.
`emit` sends a report to standard output, or to `--output FILE` (`-` is standard output).

The one deliberate exception is `lint --fix`, which edits the corpus it was asked to fix, through
`rewrite_corpus_file` and `rename_corpus_file` only: never `write_text`, whose refusal stays whole.
They write only corpus.yaml and the files directly in sessions/ and expected/ of that corpus (the
files lint reads and reports on), never through a link inside the corpus, never into another
corpus's own files, never a read-only file (by its mode: root, who may write anything, is refused
too; `--force` is the report's, never lifts it), atomically as above, and only while the file
still holds the bytes the fix was computed from -- checked after the fixed file has taken the old
one's place in one step (Linux's renameat2 RENAME_EXCHANGE), so no edit saved at any moment is
lost: an edit saved before that step is swapped back and the fix is not written (exit 2); a save
after it is a later save, which replaces the fixed file as it would any file. Where names cannot
be swapped, the old file is renamed aside in one step instead and the fixed one linked in under
its name only if no file took it meanwhile (the name is missing for that moment). Around that
step --fix holds a Linux read lease on the old file (`_Lease`): no other program holds it open for
writing then, and one that opens it for writing meanwhile waits and is seen, so an editor writing
into a file it opened before the swap cannot write into the replaced file unseen.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import signal
import stat
import sys
import time
from collections.abc import Callable, Iterable

from corpustools.io import textfile
from corpustools.io.errors import InputError
from corpustools.io.inputs import refuse_input
from corpustools.io.layout import GOLD_DIR, SESSIONS_DIR, SIDECARS_DIR, SPEC_FILE, is_corpus_folder
from corpustools.io.positions import Pos, printable
from corpustools.io.textfile import file_kind, refuse_nul

PROTECTED = (SPEC_FILE, SESSIONS_DIR, SIDECARS_DIR, GOLD_DIR)
STANDARD_OUTPUT = "-"  # `--output -`: the report goes to standard output, as without --output


def protected_part(path: str, new_corpus: str | None = None) -> str | None:
    """The corpus part (`<corpus>/sessions`, ...) that `path` resolves into, or None. Every folder
    on the resolved path that is a corpus counts, not only the corpus being worked on; except
    `new_corpus`, the folder `init` is creating."""
    parts = os.path.realpath(path).split(os.sep)
    exempt = os.path.realpath(new_corpus) if new_corpus is not None else None
    for i in range(1, len(parts)):
        if parts[i] in PROTECTED:
            folder = os.sep.join(parts[:i]) or os.sep
            if folder != exempt and is_corpus_folder(folder):
                return os.path.join(folder, parts[i])
    return None


def refuse_corpus_path(path: str, corpus_root: str | None = None, *, new_corpus: str | None = None) -> None:
    """Raise InputError if writing `path` would touch a file that defines a corpus: `corpus_root`
    (even when it is not a corpus folder at all) or any corpus above the resolved path other than
    `new_corpus` (the folder `init` creates, its own files written by init alone)."""
    target = os.path.realpath(path)
    if corpus_root is not None:
        root = os.path.realpath(corpus_root)
        for name in PROTECTED:
            protected = os.path.join(root, name)
            if target == protected or target.startswith(protected + os.sep):
                raise InputError(Pos(path), f"is inside the corpus's own files ({name}); corpustools never writes there")
    part = protected_part(path, new_corpus)
    if part is not None:
        raise InputError(Pos(path), f"is inside the own files of the corpus at {os.path.dirname(part)} "
                                    f"({os.path.basename(part)}); corpustools never writes there")


def read_only(info: os.stat_result, path: str) -> bool:
    """Whether the file is write-protected: no write permission for this user, or no write bit at
    all (which root, who may write anything, is shown as well)."""
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        return True
    try:
        return not os.access(path, os.W_OK, follow_symlinks=False)
    except (NotImplementedError, OSError, ValueError):  # follow_symlinks unsupported: the bits decide
        return False


def refuse_target(path: str, *, force: bool = False, updating: bool = False, new_corpus: str | None = None) -> None:
    """InputError unless `path` may be written: not empty, absent or a regular file (never a
    link, folder, FIFO, device or socket), outside every corpus's own files, none of the command's
    inputs (`updating`: the file it claimed to update), and writable (a read-only file only with
    `force`). `new_corpus`: see refuse_corpus_path."""
    refuse_target_kind(path)
    refuse_corpus_path(path, new_corpus=new_corpus)
    refuse_input(path, updating=updating)
    if not force and os.path.lexists(path) and read_only(os.lstat(path), path):
        raise InputError(Pos(path), "is read-only; not replaced (pass --force to replace it)")


def refuse_target_kind(path: str) -> None:
    """InputError unless `path` is absent or a regular file (never a link, folder, FIFO, device or socket)."""
    if not path:
        raise InputError(Pos(""), "an empty path names no file; nothing written")
    refuse_nul(path, path, "nothing written")
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
    `wrote PATH`, then ` (detail)` when there is one (`wrote standard output (...)` for `-`).
    Standard output keeps only the report."""
    shown = "standard output" if path == STANDARD_OUTPUT else shown_path(path)
    print(printable(f"wrote {shown}" + (f" ({detail})" if detail else "")), file=err)


def emit(text: str, output: str | None, corpus_root: str | None, out, *, err, force: bool = False) -> None:
    """A report goes to `output` (never inside a corpus's own files, never over one of the
    command's inputs, a read-only file only with `force`; `wrote PATH` on `err`), or to `out`
    when there is none or it is `-`."""
    if output is not None and output != STANDARD_OUTPUT:
        refuse_corpus_path(output, corpus_root)
        write_text(output, text, force=force)
        say_wrote(err, output)
    else:
        out.write(text)


def _encoded(path: str, text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InputError(Pos(path), f"not written: the text holds {err.object[err.start]!r}, which is not valid "
                                    "Unicode (a file name or argument that is not UTF-8?)") from None


def write_text(path: str, text: str, *, force: bool = False, updating: bool = False,
               new_corpus: str | None = None) -> None:
    """Write a whole text file (LF line endings, UTF-8) by renaming a fsynced temporary file over
    it; InputError (the target unchanged, no temporary file left) when refused (see refuse_target)
    or unwritable.

    The text is encoded before anything is opened, so text that is not valid Unicode (a file
    name or argument that was not UTF-8) leaves an existing file untouched."""
    data = _encoded(path, text)
    refuse_target(path, force=force, updating=updating, new_corpus=new_corpus)
    _replace(path, data)


def remove_file(path: str, *, force: bool = False) -> None:
    """Remove the file `path` under write_text's refusals (a regular file, outside every corpus's
    own files, none of the command's inputs, writable unless `force`): a result a replaced run no
    longer has. InputError, the file kept, when refused or when it cannot be removed."""
    refuse_target(path, force=force)
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    except OSError as err:
        raise InputError(Pos(path), f"cannot remove: {err.strerror or err}") from None
    _fsync_folder(os.path.dirname(path) or ".")


def _replace(path: str, data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, fsync it and rename it over `path` (keeping a
    replaced file's permissions); InputError, nothing changed and no temporary file left, on failure."""
    temporary = None
    try:
        temporary = _temporary(path, data)
        os.replace(temporary, path)
        temporary = None
        _fsync_folder(os.path.dirname(path) or ".")
    except OSError as err:
        raise InputError(Pos(path), f"cannot write: {err.strerror or err}; the file is unchanged") from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _temporary_name(path: str) -> str:
    return os.path.join(os.path.dirname(path) or ".", f".{os.path.basename(path)}.{os.urandom(6).hex()}.tmp")


def _temporary(path: str, data: bytes | Iterable[bytes], *, private: bool = False) -> str:
    """A new file beside `path` holding `data` (bytes, or chunks of bytes written as they come),
    fsynced, with the permissions of the file at `path` if there is one: its name. On failure
    (OSError, or whatever producing a chunk raised) nothing is left. `private`: mode 0600 whatever
    was there, and not fsynced (lint's cache: write_private)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    try:
        mode = None if private else stat.S_IMODE(os.lstat(path).st_mode)  # keep a replaced file's permissions
    except FileNotFoundError:
        mode = None
    temporary = _temporary_name(path)
    # O_EXCL | O_NOFOLLOW: never an existing file, never through a link; 0o666 less the umask.
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_CLOEXEC", 0), 0o600 if private else 0o666)
    try:
        with open(fd, "wb", closefd=True) as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                for chunk in data:
                    handle.write(chunk)
            if not private:
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def write_private(path: str, data: bytes | Iterable[bytes]) -> None:
    """Replace the file `path` with `data` in one step, readable and writable by the user alone
    (0600): lint's cache (corpustools.lint.cache), in a folder of the user's own. `data` may be
    chunks of bytes, written as they are produced, so a large entry is never whole in memory. A
    temporary file beside it (never an existing file, never through a link) is renamed over it, so
    a concurrent reader sees the old entry or the new one, never half of one. Not fsynced: an entry
    a crash loses or truncates is read as corrupt and recomputed. OSError when it cannot be written,
    or whatever producing a chunk raised, `path` then unchanged (no temporary file left)."""
    temporary = _temporary(path, data, private=True)
    try:
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


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


def _refuse_read_only(path: str, *, replaced: str, replace: str) -> None:
    """InputError when the file at `path` is write-protected, as every writer refuses one; decided by
    its mode, not by a failed open (root may write any file). `--force` lifts it for a report, never
    for a corpus file: the protection is the corpus owner's, and --force says nothing about it."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return
    if read_only(info, path):
        raise InputError(Pos(path), f"is read-only; not {replaced} (make it writable to let --fix {replace} it)")


def _changed(path: str) -> InputError:
    return InputError(Pos(path), "changed since lint read it; not written (run --fix again)")


def _refuse_changed(path: str, was: bytes) -> None:
    try:
        now = textfile.read_bytes(path)  # the module's, read at each call (a test stands in for it)
    except InputError as err:
        raise InputError(Pos(path), f"cannot be read again before writing ({err.message}); not written") from None
    if now != was:
        raise _changed(path)


def _holds(path: str, was: bytes) -> bool:
    """Whether `path` is a regular file (not a link) holding exactly `was`."""
    try:
        return textfile.read_bytes(path) == was  # the module's, read at each call (a test stands in for it)
    except InputError:
        return False


_Identity = tuple[int, int]


def _identity(path: str) -> _Identity | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


class NoExchange(Exception):
    """This platform or file system cannot swap two names in one step."""


_AT_FDCWD, _RENAME_EXCHANGE = -100, 2  # <fcntl.h>, <linux/fs.h>


@functools.lru_cache(maxsize=1)
def _renameat2() -> Callable[..., int] | None:
    """Linux's renameat2(2) through the C library (glibc 2.28, musl 1.2), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes  # ctypes: only for renameat2, on Linux

        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint)
    function.restype = ctypes.c_int
    return function


def _exchange(a: str, b: str) -> None:
    """Swap the files named `a` and `b` in one step (renameat2 with RENAME_EXCHANGE): neither name
    is ever missing or half written. NoExchange where the platform or the file system has no such
    call; OSError for any other failure (nothing swapped)."""
    function = _renameat2()
    if function is None:
        raise NoExchange
    import ctypes  # ctypes: only for renameat2, on Linux

    if function(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        raise NoExchange
    raise OSError(code, os.strerror(code), a)


def _link_in(source: str, path: str) -> bool:
    """Give the file at `source` the name `path` unless `path` exists (a hard link: an existing name
    is never replaced); False when it exists. Where there are no hard links, a rename after a check."""
    try:
        os.link(source, path, follow_symlinks=False)
    except FileExistsError:
        return False
    except OSError:  # a file system without hard links: a check, then a rename
        if os.path.lexists(path):
            return False
        os.rename(source, path)
    return True


def _swap_back(path: str, temporary: str, ours: _Identity | None, old: _Identity | None) -> bool:
    """After the swap: `temporary` holds `old`, the file `path` held, which changed since lint read
    it (an editor saved). Put it back; whatever was saved under `path` since stays there. True
    when `temporary` ends holding the fix or a file an editor has saved over since (either may
    go); False when saves kept racing the swaps (`temporary` then holds an edit, to be kept)."""
    for _ in range(3):
        now_path, now_temporary = _identity(path), _identity(temporary)
        if now_path != ours and now_temporary in (ours, old):
            return True
        # `path` holds the fix (swap it out), or `temporary` a save newer than the file at `path`
        _exchange(path, temporary)
    return _identity(path) != ours and _identity(temporary) in (ours, old)


def _drop(name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name)


# How long --fix waits for another program to close a file it holds open for writing (an editor
# saving in place takes milliseconds) before it leaves the file as it is.
LEASE_WAIT_SECONDS = 1.0
_LEASE_POLL_SECONDS = 0.01


class _HeldOpen(Exception):
    """Another program holds the file open for writing (past LEASE_WAIT_SECONDS)."""


class _Lease:
    """A read lease (Linux fcntl F_SETLEASE F_RDLCK, `man 2 fcntl`, "Leases") on the file a fix
    replaces, held across the last check and the swap. It is granted only while no process holds
    the file open for writing, and a process that opens it for writing (or truncates it)
    meanwhile waits in open() until the lease is released, the lease showing as broken
    (F_GETLEASE) from that moment: so no program can write into the file after --fix's last look
    at it without --fix seeing it. A read lease, not a write lease: a viewer holding the file open
    to read is no reason to refuse a fix, and --fix's own reads of the file do not break it.

    The kernel signals a lease's holder (SIGIO) when it is broken, and SIGIO's default action
    ends the process: it is ignored while a lease is held (the lease's state is read instead).
    `take` gives None where no lease can be had: not Linux, a file system without leases, leases
    disabled (/proc/sys/fs/leases-enable), a file this user does not own without CAP_LEASE, or a
    thread other than the main one while SIGIO would end the process. The caller then goes on
    without one, as before leases were used (docs/security.md says what that leaves open)."""

    def __init__(self, fd: int, restore: Callable[[], None]):
        self.fd = fd
        info = os.fstat(fd)
        self.identity: _Identity = (info.st_dev, info.st_ino)
        self._restore = restore

    @classmethod
    def take(cls, path: str) -> _Lease | None:
        """A read lease on the file at `path`, waiting up to LEASE_WAIT_SECONDS while a process
        holds it open for writing (then _HeldOpen); None where leases are unavailable."""
        try:
            import fcntl  # fcntl: only a lease or lock; every command loads this module

            setlease = fcntl.F_SETLEASE
        except (ImportError, AttributeError):
            return None
        restore = _sigio_ignored()
        if restore is None:
            return None
        deadline = time.monotonic() + LEASE_WAIT_SECONDS
        while True:
            fd = -1
            try:
                # O_NONBLOCK: a file another process holds a lease on fails at once (EWOULDBLOCK).
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                             | getattr(os, "O_CLOEXEC", 0))
                fcntl.fcntl(fd, setlease, fcntl.F_RDLCK)
                return cls(fd, restore)
            except OSError as err:
                if fd >= 0:
                    os.close(fd)
                if err.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):  # EACCES, EINVAL, ENOENT...
                    restore()
                    return None
            if time.monotonic() >= deadline:
                restore()
                raise _HeldOpen
            time.sleep(_LEASE_POLL_SECONDS)

    def broken(self) -> bool:
        """Whether a process has opened the file for writing (or truncated it) since the lease
        was taken: it waits until release() to go on."""
        import fcntl  # fcntl: only a lease or lock; every command loads this module

        return fcntl.fcntl(self.fd, fcntl.F_GETLEASE) != fcntl.F_RDLCK

    def release(self) -> None:
        os.close(self.fd)  # closing the one descriptor the lease is on releases it
        self._restore()


def _sigio_ignored() -> Callable[[], None] | None:
    """Make SIGIO, the signal a broken lease sends, harmless until the returned function is
    called (it is ignored meanwhile, unless this thread cannot change it and a handler is already
    set); None when that cannot be done: outside the main thread with SIGIO at its default, or a
    disposition set outside Python, which could not be put back."""
    import threading  # only a lease's writes ask which thread runs: not every command's start-up

    sigio = getattr(signal, "SIGIO", None)
    previous = signal.getsignal(sigio) if sigio is not None else None
    main = threading.current_thread() is threading.main_thread()
    if previous == signal.SIG_IGN or (previous not in (None, signal.SIG_DFL) and not main):
        return lambda: None
    if sigio is None or previous is None or not main:
        return None
    signal.signal(sigio, signal.SIG_IGN)

    def restore() -> None:
        signal.signal(sigio, previous)

    return restore


def _lease(path: str) -> _Lease | None:
    try:
        return _Lease.take(path)
    except _HeldOpen:
        raise _changed(path) from None


def _unchanged(name: str, was: bytes, lease: _Lease | None) -> bool:
    """Whether the file now named `name` (the one `path` held, moved aside) still holds `was`, and,
    under a lease, is the leased file and no process opened it for writing meanwhile."""
    if not _holds(name, was):
        return False
    return lease is None or (_identity(name) == lease.identity and not lease.broken())


def _replace_unchanged(path: str, was: bytes, data: bytes) -> None:
    """Put `data` in place of `path` only while `path` holds `was`. The old file is swapped out in
    one step and read after the swap: if it changed meanwhile (an editor saved), it is swapped
    back, and the fix is refused. So whatever the timing, the fix lands on the bytes it was
    computed from, or the file keeps the editor's bytes. A lease on the old file (_Lease), held
    from before the swap until the old file is gone, makes that hold for an editor writing into
    the file it has open too. Without the swap: _replace_by_links."""
    temporary = _temporary(path, data)
    discard = True  # whether `temporary` holds nothing of an edit: the fix, or the bytes lint read
    lease = None
    try:
        lease = _lease(path)
        ours = _identity(temporary)
        try:
            _exchange(path, temporary)
        except NoExchange:
            _replace_by_links(path, temporary, was, lease)
            return
        old = _identity(temporary)  # what `path` held at the swap
        if _unchanged(temporary, was, lease):
            _fsync_folder(os.path.dirname(path) or ".")
            return
        discard = False
        discard = _swap_back(path, temporary, ours, old)
        if not discard:
            raise InputError(Pos(path), f"changed while --fix wrote it; not written, and an edit saved at that "
                                        f"moment is kept in {os.path.basename(temporary)}")
        raise _changed(path)
    finally:
        if discard:
            _drop(temporary)
        if lease is not None:  # last: a writer it held off opens the old file, back at `path` (fix refused)
            lease.release()


def _replace_by_links(path: str, temporary: str, was: bytes, lease: _Lease | None) -> None:
    """_replace_unchanged where names cannot be swapped: the old file is renamed aside (one step),
    read, and the fix linked in under its name only if it held `was` and no file took the name
    meanwhile; else the old file is linked back, unless an editor saved a newer one there. The
    name is missing for that moment; no edit is lost."""
    aside = _temporary_name(path)
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        raise _changed(path) from None
    try:
        if _unchanged(aside, was, lease):
            placed = _link_in(temporary, path)
            _drop(aside)  # exactly the bytes lint read: nothing of an edit
            if not placed:
                raise _changed(path)  # saved meanwhile under its name: that file stays
            _fsync_folder(os.path.dirname(path) or ".")
            return
        _link_in(aside, path)  # back under its name; if a newer save took the name, the older goes
        _drop(aside)
        raise _changed(path)
    except OSError:
        if os.path.lexists(aside) and not os.path.lexists(path):
            with contextlib.suppress(OSError):
                os.rename(aside, path)
        raise


def rewrite_corpus_file(path: str, corpus_root: str, was: bytes, data: bytes) -> None:
    """Replace the corpus file `path` (refuse_corpus_fix) with `data`, atomically, only while it
    still holds `was`, the bytes the fix was computed from (_replace_unchanged); never a read-only
    file."""
    refuse_corpus_fix(path, corpus_root)
    _refuse_read_only(path, replaced="replaced", replace="replace")
    _refuse_changed(path, was)
    try:
        _replace_unchanged(path, was, data)
    except OSError as err:
        raise InputError(Pos(path), f"cannot write: {err.strerror or err}; the file is unchanged") from None


def rename_corpus_file(path: str, new_path: str, corpus_root: str, was: bytes) -> None:
    """Rename the corpus file `path` to `new_path` (both refuse_corpus_fix), only while `path`
    still holds `was`, never over an existing file and never a read-only file. The file is linked
    under its new name and checked there, then its old name is moved aside in one step and checked
    to be the same file: an edit saved meanwhile under the old name stays there, and the rename
    is undone."""
    refuse_corpus_fix(path, corpus_root)
    refuse_corpus_fix(new_path, corpus_root)
    _refuse_read_only(path, replaced="renamed", replace="rename")
    _refuse_changed(path, was)
    exists = InputError(Pos(path), f"not renamed: {os.path.basename(new_path)} exists")
    if os.path.lexists(new_path):
        raise exists
    try:
        if not _link_in(path, new_path):
            raise exists
        if not os.path.lexists(path):  # no hard links on this file system: renamed outright
            if not _holds(new_path, was):
                _link_in(new_path, path)
                raise _changed(path)
        else:
            moved = _identity(new_path)
            if not _holds(new_path, was):  # edited in place meanwhile: the old name keeps it
                _drop(new_path)
                raise _changed(path)
            aside = _temporary_name(path)
            os.rename(path, aside)
            if _identity(aside) != moved:  # saved anew under the old name after the link: it stays
                _link_in(aside, path)
                _drop(aside)
                _drop(new_path)
                raise _changed(path)
            _drop(aside)
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
        import fcntl  # fcntl: only a lease or lock; every command loads this module
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


def update_text(path: str, change: Callable[[], str], *, force: bool = False) -> None:
    """Under an exclusive lock on `path`'s folder, write `change()`: `change` reads the file's
    current text itself, so two processes appending at once never lose each other's rows. The
    command claims `path` first (corpustools.io.inputs.claim_update)."""
    refuse_target(path, force=force, updating=True)
    lock = _lock_folder(path)
    try:
        write_text(path, change(), force=force, updating=True)
    finally:
        if lock is not None:
            os.close(lock)  # closing the descriptor releases the lock
