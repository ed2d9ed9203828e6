"""corpustools run init RESULTS --corpus CORPUS --prompt FILE [--model M --temperature T --harness H --operator O]"""

from __future__ import annotations

from corpustools.commands.options import add_command, path

HELP = "record how a results folder is produced (run init writes RESULTS/run.yaml)"


def register(subparsers) -> None:
    parser = add_command(subparsers, "run", HELP)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    init = actions.add_parser(
        "init", help="write RESULTS/run.yaml before running the model by hand",
        description="Run it once per run folder, before saving any output into it: it writes RESULTS/run.yaml, "
        "recording the prompt's path, name, Version: line and sha256, the model, temperature, harness, operator, "
        "start time and the sha256 of the corpus, so that score and compare can tell when the prompt or the "
        "corpus changed since (drift). Refuses to overwrite an existing run.yaml unless --force.")
    init.add_argument("results", metavar="RESULTS", type=path, help="the results folder (created if missing)")
    init.add_argument("--corpus", metavar="CORPUS", required=True, type=path, help="the corpus the run is produced against")
    init.add_argument("--prompt", metavar="FILE", required=True, type=path, help="the prompt file under evaluation")
    init.add_argument("--prompt-name", metavar="NAME",
                      help="default: corpus.yaml's prompt_under_eval name, else the file name")
    init.add_argument("--model", default="unrecorded", help="the exact model identifier")
    init.add_argument("--temperature", default="unrecorded", help="a number, or e.g. 'unknown'")
    init.add_argument("--harness", help="the program the prompts are pasted into (default: corpus.yaml's first)")
    init.add_argument("--operator", default="unrecorded", help="who runs the model")
    init.add_argument("--started-at", metavar="TIMESTAMP", help="default: now, in UTC (ISO 8601)")
    init.add_argument("--notes", default="", help="free notes (edit run.yaml later to add more)")
    init.add_argument("--force", action="store_true", help="replace an existing run.yaml (a read-only one too)")
    init.set_defaults(run=run_init)
    parser.set_defaults(run=run_without_action, run_parser=parser)


def run_without_action(args, out, err) -> int:
    args.run_parser.print_help(err)
    return 2


def run_init(args, out, err) -> int:
    import datetime

    from corpustools.io.positions import InputError, printable
    from corpustools.io.writing import refuse_corpus_path, say_wrote
    from corpustools.manifest import build_manifest, manifest_yaml, write_manifest
    from corpustools.model.corpus import require_corpus

    # The one clock corpustools reads: run.yaml records when the run was started.
    started_at = args.started_at or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        require_corpus(args.corpus)
        refuse_corpus_path(args.results, args.corpus)
        manifest, remarks = build_manifest(
            args.corpus, args.prompt, model=args.model, temperature=args.temperature, harness=args.harness,
            operator=args.operator, started_at=started_at, prompt_name=args.prompt_name, notes=args.notes)
        path = write_manifest(args.results, manifest_yaml(manifest), force=args.force)
    except InputError as error:
        print(f"corpustools run init: {error}", file=err)
        return 2
    for remark in remarks:
        print(f"corpustools run init: note: {printable(remark)}", file=err)
    say_wrote(err, path)
    return 0
