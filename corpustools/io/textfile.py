"""Reading a corpus or result file as text, with one clear message for each way it can be bad.

Only regular files are opened, and never through a symbolic link: the path is checked with lstat,
opened with O_NOFOLLOW | O_NONBLOCK (so a FIFO swapped in after the check cannot block the open)
and checked again with fstat on the open descriptor. A FIFO, device, socket or folder is refused
before a byte is read, so no input can hang a pre-commit hook.
"""

from __future__ import annotations

import os
import stat
import sys

from corpustools.io.errors import InputError
from corpustools.io.inputs import note_file, note_probe
from corpustools.io.positions import Pos

# Larger inputs are refused before parsing: no fixture, sidecar or model output is this big,
# and refusing early keeps a pathological file from stalling a pre-commit hook.
MAX_FILE_BYTES = 8 * 1024 * 1024

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class Unreadable(InputError):
    """The operating system would not give a file's bytes (permission denied, an I/O error): the
    file is there but could not be read, which a caller may report apart from a bad file."""


def file_kind(mode: int) -> str:
    """What a non-regular file is, in the words of an error message."""
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return name
    return "not a regular file"


def _refuse_mode(mode: int, path: str, shown: str) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISLNK(mode):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        raise InputError(Pos(shown), f"is a symbolic link to {target!r}; links are not followed")
    if stat.S_ISDIR(mode):
        raise InputError(Pos(shown), "is a directory, not a file")
    raise InputError(Pos(shown), f"is {file_kind(mode)}, not a regular file; not read")


def _over_limit(size: int, shown: str, limit: int) -> InputError:
    return InputError(Pos(shown), f"file is {size} bytes, over the {limit} byte limit; not read")


def _read_upto(fd: int, wanted: int) -> bytes:
    chunks = []
    while wanted > 0:
        chunk = os.read(fd, wanted)
        if not chunk:
            break
        chunks.append(chunk)
        wanted -= len(chunk)
    return b"".join(chunks)


def refuse_nul(path: str, shown: str, outcome: str = "not read") -> None:
    """InputError when `path` holds a NUL byte (a YAML `"\\0"` escape, say): no file is named so, and
    the operating system would not be asked (Python raises ValueError for it)."""
    if "\0" in path:
        raise InputError(Pos(shown), f"the path holds a NUL byte (\\0), which no file name can; {outcome}")


def read_bytes(path: str, *, display: str | None = None, limit: int | None = None) -> bytes:
    """The bytes of the regular file at `path` (at most `limit`: MAX_FILE_BYTES unless a reader of
    larger files, such as another tool's log, says otherwise); InputError otherwise."""
    shown = display or path
    refuse_nul(path, shown)
    note_probe(path)  # read or not, what it is decides the result (corpustools.io.inputs)
    limit = MAX_FILE_BYTES if limit is None else limit  # read when called: a test may lower the cap
    try:
        _refuse_mode(os.lstat(path).st_mode, path, shown)
        try:
            fd = os.open(path, _OPEN_FLAGS)
        except OSError as err:
            if err.errno in (getattr(os, "ELOOP", -1), getattr(os, "EMLINK", -1)):  # became a link
                raise InputError(Pos(shown), "is a symbolic link; links are not followed") from None
            raise
        try:
            info = os.fstat(fd)
            _refuse_mode(info.st_mode, path, shown)  # swapped for something else after the lstat
            if info.st_size > limit:
                raise _over_limit(info.st_size, shown, limit)
            # size + 1 bytes: one read call for an ordinary file; a file that grew reads on to the cap.
            data = _read_upto(fd, info.st_size + 1)
            if len(data) > info.st_size:
                data += _read_upto(fd, limit + 1 - len(data))
        finally:
            os.close(fd)
        if len(data) > limit:
            raise InputError(Pos(shown), f"file is over the {limit} byte limit; not read")
        note_file(path, info)  # an input of this command: never written over (corpustools.io.inputs)
        return data
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError(Pos(shown), "no such file") from None
    except NotADirectoryError:
        raise InputError(Pos(shown), "no such file (a folder on its path is a file)") from None
    except UnicodeEncodeError:
        raise InputError(Pos(shown), "the file name cannot be encoded for this file system") from None
    except OSError as err:
        raise Unreadable(Pos(shown), f"cannot read: {err.strerror or err}") from None


def read_stdin_bytes(shown: str = "-") -> bytes:
    """Standard input, bounded like a file; errors name it `shown`."""
    if sys.stdin is None:
        raise InputError(Pos(shown), "standard input is closed")
    data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise InputError(Pos(shown), f"standard input is over the {MAX_FILE_BYTES} byte limit; not read")
    return data


def decode_text(data: bytes, shown: str, *, allow_empty: bool = False) -> str:
    """UTF-8 without BOM, LF line endings, not empty (unless `allow_empty`: a text answer may be);
    else InputError at the offending line."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise InputError(Pos(shown, 1, 1), "starts with a UTF-8 byte-order mark; save without BOM")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError(
            Pos(shown, line, col), f"not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})"
        ) from None
    if not text.strip() and not allow_empty:
        raise InputError(Pos(shown), "file is empty")
    cr = text.find("\r")
    if cr >= 0:
        line = text.count("\n", 0, cr) + 1
        raise InputError(Pos(shown, line, cr - (text.rfind("\n", 0, cr) + 1) + 1),
                         "CR line ending; corpustools reads LF-only files (convert with dos2unix)")
    if "\x00" in text:
        nul = text.index("\x00")
        raise InputError(Pos(shown, text.count("\n", 0, nul) + 1), "contains a NUL byte; not a text file")
    return text


def without_bom_and_cr(data: bytes) -> bytes:
    """`data` without a leading UTF-8 byte-order mark and with LF line endings (CRLF and a lone CR
    each become LF): the bytes `decode_text` asks for, every other byte as it was."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def read_text(path: str, *, display: str | None = None) -> str:
    return decode_text(read_bytes(path, display=display), display or path)


def is_regular_file(path: str) -> bool:
    """A regular file, not a link to one (what corpustools is willing to read)."""
    note_probe(path)
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False
