"""`corpustools lint` as a user runs it: formats, options, exit codes, paths, determinism."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import types

import pytest

from corpustools import lint as lint_api
from corpustools.cli import main
from tests.support.corpus import ADMIT_ID, REJECT_ID, REJECT_TURNS, REJECT_UUID, SPEC_TEXT, session_text

REJECT_SESSION = f"sessions/{REJECT_ID}.md"
AGENT_FIRST = session_text(REJECT_UUID, REJECT_TURNS[1:] + REJECT_TURNS[:1])  # CT403 warning at 7:1
NO_SIDECAR = {f"expected/{ADMIT_ID}.yaml": None}  # CT201 error at the admit session, 1:1
CT403_LINE = f"corpus/{REJECT_SESSION}:7:1: CT403 [warning] session begins with an [AGENT] turn, not [USER]"
CT201_LINE = (f"corpus/sessions/{ADMIT_ID}.md:1:1: CT201 [error] session has no sidecar: "
              f"expected/{ADMIT_ID}.yaml is missing")


pytestmark = pytest.mark.usefixtures("in_tmp")


def lint(capsys, *argv):
    code = main(["lint", *map(str, argv)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_text_format_is_sorted_path_line_col_code(make_corpus, capsys):
    make_corpus({REJECT_SESSION: AGENT_FIRST, **NO_SIDECAR})
    code, out, err = lint(capsys, "corpus")
    assert out.splitlines() == [CT201_LINE, CT403_LINE, "Found 1 error and 1 warning in 2 fixtures."]
    assert code == 1 and err == ""


def test_exit_codes_for_clean_warning_and_strict(make_corpus, capsys):
    make_corpus(name="clean")
    assert lint(capsys, "clean") == (0, "All checks passed.\n", "")
    make_corpus({REJECT_SESSION: AGENT_FIRST}, name="corpus")
    assert lint(capsys, "corpus")[:2] == (0, CT403_LINE + "\nFound 1 warning in 2 fixtures.\n")
    assert lint(capsys, "corpus", "--strict")[0] == 1


def test_json_format_has_exactly_the_contract_keys(make_corpus, capsys):
    make_corpus({REJECT_SESSION: AGENT_FIRST, **NO_SIDECAR})
    code, out, _ = lint(capsys, "corpus", "--format", "json")
    items = json.loads(out)
    assert [list(item) for item in items] == [["path", "line", "col", "code", "name", "severity", "message"]] * 2
    assert items[1] == {"path": f"corpus/{REJECT_SESSION}", "line": 7, "col": 1, "code": "CT403",
                        "name": "turn-shape", "severity": "warning",
                        "message": "session begins with an [AGENT] turn, not [USER]"}
    assert code == 1
    make_corpus(name="clean")
    assert lint(capsys, "clean", "--format", "json")[:2] == (0, "[]\n")


def test_github_format_is_workflow_commands(make_corpus, capsys):
    make_corpus({REJECT_SESSION: AGENT_FIRST, **NO_SIDECAR})
    _, out, _ = lint(capsys, "corpus", "--format", "github")
    assert out.splitlines() == [
        f"::error file=corpus/sessions/{ADMIT_ID}.md,line=1,col=1,title=CT201 sidecar-missing::session has no "
        f"sidecar: expected/{ADMIT_ID}.yaml is missing",
        f"::warning file=corpus/{REJECT_SESSION},line=7,col=1,title=CT403 turn-shape::session begins with an "
        "[AGENT] turn, not [USER]",
    ]


def test_sarif_format_is_one_run_with_rules_and_located_results(make_corpus, capsys):
    make_corpus({REJECT_SESSION: AGENT_FIRST, **NO_SIDECAR})
    _, out, _ = lint(capsys, "corpus", "--format", "sarif")
    log = json.loads(out)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted(r["id"] for r in rules)
    turn_shape = next(r for r in rules if r["id"] == "CT403")
    assert turn_shape["name"] == "turn-shape" and "[USER]" in turn_shape["fullDescription"]["text"]
    assert turn_shape["defaultConfiguration"]["level"] == "warning"
    result = run["results"][1]
    assert result["ruleId"] == "CT403" and result["level"] == "warning"
    assert rules[result["ruleIndex"]]["id"] == "CT403"
    location = result["locations"][0]["physicalLocation"]
    assert location == {"artifactLocation": {"uri": f"corpus/{REJECT_SESSION}", "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": 7, "startColumn": 1}}
    assert run["invocations"] == [{"executionSuccessful": True}]


def test_statistics_count_per_code(make_corpus, capsys):
    make_corpus({REJECT_SESSION: AGENT_FIRST, **NO_SIDECAR})
    _, out, _ = lint(capsys, "corpus", "--statistics")
    assert out.splitlines()[2:] == ["1     CT201 sidecar-missing", "1     CT403 turn-shape", "1 error(s), 1 warning(s)",
                                    "Found 1 error and 1 warning in 2 fixtures."]
    code, out, err = lint(capsys, "corpus", "--statistics", "--format", "json")
    assert json.loads(out) and err.splitlines()[-1] == "1 error(s), 1 warning(s)"


def test_list_rules_and_explain(capsys):
    code, out, _ = lint(capsys, "--list-rules")
    codes = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and codes == sorted(codes) and {"CT001", "CT403", "CT801"} <= set(codes)
    severity_columns = {line.index(" error ") if " error " in line else line.index(" warning ")
                        for line in out.splitlines()}
    assert len(severity_columns) == 1  # names of every length line up
    code, out, _ = lint(capsys, "--explain", "CT403")
    assert code == 0 and out.startswith("CT403 turn-shape [warning]\n") and "Example" in out
    assert lint(capsys, "--explain", "turn-shape")[1] == out
    code, _, err = lint(capsys, "--explain", "CT999")
    assert code == 2 and "unknown rule 'CT999'" in err


@pytest.mark.parametrize("argv, message", [
    (["nowhere"], "nowhere: no such file or folder"),
    (["corpus", "--select", "CT999"], "--select: unknown rule 'CT999': write a rule code such as CT403"),
    (["corpus", "--ignore", "CT40,bogus"], "--ignore: unknown rule 'bogus'"),
    (["corpus", "--ignore", "turn-shap"], "--ignore: unknown rule 'turn-shap': did you mean CT403 (turn-shape)?"),
    (["corpus", "--prompt", "missing.md"], "--prompt: missing.md: no such file"),
    (["corpus", "--kb", "missing"], "--kb: missing: not a folder"),
    (["corpus", "--format", "xml"], "invalid choice: 'xml'"),
])
def test_usage_errors_exit_2_with_one_line(make_corpus, capsys, argv, message):
    make_corpus()
    code, out, err = lint(capsys, *argv)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_skip_outside_corpora_skips_paths_in_no_corpus_instead_of_exit_2(make_corpus, capsys, tmp_path):
    make_corpus({REJECT_SESSION: AGENT_FIRST})
    (tmp_path / "expected").mkdir()
    (tmp_path / "expected" / "output.yaml").write_text("a: 1\n")  # a project file, not a fixture
    code, out, err = lint(capsys, "expected/output.yaml", f"corpus/{REJECT_SESSION}")
    assert code == 2 and "expected/output.yaml: not a corpus and not inside one" in err
    assert lint(capsys, "--skip-outside-corpora", "expected/output.yaml", f"corpus/{REJECT_SESSION}") == (
        0, CT403_LINE + "\nFound 1 warning in 2 fixtures.\n", "")
    assert lint(capsys, "--skip-outside-corpora", "expected/output.yaml") == (0, "All checks passed.\n", "")
    assert lint(capsys, "--skip-outside-corpora", "nowhere")[0] == 2  # a path that does not exist still is


def test_secret_rules_cannot_be_ignored_from_the_command_line(make_corpus, capsys):
    make_corpus()
    code, _, err = lint(capsys, "corpus", "--ignore", "CT5")
    assert code == 2
    if any(r.CODE.startswith("CT5") for r in lint_api.rule_modules()):
        assert "is a secret rule and can never be ignored" in err


def test_config_error_names_the_file_and_line(make_corpus, capsys):
    make_corpus({"corpus.yaml": SPEC_TEXT + "lint:\n  ignore: [CT999]\n"})
    code, out, err = lint(capsys, "corpus")
    assert code == 2 and out == ""
    assert err == ("corpus/corpus.yaml:20:12: lint.ignore: unknown rule 'CT999': write a rule code such as "
                   "CT403 or a name such as turn-shape (see corpustools lint --list-rules)\n")


def test_select_and_ignore(make_corpus, capsys):
    make_corpus({REJECT_SESSION: AGENT_FIRST, **NO_SIDECAR})
    assert lint(capsys, "corpus", "--select", "CT4", "-q")[1] == CT403_LINE + "\n"
    assert lint(capsys, "corpus", "--ignore", "CT403", "-q")[1] == CT201_LINE + "\n"
    # rule names, as --explain and corpus.yaml's lint.ignore take them
    assert lint(capsys, "corpus", "--ignore", "turn-shape", "-q")[1] == CT201_LINE + "\n"
    assert lint(capsys, "corpus", "--select", "sidecar-missing", "-q")[1] == CT201_LINE + "\n"


def test_paths_print_relative_to_the_working_directory(make_corpus, capsys, monkeypatch, tmp_path):
    make_corpus({REJECT_SESSION: AGENT_FIRST})
    monkeypatch.chdir(tmp_path / "corpus" / "sessions")
    assert lint(capsys, "..", "--quiet")[1] == f"{REJECT_ID}.md:7:1: CT403 [warning] session begins with an [AGENT] turn, not [USER]\n"
    assert lint(capsys, f"{REJECT_ID}.md")[1].startswith(f"{REJECT_ID}.md:7:1: CT403")


def test_no_path_lints_every_corpus_below(make_corpus, capsys, tmp_path):
    make_corpus({REJECT_SESSION: AGENT_FIRST}, name="fixtures/b")
    make_corpus(NO_SIDECAR, name="fixtures/a")
    make_corpus(NO_SIDECAR, name=".cache/hidden")
    code, out, _ = lint(capsys, "-q")
    assert [line.split(":")[0] for line in out.splitlines()] == [
        f"fixtures/a/sessions/{ADMIT_ID}.md", f"fixtures/b/{REJECT_SESSION}"]
    assert code == 1
    os.chdir(tmp_path / ".cache")
    code, _, err = lint(capsys)
    assert code == 1  # inside a hidden folder itself, its corpus is found
    empty = tmp_path / "empty"
    empty.mkdir()
    os.chdir(empty)
    code, _, err = lint(capsys)
    assert code == 2 and "no corpus" in err


def test_a_crashing_rule_exits_2_naming_it(make_corpus, capsys, monkeypatch):
    def explode(ctx, options):
        raise KeyError("boom")
        yield  # pragma: no cover

    crash = types.ModuleType("fake_crash")
    crash.__doc__ = "Crashes."
    crash.CODE, crash.NAME, crash.SEVERITY, crash.OPTIONS, crash.check = "CT595", "fake-crash", "error", (), explode
    crash.SUPPRESSIBLE = True
    real = lint_api.rule_modules
    monkeypatch.setattr(lint_api, "rule_modules", lambda: real() + [crash])
    make_corpus({REJECT_SESSION: AGENT_FIRST})
    code, out, err = lint(capsys, "corpus")
    assert code == 2 and out == CT403_LINE + "\nFound 1 warning and 1 internal error in 2 fixtures.\n"
    assert err == "corpustools lint: internal error in rule CT595 (fake-crash): KeyError: 'boom'\n"


def test_unreadable_files_are_diagnostics_not_tracebacks(make_corpus, capsys):
    make_corpus({REJECT_SESSION: b"\x00\x01binary", f"expected/{ADMIT_ID}.yaml": "a: [\n"})
    code, out, err = lint(capsys, "corpus", "-q")
    assert code == 1 and err == ""
    assert [line.split(": ")[1].split()[0] for line in out.splitlines()] == ["CT002", "CT001"]


def test_output_is_byte_identical_across_runs_and_hash_seeds(make_corpus, tmp_path):
    make_corpus({REJECT_SESSION: AGENT_FIRST, **NO_SIDECAR,
                 f"expected/{REJECT_ID}.yaml": "fixture_id: x\ncategory: nope\nexpect_empty: 3\n"})
    outputs = set()
    for seed in ("0", "1", "12345"):
        for fmt in ("text", "sarif"):
            env = {**os.environ, "PYTHONHASHSEED": seed, "LC_ALL": "C"}
            proc = subprocess.run([sys.executable, "-m", "corpustools", "lint", "corpus", "--format", fmt],
                                  cwd=tmp_path, env=env, capture_output=True, timeout=60)
            assert proc.returncode == 1, proc.stderr
            outputs.add((fmt, proc.stdout))
    assert len(outputs) == 2


def test_summary_line_counts_singular_and_plural_and_quiet_drops_it(make_corpus, capsys):
    make_corpus({REJECT_SESSION: AGENT_FIRST, **NO_SIDECAR})
    assert lint(capsys, "corpus")[1].splitlines()[-1] == "Found 1 error and 1 warning in 2 fixtures."
    assert lint(capsys, "corpus", "--select", "CT201")[1].splitlines()[-1] == "Found 1 error in 2 fixtures."
    assert lint(capsys, "corpus", "-q")[1] == f"{CT201_LINE}\n{CT403_LINE}\n"
    make_corpus({f"expected/{REJECT_ID}.yaml": None, **NO_SIDECAR}, name="two")
    assert lint(capsys, "two")[1].splitlines()[-1] == "Found 2 errors in 2 fixtures."
    make_corpus(name="clean")
    assert lint(capsys, "clean", "--quiet") == (0, "", "")
    assert lint(capsys, "clean", "--format", "json")[1] == "[]\n"  # no summary outside text


def test_json_summary_is_one_object_with_the_contract_keys(make_corpus, capsys):
    from corpustools import __version__

    make_corpus({REJECT_SESSION: AGENT_FIRST, **NO_SIDECAR})
    code, out, err = lint(capsys, "corpus", "--format", "json-summary", "--strict")
    assert json.loads(out) == {"tool": "corpustools", "version": __version__, "errors": 1, "warnings": 1,
                               "fixtures": 2, "by_code": {"CT201": 1, "CT403": 1}, "exit_code": 1}
    assert list(json.loads(out)) == ["tool", "version", "errors", "warnings", "fixtures", "by_code", "exit_code"]
    assert (code, err) == (1, "")
    make_corpus(name="clean")
    summary = json.loads(lint(capsys, "clean", "--format", "json-summary")[1])
    assert (summary["errors"], summary["warnings"], summary["by_code"], summary["exit_code"]) == (0, 0, {}, 0)


BOLD_CT403 = "\x1b[1mCT403\x1b[0m \x1b[33m[warning]\x1b[0m"


@pytest.mark.parametrize("env, coloured", [
    ({"FORCE_COLOR": "1"}, True),
    ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
    ({"FORCE_COLOR": ""}, False),
    ({}, False),
])
def test_colour_only_when_forced_or_on_a_terminal_and_never_with_no_color(make_corpus, capsys, monkeypatch,
                                                                          env, coloured):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    make_corpus({REJECT_SESSION: AGENT_FIRST, **NO_SIDECAR})
    out = lint(capsys, "corpus")[1]
    assert (BOLD_CT403 in out) is coloured
    assert ("\x1b[31m[error]" in out) is coloured
    if not coloured:
        assert "\x1b" not in out
    for fmt in ("json", "json-summary", "github", "sarif"):
        assert "\x1b" not in lint(capsys, "corpus", "--format", fmt)[1]


def test_colour_follows_the_terminal_and_no_color(monkeypatch):
    from corpustools.commands.lint import use_colour

    class Terminal:
        def isatty(self):
            return True

    assert use_colour(Terminal(), {}) is True
    assert use_colour(Terminal(), {"NO_COLOR": "1"}) is False
    assert use_colour(Terminal(), {"NO_COLOR": ""}) is True  # only a non-empty value disables
    assert use_colour(object(), {}) is False


def _git(*args):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", *args], check=True, capture_output=True, env=env, timeout=60)


@pytest.fixture
def committed(make_corpus, tmp_path):
    """A git repository (the working folder) with two clean corpora committed."""
    if not shutil.which("git"):
        pytest.skip("git is not installed")
    make_corpus(name="one")
    make_corpus(name="two")
    _git("init", "-q")
    _git("add", "-A")
    _git("commit", "-q", "-m", "corpora")
    return tmp_path


def test_staged_lints_the_corpus_of_a_staged_deletion(committed, capsys):
    assert lint(capsys, "--staged") == (0, "All checks passed.\n", "")  # nothing staged: nothing linted
    _git("rm", "-q", f"one/sessions/{ADMIT_ID}.md")
    code, out, _ = lint(capsys, "--staged")
    assert code == 1
    assert out.splitlines() == [f"one/expected/{ADMIT_ID}.yaml:1:1: CT202 [error] sidecar has no session: "
                                f"sessions/{ADMIT_ID}.md is missing", "Found 1 error in 2 fixtures."]


def test_staged_lints_both_corpora_of_a_rename_between_them(committed, capsys):
    _git("mv", f"one/expected/{ADMIT_ID}.yaml", "two/expected/admit-convention-02.yaml")
    code, out, _ = lint(capsys, "--staged", "-q")
    assert code == 1
    assert {line.split("/", 1)[0] for line in out.splitlines()} == {"one", "two"}  # the old and the new name


def test_staged_outside_a_repository_is_a_usage_error(make_corpus, capsys, tmp_path, monkeypatch):
    make_corpus()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))  # never the repository around tmp
    code, out, err = lint(capsys, "--staged")
    assert (code, out) == (2, "") and err.startswith("corpustools lint: --staged: not inside a git repository")
    assert len(err.splitlines()) == 1


def test_a_file_named_like_an_option_is_a_file_never_an_option(make_corpus, capsys, tmp_path):
    corpus = make_corpus({REJECT_SESSION: AGENT_FIRST}, name="--output=out")
    name = f"--output=out/{REJECT_SESSION}"
    before = (corpus / REJECT_SESSION).read_bytes()
    code, out, err = lint(capsys, name)  # before "--": refused, never read as --output
    assert (code, out) == (2, "")
    assert err == (f"corpustools: {name} is a file, and before -- it would be read as an option: write file names "
                   "after -- (a pre-commit hook's args: end with \"--\")\n")
    code, out, _ = lint(capsys, "--whole-corpus", "--", name)  # after "--": a file, linted
    assert code == 0 and out.splitlines()[0] == (f"{name}:7:1: CT403 [warning] session begins with an [AGENT] "
                                                 "turn, not [USER]")
    assert (corpus / REJECT_SESSION).read_bytes() == before and not (tmp_path / "out").exists()
