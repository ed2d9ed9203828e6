"""What every command spells the same way: its subparser (one summary line for the command list,
the same line opening its description), the CORPUS argument, and `--format` and `--output FILE`."""

from __future__ import annotations

CORPUS_HELP = "the corpus folder (holds corpus.yaml)"


def add_command(subparsers, name: str, summary: str, details: str = "", **kwargs):
    """Add the subcommand `name`: `summary` in the command list, `summary` + `details` as its
    --help description; other keyword arguments go to argparse."""
    return subparsers.add_parser(name, help=summary, description=summary + details, **kwargs)


def add_corpus_argument(parser, help: str = CORPUS_HELP) -> None:
    """Add the positional CORPUS argument."""
    parser.add_argument("corpus", metavar="CORPUS", help=help)


def add_report_options(parser, formats: tuple[str, ...], default: str, *, output: bool = True,
                       resolved_later: bool = False) -> None:
    """Add `--format {formats}` (help names the default) and, when `output`, `--output FILE`.

    `resolved_later`: the parsed value is None when the option is absent, for a command that
    reads the options in two places (calibrate) and applies `default` itself."""
    parser.add_argument("--format", choices=formats, default=None if resolved_later else default,
                        help=f"report format (default: {default})")
    if output:
        parser.add_argument("--output", metavar="FILE",
                            help="write the report to FILE instead of standard output (atomically)")
