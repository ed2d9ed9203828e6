"""The options every reporting command spells the same way: `--format` and `--output FILE`."""

from __future__ import annotations


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
