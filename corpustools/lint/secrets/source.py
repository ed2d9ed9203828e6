"""Reading a corpus file for the secret scan: leniently, so that every byte is seen.

The corpus loader refuses a file with a BOM, CR line endings, a NUL or a stray non-UTF-8 byte
(CT001/CT002, which can be suppressed); the secret scan still reads it. It decodes by the file's
byte-order mark (UTF-8, UTF-16 or UTF-32 in either byte order), else as UTF-8, with replacement,
takes LF, CRLF and CR as line endings and keeps NULs as characters. What it could not read in full
(unreadable, not a regular file, over the size cap, undecodable bytes replaced, a byte-order mark
that contradicts the text) is an `Unread` note, which CT508 reports and nothing can suppress.
"""

from __future__ import annotations

import codecs
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


# Byte-order marks, longest first: a UTF-32-LE mark begins with the UTF-16-LE one.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_SWAPPED = {"utf-32-le": "utf-32-be", "utf-32-be": "utf-32-le", "utf-16-le": "utf-16-be", "utf-16-be": "utf-16-le"}


def _ascii_share(text: str) -> float:
    return sum(1 for c in text if " " <= c <= "~" or c in "\t\n\r") / max(len(text), 1)


def _position(text: str) -> tuple[int, int]:
    """The 1-based line and column just after `text` (what was decoded before a bad byte)."""
    before = lines_of(text)
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def decode(data: bytes, path: str) -> tuple[str, Unread | None]:
    """`data` as text: by its byte-order mark (UTF-8, UTF-16 or UTF-32, either byte order), else as
    UTF-8; undecodable bytes replaced. A mark whose byte order reads as far less text than the
    other order is a wrong mark (the other order is scanned); both are reported."""
    encoding, body = "utf-8", data
    for bom, name in _BOMS:
        if data.startswith(bom):
            encoding, body = name, data[len(bom):]
            break
    label = encoding.upper()
    if encoding in _SWAPPED:
        declared = body.decode(encoding, errors="replace")
        swapped = body.decode(_SWAPPED[encoding], errors="replace")
        if _ascii_share(swapped) > max(0.5, 2 * _ascii_share(declared)):
            return lines_of(swapped), Unread(Pos(path), f"its byte-order mark says {label} but the text is "
                                                        f"{_SWAPPED[encoding].upper()}; scanned as that")
    try:
        return lines_of(body.decode(encoding)), None
    except UnicodeDecodeError as err:
        line, col = _position(body[: err.start].decode(encoding, errors="replace"))
        what = f"byte 0x{body[err.start]:02x} is not UTF-8" if encoding == "utf-8" else (
            f"bytes at offset {err.start + len(data) - len(body)} are not {label}")
        return (lines_of(body.decode(encoding, errors="replace")),
                Unread(Pos(path, line, col), f"{what}; undecodable bytes were replaced and the rest scanned"))


def read_leniently(path: str) -> tuple[str, Unread | None]:
    """The text of `path` as the secret scan reads it (see the module docstring), and what of it
    could not be read, if anything."""
    data, why = _read(path)
    text, undecodable = decode(data, path)
    if why is not None:
        return text, Unread(Pos(path), why)
    return text, undecodable
