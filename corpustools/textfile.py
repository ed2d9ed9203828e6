"""Reading a corpus or result file as text, with one clear message for each way it can be bad."""

from __future__ import annotations

import os

from corpustools.positions import InputError, Pos

# Larger inputs are refused before parsing: no fixture, sidecar or model output is this big,
# and refusing early keeps a pathological file from stalling a pre-commit hook.
MAX_FILE_BYTES = 8 * 1024 * 1024


def read_bytes(path: str, *, display: str | None = None) -> bytes:
    shown = display or path
    try:
        if os.path.islink(path):
            raise InputError(Pos(shown), f"is a symbolic link to {os.readlink(path)!r}; links are not followed")
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise InputError(
                Pos(shown), f"file is {size} bytes, over the {MAX_FILE_BYTES} byte limit; not read"
            )
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:  # a device or a file that grew: the size said otherwise
            raise InputError(Pos(shown), f"file is over the {MAX_FILE_BYTES} byte limit; not read")
        return data
    except InputError:
        raise
    except IsADirectoryError:
        raise InputError(Pos(shown), "is a directory, not a file") from None
    except FileNotFoundError:
        raise InputError(Pos(shown), "no such file") from None
    except OSError as err:
        raise InputError(Pos(shown), f"cannot read: {err.strerror or err}") from None


def read_stdin_bytes() -> bytes:
    """Standard input, bounded like a file; shown as '-'."""
    import sys

    data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise InputError(Pos("-"), f"standard input is over the {MAX_FILE_BYTES} byte limit; not read")
    return data


def decode_text(data: bytes, shown: str) -> str:
    """UTF-8 without BOM, LF line endings, not empty; else InputError at the offending line."""
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
    if not text.strip():
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


def read_text(path: str, *, display: str | None = None) -> str:
    return decode_text(read_bytes(path, display=display), display or path)
