"""Command line: parses arguments and prints. Every subcommand lives in corpustools.commands."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from corpustools import __version__
from corpustools.commands import COMMANDS


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="corpustools",
        description="Lint, score and compare a labeled fixture corpus for an LLM prompt. "
        "Deterministic, offline, read-only on corpora.",
    )
    parser.add_argument("--version", action="version", version=f"corpustools {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:  # a missing command module is an internal error, never a skipped command
        importlib.import_module(f"corpustools.commands.{name}").register(subparsers)
    return parser


def _utf8(stream):
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(encoding="utf-8", errors="replace")
        except (ValueError, OSError):
            pass
    return stream


def main(argv: list[str] | None = None) -> int:
    """Run corpustools; returns the exit code (0 ok, 1 findings, 2 usage/config/internal error)."""
    try:
        parser = build_parser()
    except Exception as exc:  # a command module that fails to import: exit 2, one line
        return _internal_error(exc, _utf8(sys.stderr))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    out, err = _utf8(sys.stdout), _utf8(sys.stderr)
    try:
        return args.run(args, out, err)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # never a traceback for a user; CORPUSTOOLS_DEBUG=1 shows it
        return _internal_error(exc, err)


def _internal_error(exc: Exception, err) -> int:
    if os.environ.get("CORPUSTOOLS_DEBUG"):
        raise exc
    print(f"corpustools: internal error: {type(exc).__name__}: {' '.join(str(exc).split())[:300]}", file=err)
    return 2


if __name__ == "__main__":
    sys.exit(main())
