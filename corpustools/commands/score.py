"""corpustools score CORPUS RESULTS... [--format markdown|json|text] [--output FILE] [--append-history FILE]"""

from __future__ import annotations

HELP = "score saved prompt outputs against the corpus labels (advisory: exit 0 whenever a report is made)"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "score", help=HELP, description=HELP + ". With two or more RESULTS folders (runs of one prompt "
        "version) the report adds the run-to-run noise floor, flaky fixtures and point stability.")
    parser.add_argument("corpus", metavar="CORPUS", help="the corpus folder (holds corpus.yaml)")
    parser.add_argument("results", metavar="RESULTS", nargs="+",
                        help="a run folder of <fixture_id>.json outputs (and optionally run.yaml)")
    parser.add_argument("--format", choices=("markdown", "json", "text"), default="markdown")
    parser.add_argument("--output", metavar="FILE", help="write the report to FILE instead of standard output")
    parser.add_argument("--append-history", metavar="FILE",
                        help="append one row to the Markdown history table in FILE (created if missing)")
    parser.set_defaults(run=run)


def run(args, out, err) -> int:
    from corpustools.gcpause import gc_paused
    from corpustools.positions import printable
    from corpustools.positions import InputError
    from corpustools.score.history import append_row, appended, history_row, read_history
    from corpustools.writing import emit, refuse_corpus_path, refuse_inputs, refuse_target, run_folder_inputs
    from corpustools.score.report_json import score_json
    from corpustools.score.report_markdown import score_markdown
    from corpustools.score.report_text import score_text
    from corpustools.score.scoring import score_report

    try:
        with gc_paused():  # scoring builds many small acyclic objects; see corpustools.gcpause
            report = score_report(args.corpus, args.results)
        text = {"markdown": score_markdown, "json": score_json, "text": score_text}[args.format](report)
        row = None
        inputs = run_folder_inputs(args.results)
        if args.append_history:  # refuse a bad history file before writing the report
            refuse_corpus_path(args.append_history, args.corpus)
            refuse_target(args.append_history)
            refuse_inputs(args.append_history, inputs)
            if args.output:
                refuse_inputs(args.output, [args.append_history])
            row = history_row(report)
            appended(read_history(args.append_history), args.append_history, row)
        emit(text, args.output, args.corpus, out, inputs)
        if row is not None:
            append_row(args.append_history, row)
            print(f"corpustools score: appended a row to {printable(args.append_history)}", file=err)
    except InputError as error:
        print(f"corpustools score: {error}", file=err)
        return 2
    return 0
