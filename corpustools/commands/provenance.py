"""corpustools provenance record|freeze|verify"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import (
    Subparsers,
    add_command,
    add_corpus_argument,
    add_output_option,
    add_report_options,
    path,
)
from corpustools.io.writing import emit, say_wrote

HELP = "record who authored and reviewed a corpus, and verify nothing changed since"
WHERE = ("corpus.yaml's lint: provenance: if set (relative to the corpus folder), else "
         "authoring/provenance.yaml at the top of the git repository holding the corpus (outside any "
         "repository: in the corpus folder): where lint's CT801 looks")


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "provenance", HELP)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    rec = actions.add_parser("record", help="write the provenance record of a corpus",
                             description="Write the provenance record of CORPUS: the authoring prompt's sha256, "
                             "the corpus name and version, the sha256 of every corpus and gold file, the date, "
                             "and who authored and reviewed it.")
    add_corpus_argument(rec)
    rec.add_argument("--authoring-prompt", metavar="FILE", required=True, type=path, help="the prompt the corpus was authored with")
    rec.add_argument("--authored-by", metavar="WHO", required=True, help="model or person that authored it")
    rec.add_argument("--reviewed-by", metavar="WHO", required=True, help="model or person that reviewed it")
    add_output_option(rec, "--output", help=f"the record to write ('-': standard output; default: {WHERE})")
    rec.add_argument("--date", metavar="YYYY-MM-DD", help="date recorded (default: today)")
    rec.set_defaults(run=run_record)
    frz = actions.add_parser("freeze", help="freeze the labels: record their sha256 and every output judged so far",
                             description="Write into the provenance record of CORPUS (which must match the corpus "
                             "files) the labels' sha256 now and the result sha256 of every output judged in any "
                             "adjudication worksheet under CORPUS (and under each --worksheets PATH). calibrate then "
                             "calls a run held-out when its outputs were made under these labels and none of them "
                             "was judged before the freeze; the result hashes decide, never a date. The freeze it "
                             "replaces joins the record's history.")
    add_corpus_argument(frz)
    frz.add_argument("--record", metavar="FILE", type=path, help=f"the record to freeze in (default: {WHERE})")
    frz.add_argument("--worksheets", metavar="PATH", type=path, action="append", default=[],
                     help="also read the worksheets in this file or folder (repeat for more)")
    frz.add_argument("--date", metavar="YYYY-MM-DD", help="date recorded (default: today)")
    frz.set_defaults(run=run_freeze)
    ver = actions.add_parser("verify", help="exit 1 naming every file changed since the record",
                             description="Exit 1 naming every file changed since the record, 0 when none, 2 when "
                             "the record cannot be read.")
    ver.add_argument("record", metavar="RECORD", nargs="?", type=path,
                     help="the record to check (default: the record of --corpus, else of the corpus the working "
                     "folder is in, else of the one corpus below it that has a record; a corpus's record is "
                     f"{WHERE})")
    ver.add_argument("--corpus", metavar="CORPUS", type=path, help="verify the record of this corpus (when RECORD is not given)")
    add_report_options(ver, lambda: api.formatters("verify"), "text")
    ver.set_defaults(run=run_verify)


def run_record(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    output, data = api.provenance_record(args.corpus, args.authoring_prompt, args.authored_by, args.reviewed_by,
                                         output=args.output, date=args.date, force=args.force, out=out)
    say_wrote(err, output, f"the record of {len(data['files'])} files of corpus {data['corpus']['name']} "
                           f"version {data['corpus']['version']}")
    return 0


def run_freeze(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    frozen = api.provenance_freeze(args.corpus, args.record, worksheets=args.worksheets, date=args.date)
    say_wrote(err, frozen.record, f"labels sha256 {frozen.labels_sha256[:12]} frozen; {frozen.judged} output"
                                  f"{'' if frozen.judged == 1 else 's'} judged in {frozen.worksheets} worksheet"
                                  f"{'' if frozen.worksheets == 1 else 's'} before the freeze")
    return 0





def run_verify(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    report = api.verify(args.record, args.corpus)
    emit(api.format_report(report, args.format), args.output, None, out, err=err, force=args.force)
    return report.exit_code
