"""corpustools adjudicate CORPUS RUN --out FILE (or --output FILE) [--rater NAME] [--show-terms]"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools.commands.options import Subparsers, add_command, add_corpus_argument, add_output_option, path

HELP = "write a blind worksheet on which a person judges one run's outputs (for calibrate)"


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "adjudicate", HELP, ". The worksheet shows each fixture's session path, labels' "
        "notes and proposals, never the scorer's verdicts and, unless --show-terms, not the match terms. "
        "Refuses (exit 2) to overwrite a worksheet that already has an answer. See docs/calibration.md.")
    add_corpus_argument(parser)
    parser.add_argument("results", metavar="RUN", type=path, help="the run folder of <fixture_id>.json outputs to judge")
    # --output too: every other command that writes a file spells it so (--out stays: scripts use it)
    add_output_option(parser, "--out", "--output", dest="out", required=True,
                      help="the worksheet to write (YAML; '-': standard output)")
    parser.add_argument("--rater", metavar="NAME",
                        help="who will fill it in, recorded as rater: NAME (free text; agree compares two raters' "
                        "worksheets of one run; without it the worksheet's file name names the rater)")
    parser.add_argument("--show-terms", action="store_true",
                        help="also show each point's match and forbidden terms (for a maintainer, not a blind judge)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import os

    from corpustools.calibrate import build_worksheet, refuse_answered, worksheet_yaml
    from corpustools.io.errors import InputError, UsageError
    from corpustools.io.inputs import claim_update
    from corpustools.io.positions import Pos, printable
    from corpustools.io.writing import STANDARD_OUTPUT, refuse_corpus_path, refuse_target, say_wrote, write_text
    from corpustools.score import open_corpus

    to_stdout = args.out == STANDARD_OUTPUT
    if args.rater is not None and (not args.rater.strip() or "\n" in args.rater):
        raise UsageError("--rater: give the rater's name on one line (free text, not blank)")
    loaded = open_corpus(args.corpus)
    if not os.path.isdir(args.results):
        raise InputError(Pos(args.results), "no such results folder")
    if not to_stdout:  # refused before anything is read from the run: an early, cheap answer
        refuse_corpus_path(args.out, args.corpus)
        refuse_target(args.out, force=args.force)
    sheet = build_worksheet(loaded, args.results, shows_terms=args.show_terms,
                            rater=None if args.rater is None else args.rater.strip())
    if to_stdout:
        out.write(worksheet_yaml(sheet))
    else:
        claim_update(args.out, "--out")  # read (for answers) to be replaced: never a result it judges
        refuse_answered(args.out, loaded.contract)
        write_text(args.out, worksheet_yaml(sheet), force=args.force, updating=True)
    for warning in loaded.warnings + sheet.skipped:
        print(f"corpustools adjudicate: warning: {printable(warning)}", file=err)
    proposals = sum(len(f.proposals) for f in sheet.fixtures)
    say_wrote(err, args.out, f"{len(sheet.fixtures)} fixture{'' if len(sheet.fixtures) == 1 else 's'}, "
                             f"{proposals} proposal{'' if proposals == 1 else 's'} to judge")
    return 0
