"""corpustools score CORPUS RESULTS... [--format text|markdown|json|html] [--output FILE] [--append-history FILE]
[--fail-under KEY=NUMBER,...] [--history FILE] [--allow-mixed]"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TextIO

from corpustools import api
from corpustools.commands.options import (
    Subparsers,
    add_command,
    add_corpus_argument,
    add_report_options,
    path,
)
from corpustools.io.errors import UsageError
from corpustools.io.writing import STANDARD_OUTPUT, emit, say_wrote

HELP = ("score saved prompt outputs against the corpus labels (advisory: exit 0 whenever a report is made, "
        "unless --fail-under)")


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "score", HELP, ". With two or more RUN folders (runs of one prompt "
        "version) the report adds the run-to-run noise floor, flaky fixtures and point stability.")
    add_corpus_argument(parser)
    parser.add_argument("results", metavar="RUN", nargs="+", type=path,
                        help="a run folder of <fixture_id>.json outputs (and optionally run.yaml)")
    add_report_options(parser, lambda: api.formatters("score"), "text")
    parser.add_argument("--append-history", metavar="FILE", type=path,
                        help="append one row to the Markdown history table in FILE (created if missing; "
                        "not when the table already has an identical row; a read-only FILE only with --force)")
    parser.add_argument("--history", metavar="FILE", type=path,
                        help="with --format html, draw the history table in FILE (as --append-history writes it); "
                        "--append-history FILE draws its file, with the new row, by itself")
    parser.add_argument("--fail-under", metavar="KEY=NUMBER,...", type=api.score_thresholds, default=(),
                        help="exit 1 when a proportion (pass_rate, recall, gate_accuracy; the mean over runs) "
                        "is under its threshold, or the phantom count (phantoms=N, at most N) is over it, e.g. "
                        "pass_rate=0.8,recall=0.95,phantoms=3; the report is still made")
    parser.add_argument("--allow-mixed", action="store_true",
                        help="pool RUN folders whose run.yaml records another prompt sha256, model or output "
                        "contract (they are not repeats of one prompt; the report says so); without it, refused")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.history and args.format != "html":
        raise UsageError("--history draws the history in the HTML report: use it with --format html")
    if args.append_history == STANDARD_OUTPUT:
        raise UsageError("--append-history needs a file to append to, not '-'")
    report = api.score(args.corpus, args.results, allow_mixed=args.allow_mixed)
    history = api.plan_history(report, append_to=args.append_history, draw_from=args.history, force=args.force)
    report = replace(report, history=history.drawn)
    emit(api.format_report(report, args.format), args.output, args.corpus, out, err=err, force=args.force)
    if history.append_to and history.row is None:
        print("corpustools score: the history already has this row; not appended", file=err)
    if history.append(force=args.force):
        say_wrote(err, args.append_history, "appended a row")
    breached = api.breaches(report, args.fail_under)
    for line in breached:
        print(f"corpustools score: {line}", file=err)
    return 1 if breached else 0
