"""`validate`: check files against a shipped schema (plus the prompt contract for outputs)."""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.io.documents import parse_document
from corpustools.io.positions import InputError
from corpustools.io.schemastore import validate
from corpustools.io.textfile import decode_text, read_bytes, read_stdin_bytes
from corpustools.model.contract import contract_warnings
from corpustools.model.status import INVALID, UNREADABLE

VALID = "valid"  # and status.INVALID, status.UNREADABLE
# Kinds whose text lines name the line and column of each schema error (a worksheet is edited by
# hand, answer by answer); the other kinds keep their `file: /pointer: message` lines.
POSITIONED_KINDS = ("adjudication",)


@dataclass(frozen=True)
class ValidationProblem:
    """One schema error or contract warning of a file; `line` 0 when the document has no
    positions (JSON) or the file could not be parsed at a known place."""

    path: str
    line: int
    col: int
    pointer: str | None  # JSON pointer of the offending value; None for an unparsable file
    severity: str  # error | warning
    message: str


@dataclass(frozen=True)
class FileVerdict:
    path: str
    status: str  # valid | invalid | unreadable
    lines: tuple[str, ...]  # what to print, each a whole line naming the file
    problems: tuple[ValidationProblem, ...] = ()


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
        problem = ValidationProblem(shown, err.pos.line, max(err.pos.col, 1) if err.pos.line else 0, None, "error",
                                    err.message)
        return FileVerdict(path, INVALID, (str(err),), (problem,))
    errors = validate(kind, doc.data)
    if errors:
        problems = []
        for error in errors:
            pos = doc.pos(error.keypath) if doc.positions else None
            problems.append(ValidationProblem(shown, pos.line if pos else 0, pos.col if pos else 0,
                                              error.pointer or "/", "error", error.message))
        lines = tuple(f"{pos_of(p) if kind in POSITIONED_KINDS else p.path}: {p.pointer}: {p.message}"
                      for p in problems)
        return FileVerdict(path, INVALID, lines, tuple(problems))
    warnings = contract_warnings(doc.data) if kind == "proposal-output" else []
    lines = tuple(f"{shown}: warning: {w}" for w in warnings) + (f"{shown}: valid",)
    return FileVerdict(path, VALID, lines, tuple(ValidationProblem(shown, 0, 0, None, "warning", str(w)) for w in warnings))


def pos_of(problem: ValidationProblem) -> str:
    """`path:line:col`, or the path alone when the line is unknown."""
    return f"{problem.path}:{problem.line}:{problem.col}" if problem.line else problem.path


def problems_json(verdicts: list[FileVerdict]) -> str:
    """`validate --format json`: one array of every problem of the files that could be read, in
    the order given (an unreadable file is reported on standard error, exit 2)."""
    import json

    rows = [{"path": p.path, "line": p.line or None, "col": p.col or None, "pointer": p.pointer,
             "severity": p.severity, "message": p.message}
            for verdict in verdicts if verdict.status != UNREADABLE for p in verdict.problems]
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


def exit_code(verdicts: list[FileVerdict]) -> int:
    if any(v.status == UNREADABLE for v in verdicts):
        return 2
    return 1 if any(v.status == INVALID for v in verdicts) else 0
