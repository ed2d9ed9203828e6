"""corpustools cache clean [--cache-dir DIR]"""

from __future__ import annotations

import argparse
from typing import TextIO

from corpustools import api
from corpustools.commands.options import Subparsers, add_actions, add_command, path
from corpustools.io.positions import printable

HELP = "manage lint's cache: `cache clean` removes every entry lint wrote"


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "cache", HELP, " (in --cache-dir DIR, else CORPUSTOOLS_CACHE_DIR, else "
        "$XDG_CACHE_HOME/corpustools, else ~/.cache/corpustools). Only the names lint writes are removed; "
        "exit 2 for a folder lint would not trust (another user's, or writable by others).")
    actions = add_actions(parser)
    clean = add_command(actions, "clean", "remove every entry of lint's cache")
    clean.add_argument("--cache-dir", metavar="DIR", type=path, help="the cache folder (default: as lint finds it)")
    clean.set_defaults(run=run, error_prefix="corpustools cache clean")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    folder, removed = api.clean_cache(args.cache_dir)
    print(f"Removed {removed} cache {'entry' if removed == 1 else 'entries'} from {printable(folder)}.", file=out)
    return 0
