"""corpustools adjudicate CORPUS RUN --out FILE (or --output FILE) [--show-terms]"""

from __future__ import annotations

from corpustools.commands.options import add_command, add_corpus_argument

HELP = "write a blind worksheet on which a person judges one run's outputs (for calibrate)"


def register(subparsers) -> None:
    parser = add_command(
        subparsers, "adjudicate", HELP, ". The worksheet shows each fixture's session path, labels' "
        "notes and proposals, never the scorer's verdicts and, unless --show-terms, not the match terms. "
        "Refuses (exit 2) to overwrite a worksheet that already has an answer. See docs/calibration.md.")
    add_corpus_argument(parser)
    parser.add_argument("results", metavar="RUN", help="the run folder of <fixture_id>.json outputs to judge")
    # --output too: every other command that writes a file spells it so (--out stays: scripts use it)
    parser.add_argument("--out", "--output", dest="out", metavar="FILE", required=True,
                        help="the worksheet to write (YAML)")
    parser.add_argument("--show-terms", action="store_true",
                        help="also show each point's match and forbidden terms (for a maintainer, not a blind judge)")
    parser.set_defaults(run=run)


def run(args, out, err) -> int:
    import os

    from corpustools.calibrate.worksheet import build_worksheet, refuse_answered, worksheet_yaml
    from corpustools.io.positions import InputError, Pos
    from corpustools.io.writing import refuse_corpus_path, say_wrote, write_text
    from corpustools.score.scoring import open_corpus

    try:
        loaded = open_corpus(args.corpus)
        if not os.path.isdir(args.results):
            raise InputError(Pos(args.results), "no such results folder")
        refuse_corpus_path(args.out, args.corpus)
        refuse_answered(args.out, loaded.contract)
        sheet = build_worksheet(loaded, args.results, shows_terms=args.show_terms)
        write_text(args.out, worksheet_yaml(sheet))
    except InputError as error:
        print(f"corpustools adjudicate: {error}", file=err)
        return 2
    for warning in loaded.warnings + sheet.skipped:
        print(f"corpustools adjudicate: warning: {warning}", file=err)
    proposals = sum(len(f.proposals) for f in sheet.fixtures)
    say_wrote(err, args.out, f"{len(sheet.fixtures)} fixture{'' if len(sheet.fixtures) == 1 else 's'}, "
                             f"{proposals} proposal{'' if proposals == 1 else 's'} to judge")
    return 0
