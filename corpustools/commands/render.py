"""corpustools render CORPUS FIXTURE_ID --prompt FILE [--append] | render CORPUS --all --out DIR --prompt FILE"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import Subparsers, add_command, add_corpus_argument, add_output_option, path
from corpustools.io.errors import UsageError
from corpustools.io.writing import say_wrote

HELP = "print the prompt with a fixture's transcript substituted, for pasting into a model by hand"


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "render", HELP, ". The transcript (session body, frontmatter dropped) replaces "
        "the line '[TRANSCRIPT PLACEHOLDER, substituted at runtime]' literally. corpustools never calls a model.")
    add_corpus_argument(parser, "the corpus folder")
    parser.add_argument("fixture_id", metavar="FIXTURE_ID", nargs="?", help="the fixture to render")
    parser.add_argument("--prompt", metavar="FILE", required=True, type=path, help="the prompt under evaluation")
    parser.add_argument("--append", action="store_true",
                        help="if the prompt has no placeholder line, add the transcript at its end")
    parser.add_argument("--all", action="store_true", help="render every fixture (needs --out)")
    add_output_option(parser, "--out", metavar="DIR", help="with --all: write DIR/<fixture_id>.md for each fixture "
                      "(never a folder holding the prompt or the corpus)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.all == bool(args.fixture_id) or bool(args.out) != args.all:
        raise UsageError("give either FIXTURE_ID, or --all with --out DIR")
    if args.all:
        rendered = api.render_all(args.corpus, args.prompt, args.out, append=args.append, force=args.force)
        for line in rendered.errors:
            print(f"corpustools render: {line}", file=err)
        say_wrote(err, args.out, f"{len(rendered.written)} rendered prompt{'' if len(rendered.written) == 1 else 's'}")
        return 2 if rendered.errors else 0
    out.write(api.render(args.corpus, args.fixture_id, args.prompt, append=args.append))
    return 0
