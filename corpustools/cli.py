"""Command line: parses arguments and prints. Every subcommand lives in corpustools.commands.

The exit code is decided by the command's findings, never by the pipe it prints into: a reader
that goes away (`lint | head -1`) or a closed standard output (`>&-`) just stops the printing.
Ctrl-C exits 130 without a traceback, from the first instruction of the package on (its
__init__ installs the handler in the command's process only).

Arguments and file names are UTF-8 whatever the locale: under a locale whose encoding is not
UTF-8 (ISO-8859-1, EUC-JP, C with locale coercion off), the console script and `python -m
corpustools` start again once in Python's UTF-8 mode, where both are decoded as UTF-8 with
surrogateescape (a byte that is not UTF-8 is kept and printed escaped, `\xff`). Everything
printed on standard error passes through `printable`, whoever wrote the message.
"""

from __future__ import annotations

import os
import signal
import sys

from corpustools.io.errors import CorpustoolsError
from corpustools.io.inputs import tracking_inputs


def _set_sigint(handler):
    """Install `handler`; the previous one (None where signals cannot be set: not the main thread)."""
    try:
        return signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError, TypeError):
        return None


def _restore_sigint(previous) -> None:
    """Put `previous` back as the Ctrl-C handler, with Ctrl-C held meanwhile: one that lands while
    it is put back (a replayed lint ends within milliseconds) goes to `previous` (the command's:
    exit 130), never to the handler being replaced (a KeyboardInterrupt traceback)."""
    mask = getattr(signal, "pthread_sigmask", None)
    held = None
    try:
        if mask is not None:
            held = mask(signal.SIG_BLOCK, {signal.SIGINT})  # the mask as it was, put back after
        _set_sigint(previous)
    except KeyboardInterrupt:  # landed before it was held: as if it came after
        _set_sigint(previous)
        if callable(previous):
            previous(signal.SIGINT, None)
        raise
    finally:
        if mask is not None and held is not None:
            mask(signal.SIG_SETMASK, held)


def utf8_mode() -> None:
    """Start this process again in Python's UTF-8 mode (`-X utf8`) when arguments and file names
    would be decoded with a locale encoding that is not UTF-8; return when they already are (or
    the interpreter cannot be started again: then the locale's decoding stays). For entry points
    only, before anything is read: `main(argv)` itself never re-executes."""
    if sys.flags.utf8_mode or sys.getfilesystemencoding().lower().replace("-", "") == "utf8":
        return
    original = getattr(sys, "orig_argv", None)
    if not sys.executable or not original:
        return
    try:  # the same bytes: orig_argv was decoded with surrogateescape, execv encodes it back so
        os.execv(sys.executable, [sys.executable, "-X", "utf8", *original[1:]])
    except OSError:
        return


# The `corpustools` command (its console script or `python -m corpustools`) imports this module
# first, after the package, whose import already made Ctrl-C exit 130 (corpustools/__init__.py);
# restart in UTF-8 mode before the imports below. A program that imports corpustools.cli keeps its
# own signal handlers and locale.
from corpustools import AS_COMMAND, __version__  # noqa: E402

if AS_COMMAND:
    utf8_mode()

import argparse  # noqa: E402
import errno  # noqa: E402
import gc  # noqa: E402
import importlib  # noqa: E402

from corpustools.commands import COMMANDS  # noqa: E402
from corpustools.io.positions import printable  # noqa: E402


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: one line (the argument it quotes escaped), exit 2
        self.exit(2, f"{self.prog}: error: {printable(message)}\n")

    def _check_value(self, action, value):
        # argparse's own check (a command, an action, a KIND, a --format), with the project's did-you-mean
        if action.choices is not None and value not in action.choices:
            from corpustools.io.suggest import unknown_choice_message  # only when a choice is wrong

            raise argparse.ArgumentError(action, unknown_choice_message(value, action.choices))


