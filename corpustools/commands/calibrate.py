"""corpustools calibrate CORPUS RUN --verdicts FILE [RUN --verdicts FILE ...] [--format F] [--output FILE]"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import Formatters, Subparsers, add_command, add_corpus_argument, add_report_options
from corpustools.io.errors import UsageError
from corpustools.io.writing import emit

HELP = "measure how far the scorer's verdicts agree with human verdicts from adjudication worksheets"


def formatters() -> Formatters:
    """--format's choices: the keys of calibrate's FORMATTERS (read when the command is parsed)."""
    return api.formatters("calibrate")


def usage() -> str:
    """The usage line (argparse cannot pair positionals with options, so it is written out)."""
    return (f"corpustools calibrate [-h] [--format {{{','.join(formatters())}}}] [--output FILE] [--force] "
            "CORPUS RUN --verdicts FILE [RUN --verdicts FILE ...]")


class Usage(str):
    """argparse's `usage=`: the usage line, made when it is shown (it names the formats)."""

    def __mod__(self, values: object) -> str:  # argparse fills in %(prog)s when it shows the usage
        return usage() % values


USAGE = Usage("corpustools calibrate ...")


class PairsError(UsageError):
    """The RUN --verdicts FILE pairs are not well formed: the error and the usage line."""

    def lines(self, prefix: str) -> list[str]:
        return [f"{prefix}: error: {self}", f"usage: {usage()}"]


def _report_options(parser: argparse.ArgumentParser) -> None:
    add_report_options(parser, formatters, "text", resolved_later=True)


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "calibrate", HELP, usage=USAGE,
        details=": agreement on fixture verdicts, expected points and phantoms (Wilson intervals, "
        "Cohen's kappa) and every disagreement with its cause. Give each run folder followed by the worksheet "
        "judging it (written by corpustools adjudicate, then filled in). Exit 0 when a report was produced, "
        "2 on bad input (every problem listed, one line each). See docs/calibration.md.")
    add_corpus_argument(parser)
    # argparse cannot pair positionals with options, so the pairs are read in order from the rest.
    parser.add_argument("pairs", nargs=argparse.REMAINDER, metavar="RUN --verdicts FILE ...",
                        help="a run folder, then --verdicts and its filled worksheet ('-': standard input, once); "
                        "repeat for more runs")
    _report_options(parser)
    # The late options are parsed by a parser of the same class: one-line usage errors, exit 2.
    parser.set_defaults(run=run, parser_class=type(parser))


def split_pairs(tokens: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """-> ([(RUN, FILE), ...] in order, the other options). PairsError when malformed."""
    pairs, options, i = [], [], 0
    while i < len(tokens):
        token = tokens[i]
        if token == "":
            raise PairsError("an empty path names no run folder")
        if token == "--verdicts" or token.startswith("--verdicts="):
            raise PairsError(f"{token.split('=', 1)[0]} must follow a RUN folder")
        if token.startswith("-") and token != "-":
            takes_value = "=" not in token and token in ("--format", "--output")
            options += tokens[i:i + 2] if takes_value else [token]
            i += 2 if takes_value else 1
            continue
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if following.startswith("--verdicts="):
            pairs.append((token, following.split("=", 1)[1]))
            i += 2
        elif following == "--verdicts" and i + 2 < len(tokens):
            pairs.append((token, tokens[i + 2]))
            i += 3
        else:
            raise PairsError(f"run {token} needs --verdicts FILE right after it")
        if not pairs[-1][1]:
            raise PairsError(f"run {token}: --verdicts: an empty path names no file")
    if not pairs:
        raise PairsError("give at least one RUN --verdicts FILE")
    if [verdicts for _, verdicts in pairs].count("-") > 1:
        raise PairsError("--verdicts - (standard input) may be given once")
    return pairs, options


def _options_parser(parser_class: type[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = parser_class(prog="corpustools calibrate", usage=USAGE, add_help=False)
    _report_options(parser)
    return parser


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    pairs, rest = split_pairs(args.pairs)
    # --format/--output written after the pairs (a bad one: argparse's one-line usage error, exit 2)
    late = _options_parser(args.parser_class).parse_args(rest)
    fmt = late.format or args.format or "text"
    output = late.output or args.output
    calibration = api.calibrate(args.corpus, pairs, standard_input=True)
    emit(api.format_report(calibration, fmt), output, args.corpus, out, err=err, force=late.force or args.force)
    return 0
