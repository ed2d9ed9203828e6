"""corpustools import promptfoo RESULTS.json --corpus CORPUS --run DIR [--prompt FILE] [--column LABEL] [--operator NAME]
corpustools import inspect LOG --corpus CORPUS --run DIR [--prompt FILE] [--epoch N] [--operator NAME]"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import FORCE_HELP, Subparsers, add_actions, add_command, path
from corpustools.io.positions import printable
from corpustools.io.writing import say_wrote

HELP = "write a run made with promptfoo or inspect_ai as a run folder (DIR/<fixture_id>.json and run.yaml) to score"

_RUN_HELP = ("the run folder to write (absent, empty, or holding only a run.yaml; anything else needs --force): "
             "DIR/<fixture_id>.json (.txt for a text output) and DIR/run.yaml, as `run init` writes it")
_PROMPT_HELP = ("the prompt the run was made with: recorded in run.yaml (its sha256, Version: line) and rendered "
                "for each fixture to compare with the prompt the log holds (input drift); without it, run.yaml "
                "records the prompt the log holds")


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "import", HELP, ". corpustools never runs either tool: it reads the file the tool wrote. The run "
        "is then scored like any other (corpustools score CORPUS DIR); docs/interop.md maps every field.")
    tools = add_actions(parser, "tool", "TOOL")
    promptfoo = tools.add_parser(
        "promptfoo", help="promptfoo's `eval -o results.json` (results version 3)",
        description="Read promptfoo's results file (results version 3): the fixture of each result is its test's "
        "metadata.fixture_id, then vars.fixture_id, then its description; the answer is response.output, byte for "
        "byte. A test that errored writes no file (scored as missing). run.yaml: the model from the provider's label "
        "or id, the temperature from the provider config, harness `promptfoo <version>`, started_at from the results' "
        "timestamp, tokens and cost summed.")
    promptfoo.add_argument("log", metavar="RESULTS.json", type=path, help="promptfoo's results file")
    promptfoo.add_argument("--column", metavar="LABEL",
                           help="the column (prompt x provider) to import when the file holds several: its name "
                           "`[provider] label` as listed when it is missing, or a prompt label or provider that names "
                           "one column")
    _common(promptfoo)
    promptfoo.set_defaults(run=run_promptfoo, error_prefix="corpustools import promptfoo")
    inspect = tools.add_parser(
        "inspect", help="an inspect_ai eval log (.json; .eval with inspect_ai installed)",
        description="Read an inspect_ai eval log: a .json log with the standard library, an .eval log through "
        "inspect_ai (the interop extra). sample.id is the fixture id and output.completion the answer, byte for byte; "
        "a sample with an error or a limit writes no file (scored as missing). run.yaml: eval.model, "
        "model_generate_config.temperature, harness `inspect_ai <version>`, eval.created, stats.model_usage.")
    inspect.add_argument("log", metavar="LOG", type=path, help="the eval log (.json or .eval)")
    inspect.add_argument("--epoch", metavar="N", type=int,
                         help="the epoch to import when the log holds several (or put {epoch} in --run DIR to write "
                         "one run per epoch: repeated runs for the noise floor)")
    _common(inspect)
    inspect.set_defaults(run=run_inspect, error_prefix="corpustools import inspect")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpus", metavar="CORPUS", required=True, type=path, help="the corpus the run answers")
    parser.add_argument("--run", metavar="DIR", dest="run_dir", required=True, type=path, help=_RUN_HELP)
    parser.add_argument("--prompt", metavar="FILE", type=path, help=_PROMPT_HELP)
    parser.add_argument("--operator", metavar="NAME", default="unrecorded", help="who ran the model (run.yaml)")
    parser.add_argument("--force", action="store_true", help="replace the run in a DIR that holds one; " + FORCE_HELP)


def run_promptfoo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    return _said(args, err, api.import_promptfoo(args.log, args.corpus, args.run_dir, column=args.column,
                                                 prompt=args.prompt, operator=args.operator, force=args.force))


def run_inspect(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    return _said(args, err, api.import_inspect(args.log, args.corpus, args.run_dir, epoch=args.epoch,
                                               prompt=args.prompt, operator=args.operator, force=args.force))


def _said(args: argparse.Namespace, err: TextIO, runs: list[api.ImportedRun]) -> int:
    """What each imported run's folder holds now, and what of the log was not imported."""
    prefix = args.error_prefix
    for imported in runs:
        for line in imported.drift:
            print(printable(f"{prefix}: warning: {line}"), file=err)
        for line in imported.remarks:
            print(printable(f"{prefix}: note: {line}"), file=err)
        for fixture_id, why in imported.unanswered:
            print(printable(f"{prefix}: note: {fixture_id}: no answer in the log ({why}); no result file, scored as "
                            "missing"), file=err)
        if imported.absent:
            print(printable(f"{prefix}: note: {imported.absent_note()}"), file=err)
        for removed in imported.removed:
            print(printable(f"{prefix}: note: removed {removed}, a result of the run replaced (--force)"), file=err)
        count = len(imported.written)
        say_wrote(err, imported.folder, f"{count} result{'' if count == 1 else 's'} and run.yaml")
    return 0
