"""What every command spells the same way: its subparser (one summary line for the command list,
the same line opening its description), the CORPUS argument, every argument naming a file or
folder (`path`), and `--format`, `--output FILE` and `--force`."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TextIO, TypeAlias, overload

# What a command's register() is given: the subparsers of `corpustools` (or of a command's actions).
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
# A report family's FORMATTERS table, as a command reads it: format name -> render(report) -> str.
Formatters: TypeAlias = Mapping[str, Callable[..., str]]

CORPUS_HELP = "the corpus folder (holds corpus.yaml)"
FORCE_HELP = "replace a read-only output file (never an input, a link or a corpus's own file)"


def path(text: str) -> str:
    """The argparse type of every argument that names a file or folder: an empty one is a usage
    error (exit 2), never the working folder (`init ''` must not scaffold into it)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path names no file or folder")
    return text


def add_command(subparsers: Subparsers, name: str, summary: str, details: str = "",
                **kwargs: Any) -> argparse.ArgumentParser:
    """Add the subcommand `name`: `summary` in the command list, `summary` + `details` as its
    --help description; other keyword arguments go to argparse. Its errors are printed after
    `corpustools NAME:` (the parser's `error_prefix`; corpustools.cli prints every error)."""
    parser = subparsers.add_parser(name, help=summary, description=summary + details, **kwargs)
    parser.set_defaults(error_prefix=f"corpustools {name}")
    return parser


def add_actions(parser: argparse.ArgumentParser, dest: str = "action", metavar: str = "ACTION") -> Subparsers:
    """The subcommands of a command (`run init`, `import promptfoo`, `cache clean`), each added with
    add_command; the command given none prints its help on standard error and exits 2."""
    parser.set_defaults(run=_help_without_action, parser_of_actions=parser)
    return parser.add_subparsers(dest=dest, metavar=metavar, parser_class=type(parser))


def _help_without_action(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    args.parser_of_actions.print_help(err)
    return 2


def add_corpus_argument(parser: argparse.ArgumentParser, help: str = CORPUS_HELP) -> None:
    """Add the positional CORPUS argument."""
    parser.add_argument("corpus", metavar="CORPUS", type=path, help=help)


class FormatNames(Sequence[str]):
    """`--format`'s choices: the keys of a report family's FORMATTERS table (or any names a function
    returns, such as export's formats), read the first time they are needed (the option given,
    --help, a usage error), so that the command line starts without importing every report of
    every command."""

    def __init__(self, formatters: Callable[[], Iterable[str]]) -> None:
        self._formatters = formatters
        self._names: tuple[str, ...] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        if self._names is None:
            self._names = tuple(self._formatters())
        return self._names

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return self.names[index]

    def __len__(self) -> int:
        return len(self.names)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __contains__(self, name: object) -> bool:
        return name in self.names


def add_report_options(parser: argparse.ArgumentParser, formatters: Callable[[], Mapping[str, object]], default: str, *,
                       output: bool = True, resolved_later: bool = False) -> None:
    """Add `--format {the keys of formatters()}` (help names the default) and, when `output`,
    `--output FILE` and `--force`. `formatters` returns the family's FORMATTERS table: a format
    added there is a choice here.

    `resolved_later`: the parsed value is None when the option is absent, for a command that
    reads the options in two places (calibrate) and applies `default` itself."""
    # argparse formats the metavar once when the option is added: a placeholder then, the choices after
    action = parser.add_argument("--format", choices=FormatNames(formatters), metavar="FORMAT",
                                 default=None if resolved_later else default, help=f"report format (default: {default})")
    action.metavar = None
    if output:
        add_output_option(parser, "--output", help="write the report to FILE instead of standard output (atomically; "
                          "'-': standard output); never over a file the command reads")


def add_output_option(parser: argparse.ArgumentParser, *names: str, help: str, metavar: str = "FILE",
                      **kwargs: Any) -> None:
    """An option naming the file a command writes, with `--force` beside it."""
    parser.add_argument(*names, metavar=metavar, type=path, help=help, **kwargs)
    parser.add_argument("--force", action="store_true", help=FORCE_HELP)
