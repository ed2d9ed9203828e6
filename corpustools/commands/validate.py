"""corpustools validate KIND FILE... [--format text|json]; corpustools validate result CORPUS FILE..."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from corpustools.commands.options import Formatters, Subparsers, add_command, add_report_options, path
from corpustools.io.schemastore import VALIDATE_KINDS

if TYPE_CHECKING:
    from corpustools.validation import ValidationReport

RESULT_KIND = "result"  # validate result CORPUS FILE...: answers against a corpus's output contract

HELP = ("check files against a shipped JSON Schema (JSON or YAML; '-' reads stdin), or answers against a corpus's "
        "output contract (validate result CORPUS FILE...)")


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "validate", HELP, ". Exit 0: every file valid; 1: a file is invalid; 2: a file "
        "cannot be read (said on standard error). --format json prints one array of every problem: path, line "
        "and col (null when unknown), pointer, severity, message.")
    parser.add_argument("kind", choices=(*VALIDATE_KINDS, RESULT_KIND), metavar="KIND",
                        help=f"which schema: {', '.join(VALIDATE_KINDS)}; or {RESULT_KIND}: the files after CORPUS "
                             "are answers, checked against that corpus's output contract as score reads them")
    parser.add_argument("files", nargs="+", metavar="FILE", type=path,
                        help="a file to check ('-': standard input); for result, CORPUS first")
    add_report_options(parser, formatters, "text")
    parser.set_defaults(run=run)


def formatters() -> Formatters:
    """--format's choices: the keys of validate's FORMATTERS (read when the command is parsed)."""
    from corpustools.validation.report import FORMATTERS

    return FORMATTERS


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from corpustools.io.positions import printable
    from corpustools.io.writing import emit
    from corpustools.validation import validate_files
    from corpustools.validation.report import FORMATTERS

    if args.kind == RESULT_KIND:
        report = _results(args.files)
    else:
        report = validate_files(args.kind, args.files)
    for line in report.unreadable:
        print(printable(line), file=err)
    # never over a file it checked, never into a corpus's own files
    emit(FORMATTERS[args.format](report), args.output, None, out, err=err, force=args.force)
    return report.exit_code


def _results(files: list[str]) -> ValidationReport:
    """`validate result CORPUS FILE...`: the report of each answer; UsageError without both."""
    from corpustools.io.errors import UsageError
    from corpustools.validation import validate_results

    if len(files) < 2 or "-" in files:
        raise UsageError("validate result takes CORPUS FILE...: the corpus whose output contract the answers follow, "
                         "then each answer file, saved as score reads it (not standard input)")
    return validate_results(files[0], files[1:])
