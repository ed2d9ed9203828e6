"""corpustools run init RUN --corpus CORPUS --prompt FILE [--model M --temperature T --harness H --operator O]
corpustools run init RUN --corpus CORPUS --refresh [--inputs-unchanged]"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import Subparsers, add_actions, add_command, path
from corpustools.io.errors import UsageError
from corpustools.io.positions import printable
from corpustools.io.writing import say_wrote

HELP = "record how a results folder is produced (run init writes RUN/run.yaml)"


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "run", HELP)
    actions = add_actions(parser)
    init = actions.add_parser(
        "init", help="write RUN/run.yaml before running the model by hand",
        description="Run it once per run folder, before saving any output into it: it writes RUN/run.yaml, "
        "recording the prompt's path, name, Version: line and sha256, the model, temperature, harness, operator, "
        "start time, and the corpus: its sha256 and version, the hash of the inputs the model sees (the prompt and "
        "each session as rendered) and the hash of the labels (sidecars, corpus.yaml, the output contract), so that "
        "score and compare can tell changed inputs (drift: the outputs answer other questions) from revised labels "
        "(scored under the current labels). Refuses to overwrite an existing run.yaml unless --force. With "
        "--refresh it adds those hashes to an existing run.yaml that records only the corpus sha256, after checking "
        "that the sessions are the ones the run was made against (against the corpus's git history).")
    init.add_argument("results", metavar="RUN", type=path, help="the results folder (created if missing)")
    init.add_argument("--corpus", metavar="CORPUS", required=True, type=path,
                      help="the corpus the run is produced against")
    init.add_argument("--prompt", metavar="FILE", type=path,
                      help="the prompt file under evaluation (required unless --refresh)")
    init.add_argument("--prompt-name", metavar="NAME",
                      help="default: corpus.yaml's prompt_under_eval name, else the file name")
    init.add_argument("--model", default="unrecorded", help="the exact model identifier")
    init.add_argument("--temperature", default="unrecorded", help="a number, or e.g. 'unknown'")
    init.add_argument("--harness", help="the program the prompts are pasted into (default: corpus.yaml's first)")
    init.add_argument("--operator", default="unrecorded", help="who runs the model")
    init.add_argument("--started-at", metavar="TIMESTAMP", help="default: now, in UTC (ISO 8601)")
    init.add_argument("--notes", default="", help="free notes (edit run.yaml later to add more)")
    init.add_argument("--force", action="store_true", help="replace an existing run.yaml (a read-only one too)")
    init.add_argument("--refresh", action="store_true",
                      help="add the inputs and labels hashes to RUN/run.yaml, written before they existed, once "
                      "its sessions are known unchanged since the run (refused, naming the first changed session, "
                      "when they changed); what run.yaml records is kept")
    init.add_argument("--inputs-unchanged", action="store_true",
                      help="with --refresh: when the corpus's git history cannot say which sessions the run was made "
                      "against, take your word that they are unchanged (the labels then are unknown)")
    init.set_defaults(run=run_init, error_prefix="corpustools run init")


# What --refresh keeps from run.yaml, so it takes none of the options that would record them.
_RECORDED = ("prompt", "prompt_name", "model", "temperature", "harness", "operator", "started_at", "notes", "force")


def run_init(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.refresh:
        return run_refresh(args, err)
    if args.inputs_unchanged:
        raise UsageError("--inputs-unchanged goes with --refresh")
    if args.prompt is None:
        raise UsageError("--prompt FILE is required (or --refresh, to add the inputs and labels hashes to an existing "
                         "run.yaml)")
    path, remarks = api.run_init(
        args.results, args.corpus, args.prompt, model=args.model, temperature=args.temperature, harness=args.harness,
        operator=args.operator, started_at=args.started_at, prompt_name=args.prompt_name, notes=args.notes,
        force=args.force)
    for remark in remarks:
        print(f"corpustools run init: note: {printable(remark)}", file=err)
    say_wrote(err, path)
    return 0


def run_refresh(args: argparse.Namespace, err: TextIO) -> int:
    given = [f"--{name.replace('_', '-')}" for name in _RECORDED
             if getattr(args, name) not in (None, False, "", "unrecorded")]
    if given:
        raise UsageError(f"--refresh keeps what run.yaml records: {', '.join(given)} cannot go with it")
    path, says = api.run_refresh(args.results, args.corpus, inputs_unchanged=args.inputs_unchanged)
    print(f"corpustools run init: {printable(says)}", file=err)
    if path is not None:
        say_wrote(err, path, "added the inputs and labels hashes")
    return 0
