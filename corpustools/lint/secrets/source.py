"""Reading a corpus file for the secret scan: leniently, so that every byte is seen.

The corpus loader refuses a file with a BOM, CR line endings, a NUL or a stray non-UTF-8 byte
(CT001/CT002, which can be suppressed); the secret scan still reads it. It decodes UTF-8 with
replacement, takes LF, CRLF and CR as line endings, strips a leading BOM and keeps NULs as
characters. What it could not read in full (unreadable, not a regular file, over the size cap,
undecodable bytes replaced) is an `Unread` note, which CT508 reports and nothing can suppress.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass

from corpustools.io.positions import Pos
from corpustools.io.textfile import MAX_FILE_BYTES

_BOM = "\ufeff"


@dataclass(frozen=True, order=True)
class Unread:
    """Why the scan could not read a file in full, and where (line 0: the file as a whole)."""

    pos: Pos
    reason: str


def _open(path: str) -> int:
    # O_NOFOLLOW: a link is refused, never followed; O_NONBLOCK: a FIFO cannot stall the scan.
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if os.path.islink(path):  # where O_NOFOLLOW does not exist
        raise OSError(errno.ELOOP, "is a symbolic link")
    return os.open(path, flags)


def _read(path: str) -> tuple[bytes, str | None]:
    """The file's bytes (at most MAX_FILE_BYTES), and why that is not the whole file, if it is not."""
    try:
        fd = _open(path)
    except OSError as err:
        if err.errno == errno.ELOOP:
            return b"", "is a symbolic link; links are not followed"
        return b"", f"cannot open: {err.strerror or err}"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "a special file"
            return b"", f"is {kind}, not a regular file"
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES and (chunk := os.read(fd, MAX_FILE_BYTES + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    except OSError as err:
        return b"", f"cannot read: {err.strerror or err}"
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        return data[:MAX_FILE_BYTES], f"is over the {MAX_FILE_BYTES} byte limit; only the first {MAX_FILE_BYTES} bytes were scanned"
    return data, None


def lines_of(text: str) -> str:
    """`text` with a leading BOM dropped and every CRLF or CR made LF."""
    if text.startswith(_BOM):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_leniently(path: str) -> tuple[str, Unread | None]:
    """The text of `path` as the secret scan reads it (see the module docstring), and what of it
    could not be read, if anything."""
    data, why = _read(path)
    if why is not None:
        return lines_of(data.decode("utf-8", errors="replace")), Unread(Pos(path), why)
    try:
        return lines_of(data.decode("utf-8")), None
    except UnicodeDecodeError as err:
        before = lines_of(data[: err.start].decode("utf-8"))
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        return (lines_of(data.decode("utf-8", errors="replace")),
                Unread(Pos(path, line, col), f"byte 0x{data[err.start]:02x} is not UTF-8; undecodable bytes "
                                             "were replaced and the rest scanned"))
