"""corpustools init DIR [--output kenkeep|items|text]"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import Subparsers, add_command, path
from corpustools.io.writing import say_wrote

HELP = "scaffold a new corpus in DIR: a commented corpus.yaml and one fixture per kind of expectation"
OUTPUTS = ("kenkeep", "items", "text")  # corpustools.scaffold.KINDS, named here so --help needs no import


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "init", HELP, " (a session, sidecar and gold output each), and a README "
        "with the next steps. It lints clean and scores its own gold. Refuses (exit 2) a DIR that exists "
        "and is not an empty folder; never writes through a link.")
    parser.add_argument("folder", metavar="DIR", type=path, help="the corpus folder to create (absent or empty)")
    parser.add_argument("--output", choices=OUTPUTS, default=OUTPUTS[0],
                        help="what the prompt answers (docs/contracts.md): kenkeep, the shipped prompt's practice/map "
                        "proposals (default); items, a JSON object of typed items and scalar fields with an output "
                        "schema and its own role tags; text, a plain-text answer")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    written = api.init(args.folder, args.output)
    say_wrote(err, args.folder, f"{len(written)} files; next: corpustools lint {args.folder}")
    return 0
