"""`validate`: check files against a shipped schema, plus the output contract: for a proposal
output the shipped prompt's advisory checks; for a sidecar the item types and fields of the
contract of the corpus it is in (the built-in one outside a corpus); for a corpus spec the
contract it declares (docs/contracts.md)."""

from __future__ import annotations

__all__ = ["FORMATTERS", "FileVerdict", "ValidationProblem", "ValidationReport", "validate_file", "validate_files"]

from collections.abc import Callable
from dataclasses import dataclass

from corpustools.io.documents import dump_json, parse_document
from corpustools.io.errors import InputError
from corpustools.io.positions import Pos, printable
from corpustools.io.schemastore import validate
from corpustools.io.textfile import decode_text, read_bytes, read_stdin_bytes
from corpustools.model.contract import DEFAULT, contract_warnings
from corpustools.model.status import FileStatus, Severity

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
    severity: Severity
    message: str


@dataclass(frozen=True)
class FileVerdict:
    path: str
    status: FileStatus  # VALID | INVALID | UNREADABLE
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
        return FileVerdict(path, FileStatus.UNREADABLE, (str(err),))
    try:
        doc = parse_document(decode_text(data, shown), shown)
    except InputError as err:
        problem = ValidationProblem(shown, err.pos.line, max(err.pos.col, 1) if err.pos.line else 0, None, Severity.ERROR,
                                    err.message)
        return FileVerdict(path, FileStatus.INVALID, (str(err),), (problem,))
    errors = [(doc.pos(e.keypath) if doc.positions else None, e.pointer or "/", e.message)
              for e in validate(kind, doc.data)]
    if not errors:
        errors = contract_problems(kind, doc, shown)
    if errors:
        problems = []
        for pos, pointer, message in errors:
            problems.append(ValidationProblem(shown, pos.line if pos else 0, pos.col if pos else 0,
                                              pointer, Severity.ERROR, message))
        lines = tuple(f"{pos_of(p) if kind in POSITIONED_KINDS else p.path}: {p.pointer}: {p.message}"
                      for p in problems)
        return FileVerdict(path, FileStatus.INVALID, lines, tuple(problems))
    warnings = contract_warnings(doc.data) if kind == "proposal-output" else []
    lines = tuple(f"{shown}: warning: {w}" for w in warnings) + (f"{shown}: valid",)
    return FileVerdict(path, FileStatus.VALID, lines, tuple(ValidationProblem(shown, 0, 0, None, Severity.WARNING, str(w)) for w in warnings))


def contract_problems(kind: str, doc, path: str) -> list[tuple[Pos | None, str, str]]:
    """(position, pointer, message) of what a schema-valid document breaks of the output contract:
    a sidecar's point types and pinned fields, checked against the contract of the corpus it is in
    (the built-in one outside a corpus, or while that corpus's contract is broken); a corpus spec's
    `output:`, `session:` and categories' `expect` (its schema file read beside it)."""
    import os

    from corpustools.model.corpus import read_spec_file
    from corpustools.model.locate import corpus_root_of
    from corpustools.model.sidecar import contract_errors
    from corpustools.model.spec import parse_spec

    def split(message: str) -> tuple[str, str]:  # "/pointer: what" -> (pointer, what)
        pointer, _, what = message.partition(": ")
        return pointer, what

    if kind == "sidecar":
        root = corpus_root_of(path) if path != "-" else None
        contract = (read_spec_file(root).contract if root is not None else None) or DEFAULT
        return [(doc.pos(keypath) if doc.positions else None, *split(message))
                for keypath, message in contract_errors(doc.data, contract)]
    if kind == "corpus-spec" and isinstance(doc.data, dict):
        _, errors, _ = parse_spec(doc, os.path.dirname(path) if path != "-" else ".")
        return [(pos if doc.positions else None, *split(message)) for pos, message in errors]
    return []


def pos_of(problem: ValidationProblem) -> str:
    """`path:line:col`, or the path alone when the line is unknown."""
    return f"{problem.path}:{problem.line}:{problem.col}" if problem.line else problem.path


@dataclass(frozen=True)
class ValidationReport:
    """The verdict of every file checked, in the order given."""

    verdicts: tuple[FileVerdict, ...]

    @property
    def unreadable(self) -> tuple[str, ...]:
        """The lines of the files that could not be read: said on standard error, not in the report."""
        return tuple(line for verdict in self.verdicts if verdict.status == FileStatus.UNREADABLE for line in verdict.lines)

    @property
    def exit_code(self) -> int:
        """0 every file valid; 1 a file is invalid; 2 a file cannot be read."""
        if any(v.status == FileStatus.UNREADABLE for v in self.verdicts):
            return 2
        return 1 if any(v.status == FileStatus.INVALID for v in self.verdicts) else 0


def validate_files(kind: str, paths: list[str]) -> ValidationReport:
    """Check each of `paths` ('-': standard input) against the schema `kind` and the output contract."""
    return ValidationReport(tuple(validate_file(kind, path) for path in paths))


def validation_text(report: ValidationReport) -> str:
    """Each readable file's lines: its problems, `path: valid` when it has none."""
    return "".join(printable(line) + "\n" for verdict in report.verdicts if verdict.status != FileStatus.UNREADABLE
                   for line in verdict.lines)


def validation_json(report: ValidationReport) -> str:
    """`validate --format json`: one array of every problem of the files that could be read, in
    the order given (an unreadable file is reported on standard error, exit 2)."""
    rows = [{"path": p.path, "line": p.line or None, "col": p.col or None, "pointer": p.pointer,
             "severity": p.severity, "message": p.message}
            for verdict in report.verdicts if verdict.status != FileStatus.UNREADABLE for p in verdict.problems]
    return dump_json(rows, indent=2) + "\n"


# `validate --format`'s choices: a format is one function of a ValidationReport and one entry here.
FORMATTERS: dict[str, Callable[[ValidationReport], str]] = {"text": validation_text, "json": validation_json}
