"""corpustools.api, the Python API (docs/python-api.md): the doc's example runs as written and
prints what the doc says; each function returns what its command formats, byte for byte; errors
are the CorpustoolsError hierarchy, raised, never printed; importing the API loads no feature."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from collections.abc import Callable, Mapping
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

import pytest

from corpustools import api
from corpustools.calibrate.report import FORMATTERS as CALIBRATE
from corpustools.calibrate.report.agree import FORMATTERS as AGREE
from corpustools.cli import main
from corpustools.lint.report import FORMATTERS as LINT
from corpustools.score.report import FORMATTERS as SCORE
from corpustools.score.report.compare import FORMATTERS as COMPARE
from tests.support.raters import second_rater
from tests.support.recipes import FORMAT

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "python-api.md"
CORPUS = "fixtures/prompt-eval"
RUN, OTHER = f"{CORPUS}/runs/v5-run8", f"{CORPUS}/runs/v8-run7"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL)


def doc_examples() -> list[tuple[str, str]]:
    """(code, what it prints) for each ```python block of the doc, in order: the ```text block
    right after it (blank lines between only), or "" when none follows."""
    text = DOC.read_text(encoding="utf-8")
    blocks = [(m.group(1), m.group(2), m.start(), m.end()) for m in FENCE.finditer(text)]
    examples = []
    for i, (kind, body, _, end) in enumerate(blocks):
        if kind != "python":
            continue
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        printed = following[1] if following and following[0] == "text" and not text[end:following[2]].strip() else ""
        examples.append((body, printed))
    return examples


def test_the_docs_example_runs_as_written_and_prints_what_the_doc_says(monkeypatch):
    examples = doc_examples()
    assert len(examples) >= 4 and all(printed for _, printed in examples)  # lint, score, format, compare, errors
    monkeypatch.chdir(ROOT)
    namespace = {"__name__": "python_api_doc"}
    for code, printed in examples:
        out = StringIO()
        with redirect_stdout(out):
            exec(compile(code, str(DOC), "exec"), namespace)
        assert out.getvalue() == printed, code


def cli(argv: list[str], capsys) -> str:
    code = main(argv)
    out = capsys.readouterr().out
    assert code in (0, 1), out
    return out


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


# family -> (its FORMATTERS table, the API call, the command printing the same report). Every format
# of every table is checked: a format added to a table is checked here with nothing to add.
CALIBRATED = (f"{CORPUS}/runs/v5-run6", f"{CORPUS}/calibration/held-out-corpus-v4/v5-run6.yaml")
WORKSHEET = f"{CORPUS}/calibration/held-out-corpus-v5/v5-run8.yaml"  # agree's second rater: tests/support/raters
FAMILIES: dict[str, tuple[Mapping[str, Callable[[Any], str]], Callable[[str], Any], list[str]]] = {
    "lint": (LINT, lambda bob: api.lint(CORPUS), ["lint", CORPUS]),
    "score": (SCORE, lambda bob: api.score(CORPUS, [RUN, OTHER], allow_mixed=True),
              ["score", CORPUS, RUN, OTHER, "--allow-mixed"]),
    "compare": (COMPARE, lambda bob: api.compare(CORPUS, base=[RUN], candidate=Path(OTHER)),
                ["compare", CORPUS, "--base", RUN, "--candidate", OTHER]),
    "calibrate": (CALIBRATE, lambda bob: api.calibrate(CORPUS, [(CALIBRATED[0], Path(CALIBRATED[1]))]),
                  ["calibrate", CORPUS, CALIBRATED[0], "--verdicts", CALIBRATED[1]]),
    "agree": (AGREE, lambda bob: api.agree(CORPUS, [WORKSHEET, bob]), ["agree", CORPUS, WORKSHEET, "BOB"]),
}
CASES = [(family, fmt) for family, (table, _, _) in FAMILIES.items() for fmt in table]


@pytest.mark.usefixtures("at_root")
@pytest.mark.parametrize(("family", "fmt"), CASES, ids=[f"{family}-{fmt}" for family, fmt in CASES])
def test_every_format_of_every_report_is_what_its_command_prints(family, fmt, tmp_path, capsys):
    _, call, argv = FAMILIES[family]
    bob = str(second_rater(ROOT / WORKSHEET, tmp_path / "bob.yaml")) if "BOB" in argv else ""
    report = call(bob)
    assert fmt in api.report_formats(report), f"{family}: api.report_formats lacks {fmt}\n{FORMAT}"
    printed = cli([bob if arg == "BOB" else arg for arg in argv] + ["--format", fmt], capsys)
    assert api.format_report(report, fmt) == printed, f"{family} --format {fmt}: the API formats other text\n{FORMAT}"


@pytest.mark.usefixtures("at_root")
def test_calibrate_returns_the_agreement_tables():
    calibration = api.calibrate(CORPUS, [(CALIBRATED[0], Path(CALIBRATED[1]))])
    assert calibration.table("fixture").both_yes > 0


@pytest.mark.usefixtures("at_root")
def test_lint_options_select_ignore_and_paths(tmp_path):
    everything = api.lint(CORPUS)
    assert api.lint(CORPUS, select=["CT1", "turn-shape"]).run.fixtures == everything.run.fixtures
    with pytest.raises(api.ConfigError, match=r"^select: unknown rule 'CT999'"):
        api.lint(CORPUS, select="CT999")
    with pytest.raises(api.ConfigError, match=r"^ignore: CT501 \(secret-token\) is a secret rule"):
        api.lint(CORPUS, ignore=["CT5"])
    with pytest.raises(api.ConfigError, match="no such file or folder"):
        api.lint(tmp_path / "nowhere")
    assert api.lint(tmp_path, skip_outside_corpora=True).run.fixtures == 0  # a folder in no corpus


def test_errors_are_raised_never_printed_nor_exited(capsys, tmp_path):
    with pytest.raises(api.InputError, match="no such corpus folder"):
        api.score(tmp_path / "none", tmp_path)
    with pytest.raises(api.UsageError, match="at least one run folder"):
        api.score(ROOT / CORPUS, [])
    with pytest.raises(api.MixedRuns):
        api.score(ROOT / CORPUS, [ROOT / RUN, ROOT / OTHER])
    with pytest.raises(api.UsageError, match="never reads standard input"):
        api.calibrate(ROOT / CORPUS, [(ROOT / RUN, "-")])
    with pytest.raises(api.CalibrationProblems) as problems:
        api.calibrate(ROOT / CORPUS, [(tmp_path / "none", tmp_path / "none.yaml")])
    assert problems.value.problems
    # str(): the first problem's one line, naming its file (not just a count)
    assert str(problems.value).startswith(f"{tmp_path / 'none'}: no such results folder")
    for error in (api.InputError, api.ConfigError, api.UsageError, api.MixedRuns, api.CorpusDrift,
                  api.CalibrationProblems):
        assert issubclass(error, api.CorpustoolsError)
    assert capsys.readouterr() == ("", "")


def test_format_report_names_the_formats_it_has():
    scored = api.score(ROOT / CORPUS, ROOT / RUN)
    assert api.report_formats(scored) == tuple(SCORE), FORMAT
    with pytest.raises(api.UsageError, match=rf"unknown format 'xml' for a ScoreReport: one of {', '.join(SCORE)}$"):
        api.format_report(scored, "xml")
    with pytest.raises(TypeError, match="not a corpustools report"):
        api.format_report("a string", "text")


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        api.score(ROOT / CORPUS, ROOT / RUN, True)


def test_every_exported_name_is_there_and_public_where_it_comes_from():
    for name in api.__all__:
        assert getattr(api, name) is not None
    for name, package in api._LAZY.items():
        assert name in importlib.import_module(package).__all__, (name, package)
    assert set(api._LAZY) <= set(api.__all__) and set(dir(api)) >= set(api.__all__)
    with pytest.raises(AttributeError):
        api.no_such_name  # noqa: B018


def test_importing_the_api_loads_no_feature():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, corpustools.api; print(sorted(m for m in sys.modules if m.startswith("
         "'corpustools')))"], capture_output=True, text=True, check=True).stdout
    assert eval(loaded) == ["corpustools", "corpustools.api", "corpustools.io", "corpustools.io.errors",
                            "corpustools.io.lazy", "corpustools.io.positions"]


def test_formatting_a_score_report_loads_no_other_family():
    program = ("import sys; from corpustools import api; "
               "api.format_report(api.score('fixtures/prompt-eval', 'fixtures/prompt-eval/runs/v5-run8'), 'text'); "
               "print(sorted(m for m in sys.modules if m.startswith(('corpustools.lint', 'corpustools.calibrate'))))")
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT)
    assert eval(loaded.stdout) == []


def test_the_package_says_it_is_typed():
    assert (ROOT / "corpustools" / "py.typed").is_file()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_every_exported_name_is_documented():
    """docs/python-api.md names every name of `api.__all__`: a function added for the command line
    is documented where a script's author looks (its "What the command line calls" table)."""
    text = DOC.read_text(encoding="utf-8")
    missing = [name for name in api.__all__ if not re.search(rf"\b{name}\b", text)]
    assert missing == [], (f"docs/python-api.md does not name {', '.join(missing)}: add each to its table of "
                           "functions (or, for a command's helper, to \"What the command line calls\")")
