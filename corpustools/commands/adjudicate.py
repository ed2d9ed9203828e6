"""corpustools adjudicate CORPUS RUN --out FILE (or --output FILE) [--rater NAME] [--show-terms]"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import Subparsers, add_command, add_corpus_argument, add_output_option, path
from corpustools.io.positions import printable
from corpustools.io.writing import STANDARD_OUTPUT, say_wrote

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
    to_stdout = args.out == STANDARD_OUTPUT
    sheet = api.adjudicate(args.corpus, args.results, None if to_stdout else args.out, rater=args.rater,
                           show_terms=args.show_terms, force=args.force)
    if to_stdout:
        out.write(sheet.text)
    for warning in sheet.warnings:
        print(f"corpustools adjudicate: warning: {printable(warning)}", file=err)
    say_wrote(err, args.out, f"{sheet.fixtures} fixture{'' if sheet.fixtures == 1 else 's'}, "
                             f"{sheet.items} proposal{'' if sheet.items == 1 else 's'} to judge")
    return 0
