"""corpustools compare CORPUS --base RUN... --candidate RUN... [--format text|markdown|json|html] [--fail-on-regression]
[--fail-on-lost]"""

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
from corpustools.io.positions import printable
from corpustools.io.writing import emit

HELP = ("compare two prompt versions' runs fixture by fixture, with noise and a paired test; the headline is "
        "improved, regressed or no change beyond noise (advisory: exit 0, unless --fail-on-regression or --fail-on-lost)")


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "compare", HELP, ". Both sides are scored under the current labels (a run made "
        "before they were revised says so in one line); refuses (exit 2) when a run's sessions changed since it was "
        "made, or its run.yaml records only a corpus hash that differs, unless --allow-corpus-drift.")
    add_corpus_argument(parser, "the corpus folder both sides are scored against")
    parser.add_argument("--base", metavar="RUN", action="append", required=True, type=path,
                        help="a results folder of the current version (repeat for several runs)")
    parser.add_argument("--candidate", metavar="RUN", action="append", required=True, type=path,
                        help="a results folder of the proposed version (repeat for several runs)")
    add_report_options(parser, lambda: api.formatters("compare"), "text")
    parser.add_argument("--allow-corpus-drift", action="store_true",
                        help="compare even when a run's outputs answer other inputs: a session changed since the run, or "
                        "a run.yaml with only an older corpus sha256 (the report says so)")
    parser.add_argument("--fail-on-regression", action="store_true",
                        help="exit 1 when the headline is regressed: a blocking metric (corpus.yaml compare: blocking:, "
                        "default pass_rate, recall, gate_accuracy) worsened, beyond noise with several runs a side; "
                        "standard error repeats the headline; the report is still made")
    parser.add_argument("--fail-on-lost", action="store_true",
                        help="exit 1 when any fixture was lost, whatever the headline (standard error names them); "
                        "the report is still made")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    comparison = api.compare(args.corpus, args.base, args.candidate, allow_drift=args.allow_corpus_drift)
    emit(api.format_report(comparison, args.format), args.output, args.corpus, out, err=err, force=args.force)
    failed = False
    if args.fail_on_regression and comparison.regressed:
        print(f"corpustools compare: {printable(comparison.headline_text)}", file=err)
        failed = True
    lost = comparison.lost
    if args.fail_on_lost and lost:
        print(f"corpustools compare: lost {len(lost)} fixture{'s' if len(lost) != 1 else ''} (--fail-on-lost): "
              f"{printable(', '.join(f.id for f in lost))}", file=err)
        failed = True
    return 1 if failed else 0