def commands_to_register(words: list[str] | None) -> tuple[str, ...]:
    """The commands whose parsers `words` (the arguments after `corpustools`) can reach: only the
    one named by the first word, when it names one (its parser alone parses, helps and errs for
    the rest of the line, whichever others exist), else all of them (`--help`, an unknown command
    and its did-you-mean list every one). Building every command's parser imports every command
    module and its argparse options: a start-up cost each run paid for the one it ran."""
    if words and words[0] in COMMANDS:
        return (words[0],)
    return COMMANDS


def build_parser(words: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of `corpustools` (every command), or of the line `words` (commands_to_register)."""
    parser = _Parser(
        prog="corpustools",
        description="Lint, score and compare a labeled fixture corpus for an LLM prompt. "
        "Deterministic, offline, read-only on corpora.",
    )
    parser.add_argument("--version", action="version", version=f"corpustools {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in commands_to_register(words):  # a missing command module: an internal error, never a skipped command
        importlib.import_module(f"corpustools.commands.{name}").register(subparsers)
    return parser


class _Output:
    """A text stream that stops writing, silently, once its reader is gone (EPIPE) or it was
    never open: the command still runs to the end and returns the exit code its findings decide.
    `escaped`: every line written passes through `printable` (standard error: messages quote
    names and values from files, which must not move the cursor or ring the bell). `journal`:
    when set, every write is noted there as (`number`, text), for lint's replay to write again."""

    def __init__(self, stream, *, escaped: bool = False):
        self._stream = stream
        self.closed_by_reader = stream is None
        self._escaped = escaped
        self.journal: list[tuple[int, str]] | None = None
        self.number = 2 if escaped else 1

    def write(self, text: str) -> int:
        if self.journal is not None:
            self.journal.append((self.number, text))
        if self._escaped:
            text = "\n".join(printable(line) for line in text.split("\n"))
        if not self.closed_by_reader:
            try:
                return self._stream.write(text)
            except (BrokenPipeError, ValueError):
                self._lost()
            except OSError as err:
                if err.errno not in (errno.EPIPE, errno.EBADF):
                    raise
                self._lost()
        return len(text)

    def flush(self) -> None:
        if not self.closed_by_reader:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._lost()

    def _lost(self) -> None:
        self.closed_by_reader = True
        # Point the descriptor at /dev/null so the interpreter's own flush at exit finds nothing
        # to complain about ("Exception ignored ... BrokenPipeError").
        try:
            fd = self._stream.fileno()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, fd)
            os.close(null)
        except (OSError, ValueError, AttributeError):
            pass

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _utf8(stream, *, escaped: bool = False):
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(encoding="utf-8", errors="replace")
        except (ValueError, OSError):
            pass
    return _Output(stream, escaped=escaped)


def file_read_as_option(argv: list[str]) -> str | None:
    """The first argument before `--` that starts with `-` and names an existing file or folder.

    A file name is never an option: pre-commit appends the staged names to the hook's command, and
    a corpus folder named `--output=out` would otherwise redirect the report. Such an argument is
    refused (exit 2) rather than guessed at; after `--` every argument is a file name."""
    for token in argv:
        if token == "--":
            return None
        if token.startswith("-") and token != "-" and os.path.lexists(token):
            return token
    return None


class _CollectorPaused:
    """Python's cycle collector off while a command runs, restored after (a `with` block).

    Loading a corpus, indexing its sentences and scoring allocate millions of small acyclic
    objects; each allocation burst sets off a collection that rescans everything already loaded,
    which costs a command on 10,000 fixtures several seconds for nothing (docs/performance.md).
    Reference counting frees all of it. A process-wide switch, so the entry point owns it, never
    the library: a program that imports corpustools keeps its collector as it set it. A class, not
    a generator: an exception leaving the block passes through untouched (the project's frozen
    errors cannot take the traceback a generator's throw() would set)."""

    def __enter__(self) -> None:
        self._enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info) -> None:
        if self._enabled:
            gc.enable()


