"""corpustools schema KIND"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools.commands.options import Subparsers, add_command
from corpustools.io.schemastore import SCHEMA_KINDS

HELP = "print a shipped JSON Schema"


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "schema", HELP)
    parser.add_argument("kind", choices=SCHEMA_KINDS, metavar="KIND", help=f"which schema: {', '.join(SCHEMA_KINDS)}")
    parser.set_defaults(run=run, error_prefix="corpustools")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from corpustools.io.errors import CorpustoolsError
    from corpustools.io.schemastore import schema_text

    try:
        text = schema_text(args.kind)
    except FileNotFoundError:
        raise CorpustoolsError(f"schema {args.kind!r} is not shipped in this build") from None
    out.write(text)
    return 0
