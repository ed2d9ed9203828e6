"""corpustools reconcile WS_A WS_B --out WS (or --output WS)"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import Subparsers, add_command, add_output_option, path
from corpustools.io.writing import STANDARD_OUTPUT, say_wrote

HELP = "merge two raters' worksheets of one run: their common answers kept, each disagreement blank for a third reading"


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "reconcile", HELP, ". Each answer the two raters gave differently is left blank with both "
        "answers (and both raters' why) as comments above it; fill those blanks, then give the worksheet to "
        "calibrate like any other. The two worksheets must judge the same outputs (as agree requires). Never "
        "writes over an input. See docs/calibration.md.")
    parser.add_argument("first", metavar="WS_A", type=path, help="the first rater's filled worksheet")
    parser.add_argument("second", metavar="WS_B", type=path, help="the second rater's filled worksheet of the same run")
    add_output_option(parser, "--out", "--output", dest="out", required=True,
                      help="the reconciled worksheet to write (YAML; '-': standard output)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    to_stdout = args.out == STANDARD_OUTPUT
    merged = api.reconcile(args.first, args.second, None if to_stdout else args.out, force=args.force)
    if to_stdout:
        out.write(merged.text)
    say_wrote(err, args.out, f"{merged.agreed} answer{'' if merged.agreed == 1 else 's'} both gave, "
                             f"{merged.blank} left blank for a third reading")
    return 0
