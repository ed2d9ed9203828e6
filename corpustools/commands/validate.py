"""corpustools validate KIND FILE... [--format text|json]"""

from __future__ import annotations

from corpustools.commands.options import add_command, add_report_options, path
from corpustools.io.schemastore import VALIDATE_KINDS

HELP = "check files against a shipped JSON Schema (JSON or YAML; '-' reads stdin)"


def register(subparsers) -> None:
    parser = add_command(
        subparsers, "validate", HELP, ". Exit 0: every file valid; 1: a file is invalid; 2: a file "
        "cannot be read (said on standard error). --format json prints one array of every problem: path, line "
        "and col (null when unknown), pointer, severity, message.")
    parser.add_argument("kind", choices=VALIDATE_KINDS, metavar="KIND",
                        help=f"which schema: {', '.join(VALIDATE_KINDS)}")
    parser.add_argument("files", nargs="+", metavar="FILE", type=path, help="a file to check ('-': standard input)")
    add_report_options(parser, formatters, "text")
    parser.set_defaults(run=run)


def formatters():
    """--format's choices: the keys of validate's FORMATTERS (read when the command is parsed)."""
    from corpustools.validation import FORMATTERS

    return FORMATTERS


def run(args, out, err) -> int:
    from corpustools.io.positions import printable
    from corpustools.io.writing import emit
    from corpustools.validation import FORMATTERS, validate_files

    report = validate_files(args.kind, args.files)
    for line in report.unreadable:
        print(printable(line), file=err)
    # never over a file it checked, never into a corpus's own files
    emit(FORMATTERS[args.format](report), args.output, None, out, err=err, force=args.force)
    return report.exit_code
