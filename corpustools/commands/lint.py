"""corpustools lint [PATH...]"""

from __future__ import annotations

from corpustools.commands.options import add_command, add_report_options, path

HELP = "check a fixture corpus: malformed, unwinnable, leaking or copied fixtures"
FORMATS = ("text", "json", "json-summary", "github", "sarif")


def register(subparsers) -> None:
    parser = add_command(
        subparsers, "lint", HELP, ". Exit 0: no errors; 1: errors (or warnings with "
        "--strict); 2: usage, config or internal error.")
    parser.add_argument("paths", nargs="*", metavar="PATH", type=path,
                        help="a corpus folder, or a file or folder inside one (report only those files, "
                        "unless --whole-corpus); default: the corpus the working folder is in (walking up), "
                        "else every corpus below it")
    add_report_options(parser, FORMATS, "text")
    parser.add_argument("--whole-corpus", action="store_true",
                        help="a PATH inside a corpus reports that whole corpus, not only the PATH "
                        "(the pre-commit hook: an error anywhere in a corpus it touched counts)")
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
    parser.add_argument("--list-rules", action="store_true", help="list every rule and exit")
    parser.add_argument("--explain", metavar="CODE", help="print a rule's documentation (a code such as "
                        "CT403 or a name such as turn-shape) and exit")
    parser.set_defaults(run=run)


def _config_message(error) -> str:
    """`corpus.yaml:21:5: message` (the path as lint shows paths), or `corpustools lint: message`."""
    from dataclasses import replace

    from corpustools.io.paths import display_path

    if not error.pos.path:
        return f"corpustools lint: {error}"
    return str(replace(error, pos=replace(error.pos, path=display_path(error.pos.path))))


def _explain(code: str, rules, out, err) -> int:
    from corpustools.lint import rule_doc, rule_options

    wanted = code.strip()
    rule = next((r for r in rules if wanted.upper() == r.CODE or wanted == r.NAME), None)
    if rule is None:
        print(f"corpustools lint: --explain: unknown rule {code!r} (see --list-rules)", file=err)
        return 2
    print(f"{rule.CODE} {rule.NAME} [{rule.SEVERITY}]\n\n{rule_doc(rule)}\n\n{rule_options(rule)}", file=out)
    return 0


def use_colour(out, environ) -> bool:
    """Colour on a terminal only. NO_COLOR (non-empty) always wins; FORCE_COLOR (non-empty) colours
    even a pipe, for CI logs that render ANSI."""
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def _root_relative(diagnostics) -> list:
    """GitHub and SARIF locate files from the repository root, not from where lint ran."""
    import os
    from dataclasses import replace

    from corpustools.io.paths import repository_root, root_relative

    cwd = os.getcwd()
    root = repository_root(cwd)
    return [replace(d, path=root_relative(d.path, root, cwd)) for d in diagnostics]


def run(args, out, err) -> int:
    import os

    from corpustools import __version__, lint
    from corpustools.io.gcpause import freeze_loaded
    from corpustools.io.positions import InputError, printable
    from corpustools.io.writing import STANDARD_OUTPUT, emit

    rules = lint.rule_modules()
    if args.list_rules:
        out.write(lint.format_rule_list(rules))
        return 0
    if args.explain:
        return _explain(args.explain, rules, out, err)
    try:
        select = lint.expand_codes(args.select, rules, option="--select") if args.select else None
        ignore = lint.expand_codes(args.ignore, rules, option="--ignore") if args.ignore else frozenset()
        lint.check_cli_ignore(ignore, rules)
        selection = lint.Selection(select, ignore, args.prompt, args.kb)
        # the rules allocate a lot: this process never rescans a loaded corpus (corpustools.io.gcpause)
        run_ = lint.lint_paths(args.paths, rules, selection, after_load=freeze_loaded,
                                 skip_outside=args.skip_outside_corpora, whole_corpus=args.whole_corpus)
    except lint.ConfigError as error:
        print(_config_message(error), file=err)
        return 2
    except InputError as error:
        print(f"corpustools lint: {error}", file=err)
        return 2

    diagnostics = run_.diagnostics
    code = lint.exit_code(run_, args.strict)
    text = []  # what goes to standard output, or to --output FILE
    if args.format == "text":
        colour = args.output in (None, STANDARD_OUTPUT) and use_colour(out, os.environ)
        text.append(lint.format_text(diagnostics, colour=colour))
    elif args.format == "json-summary":
        text.append(lint.format_json_summary(diagnostics, run_.fixtures, __version__, code))
    elif args.format == "json":
        text.append(lint.format_json(diagnostics))
    elif args.format == "github":
        text.append(lint.format_github(_root_relative(diagnostics)))
    else:
        text.append(lint.format_sarif(_root_relative(diagnostics), rules, __version__,
                                        [str(c) for c in run_.crashes]))
    if args.statistics:
        (text.append if args.format == "text" else err.write)(lint.format_statistics(diagnostics))
    if args.format == "text" and not args.quiet:
        text.append(lint.format_summary(diagnostics, run_.fixtures, len(run_.crashes)))
    try:  # a report is never written into a corpus's own files nor over anything lint read
        emit("".join(text), args.output, None, out, force=args.force)
    except InputError as error:
        print(f"corpustools lint: {error}", file=err)
        return 2
    for crash in run_.crashes:
        print(f"corpustools lint: {printable(str(crash))}", file=err)
    return code
