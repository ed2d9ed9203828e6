"""`validate`: check files against a shipped schema (plus the prompt contract for outputs)."""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.contract import contract_warnings
from corpustools.documents import parse_document
from corpustools.positions import InputError
from corpustools.schemastore import validate
from corpustools.status import INVALID
from corpustools.textfile import decode_text, read_bytes, read_stdin_bytes

UNREADABLE, VALID = "unreadable", "valid"  # and status.INVALID


@dataclass(frozen=True)
class FileVerdict:
    path: str
    status: str  # valid | invalid | unreadable
    lines: tuple[str, ...]  # what to print, each a whole line naming the file


def _read(path: str) -> tuple[bytes, str]:
    if path == "-":
        return read_stdin_bytes(), "-"
    return read_bytes(path), path


def validate_file(kind: str, path: str) -> FileVerdict:
    try:
        data, shown = _read(path)
    except InputError as err:
        return FileVerdict(path, UNREADABLE, (str(err),))
    try:
        doc = parse_document(decode_text(data, shown), shown)
    except InputError as err:
        return FileVerdict(path, INVALID, (str(err),))
    errors = validate(kind, doc.data)
    if errors:
        return FileVerdict(path, INVALID, tuple(f"{shown}: {e.pointer or '/'}: {e.message}" for e in errors))
    warnings = contract_warnings(doc.data) if kind == "proposal-output" else []
    lines = tuple(f"{shown}: warning: {w}" for w in warnings) + (f"{shown}: valid",)
    return FileVerdict(path, VALID, lines)


def exit_code(verdicts: list[FileVerdict]) -> int:
    if any(v.status == UNREADABLE for v in verdicts):
        return 2
    return 1 if any(v.status == INVALID for v in verdicts) else 0
