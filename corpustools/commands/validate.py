"""corpustools validate KIND FILE... [--format text|json]; corpustools validate result CORPUS FILE..."""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import Subparsers, add_command, add_report_options, path
from corpustools.io.positions import printable
from corpustools.io.writing import emit

HELP = ("check files against a shipped JSON Schema (JSON or YAML; '-' reads stdin), or answers against a corpus's "
        "output contract (validate result CORPUS FILE...)")


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "validate", HELP, ". Exit 0: every file valid; 1: a file is invalid; 2: a file "
        "cannot be read (said on standard error). --format json prints one array of every problem: path, line "
        "and col (null when unknown), pointer, severity, message.")
    parser.add_argument("kind", choices=(*api.VALIDATE_KINDS, api.RESULT_KIND), metavar="KIND",
                        help=f"which schema: {', '.join(api.VALIDATE_KINDS)}; or {api.RESULT_KIND}: the files after CORPUS "
                             "are answers, checked against that corpus's output contract as score reads them")
    parser.add_argument("files", nargs="+", metavar="FILE", type=path,
                        help="a file to check ('-': standard input); for result, CORPUS first")
    add_report_options(parser, lambda: api.formatters("validate"), "text")
    parser.set_defaults(run=run)





def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    report = api.validate(args.kind, args.files, standard_input=True)
    for line in report.unreadable:
        print(printable(line), file=err)
    # never over a file it checked, never into a corpus's own files
    emit(api.format_report(report, args.format), args.output, None, out, err=err, force=args.force)
    return report.exit_code



