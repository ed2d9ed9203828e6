"""corpustools export jsonl|inspect|promptfoo CORPUS --prompt FILE --out PATH [--replay RUN]"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import (
    FormatNames,
    Subparsers,
    add_command,
    add_corpus_argument,
    add_output_option,
    path,
)
from corpustools.io.writing import say_wrote

HELP = "write a corpus, rendered with a prompt, as a JSONL dataset, an inspect_ai task or a promptfoo config"


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "export", HELP, ". One row or test per fixture: the prompt as `corpustools render` prints it, the "
        "fixture id, the gold output, what the labels expect. jsonl: one JSON object per line (openai/evals, "
        "inspect_ai's json_dataset, datasets.load_dataset('json')); inspect: a folder with that dataset.jsonl and a "
        "task.py; promptfoo: a promptfooconfig.yaml whose assertions approximate the labels. corpustools' score of "
        "the imported run is the reference (docs/interop.md).")
    parser.add_argument("kind", metavar="FORMAT", choices=FormatNames(api.export_formats), help="jsonl, inspect or promptfoo")
    add_corpus_argument(parser)
    parser.add_argument("--prompt", metavar="FILE", required=True, type=path, help="the prompt under evaluation")
    add_output_option(parser, "--out", metavar="PATH", required=True,
                      help="jsonl: the file; inspect: the folder (dataset.jsonl, task.py, replay.json); promptfoo: "
                      "the config file, or a folder to write promptfooconfig.yaml in")
    parser.add_argument("--replay", metavar="RUN", type=path,
                        help="inspect and promptfoo: answer each fixture with this run's saved output instead of "
                        "calling a model (inspect: a replay solver; promptfoo: each test's providerOutput)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    for written in api.export(args.kind, args.corpus, args.prompt, args.out, replay=args.replay, force=args.force):
        say_wrote(err, written)
    return 0
