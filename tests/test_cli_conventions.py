"""CLI conventions a user relies on across commands: every positional has help, `--format` names
its choices and default, `--output` writes a report atomically, corpus discovery walks up, and
provenance's default record is the one lint's CT801 reads."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys

import pytest

from corpustools.cli import build_parser, main
from corpustools.provenance import corpus_record_path

NO_SIDECAR = {"expected/admit-convention-01.yaml": None}  # one CT201 error in the make_corpus corpus
SHIPPED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "prompt-eval")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _parsers(parser, prog="corpustools"):
    """(prog, parser) for the parser and every sub-command parser below it."""
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{prog} {name}")


def test_every_positional_has_help_and_every_format_lists_choices_and_default():
    missing, bad_format, commands = [], [], 0
    for prog, parser in _parsers(build_parser()):
        commands += 1
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                helped = {a.dest for a in action._choices_actions if a.help}
                missing += [f"{prog} {name}" for name in action.choices if name not in helped]
            elif not action.option_strings and (not action.help or action.help == argparse.SUPPRESS):
                missing.append(f"{prog} {action.dest}")
            elif "--format" in action.option_strings:
                said = re.search(r"\(default: ([a-z-]+)\)$", action.help or "")
                if ("{" + ",".join(action.choices) + "}" not in parser.format_help() or not said
                        or said.group(1) not in action.choices or action.default not in (None, said.group(1))):
                    bad_format.append(prog)
    assert commands >= 12 and missing == [] and bad_format == []


def test_a_command_line_builds_only_its_command_and_every_help_stays_as_the_whole_parser_says(capsys):
    """`corpustools NAME ...` builds NAME's parser alone (start-up: no other command's module is
    imported); what that parser prints (its --help and its actions' --help) is what the parser of
    every command prints, and `corpustools --help` still lists every command."""
    from corpustools.commands import COMMANDS

    whole = dict(_parsers(build_parser()))
    for name in COMMANDS:
        alone = dict(_parsers(build_parser([name, "--help"])))
        assert set(alone) == {"corpustools"} | {prog for prog in whole if prog.split()[1:2] == [name]}, name
        for prog, parser in alone.items():
            if prog != "corpustools":
                assert parser.format_help() == whole[prog].format_help(), prog
    assert build_parser(["--help"]).format_help() == build_parser().format_help()
    code, out, _ = run(capsys, "--help")
    assert code == 0 and all(re.search(rf"^    {name}\b", out, re.M) for name in COMMANDS)


def test_a_command_line_loads_only_its_command(tmp_path):
    # In a fresh interpreter: lint's command line imports no other command's module; a command
    # line whose first word is no command still lists, and suggests, every command.
    import subprocess
    import sys

    code = ("import sys; from corpustools.cli import main; main(['lint', '--list-rules']); "
            "print(sorted(m for m in sys.modules if m.startswith('corpustools.commands.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.stdout.splitlines()[-1] == "['corpustools.commands.lint', 'corpustools.commands.options']", done


def test_a_misspelled_command_is_told_every_command(capsys):
    code, _, err = run(capsys, "lnit")
    assert code == 2 and "invalid choice: 'lnit'" in err and "'lint'" in err and "'score'" in err, err


KINDS = "'proposal-output', 'sidecar', 'corpus-spec', 'run-manifest', 'adjudication', 'result'"
REPORTS = ("'score-report' or 'compare-report' or 'calibration-report' or 'agreement-report'")


@pytest.mark.parametrize("argv, line", [
    # the corpus's own output: the shipped kind that says `output`, among every KIND
    ("validate output answer.json", "corpustools validate: error: argument KIND: invalid choice: 'output': did you "
                                    f"mean 'proposal-output'? (choose from {KINDS})"),
    ("validate sidcar s.yaml", "corpustools validate: error: argument KIND: invalid choice: 'sidcar': did you mean "
                               f"'sidecar'? (choose from {KINDS})"),
    ("validate zzz s.yaml", f"corpustools validate: error: argument KIND: invalid choice: 'zzz' (choose from {KINDS})"),
    ("schema report", f"corpustools schema: error: argument KIND: invalid choice: 'report': did you mean {REPORTS}? "
                      "(choose from 'corpus-spec', 'sidecar', 'proposal-output', 'run-manifest', 'score-report', "
                      "'compare-report', 'adjudication', 'calibration-report', 'agreement-report')"),
    ("export jsnl c", "corpustools export: error: argument FORMAT: invalid choice: 'jsnl': did you mean 'jsonl'? "
                      "(choose from 'jsonl', 'inspect', 'promptfoo')"),
    ("provenance frez c", "corpustools provenance: error: argument ACTION: invalid choice: 'frez': did you mean "
                          "'freeze'? (choose from 'record', 'freeze', 'verify')"),
    ("lint c --format jsn", "corpustools lint: error: argument --format: invalid choice: 'jsn': did you mean 'json'? "
                            "(choose from 'text', 'json', 'json-summary', 'github', 'sarif')"),
])
def test_a_wrong_choice_is_one_line_with_a_did_you_mean(capsys, argv, line):
    """Every choice argparse checks (a command, an action, a KIND or FORMAT, --format) is told what it
    was probably meant to be, in one line and without the usage, exit 2, nothing on standard output."""
    assert run(capsys, *argv.split()) == (2, "", line + "\n")


def test_a_misspelled_command_gets_the_nearest_one(capsys):
    code, out, err = run(capsys, "lnt")
    assert (code, out) == (2, "") and err.startswith("corpustools: error: argument COMMAND: invalid choice: 'lnt': "
                                                     "did you mean 'lint'? (choose from 'init', 'lint', "), err


@pytest.mark.parametrize("command", ["lint", "score", "compare", "calibrate", "validate", "provenance verify"])
def test_reporting_commands_share_format_and_output(command, capsys):
    code, out, _ = run(capsys, *command.split(), "--help")
    assert code == 0
    assert "--format {" in out and "report format (default: " in out
    assert "--output FILE" in out and "write the report to FILE instead of standard output" in out


def test_run_init_help_says_when_it_is_run(capsys):
    out = run(capsys, "run", "init", "--help")[1]
    assert "once per run folder, before saving any output" in " ".join(out.split())


def test_lint_output_writes_the_report_to_a_file(make_corpus, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_corpus(NO_SIDECAR)
    code, printed, _ = run(capsys, "lint", "corpus")
    assert code == 1
    assert run(capsys, "lint", "corpus", "--output", "lint.txt") == (1, "", "wrote lint.txt\n")
    assert (tmp_path / "lint.txt").read_text() == printed
    code, _, err = run(capsys, "lint", "corpus", "--output", "corpus/sessions/report.txt")
    assert code == 2 and "corpustools never writes there" in err
    assert not (tmp_path / "corpus/sessions/report.txt").exists()
    os.symlink("lint.txt", tmp_path / "link.txt")
    assert run(capsys, "lint", "corpus", "--format", "json", "--output", "link.txt")[0] == 2
    assert (tmp_path / "lint.txt").read_text() == printed  # never written through the link


def test_validate_json_is_an_array_of_problems_with_lines(tmp_path, capsys):
    good = tmp_path / "good.yaml"
    good.write_text("worksheet_version: 1\n")
    code, out, err = run(capsys, "validate", "adjudication", good, "--format", "json")
    rows = json.loads(out)
    assert code == 1 and err == "" and rows
    assert set(rows[0]) == {"path", "line", "col", "pointer", "severity", "message"}
    assert all(row["path"] == str(good) and row["line"] == 1 for row in rows)
    text = run(capsys, "validate", "adjudication", good)[1]
    assert text.startswith(f"{good}:1:1: /: ")  # a worksheet's problems carry line and column
    code, out, _ = run(capsys, "validate", "sidecar", good, "--format", "json", "--output", tmp_path / "v.json")
    assert (code, out) == (1, "") and json.loads((tmp_path / "v.json").read_text())


def test_validate_adjudication_names_the_line_of_a_bad_answer(tmp_path, capsys):
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text("worksheet_version: 1\ncorpus: c\nresults: r\nshows_terms: false\nfixtures:\n"
                     "  - fixture_id: x\n    verdict: pass\n")
    out = run(capsys, "validate", "adjudication", sheet)[1]
    assert f"{sheet}:7:5: /fixtures/0/verdict: 'pass' is not one of ['PASS', 'FAIL']" in out.splitlines()


def test_lint_without_path_walks_up_to_the_enclosing_corpus(make_corpus, tmp_path, capsys, monkeypatch):
    make_corpus(NO_SIDECAR, name="repo/fixtures/tiny")
    make_corpus(name="repo/fixtures/tiny/expected/not-this-one")  # below the working folder: not the one meant
    monkeypatch.chdir(tmp_path / "repo/fixtures/tiny/expected")
    code, out, _ = run(capsys, "lint", "-q")
    assert code == 1 and out == ("../sessions/admit-convention-01.md:1:1: CT201 [error] session has no sidecar: "
                                 "expected/admit-convention-01.yaml is missing\n")


def test_lint_a_file_inside_a_corpus_lints_that_corpus_and_reports_the_file(make_corpus, tmp_path, capsys,
                                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_corpus(NO_SIDECAR)
    assert run(capsys, "lint", "corpus/sessions/admit-convention-01.md")[0] == 1  # CT201 needs the whole corpus
    assert run(capsys, "lint", "corpus/sessions/reject-noise-01.md")[:2] == (0, "All checks passed.\n")


def test_score_names_the_corpus_a_subfolder_is_in(make_corpus, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_corpus()
    (tmp_path / "run").mkdir()
    code, out, err = run(capsys, "score", "corpus/sessions", "run")
    assert (code, out) == (2, "")
    assert err == ("corpustools score: corpus/sessions: not a corpus folder: no corpus.yaml "
                   "(it is inside the corpus corpus: give that folder)\n")


def test_provenance_defaults_are_where_ct801_looks(make_corpus, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_corpus(name="fixtures/tiny")
    (tmp_path / "prompt.md").write_text("# Author\n")
    spec = tmp_path / "fixtures/tiny/corpus.yaml"
    spec.write_text(spec.read_text() + "lint:\n  provenance: ../records/tiny.yaml\n")
    assert corpus_record_path("fixtures/tiny") == os.path.join("fixtures", "records", "tiny.yaml")
    code, out, err = run(capsys, "provenance", "record", "fixtures/tiny", "--authoring-prompt", "prompt.md",
                         "--authored-by", "m", "--reviewed-by", "p", "--date", "2026-01-05")
    assert (code, out, err) == (0, "", "wrote fixtures/records/tiny.yaml (the record of 5 files of corpus tiny "
                                       "version 1)\n")
    assert run(capsys, "provenance", "verify", "--corpus", "fixtures/tiny")[:2] == (
        0, "fixtures/records/tiny.yaml: every file matches the record\n")
    assert run(capsys, "provenance", "verify", "fixtures/records/tiny.yaml", "--corpus", "fixtures/tiny") == (
        2, "", "corpustools provenance: give RECORD or --corpus, not both\n")
    (tmp_path / "fixtures/tiny/sessions/reject-noise-01.md").write_text("edited\n")
    monkeypatch.chdir(tmp_path / "fixtures/tiny/sessions")  # verify with no argument: the enclosing corpus
    code, out, _ = run(capsys, "provenance", "verify", "--format", "json")
    assert code == 1 and json.loads(out) == {"record": "../../records/tiny.yaml", "drifts": [
        {"path": "reject-noise-01.md", "status": "changed"}]}
    code, out, _ = run(capsys, "lint", "--select", "CT801", "-q")  # lint reads the very same record
    assert code == 0 and out.startswith("reject-noise-01.md:1:1: CT801 [warning] changed since the provenance "
                                        "record ../../records/tiny.yaml")


def test_provenance_without_a_record_is_quiet_in_lint_and_says_where_in_explain(make_corpus, tmp_path, capsys,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_corpus()
    assert run(capsys, "lint", "corpus", "--select", "CT801") == (0, "All checks passed.\n", "")
    explained = " ".join(run(capsys, "lint", "--explain", "CT801")[1].split())
    assert "`corpustools provenance record` writes and `provenance verify` reads by default" in explained


@pytest.mark.skipif(not os.path.isdir(SHIPPED), reason="the shipped corpus is not in this checkout")
def test_the_shipped_corpus_record_is_the_default_one():
    expected = os.path.join(os.path.dirname(os.path.dirname(SHIPPED)), "authoring", "provenance.yaml")
    assert corpus_record_path(SHIPPED) == expected and os.path.isfile(expected)


# Every command that writes a file, with the path it names: stdout stays empty (or keeps the report
# it would print anyway) and the last line on standard error is `wrote PATH`, one way for all.
WRITERS = [
    (("init", "c2"), "wrote c2 (15 files; next: corpustools lint c2)"),
    (("lint", "c", "--output", "out/lint.txt"), "wrote out/lint.txt"),
    (("validate", "sidecar", "c/expected/admit-map-01.yaml", "--output", "out/valid.txt"), "wrote out/valid.txt"),
    (("score", "c", "c/gold", "--output", "out/score.md"), "wrote out/score.md"),
    (("score", "c", "c/gold", "--output", "out/s.md", "--append-history", "out/history.md"),
     "wrote out/history.md (appended a row)"),
    (("compare", "c", "--base", "c/gold", "--candidate", "c/gold", "--output", "out/compare.md"),
     "wrote out/compare.md"),
    (("adjudicate", "c", "c/gold", "--out", "out/sheet.yaml"), "wrote out/sheet.yaml (4 fixtures, 3 proposals to judge)"),
    (("render", "c", "--all", "--out", "out/rendered", "--prompt", "prompt.md"), "wrote out/rendered (4 rendered prompts)"),
    (("run", "init", "out/run", "--corpus", "c", "--prompt", "prompt.md"), "wrote out/run/run.yaml"),
    (("provenance", "record", "c", "--authoring-prompt", "prompt.md", "--authored-by", "m", "--reviewed-by", "p"),
     "wrote c/authoring/provenance.yaml (the record of 13 files of corpus c version 1)"),
]


@pytest.mark.parametrize(("argv", "said"), WRITERS, ids=[" ".join(argv[:2]) for argv, _ in WRITERS])
def test_every_command_that_writes_says_wrote_path_on_standard_error(argv, said, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["init", "c"]) == 0
    (tmp_path / "prompt.md").write_text("# Prompt\nVersion: 1\n\n[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n")
    capsys.readouterr()
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert out == "" and err.splitlines()[-1] == said


@pytest.mark.parametrize(("argv0", "paused"), [("/usr/bin/corpustools", True), ("my_script.py", False)])
def test_the_command_pauses_the_cycle_collector_from_its_first_import(argv0, paused):
    """The command's process (its console script) imports its modules with the collector off, as
    it runs; a program that imports corpustools keeps its collector on."""
    code = f"import gc, sys; sys.argv = [{argv0!r}]; import corpustools.cli; print(gc.isenabled())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == str(not paused)


def test_a_command_runs_with_the_cycle_collector_paused_and_finds_it_as_it_was(capsys, monkeypatch):
    """The entry point owns the process-wide switch (corpustools.cli; the library never touches
    it): off while the command runs, then as the caller left it, also after an error."""
    import gc

    from corpustools.commands import schema
    from corpustools.io.errors import UsageError

    seen = []
    real_run = schema.run

    def observed(args, out, err):
        seen.append(gc.isenabled())
        if args.kind == "run-manifest":
            raise UsageError("refused")
        return real_run(args, out, err)

    monkeypatch.setattr(schema, "run", observed)
    was = gc.isenabled()
    try:
        gc.enable()
        assert run(capsys, "schema", "sidecar")[0] == 0
        assert (seen, gc.isenabled()) == ([False], True)
        gc.disable()
        assert run(capsys, "schema", "run-manifest")[:1] == (2,)
        assert (seen, gc.isenabled()) == ([False, False], False)
    finally:
        (gc.enable if was else gc.disable)()
