"""corpustools validate KIND FILE..."""

from __future__ import annotations

from corpustools.schemastore import VALIDATE_KINDS

HELP = "check files against a shipped JSON Schema (JSON or YAML; '-' reads stdin)"


def register(subparsers) -> None:
    parser = subparsers.add_parser("validate", help=HELP, description=HELP)
    parser.add_argument("kind", choices=VALIDATE_KINDS, help="which schema")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.set_defaults(run=run)


def run(args, out, err) -> int:
    from corpustools.positions import printable
    from corpustools.validation import UNREADABLE, exit_code, validate_file

    verdicts = [validate_file(args.kind, path) for path in args.files]
    for verdict in verdicts:
        for line in verdict.lines:
            print(printable(line), file=err if verdict.status == UNREADABLE else out)
    return exit_code(verdicts)
