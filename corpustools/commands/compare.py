"""corpustools compare CORPUS --base RUN... --candidate RUN... [--format markdown|json|text|html] [--fail-on-regression]"""

from __future__ import annotations

from corpustools.commands.options import add_command, add_corpus_argument, add_report_options, path

FORMATS = ("markdown", "json", "text", "html")

HELP = ("compare two prompt versions' runs fixture by fixture, with noise and a paired test "
        "(advisory: exit 0, unless --fail-on-regression)")


def register(subparsers) -> None:
    parser = add_command(
        subparsers, "compare", HELP, ". Both sides are scored under the current labels (a run made "
        "before they were revised says so in one line); refuses (exit 2) when a run's sessions changed since it was "
        "made, or its run.yaml records only a corpus hash that differs, unless --allow-corpus-drift.")
    add_corpus_argument(parser, "the corpus folder both sides are scored against")
    parser.add_argument("--base", metavar="RUN", action="append", required=True, type=path,
                        help="a results folder of the current version (repeat for several runs)")
    parser.add_argument("--candidate", metavar="RUN", action="append", required=True, type=path,
                        help="a results folder of the proposed version (repeat for several runs)")
    add_report_options(parser, FORMATS, "markdown")
    parser.add_argument("--allow-corpus-drift", action="store_true",
                        help="compare even when a run's outputs answer other inputs: a session changed since the run, or "
                        "a run.yaml with only an older corpus sha256 (the report says so)")
    parser.add_argument("--fail-on-regression", action="store_true",
                        help="exit 1 when the comparison is REGRESSED (one line on standard error says why); "
                        "the report is still made")
    parser.set_defaults(run=run)


def run(args, out, err) -> int:
    from corpustools.io.positions import InputError, printable
    from corpustools.io.writing import emit
    from corpustools.score.compare import CorpusDrift, compare_runs
    from corpustools.score.compare_markdown import compare_markdown
    from corpustools.score.report_json import compare_json

    try:
        comparison = compare_runs(args.corpus, args.base, args.candidate, allow_drift=args.allow_corpus_drift)
        if args.format == "html":
            from corpustools.score.compare_html import compare_html
            from corpustools.score.scoring import open_corpus

            text = compare_html(comparison, open_corpus(args.corpus).corpus)  # transcripts and sidecars too
        elif args.format == "text":
            from corpustools.score.compare_text import compare_text

            text = compare_text(comparison)
        else:
            text = compare_json(comparison) if args.format == "json" else compare_markdown(comparison)
        emit(text, args.output, args.corpus, out, err=err, force=args.force)
    except CorpusDrift as drift:
        print(f"corpustools compare: {printable(str(drift))}; refusing to compare (pass --allow-corpus-drift to compare anyway)",
              file=err)
        return 2
    except InputError as error:
        print(f"corpustools compare: {error}", file=err)
        return 2
    if args.fail_on_regression and comparison.regressed:
        print(f"corpustools compare: REGRESSED: {printable('; '.join(comparison.regressed_because))}", file=err)
        return 1
    return 0
