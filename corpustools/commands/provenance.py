"""corpustools provenance record|verify"""

from __future__ import annotations

HELP = "record who authored and reviewed a corpus, and verify nothing changed since"
DEFAULT_RECORD = "authoring/provenance.yaml"  # corpustools.provenance.DEFAULT_RECORD, without the import


def register(subparsers) -> None:
    parser = subparsers.add_parser("provenance", help=HELP, description=HELP)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    rec = actions.add_parser("record", help="write the provenance record of a corpus",
                             description="Write the provenance record of CORPUS: the authoring prompt's sha256, "
                             "the corpus name and version, the sha256 of every corpus and gold file, the date, "
                             "and who authored and reviewed it.")
    rec.add_argument("corpus", metavar="CORPUS", help="the corpus folder (holding corpus.yaml)")
    rec.add_argument("--authoring-prompt", metavar="FILE", required=True, help="the prompt the corpus was authored with")
    rec.add_argument("--authored-by", metavar="WHO", required=True, help="model or person that authored it")
    rec.add_argument("--reviewed-by", metavar="WHO", required=True, help="model or person that reviewed it")
    rec.add_argument("--output", metavar="FILE", default=DEFAULT_RECORD, help=f"default: {DEFAULT_RECORD}")
    rec.add_argument("--date", metavar="YYYY-MM-DD", help="date recorded (default: today)")
    rec.set_defaults(run=run_record)
    ver = actions.add_parser("verify", help="exit 1 naming every file changed since the record",
                             description="Exit 1 naming every file changed since the record, 0 when none.")
    ver.add_argument("record", metavar="RECORD", nargs="?", default=DEFAULT_RECORD, help=f"default: {DEFAULT_RECORD}")
    ver.set_defaults(run=run_verify)


def run_record(args, out, err) -> int:
    from corpustools.lint.engine import display_path
    from corpustools.positions import InputError, printable
    from corpustools.provenance import record

    try:
        data = record(args.corpus, args.authoring_prompt, args.authored_by, args.reviewed_by, args.output, args.date)
    except InputError as error:
        print(f"corpustools provenance: {error}", file=err)
        return 2
    print(printable(f"{display_path(args.output)}: recorded {len(data['files'])} files of corpus "
                    f"{data['corpus']['name']} version {data['corpus']['version']}"), file=out)
    return 0


def run_verify(args, out, err) -> int:
    import os

    from corpustools.lint.engine import display_path
    from corpustools.positions import InputError, printable
    from corpustools.provenance import verify

    if not os.path.lexists(args.record):  # anything else that is not a regular file: read_text says what it is
        print(f"corpustools provenance: {printable(args.record)}: no such record", file=err)
        return 2
    try:
        drifts = verify(args.record)
    except InputError as error:
        print(f"corpustools provenance: {error}", file=err)
        return 2
    for drift in drifts:
        print(printable(f"{display_path(drift.path)}: {drift.status} since the record {display_path(args.record)}"),
              file=out)
    if not drifts:
        print(printable(f"{display_path(args.record)}: every file matches the record"), file=out)
    return 1 if drifts else 0