def _run(args, out, err, recording=None) -> int:
    """Run the command; the one place an error becomes what a user reads (corpustools.io.errors):
    each line after the command's name (`error_prefix`, passed through its `shown`, which lint
    sets to redact secrets), and the error's exit code. `recording`: lint's replay, saved with
    what the command read when it returns."""
    try:
        # every file the command reads is noted, so that no write lands on one
        with tracking_inputs() as inputs, _CollectorPaused():
            code = args.run(args, out, err)
            if recording is not None:
                _replay_step(recording.save, code, inputs)
            return code
    except CorpustoolsError as error:
        shown = getattr(args, "shown", None) or str
        for line in error.lines(args.error_prefix):
            print(shown(line), file=err)
        return error.exit_code
    except SystemExit as exit_:  # a parser the command reads late options with has said why (calibrate)
        return int(exit_.code or 0) if not isinstance(exit_.code, str) else 2
    except Exception as exc:  # never a traceback for a user; CORPUSTOOLS_DEBUG=1 shows it
        return _internal_error(exc, err)


def _internal_error(exc: Exception, err) -> int:
    if os.environ.get("CORPUSTOOLS_DEBUG"):
        raise exc
    print(f"corpustools: internal error: {type(exc).__name__}: {printable(' '.join(str(exc).split())[:300])}",
          file=err)
    return 2


def _replay_step(step, *arguments, otherwise=None):
    """`step(*arguments)`, a step of lint's replay (looking up, replaying, preparing, saving), or
    `otherwise` when it fails: the replay must never cost a lint, which then runs (or is left
    unrecorded) as usual; CORPUSTOOLS_DEBUG shows why."""
    try:
        return step(*arguments)
    except Exception:
        if os.environ.get("CORPUSTOOLS_DEBUG"):
            raise
        return otherwise


def _replayed(words: list[str], out: _Output, err: _Output):
    """lint's replay (corpustools.lint.replay), before the parser of every command is built: the
    exit code when the last lint of this command line was replayed (its output written), else the
    recording to save after the run (out and err then note what they write), or None for a
    command line that is not replayed."""
    if words[:1] != ["lint"]:
        return None
    from corpustools.lint import replay  # lint only: it imports no more than a replay needs

    recording = _replay_step(replay.lookup, words)
    if recording is None:
        return None
    code = _replay_step(recording.replay, out, err)
    if code is not None:
        out.flush()
        err.flush()
        return code
    out.journal = err.journal = recording.output
    return recording


def main(argv: list[str] | None = None) -> int:
    """Run corpustools; returns the exit code (0 ok, 1 findings, 2 usage/config/internal error,
    130 interrupted)."""
    previous = None
    try:  # a Ctrl-C landing while the handler is swapped is inside the try: exit 130, no traceback
        previous = _set_sigint(signal.default_int_handler)  # from here on, unwind: temporary files go
        out, err = _utf8(sys.stdout), _utf8(sys.stderr, escaped=True)
        words = list(sys.argv[1:] if argv is None else argv)
        taken = file_read_as_option(words)
        if taken is not None:
            print(f"corpustools: {printable(taken)} is a file, and before -- it would be read as an option: write "
                  "file names after -- (a pre-commit hook's args: end with \"--\")", file=err)
            return 2
        recording = _replayed(words, out, err)
        if isinstance(recording, int):
            return recording
        try:
            parser = build_parser(words)
        except Exception as exc:  # a command module that fails to import: exit 2, one line
            return _internal_error(exc, err)
        try:
            args = parser.parse_args(words)
        except SystemExit as exit_:
            return int(exit_.code or 0) if not isinstance(exit_.code, str) else 2
        if not getattr(args, "run", None):
            parser.print_help(err)
            return 2
        if recording is not None and not _replay_step(recording.prepare, args, otherwise=False):
            recording = out.journal = err.journal = None
        code = _run(args, out, err, recording)
        out.flush()
        err.flush()
        return code
    except KeyboardInterrupt:
        return 130
    finally:
        if previous is not None:  # the console script's early handler: a Ctrl-C at shutdown is 130 too
            _restore_sigint(previous)


if __name__ == "__main__":
    sys.exit(main())
