"""corpustools: lint, score and compare a labeled fixture corpus for an LLM prompt.

Layers, lowest first (docs/architecture.md; tests/test_layers.py holds every import to them):

- io/              files, positions, the one YAML dialect, the shipped schemas, writing
- model/           the corpus model, its hashes and its output contract
- lint/ score/ calibrate/ reporting/ interop/ provenance/ validation/
                   the features (packages); render.py, manifest.py and scaffold.py (modules)
- api.py           the Python API (docs/python-api.md): what each command does, as functions
- commands/        one module per subcommand: parse, call the API, print
- cli.py           the entry point (`main(argv) -> int`); __main__.py for `python -m corpustools`
- schemas/         data: the shipped JSON Schemas; new_corpus/: the files `init` writes
"""

import gc as _gc
import os
import sys

# The C module, not `signal`: that one's Python layer builds enums, time enough for a Ctrl-C to land
# inside it before the handler below is installed (a traceback through this file).
try:
    import _signal as _signals  # type: ignore[import-not-found]  # no stub: the same API as signal
except ImportError:  # a Python without it
    import signal as _signals


def _started_as_command() -> bool:
    """Whether this process is the `corpustools` command: the console script (its path is argv[0]
    while it imports this package) or `python -m corpustools` (argv[0] is `-m` while the package is
    found, and the interpreter's own arguments name the module). A program that imports corpustools
    is neither, whatever it does with signals."""
    first = sys.argv[0] if sys.argv else ""
    if first == "-m":
        given = list(getattr(sys, "orig_argv", ()))
        modules = [after for before, after in zip(given, given[1:], strict=False) if before == "-m"]
        modules += [word[2:] for word in given if word.startswith("-m") and len(word) > 2]
        return bool(modules) and modules[0] in ("corpustools", "corpustools.cli")
    name = os.path.basename(first)
    for suffix in (".exe", "-script.pyw", "-script.py"):  # the console script's names on Windows
        name = name.removesuffix(suffix)
    return name == "corpustools"


def _exit_130(_signum, _frame):  # before main() runs there is nothing to unwind: leave at once
    os._exit(130)


# The first instruction of the command is this package's import (the console script imports
# corpustools.cli, which imports this package first): from here on a Ctrl-C exits 130 with no
# traceback; cli.main installs its own handler while a command runs and restores this one after.
# Only the command's process: importing corpustools changes no handler of a program that does.
AS_COMMAND = _started_as_command()  # read by corpustools.cli
if AS_COMMAND:
    try:
        _signals.signal(_signals.SIGINT, _exit_130)
    except (ValueError, OSError):  # not the main thread: nothing to install
        pass
    # The command's cycle collector is off from here, as cli.main keeps it while a command runs
    # (cli._CollectorPaused): importing the command's modules allocates in bursts (classes,
    # functions, tables) that set off about 20 collections, 5-6 ms of a 0.13 s score, for no cycle
    # worth freeing. Only the command's process, as the handler above.
    _gc.disable()

__version__ = "0.2.0"

__all__ = ["__version__"]
