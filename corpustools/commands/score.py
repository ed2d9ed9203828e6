"""corpustools score CORPUS RESULTS... [--format text|markdown|json|html] [--output FILE] [--append-history FILE]
[--fail-under KEY=NUMBER,...] [--history FILE] [--allow-mixed]"""

from __future__ import annotations

from corpustools.commands.options import add_command, add_corpus_argument, add_report_options, path
from corpustools.io.errors import UsageError
from corpustools.score.thresholds import parse_thresholds

FORMATS = ("text", "markdown", "json", "html")

HELP = ("score saved prompt outputs against the corpus labels (advisory: exit 0 whenever a report is made, "
        "unless --fail-under)")


def register(subparsers) -> None:
    parser = add_command(
        subparsers, "score", HELP, ". With two or more RESULTS folders (runs of one prompt "
        "version) the report adds the run-to-run noise floor, flaky fixtures and point stability.")
    add_corpus_argument(parser)
    parser.add_argument("results", metavar="RESULTS", nargs="+", type=path,
                        help="a run folder of <fixture_id>.json outputs (and optionally run.yaml)")
    add_report_options(parser, FORMATS, "text")
    parser.add_argument("--append-history", metavar="FILE", type=path,
                        help="append one row to the Markdown history table in FILE (created if missing; "
                        "not when the table already has an identical row; a read-only FILE only with --force)")
    parser.add_argument("--history", metavar="FILE", type=path,
                        help="with --format html, draw the history table in FILE (as --append-history writes it); "
                        "--append-history FILE draws its file, with the new row, by itself")
    parser.add_argument("--fail-under", metavar="KEY=NUMBER,...", type=parse_thresholds, default=(),
                        help="exit 1 when a proportion (pass_rate, recall, gate_accuracy; the mean over runs) "
                        "is under its threshold, or the phantom count (phantoms=N, at most N) is over it, e.g. "
                        "pass_rate=0.8,recall=0.95,phantoms=3; the report is still made")
    parser.add_argument("--allow-mixed", action="store_true",
                        help="pool RESULTS folders whose run.yaml records another prompt sha256, model or output "
                        "contract (they are not repeats of one prompt; the report says so); without it, refused")
    parser.set_defaults(run=run)


def run(args, out, err) -> int:
    from corpustools.io.errors import InputError
    from corpustools.io.gcpause import gc_paused
    from corpustools.io.inputs import claim_update
    from corpustools.io.positions import Pos
    from corpustools.io.writing import STANDARD_OUTPUT, emit, refuse_corpus_path, refuse_target, say_wrote
    from corpustools.score.history import append_row, appended, has_row, history_row, read_history
    from corpustools.score.report.json import score_json
    from corpustools.score.report.markdown import score_markdown
    from corpustools.score.report.text import score_text
    from corpustools.score.scoring import score_report
    from corpustools.score.thresholds import breaches

    if args.history and args.format != "html":
        raise UsageError("--history draws the history in the HTML report: use it with --format html")
    if args.append_history == STANDARD_OUTPUT:
        raise UsageError("--append-history needs a file to append to, not '-'")
    with gc_paused():  # scoring builds many small acyclic objects; see corpustools.io.gcpause
        report = score_report(args.corpus, args.results, allow_mixed=args.allow_mixed)
    row = None
    history: tuple[str, str] | None = None  # (the history table read, its file): drawn in HTML
    if args.append_history:  # refuse a bad history file before writing the report
        refuse_corpus_path(args.append_history, args.corpus)
        claim_update(args.append_history, "--append-history")  # never a result; the report never over it
        refuse_target(args.append_history, force=args.force, updating=True)
        row = history_row(report)
        table = read_history(args.append_history)
        after = appended(table, args.append_history, row)
        if has_row(table, row):  # the same run scored again: one row is its record
            row = None
        history = (after, args.append_history)
    if args.history:
        drawn = read_history(args.history)
        if drawn is None:
            raise InputError(Pos(args.history), "no such history file")
        history = (drawn, args.history)
    if args.format == "html":
        text = html_report(args, report, history)
    else:
        text = {"markdown": score_markdown, "json": score_json, "text": score_text}[args.format](report)
    emit(text, args.output, args.corpus, out, err=err, force=args.force)
    if args.append_history and row is None:
        print("corpustools score: the history already has this row; not appended", file=err)
    if row is not None:
        append_row(args.append_history, row, force=args.force)
        say_wrote(err, args.append_history, "appended a row")
    breached = breaches(report, args.fail_under)
    for line in breached:
        print(f"corpustools score: {line}", file=err)
    return 1 if breached else 0


def html_report(args, report, history) -> str:
    """The HTML page: it also shows transcripts and sidecar terms, so it loads the corpus itself."""
    from corpustools.score.history import history_rows
    from corpustools.score.report.html import score_html
    from corpustools.score.scoring import open_corpus

    drawn = None if history is None else (history_rows(history[0], history[1]), history[1])
    return score_html(report, open_corpus(args.corpus).corpus, drawn)
