"""corpustools lint [PATH...]"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from dataclasses import replace
from typing import TextIO

from corpustools import api
from corpustools.commands.options import Subparsers, add_command, add_report_options, path
from corpustools.io.errors import UsageError
from corpustools.io.positions import printable
from corpustools.io.writing import STANDARD_OUTPUT, emit

HELP = "check a fixture corpus: malformed, unwinnable, leaking or copied fixtures"


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "lint", HELP, ". Exit 0: no errors; 1: errors (or warnings with "
        "--strict); 2: usage, config or internal error.")
    parser.add_argument("paths", nargs="*", metavar="PATH", type=path,
                        help="a corpus folder, or a file or folder inside one (report only those files, "
                        "unless --whole-corpus); default: the corpus the working folder is in (walking up), "
                        "else every corpus below it")
    add_report_options(parser, lambda: api.formatters("lint"), "text")
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
    parser.add_argument("--cache-dir", metavar="DIR", type=path, help="lint's cache folder (default: "
                        "CORPUSTOOLS_CACHE_DIR, else $XDG_CACHE_HOME/corpustools, else ~/.cache/corpustools): a file "
                        "unchanged since the secret scan last read it is not scanned again (its findings are "
                        "kept, never its text), and a lint whose command line and every input are unchanged "
                        "prints its last output again; never inside a corpus")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write lint's cache")
    parser.add_argument("--list-rules", action="store_true", help="list every rule and exit")
    parser.add_argument("--explain", metavar="CODE", help="print a rule's documentation (a code such as "
                        "CT403 or a name such as turn-shape) and exit")
    parser.set_defaults(run=run, shown=redacted)


def redacted(line: str) -> str:
    """How lint's errors are shown: every line redacted like its diagnostics (a file or a code can
    be named like a key)."""
    return api.redact(line)


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


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.list_rules:
        out.write(api.rule_list())
        return 0
    if args.explain:
        print(api.explain(args.explain), file=out)
        return 0
    wrong = _usage_of_fix(args)
    if wrong:
        raise UsageError(wrong)
    chosen = {"select": args.select, "ignore": args.ignore, "prompt": args.prompt, "kb": args.kb,
              "whole_corpus": args.whole_corpus, "skip_outside_corpora": args.skip_outside_corpora,
              "option_prefix": "--"}
    fixed = failed = None
    if args.fix or args.diff:
        plan = api.plan_fixes(args.paths, unsafe=args.unsafe_fixes, **chosen)
        if args.diff:
            for line in api.fix_notes(plan):
                print(line, file=err)
            text = api.fix_diff(plan)
            emit(text, args.output, None, out, err=err, force=args.force)
            count = sum(len(corpus.fixed) for corpus in plan)
            print(f"Would fix {count} finding{'' if count == 1 else 's'}.", file=err)
            return 1 if text else 0
        written = api.write_fixes(plan)
        for line in api.fix_notes(plan, written):
            print(line, file=err)
        fixed, failed = len(written.written), written.failed
    cache_dir = None if args.no_cache else args.cache_dir or api.default_cache_dir()
    report = api.lint(args.paths, strict=args.strict, staged=args.staged, fixed=fixed, cache_dir=cache_dir, **chosen)
    report = replace(report, quiet=args.quiet, statistics=args.statistics,
                     colour=args.output in (None, STANDARD_OUTPUT) and use_colour(out, os.environ))
    err.write(api.report_notes(report, args.format))  # what the text format prints in the report itself
    # a report is never written into a corpus's own files nor over anything lint read
    emit(api.format_report(report, args.format), args.output, None, out, err=err, force=args.force)
    for crash in report.run.crashes:
        print(f"corpustools lint: {printable(api.redact(str(crash)))}", file=err)
    return 2 if failed else report.exit_code
