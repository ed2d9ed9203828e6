"""corpustools' Python API: what the command line does, for a caller who is not the command line.

    from corpustools import api

    report = api.lint("fixtures/prompt-eval")                 # a LintReport
    scored = api.score("fixtures/prompt-eval", ["fixtures/prompt-eval/runs/v5-run8"])   # a ScoreReport
    print(api.format_report(scored, "markdown"))              # any format its --format offers

Each function runs the code its command runs and returns the report value the command formats:
`lint` a LintReport, `score` a ScoreReport, `compare` a Comparison, `calibrate` a Calibration,
`agree` an Agreement.
`format_report(report, fmt)` is that report as `--format fmt` prints it; `report_formats(report)`
names the formats it has. Options are keyword-only, named like the command's (`--allow-mixed` is
`allow_mixed=`); a path is a str or an os.PathLike, several paths any iterable of them.

The API never prints, never exits, never reads standard input and never writes a file: it reads
the corpus and the runs, and returns values. It raises the hierarchy of corpustools.io.errors for
anything a user did (CorpustoolsError and its subclasses, below), each with the one line the
command line would print (`str(error)`; `error.lines(prefix)` for every line, as the command line
shows them). Any other exception is a bug, or a call that breaks the signatures below (a TypeError).

    CorpustoolsError            a user-facing error; catch this one
    ├── InputError              a file that cannot be read as what it should be; `.pos` names it
    │   └── ConfigError         a bad `lint:` setting, rule code or lint path
    ├── UsageError              options that do not go together (an unknown format, no run folder)
    ├── MixedRuns               runs given to score that are not repeats of one prompt
    ├── CorpusDrift             a run given to compare whose outputs answer other inputs
    └── CalibrationProblems     every problem of calibrate's or agree's worksheets and runs (`.problems`)

Paths inside the reports are as the engine found them (the paths given, joined with what lies in
the corpus); the reporters show them relative to the working folder, as the command line does.
docs/python-api.md documents each function and the stability promise; everything not in
`__all__` here is internal, and so is every module the API does not name.

`import corpustools.api` is light: the features are imported when a function first needs them (a
caller who only scores never loads lint's rules).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from corpustools.io.errors import CorpustoolsError, InputError, UsageError
from corpustools.io.lazy import lazy_names

if TYPE_CHECKING:
    from corpustools.calibrate import Agreement, Calibration, CalibrationProblems
    from corpustools.lint import ConfigError, LintReport
    from corpustools.score import Comparison, CorpusDrift, MixedRuns, ScoreReport

    Report = LintReport | ScoreReport | Comparison | Calibration | Agreement  # what format_report takes

PathLike = str | os.PathLike[str]  # a path; several: any iterable of them

__all__ = [
    "Agreement", "Calibration", "CalibrationProblems", "Comparison", "ConfigError", "CorpusDrift", "CorpustoolsError",
    "InputError", "LintReport", "MixedRuns", "ScoreReport", "UsageError",
    "agree", "calibrate", "compare", "format_report", "lint", "report_formats", "score",
]

# Names imported when first read (PEP 562), so that importing the API loads no feature.
_LAZY = {
    "LintReport": "corpustools.lint", "ConfigError": "corpustools.lint",
    "ScoreReport": "corpustools.score", "Comparison": "corpustools.score", "MixedRuns": "corpustools.score",
    "CorpusDrift": "corpustools.score",
    "Calibration": "corpustools.calibrate", "CalibrationProblems": "corpustools.calibrate",
    "Agreement": "corpustools.calibrate",
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY)


def _paths(paths: PathLike | Iterable[PathLike]) -> list[str]:
    """One path or several, as the str paths the engine takes (a str is one path, not its letters)."""
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(path) for path in paths]


def _some(paths: PathLike | Iterable[PathLike], what: str) -> list[str]:
    found = _paths(paths)
    if not found:
        raise UsageError(f"{what}: give at least one run folder")
    return found


def _codes(codes: str | Iterable[str] | None) -> str | None:
    """Rule codes, prefixes or names: a comma-separated str as --select takes, or an iterable."""
    return codes if codes is None or isinstance(codes, str) else ",".join(codes)


def lint(paths: PathLike | Iterable[PathLike] = (), *, select: str | Iterable[str] | None = None,
         ignore: str | Iterable[str] | None = None, prompt: PathLike | None = None, kb: PathLike | None = None,
         whole_corpus: bool = False, skip_outside_corpora: bool = False, strict: bool = False) -> LintReport:
    """`corpustools lint PATH...`: every corpus `paths` name (a corpus folder, or a file or folder
    inside one: only what is under it is reported unless `whole_corpus`); no path: the corpus the
    working folder is in, else every corpus below it. `select`/`ignore`: rule codes, prefixes or
    names (secret rules always run); `prompt`/`kb`: as --prompt/--kb. `strict`: warnings fail too
    (the report's `exit_code`). Never fixes: `corpustools lint --fix` does. ConfigError for a bad
    path, rule or setting; a rule that crashes is in `report.run.crashes` (exit_code 2)."""
    from corpustools import lint as linting

    rules = linting.rule_modules()
    selection = linting.choose(rules, select=_codes(select), ignore=_codes(ignore), prefix="",
                               prompt=None if prompt is None else os.fspath(prompt),
                               kb=None if kb is None else os.fspath(kb))
    run = linting.lint_paths(_paths(paths), rules, selection, skip_outside=skip_outside_corpora,
                             whole_corpus=whole_corpus)
    return linting.LintReport(run=run, rules=tuple(rules), strict=strict)


def score(corpus: PathLike, runs: PathLike | Iterable[PathLike], *, allow_mixed: bool = False) -> ScoreReport:
    """`corpustools score CORPUS RUN...`: every run folder scored against the corpus's labels; with
    two or more runs, the run-to-run noise floor too (`report.repeated`). MixedRuns when the runs'
    run.yaml say they are not repeats of one prompt, unless `allow_mixed`; InputError for a corpus
    or a run that cannot be read."""
    from corpustools.score import score_report

    return score_report(os.fspath(corpus), _some(runs, "score"), allow_mixed=allow_mixed)


def compare(corpus: PathLike, base: PathLike | Iterable[PathLike], candidate: PathLike | Iterable[PathLike], *,
            allow_drift: bool = False) -> Comparison:
    """`corpustools compare CORPUS --base RUN... --candidate RUN...`: both sides scored under the
    current labels, fixture by fixture and metric by metric; `report.headline_text` says improved,
    regressed or no change beyond noise. CorpusDrift when a run's outputs answer other inputs,
    unless `allow_drift`."""
    from corpustools.score import compare_runs

    return compare_runs(os.fspath(corpus), _some(base, "compare: base"), _some(candidate, "compare: candidate"),
                        allow_drift=allow_drift)


def calibrate(corpus: PathLike, pairs: Iterable[tuple[PathLike, PathLike]]) -> Calibration:
    """`corpustools calibrate CORPUS RUN --verdicts FILE ...`: each (run folder, filled worksheet)
    pair's agreement with the scorer. CalibrationProblems lists every problem of the runs and
    worksheets (`.problems`) when there is one."""
    from corpustools.calibrate import calibrate_runs

    given = [(os.fspath(run), os.fspath(worksheet)) for run, worksheet in pairs]
    if not given:
        raise UsageError("calibrate: give at least one (run folder, worksheet) pair")
    if any(worksheet == "-" for _, worksheet in given):  # the command line's standard input
        raise UsageError("calibrate: a worksheet is a file; the API never reads standard input")
    return calibrate_runs(os.fspath(corpus), given)


def agree(corpus: PathLike, worksheets: Iterable[PathLike], *, allow_partial: bool = False) -> Agreement:
    """`corpustools agree CORPUS WS_A WS_B [WS_A2 WS_B2 ...]`: two raters' filled worksheets of one run,
    in pairs, compared level by level (`.level(key)`: its counts, `.percent`, `.ac1`, `.kappa`,
    `.alpha`), the disagreements for a reconciliation meeting (`.disagreements`) and corpus.yaml's
    agreement threshold (`.gates`). `allow_partial`: compare the fixtures both worksheets of a pair
    judged. CalibrationProblems lists every problem (`.problems`); UsageError for an odd number."""
    from corpustools.calibrate import agree_worksheets

    given = _paths(worksheets)
    if "-" in given:  # the command line's standard input
        raise UsageError("agree: a worksheet is a file; the API never reads standard input")
    return agree_worksheets(os.fspath(corpus), given, allow_partial=allow_partial)


# A report type (by where it is defined) -> the module holding its family's FORMATTERS table, so
# formatting one family's report imports no other family.
_FORMATTER_TABLES = {
    "corpustools.lint.reported.LintReport": "corpustools.lint.report",
    "corpustools.score.scoring.ScoreReport": "corpustools.score.report",
    "corpustools.score.compare.Comparison": "corpustools.score.report.compare",
    "corpustools.calibrate.calibration.Calibration": "corpustools.calibrate.report",
    "corpustools.calibrate.agree.Agreement": "corpustools.calibrate.report.agree",
}


def _formatters(report: Report) -> Mapping[str, Callable[[Any], str]]:
    """The FORMATTERS table of the report's family (its command's --format choices)."""
    kind = type(report)
    table_module = _FORMATTER_TABLES.get(f"{kind.__module__}.{kind.__qualname__}")
    if table_module is None:
        raise TypeError(f"not a corpustools report: {kind.__name__} (give what lint, score, compare, "
                        "calibrate or agree returned)")
    table: Mapping[str, Callable[[Any], str]] = importlib.import_module(table_module).FORMATTERS
    return table


def report_formats(report: Report) -> tuple[str, ...]:
    """The formats `format_report` takes for this report: its command's --format choices."""
    return tuple(_formatters(report))


def format_report(report: Report, fmt: str = "text") -> str:
    """The report as `--format fmt` prints it (the text format never coloured); UsageError for a
    format its family does not have. Write it where you like: the API writes nothing."""
    table = _formatters(report)
    if fmt not in table:
        raise UsageError(f"unknown format {fmt!r} for a {type(report).__name__}: one of {', '.join(table)}")
    return table[fmt](report)
