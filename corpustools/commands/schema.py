"""corpustools schema KIND"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import Subparsers, add_command

HELP = "print a shipped JSON Schema"


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "schema", HELP)
    parser.add_argument("kind", choices=api.SCHEMA_KINDS, metavar="KIND", help=f"which schema: {', '.join(api.SCHEMA_KINDS)}")
    parser.set_defaults(run=run, error_prefix="corpustools")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    out.write(api.schema(args.kind))
    return 0
