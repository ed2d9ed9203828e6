"""corpustools agree CORPUS WS_A WS_B [WS_A2 WS_B2 ...] [--allow-partial] [--format F] [--output FILE]
[--fail-under KEY=NUMBER,...]"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import (
    Subparsers,
    add_command,
    add_corpus_argument,
    add_report_options,
    path,
)
from corpustools.io.writing import emit

HELP = "measure how far two raters' worksheets of the same run agree (AC1, kappa, alpha), every disagreement listed"


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "agree", HELP, ": give worksheets in pairs, each pair two raters' filled worksheets of one run "
        "(written by corpustools adjudicate --rater). Per level (fixture verdicts, expected points, optional "
        "points, proposal classes, leak answers): the counts, percent agreement with its Wilson interval, Gwet's "
        "AC1 with its 95% interval, Cohen's kappa and Krippendorff's alpha, and corpus.yaml's agreement: "
        "threshold's PASS or FAIL. Exit 0 when a report was made (1 with a --fail-under breach), 2 on bad input "
        "(every problem listed, one line each). See docs/calibration.md.")
    add_corpus_argument(parser)
    parser.add_argument("worksheets", metavar="WS", nargs="+", type=path,
                        help="the worksheets, in pairs: WS_A WS_B [WS_A2 WS_B2 ...]")
    parser.add_argument("--allow-partial", action="store_true",
                        help="compare the fixtures both worksheets of a pair judged (without it, a fixture in one "
                        "only is refused)")
    add_report_options(parser, lambda: api.formatters("agree"), "text")
    parser.add_argument("--fail-under", metavar="KEY=NUMBER,...", type=api.agree_thresholds, default=(),
                        help="exit 1 when a pooled level's statistic is under its threshold: LEVEL=N gates on "
                        "corpus.yaml's agreement: statistic (ac1 without one), LEVEL.STATISTIC=N on another "
                        "(levels verdicts, points, optional, classes, leaks; statistics ac1, kappa, alpha, percent), "
                        "e.g. verdicts=0.8,points.kappa=0.6; the report is still made")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    agreement = api.agree(args.corpus, args.worksheets, allow_partial=args.allow_partial)
    emit(api.format_report(agreement, args.format), args.output, args.corpus, out, err=err, force=args.force)
    breached = api.breaches(agreement, args.fail_under)
    for line in breached:
        print(f"corpustools agree: {line}", file=err)
    return 1 if breached else 0
