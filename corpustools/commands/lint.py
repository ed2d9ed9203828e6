"""corpustools lint [PATH...]"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, TextIO

from corpustools.commands.options import Formatters, Subparsers, add_command, add_report_options, path
from corpustools.io.errors import UsageError
from corpustools.reporting import formatting

if TYPE_CHECKING:
    from corpustools.lint import CorpusFixes, FixResult

HELP = "check a fixture corpus: malformed, unwinnable, leaking or copied fixtures"


def formatters() -> Formatters:
    """--format's choices: the keys of lint's FORMATTERS (read when the command is parsed)."""
    from corpustools.lint.report import FORMATTERS

    return FORMATTERS


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "lint", HELP, ". Exit 0: no errors; 1: errors (or warnings with "
        "--strict); 2: usage, config or internal error.")
    parser.add_argument("paths", nargs="*", metavar="PATH", type=path,
                        help="a corpus folder, or a file or folder inside one (report only those files, "
                        "unless --whole-corpus); default: the corpus the working folder is in (walking up), "
                        "else every corpus below it")
    add_report_options(parser, formatters, "text")
    parser.add_argument("--whole-corpus", action="store_true",
                        help="a PATH inside a corpus reports that whole corpus, not only the PATH "
                        "(the pre-commit hook: an error anywhere in a corpus it touched counts)")
    parser.add_argument("--staged", action="store_true",
                        help="lint what the next commit holds: the files staged in git's index, never the working "
                        "tree; also lints, whole, every corpus holding a staged change to any file under its folder "
                        "(added, changed, deleted, renamed, a new mode: the pre-commit hook, as pre-commit passes "
                        "only the files that still exist); no PATH then lints nothing else")
    parser.add_argument("--skip-outside-corpora", action="store_true",
                        help="skip a PATH that is neither in a corpus nor holds one, instead of exit 2 "
                        "(the pre-commit hook passes every changed file its pattern matches)")
    parser.add_argument("--select", metavar="CODES", help="run only these rules (comma-separated codes, "
                        "prefixes such as CT6 or names such as turn-shape); secret rules always run")
    parser.add_argument("--ignore", metavar="CODES", help="skip these rules (codes, prefixes or names); "
                        "secret rules cannot be ignored")
    parser.add_argument("--prompt", metavar="FILE", type=path, help="the prompt under eval (enables CT703); "
                        "overrides lint.prompt")
    parser.add_argument("--kb", metavar="DIR", type=path, help="knowledge-base folder, every *.md under it "
                        "(enables CT704); overrides lint.kb")
    parser.add_argument("-q", "--quiet", action="store_true", help="text format: print the diagnostics "
                        "only, no summary line (nothing when clean)")
    parser.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    parser.add_argument("--statistics", action="store_true", help="count diagnostics per code "
                        "(after the text diagnostics, before the summary line; on stderr for the other formats)")
    parser.add_argument("--fix", action="store_true", help="apply every safe fix to the corpus files, then "
                        "report what is left (Fixed N findings (M remaining).); exit 2 when a fix could not be written")
    parser.add_argument("--diff", action="store_true", help="print what --fix would change as a unified diff "
                        "(paths from the repository root, a/ and b/ prefixes: patch -p1 or git apply) and write "
                        "nothing; exit 1 when there is something to fix")
    parser.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, also the fixes that "
                        "change meaning or identity (a new session id, a renamed unknown key, a dropped term)")
    parser.add_argument("--list-rules", action="store_true", help="list every rule and exit")
    parser.add_argument("--explain", metavar="CODE", help="print a rule's documentation (a code such as "
                        "CT403 or a name such as turn-shape) and exit")
    parser.set_defaults(run=run, shown=redacted)


def redacted(line: str) -> str:
    """How lint's errors are shown: every line redacted like its diagnostics (a file or a code can
    be named like a key). Imported when an error is shown, not when the parser is built."""
    from corpustools.lint import redact_secrets

    return redact_secrets(line)


def _explain(code: str, rules: list[ModuleType], out: TextIO, err: TextIO) -> int:
    from corpustools.io.positions import Pos
    from corpustools.lint import ConfigError, rule_doc, rule_fix_doc, rule_options

    wanted = code.strip()
    rule = next((r for r in rules if wanted.upper() == r.CODE or wanted == r.NAME), None)
    if rule is None:
        raise ConfigError(Pos(""), f"--explain: unknown rule {code!r} (see --list-rules)")
    print(f"{rule.CODE} {rule.NAME} [{rule.SEVERITY}]\n\n{rule_doc(rule)}\n\n{rule_options(rule)}\n"
          f"{rule_fix_doc(rule)}", file=out)
    return 0


def use_colour(out: TextIO, environ: Mapping[str, str]) -> bool:
    """Colour on a terminal only. NO_COLOR (non-empty) always wins; FORCE_COLOR (non-empty) colours
    even a pipe, for CI logs that render ANSI."""
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def _usage_of_fix(args: argparse.Namespace) -> str | None:
    """What is wrong with the fix options given, or None."""
    if args.unsafe_fixes and not (args.fix or args.diff):
        return "--unsafe-fixes applies only with --fix or --diff"
    if args.diff and (args.format != "text" or args.statistics):
        return "--diff prints a unified diff; --format and --statistics do not apply to it"
    if args.staged and (args.fix or args.diff):
        return ("--staged lints the files staged in git's index, and --fix and --diff change the files on "
                "disk: run them apart (fix, review, git add, then lint --staged)")
    return None


def _note(line: str, err: TextIO) -> None:
    """A fix note names a term or a file: printed like a diagnostic, escaped and redacted."""
    from corpustools.io.positions import printable
    from corpustools.lint import redact_secrets

    print(printable(redact_secrets(line)), file=err)


def _fix_notes(fixes: list[CorpusFixes], written: FixResult, err: TextIO) -> None:
    """One line on standard error for each fix made, skipped or not written; and the unsafe fixes
    left for --unsafe-fixes."""
    for note in written.written:
        _note(note.line("fixed" if note.safe else "fixed (unsafe fix)"), err)
    for note in written.failed:
        _note(note.line("fix not written"), err)
    _skipped_notes(fixes, err)


def _skipped_notes(fixes: list[CorpusFixes], err: TextIO) -> None:
    for corpus in fixes:
        for note in corpus.skipped:
            _note(note.line("fix skipped"), err)
    hidden = sum(corpus.unsafe_available for corpus in fixes)
    if hidden:
        print(f"corpustools lint: {hidden} more finding{'s have' if hidden != 1 else ' has'} an unsafe fix "
              "(add --unsafe-fixes to apply)", file=err)


def _diff(fixes: list[CorpusFixes], args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """--diff: the unified diff of what --fix would write (nothing written), and `Would fix N findings.`"""
    from corpustools import lint
    from corpustools.io.writing import emit

    for corpus in fixes:
        for note in corpus.fixed:
            _note(note.line("would fix" if note.safe else "would fix (unsafe fix)"), err)
    _skipped_notes(fixes, err)
    text = lint.format_diff(fixes)
    emit(text, args.output, None, out, err=err, force=args.force)
    count = sum(len(corpus.fixed) for corpus in fixes)
    print(f"Would fix {formatting.plural(count, 'finding')}.", file=err)
    return 1 if text else 0


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import os

    from corpustools import lint
    from corpustools.io.positions import printable
    from corpustools.io.writing import STANDARD_OUTPUT, emit
    from corpustools.lint.report import FORMATTERS, notes

    rules = lint.rule_modules()
    if args.list_rules:
        out.write(lint.rule_list(rules))
        return 0
    if args.explain:
        return _explain(args.explain, rules, out, err)
    wrong = _usage_of_fix(args)
    if wrong:
        raise UsageError(wrong)
    selection = lint.choose(rules, select=args.select, ignore=args.ignore, prompt=args.prompt, kb=args.kb)
    fixes = None
    if args.fix or args.diff:
        fixes = lint.plan_paths(args.paths, rules, selection, unsafe=args.unsafe_fixes,
                                skip_outside=args.skip_outside_corpora, whole_corpus=args.whole_corpus)
        if args.diff:
            return _diff(fixes, args, out, err)
        written = lint.write_fixes(fixes)
        _fix_notes(fixes, written, err)
    linted = lint.lint_staged if args.staged else lint.lint_paths
    run_ = linted(args.paths, rules, selection, skip_outside=args.skip_outside_corpora, whole_corpus=args.whole_corpus)

    report = lint.LintReport(
        run=run_, rules=tuple(rules), strict=args.strict, quiet=args.quiet, statistics=args.statistics,
        colour=args.output in (None, STANDARD_OUTPUT) and use_colour(out, os.environ),
        fixed=len(written.written) if fixes is not None else None)
    err.write(notes(report, args.format))  # what the text format prints in the report itself
    # a report is never written into a corpus's own files nor over anything lint read
    emit(FORMATTERS[args.format](report), args.output, None, out, err=err, force=args.force)
    for crash in run_.crashes:
        print(f"corpustools lint: {printable(lint.redact_secrets(str(crash)))}", file=err)
    if fixes is not None and written.failed:
        return 2
    return report.exit_code
