"""The errors a user reads: one hierarchy, one way to be shown.

    CorpustoolsError              a user-facing error: the command line prints its lines and exits 2
    ├── InputError                bad input: a file that cannot be read as what it should be, or a
    │   │                         setting that makes no sense; carries the Pos it names
    │   ├── ConfigError           a bad `lint:` setting, rule code or lint target (corpustools.lint)
    │   └── Unreadable            a file the system would not give (corpustools.io.textfile)
    ├── UsageError                command-line options that do not go together
    │   └── PairsError            calibrate's RUN --verdicts FILE pairs (corpustools.commands.calibrate)
    ├── MixedRuns                 runs given to score that are not repeats of one prompt (corpustools.score)
    ├── CorpusDrift               a run whose outputs answer other inputs, given to compare (corpustools.score)
    └── CalibrationProblems       every problem of calibrate's worksheets and runs (corpustools.calibrate)

Library code raises them and never prints; `corpustools.cli` is the one place that turns one into
what a user sees: each line of `lines(prefix)` on standard error (`prefix` is the command's name,
`corpustools lint`), and `exit_code` as the exit status. A Python caller catches CorpustoolsError
and reads `str(error)` (docs/python-api.md). Any other exception is a bug: the command line says
`internal error`, one line, exit 2.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from corpustools.io.positions import Pos, printable


class CorpustoolsError(Exception):
    """An error a user is meant to read and can act on: never a traceback."""

    exit_code = 2

    def lines(self, prefix: str) -> list[str]:
        """What the command line prints, one line each, `prefix` being the command's name."""
        return [f"{prefix}: {self}"]


# Not frozen: a frozen exception cannot take the traceback a generator-based context manager
# sets on whatever passes through it (contextlib.contextmanager); hashed by its values all the same.
@dataclass(unsafe_hash=True)
class InputError(CorpustoolsError):
    """The user's input is bad: a file that could not be read as the format it should have, or an
    argument or setting that makes no sense (lint's ConfigError is one). One line, never a
    traceback; `path:line:col: message`, or just the message when no file is to blame."""

    pos: Pos
    message: str

    def __str__(self) -> str:
        where = str(self.pos)
        return f"{where}: {printable(self.message)}" if where else printable(self.message)


class ConfigError(InputError):
    """A bad `lint:` setting, command-line code or lint target: one line, exit 2. (lint's; here, not
    in lint/config.py, so that what refuses a lint target or a cache folder loads no more than this.)"""

    def lines(self, prefix: str) -> list[str]:
        """`corpus.yaml:21:5: message`, the path as lint shows paths; `prefix: message` when no file
        is to blame (a command-line code, a lint target)."""
        from corpustools.io.paths import display_path  # io.paths notes probes through io.inputs, which imports this

        if not self.pos.path:
            return [f"{prefix}: {self}"]
        return [str(replace(self, pos=replace(self.pos, path=display_path(self.pos.path))))]


class UsageError(CorpustoolsError):
    """Command-line options that do not go together, or a value only the command can check: one
    line naming the option and what to give instead."""
