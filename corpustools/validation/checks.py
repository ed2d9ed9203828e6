"""`validate`: check files against a shipped schema, plus the output contract: for a proposal
output the shipped prompt's advisory checks; for a sidecar the item types and fields of the
contract of the corpus it is in (the built-in one outside a corpus); for a corpus spec the
contract it declares (docs/contracts.md). `validate result CORPUS FILE...` checks answers against
the output contract of CORPUS, read as `score` reads them (score.results.read_result), with its
messages."""

from __future__ import annotations

import os
from dataclasses import dataclass

from corpustools.io.documents import parse_document
from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.schemastore import validate
from corpustools.io.textfile import decode_text, read_bytes, read_stdin_bytes
from corpustools.model.contract import ABSENT, DEFAULT, contract_warnings
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
    from corpustools.model.corpus import read_spec_file  # model: a sidecar or spec's contract only
    from corpustools.model.locate import corpus_root_of  # model: a sidecar or spec's contract only
    from corpustools.model.sidecar import contract_errors  # model: a sidecar or spec's contract only
    from corpustools.model.spec import parse_spec  # model: a sidecar or spec's contract only

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


def validate_results(corpus_root: str, paths: list[str]) -> ValidationReport:
    """Check each answer of `paths` against the output contract of the corpus at `corpus_root`, as
    `score` reads a result: InputError when it is no corpus or its contract is broken."""
    from corpustools.score.scoring import open_corpus  # score: `validate result` only

    loaded = open_corpus(corpus_root)
    corpus = loaded.corpus
    return ValidationReport(tuple(validate_result(path, loaded.contract, set(corpus.sidecar_paths),
                                                  set(corpus.session_paths)) for path in paths))


def validate_result(path: str, contract, fixture_ids: set[str], sessions: set[str]) -> FileVerdict:
    """One answer: the scorer's reading of it (its invalid-result line, or valid with the contract's
    advisory checks), a field the contract declares that it lacks, and a name score would not read."""
    from corpustools.score.results import (  # score: `validate result` only
        ResultProblem,
        invalid_result,
        other_format_problem,
        read_result,
        unscored_name,
    )

    if not os.path.lexists(path):
        return FileVerdict(path, FileStatus.UNREADABLE, (str(InputError(Pos(path), "no such file")),))
    name = os.path.basename(path)
    stem = next((name[: -len(suffix)] for suffix in (contract.result_suffix, contract.other_suffix)
                 if name.endswith(suffix)), None)
    if name.endswith(contract.other_suffix):  # what score says when it finds only this file
        result = invalid_result(name, path, other_format_problem(path, contract), "")
    else:
        result = read_result(stem or name, path, contract)
    if result.status is FileStatus.UNREADABLE:
        return FileVerdict(path, FileStatus.UNREADABLE, (str(result.error),))
    notes = [] if stem in fixture_ids else [unscored_name(path, stem or name, fixture_ids, contract.result_suffix,
                                                          sessions)]
    if result.status is not FileStatus.OK or result.answer is None:
        problem = result.problem or ResultProblem(Pos(path), None, str(result.error))
        found = ([f"the content {result.content_found} is a valid answer"] if result.content_found else [])
        problems = (_problem(problem.pos, problem.pointer, Severity.ERROR, problem.message),
                    *(_problem(Pos(path), None, Severity.WARNING, text) for text in found + notes))
        return FileVerdict(path, FileStatus.INVALID, (str(problem), *(f"{path}: warning: {text}" for text in found),
                                                      *notes), problems)
    answer = result.answer
    warnings = [str(w) for w in contract.warnings(answer)]
    warnings += [f"{pointer}: absent: the output contract declares this field (output.fields); a sidecar pinning "
                 "it counts it as a mismatch" for pointer, value in answer.fields.items() if value is ABSENT]
    lines = tuple(f"{path}: warning: {w}" for w in warnings) + tuple(notes) + (f"{path}: valid",)
    return FileVerdict(path, FileStatus.VALID, lines,
                       tuple(_problem(Pos(path), None, Severity.WARNING, text) for text in warnings + notes))


def _problem(pos: Pos, pointer: str | None, severity: Severity, message: str) -> ValidationProblem:
    return ValidationProblem(pos.path, pos.line, max(pos.col, 1) if pos.line else 0, pointer, severity, message)


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
