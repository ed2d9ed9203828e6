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
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, TextIO

from corpustools.io.errors import CorpustoolsError, InputError, UsageError
from corpustools.io.lazy import lazy_names
from corpustools.io.positions import Pos, printable

if TYPE_CHECKING:
    from corpustools.calibrate import Agreement, Calibration, CalibrationProblems, Reconciled
    from corpustools.interop import ImportedRun
    from corpustools.io.schemastore import SCHEMA_KINDS, VALIDATE_KINDS
    from corpustools.lint import ConfigError, CorpusFixes, FixResult, LintReport, Selection
    from corpustools.provenance import Freeze, VerifyReport
    from corpustools.render import Rendered
    from corpustools.score import Comparison, CorpusDrift, HistoryPlan, MixedRuns, ScoreReport
    from corpustools.validation import ValidationReport

    # what format_report takes
    Report = LintReport | ScoreReport | Comparison | Calibration | Agreement | ValidationReport | VerifyReport

PathLike = str | os.PathLike[str]  # a path; several: any iterable of them
# Why every function below imports its feature inside it (the one reason, said once): importing
# the API loads no feature (tests/test_python_api.py), so a caller who only scores never loads
# lint's rules, and the command line pays only for the command it runs.

__all__ = [
    "Agreement", "Calibration", "CalibrationProblems", "Comparison", "ConfigError", "CorpusDrift", "CorpustoolsError",
    "InputError", "LintReport", "MixedRuns", "ScoreReport", "UsageError",
    "agree", "calibrate", "compare", "format_report", "lint", "report_formats", "score",
    # what the command line calls besides (docs/python-api.md, "What the command line calls")
    "RESULT_KIND", "SCHEMA_KINDS", "VALIDATE_KINDS", "Adjudication", "ImportedRun",
    "adjudicate", "agree_thresholds", "breaches", "clean_cache", "default_cache_dir", "explain", "export", "export_formats", "fix_diff", "fix_notes",
    "formatters", "import_inspect", "import_promptfoo", "init", "plan_fixes", "plan_history", "provenance_freeze",
    "provenance_record", "reconcile", "redact", "render", "render_all", "report_notes", "rule_list", "run_init",
    "run_refresh", "schema", "score_thresholds", "validate", "verify", "write_fixes",
]

RESULT_KIND = "result"  # validate's KIND for answers checked against a corpus's output contract

# Names imported when first read (PEP 562), so that importing the API loads no feature.
_LAZY = {
    "LintReport": "corpustools.lint", "ConfigError": "corpustools.lint",
    "ScoreReport": "corpustools.score", "Comparison": "corpustools.score", "MixedRuns": "corpustools.score",
    "CorpusDrift": "corpustools.score",
    "Calibration": "corpustools.calibrate", "CalibrationProblems": "corpustools.calibrate",
    "Agreement": "corpustools.calibrate",
    "ImportedRun": "corpustools.interop",
    "SCHEMA_KINDS": "corpustools.io.schemastore", "VALIDATE_KINDS": "corpustools.io.schemastore",
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
         whole_corpus: bool = False, skip_outside_corpora: bool = False, strict: bool = False,
         staged: bool = False, fixed: int | None = None, option_prefix: str = "",
         cache_dir: PathLike | None = None) -> LintReport:
    """`corpustools lint PATH...`: every corpus `paths` name (a corpus folder, or a file or folder
    inside one: only what is under it is reported unless `whole_corpus`); no path: the corpus the
    working folder is in, else every corpus below it. `select`/`ignore`: rule codes, prefixes or
    names (secret rules always run); `prompt`/`kb`: as --prompt/--kb. `strict`: warnings fail too
    (the report's `exit_code`). `staged`: lint what git's index holds (`lint --staged`), never the
    working tree. `fixed`: how many findings `write_fixes` fixed, for the report to say.
    `option_prefix`: how an error names `select`/`ignore` (`"--"`: as the command line's options).
    `cache_dir`: lint's cache folder, as `--cache-dir` (None, the default: no cache, so nothing is
    written; `default_cache_dir()` is where the command line looks). Never fixes: `plan_fixes` and
    `write_fixes` do. ConfigError for a bad path, rule or setting; a rule that crashes is in
    `report.run.crashes` (exit_code 2)."""
    from corpustools import lint as linting

    rules = linting.rule_modules()
    selection = _selection(rules, select, ignore, prompt, kb, option_prefix)
    linted = linting.lint_staged if staged else linting.lint_paths
    run = linted(_paths(paths), rules, selection, skip_outside=skip_outside_corpora, whole_corpus=whole_corpus,
                 cache_dir=None if cache_dir is None else os.fspath(cache_dir))
    return linting.LintReport(run=run, rules=tuple(rules), strict=strict, fixed=fixed)


def _selection(rules: list[ModuleType], select: str | Iterable[str] | None, ignore: str | Iterable[str] | None,
               prompt: PathLike | None, kb: PathLike | None, option_prefix: str) -> Selection:
    """The rules `select`/`ignore` choose, and the prompt and KB given: lint's and fixing's one reading."""
    from corpustools import lint as linting

    return linting.choose(rules, select=_codes(select), ignore=_codes(ignore), prefix=option_prefix,
                          prompt=None if prompt is None else os.fspath(prompt),
                          kb=None if kb is None else os.fspath(kb))


def plan_fixes(paths: PathLike | Iterable[PathLike] = (), *, select: str | Iterable[str] | None = None,
               ignore: str | Iterable[str] | None = None, prompt: PathLike | None = None,
               kb: PathLike | None = None, whole_corpus: bool = False, skip_outside_corpora: bool = False,
               unsafe: bool = False, option_prefix: str = "") -> list[CorpusFixes]:
    """What `corpustools lint --fix` (or `--diff`) would change, per corpus, made in a scratch copy:
    nothing is written. The options are `lint`'s; `unsafe`: also the fixes that change meaning
    (`--unsafe-fixes`). `fix_diff` shows the plan, `write_fixes` writes it, `fix_notes` says it."""
    from corpustools import lint as linting

    rules = linting.rule_modules()
    selection = _selection(rules, select, ignore, prompt, kb, option_prefix)
    return linting.plan_paths(_paths(paths), rules, selection, unsafe=unsafe, skip_outside=skip_outside_corpora,
                              whole_corpus=whole_corpus)


def write_fixes(plan: list[CorpusFixes]) -> FixResult:
    """Write a plan of `plan_fixes` back to the corpus files (`lint --fix`): never a read-only file,
    and a file only over the bytes the fix was computed from. `.written` and `.failed` say which."""
    from corpustools import lint as linting

    return linting.write_fixes(plan)


def fix_diff(plan: list[CorpusFixes]) -> str:
    """A plan of `plan_fixes` as a unified diff (`lint --diff`), paths from the repository root."""
    from corpustools import lint as linting

    return linting.format_diff(plan)


def fix_notes(plan: list[CorpusFixes], written: FixResult | None = None) -> list[str]:
    """What lint says on standard error of a plan, one line each, redacted and printable: each fix
    made (or, without `written`, each it would make), skipped or not written, and how many findings
    have an unsafe fix left for --unsafe-fixes."""
    from corpustools.lint import note_shown

    shown = note_shown(plan)

    def said(line: str) -> str:  # a note names a term or a file: shown like a diagnostic
        return printable(shown(line))

    if written is None:
        lines = [said(note.line("would fix" if note.safe else "would fix (unsafe fix)"))
                 for corpus in plan for note in corpus.fixed]
    else:
        lines = [said(note.line("fixed" if note.safe else "fixed (unsafe fix)")) for note in written.written]
        lines += [said(note.line("fix not written")) for note in written.failed]
    lines += [said(note.line("fix skipped")) for corpus in plan for note in corpus.skipped]
    hidden = sum(corpus.unsafe_available for corpus in plan)
    if hidden:
        lines.append(f"corpustools lint: {hidden} more finding{'s have' if hidden != 1 else ' has'} an unsafe fix "
                     "(add --unsafe-fixes to apply)")
    return lines


def rule_list() -> str:
    """`lint --list-rules`: every rule, a line each."""
    from corpustools import lint as linting

    return linting.rule_list(linting.rule_modules())


def explain(code: str) -> str:
    """`lint --explain CODE`: a rule's documentation, by its code (CT403) or name (turn-shape);
    ConfigError for an unknown rule."""
    from corpustools.lint import ConfigError, rule_doc, rule_fix_doc, rule_modules, rule_options

    wanted = code.strip()
    rule = next((r for r in rule_modules() if wanted.upper() == r.CODE or wanted == r.NAME), None)
    if rule is None:
        raise ConfigError(Pos(""), f"--explain: unknown rule {code!r} (see --list-rules)")
    return f"{rule.CODE} {rule.NAME} [{rule.SEVERITY}]\n\n{rule_doc(rule)}\n\n{rule_options(rule)}\n{rule_fix_doc(rule)}"


def default_cache_dir() -> str:
    """Where lint's cache is when no folder is given: CORPUSTOOLS_CACHE_DIR, else
    $XDG_CACHE_HOME/corpustools, else ~/.cache/corpustools."""
    from corpustools import lint as linting

    return linting.default_cache_dir()


def clean_cache(folder: PathLike | None = None) -> tuple[str, int]:
    """`corpustools cache clean [--cache-dir DIR]`: **writes** (removes every entry lint wrote in
    `folder`, default `default_cache_dir()`); (the folder, how many entries were removed)."""
    from corpustools import lint as linting

    where = os.fspath(folder) if folder else linting.default_cache_dir()
    return where, linting.clean_cache(where)


def redact(text: str) -> str:
    """`text` with every secret lint would find in it masked: how lint shows anything it prints."""
    from corpustools.lint import redact_secrets

    return redact_secrets(text)


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


def calibrate(corpus: PathLike, pairs: Iterable[tuple[PathLike, PathLike]], *,
              standard_input: bool = False) -> Calibration:
    """`corpustools calibrate CORPUS RUN --verdicts FILE ...`: each (run folder, filled worksheet)
    pair's agreement with the scorer. CalibrationProblems lists every problem of the runs and
    worksheets (`.problems`) when there is one. `standard_input`: a worksheet `-` is read from
    standard input, as the command line reads it (otherwise refused: a worksheet is a file)."""
    from corpustools.calibrate import calibrate_runs

    given = [(os.fspath(run), os.fspath(worksheet)) for run, worksheet in pairs]
    if not given:
        raise UsageError("calibrate: give at least one (run folder, worksheet) pair")
    if not standard_input and any(worksheet == "-" for _, worksheet in given):  # the command line's
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


# Each report family (named by its command) -> the module holding its FORMATTERS table, so that
# formatting one family's report imports no other family.
_FORMATTER_TABLES = {
    "lint": "corpustools.lint.report",
    "score": "corpustools.score.report",
    "compare": "corpustools.score.report.compare",
    "calibrate": "corpustools.calibrate.report",
    "agree": "corpustools.calibrate.report.agree",
    "validate": "corpustools.validation.report",
    "verify": "corpustools.provenance.report",
}
# A report type (by where it is defined) -> its family.
_FAMILIES = {
    "corpustools.lint.reported.LintReport": "lint",
    "corpustools.score.scoring.ScoreReport": "score",
    "corpustools.score.compare.Comparison": "compare",
    "corpustools.calibrate.calibration.Calibration": "calibrate",
    "corpustools.calibrate.agree.Agreement": "agree",
    "corpustools.validation.checks.ValidationReport": "validate",
    "corpustools.provenance.records.VerifyReport": "verify",
}


def formatters(family: str) -> Mapping[str, Callable[[Any], str]]:
    """The FORMATTERS table of a report family (`lint`, `score`, `compare`, `calibrate`, `agree`,
    `validate`, `verify`): its keys are the command's --format choices, in --help's order; only the
    table is imported, each format's module when it is first used."""
    table: Mapping[str, Callable[[Any], str]] = importlib.import_module(_FORMATTER_TABLES[family]).FORMATTERS
    return table


def _formatters(report: Report) -> Mapping[str, Callable[[Any], str]]:
    """The FORMATTERS table of the report's family (its command's --format choices)."""
    kind = type(report)
    family = _FAMILIES.get(f"{kind.__module__}.{kind.__qualname__}")
    if family is None:
        raise TypeError(f"not a corpustools report: {kind.__name__} (give what lint, score, compare, "
                        "calibrate, agree, validate or verify returned)")
    return formatters(family)


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


def report_notes(report: Report, fmt: str) -> str:
    """What standard error carries beside the report in format `fmt`: lint's --statistics and --fix
    count, which its text format prints in the report itself; nothing for the other families."""
    if _FAMILIES.get(f"{type(report).__module__}.{type(report).__qualname__}") != "lint":
        return ""
    from corpustools.lint.report import notes

    return notes(report, fmt)  # type: ignore[arg-type]


# The gates: --fail-under KEY=NUMBER,... of score and of agree.

def score_thresholds(text: str) -> tuple[tuple[str, float], ...]:
    """score's `--fail-under` text (`pass_rate=0.8,phantoms=3`) as thresholds; UsageError when malformed."""
    from corpustools.score import parse_thresholds

    return parse_thresholds(text)


def agree_thresholds(text: str) -> tuple[tuple[str, str | None, float], ...]:
    """agree's `--fail-under` text (`verdicts=0.8,points.kappa=0.6`) as thresholds; UsageError when malformed."""
    from corpustools.calibrate import parse_fail_under

    return parse_fail_under(text)


def breaches(report: ScoreReport | Agreement, thresholds: tuple[tuple[Any, ...], ...]) -> list[str]:
    """One line per threshold (of `score_thresholds` for a ScoreReport, `agree_thresholds` for an
    Agreement) the report falls under: what `--fail-under` exits 1 for."""
    family = _FAMILIES.get(f"{type(report).__module__}.{type(report).__qualname__}")
    if family == "score":
        from corpustools.score import breaches as score_breaches

        return score_breaches(report, thresholds)  # type: ignore[arg-type]
    if family == "agree":
        from corpustools.calibrate import breaches as agree_breaches

        return agree_breaches(report, thresholds)  # type: ignore[arg-type]
    raise TypeError(f"no --fail-under for a {type(report).__name__}: give a ScoreReport or an Agreement")


def plan_history(report: ScoreReport, *, append_to: PathLike | None = None, draw_from: PathLike | None = None,
                 force: bool = False) -> HistoryPlan:
    """score's `--append-history FILE` and `--history FILE`: the row to append (`.row`, None when the
    table has it already), the table the HTML page draws (`.drawn`: give it to the report with
    `dataclasses.replace(report, history=plan.drawn)`); `.append(force=...)` writes the row."""
    from corpustools.score import plan_history as planned

    return planned(report, append_to=None if append_to is None else os.fspath(append_to),
                   draw_from=None if draw_from is None else os.fspath(draw_from), force=force)


# What the other commands do. Unlike the functions above, those whose docstring says they write
# write files (atomically, never over an input, never into a corpus's own files: io/writing).

def adjudicate(corpus: PathLike, run: PathLike, worksheet: PathLike | None = None, *, rater: str | None = None,
               show_terms: bool = False, force: bool = False) -> Adjudication:
    """`corpustools adjudicate CORPUS RUN --out WORKSHEET`: the blind worksheet of one run; writes it
    to `worksheet` when given (never over one that has an answer: InputError), else only returns it."""
    from corpustools.calibrate import build_worksheet, refuse_answered, worksheet_yaml
    from corpustools.io.inputs import claim_update
    from corpustools.io.writing import refuse_corpus_path, refuse_target, write_text
    from corpustools.score import open_corpus

    corpus, run = os.fspath(corpus), os.fspath(run)
    target = None if worksheet is None else os.fspath(worksheet)
    if rater is not None and (not rater.strip() or "\n" in rater):
        raise UsageError("--rater: give the rater's name on one line (free text, not blank)")
    loaded = open_corpus(corpus)
    if not os.path.isdir(run):
        raise InputError(Pos(run), "no such results folder")
    if target is not None:  # refused before anything is read from the run: an early, cheap answer
        refuse_corpus_path(target, corpus)
        refuse_target(target, force=force)
    sheet = build_worksheet(loaded, run, shows_terms=show_terms, rater=None if rater is None else rater.strip())
    text = worksheet_yaml(sheet)
    if target is not None:
        claim_update(target, "--out")  # read (for answers) to be replaced: never a result it judges
        refuse_answered(target, loaded.contract)
        write_text(target, text, force=force, updating=True)
    return Adjudication(text, len(sheet.fixtures), sum(len(f.proposals) for f in sheet.fixtures),
                        tuple(loaded.warnings) + tuple(sheet.skipped))


@dataclass(frozen=True)
class Adjudication:
    """A worksheet `adjudicate` made: its YAML text, how much it asks, and what was skipped."""

    text: str
    fixtures: int
    items: int  # the run's items (proposals) to judge
    warnings: tuple[str, ...]


def reconcile(first: PathLike, second: PathLike, worksheet: PathLike | None = None, *,
              force: bool = False) -> Reconciled:
    """`corpustools reconcile WS_A WS_B --out WORKSHEET`: two raters' worksheets merged, each
    disagreement blank for a third reading; writes it to `worksheet` when given."""
    from corpustools.calibrate import reconcile_worksheets
    from corpustools.io.writing import refuse_target, write_text

    first, second = os.fspath(first), os.fspath(second)
    if "-" in (first, second):
        raise UsageError("reconcile reads two worksheet files, not standard input")
    target = None if worksheet is None else os.fspath(worksheet)
    if target is not None:
        refuse_target(target, force=force)  # before anything is read: an early, cheap answer
    merged = reconcile_worksheets(first, second)
    if target is not None:
        write_text(target, merged.text, force=force)  # never over an input: io/inputs says so
    return merged


def render(corpus: PathLike, fixture_id: str, prompt: PathLike, *, append: bool = False) -> str:
    """`corpustools render CORPUS FIXTURE_ID --prompt FILE`: the prompt with the fixture's transcript
    on its placeholder line (`append`: after it, when the prompt has none)."""
    from corpustools.model.prompt import read_prompt
    from corpustools.render import render_prompt, transcript

    prompt_path = os.fspath(prompt)
    prompt_text = read_prompt(prompt_path, need_placeholder=not append)
    return render_prompt(prompt_text, transcript(os.fspath(corpus), fixture_id), append=append,
                         prompt_path=prompt_path)


def render_all(corpus: PathLike, prompt: PathLike, folder: PathLike, *, append: bool = False,
               force: bool = False) -> Rendered:
    """`corpustools render CORPUS --all --out DIR`: writes DIR/<fixture_id>.md for every fixture
    (`.written`); `.errors` a line per session that could not be rendered."""
    from corpustools.render import render_all as rendered

    return rendered(os.fspath(corpus), os.fspath(prompt), os.fspath(folder), append=append, force=force)


def init(folder: PathLike, kind: str = "kenkeep", *, shown: str | None = None) -> list[str]:
    """`corpustools init DIR --output KIND`: writes a new corpus (kenkeep, items or text) into an
    absent or empty folder; the paths written. `shown`: how the folder is named in its README."""
    from corpustools.scaffold import scaffold

    path = os.fspath(folder)
    return scaffold(path, path.replace("\\", "/") if shown is None else shown, kind)


def run_init(run: PathLike, corpus: PathLike, prompt: PathLike, *, model: str = "unrecorded",
             temperature: str = "unrecorded", harness: str | None = None, operator: str = "unrecorded",
             started_at: str | None = None, prompt_name: str | None = None, notes: str = "",
             force: bool = False) -> tuple[str, list[str]]:
    """`corpustools run init RUN --corpus CORPUS --prompt FILE`: writes RUN/run.yaml (not over one
    unless `force`); (its path, remarks on what was recorded). `started_at`: default now, in UTC."""
    import datetime

    from corpustools.io.writing import refuse_corpus_path
    from corpustools.manifest import build_manifest, manifest_yaml, write_manifest
    from corpustools.model.corpus import require_corpus

    run, corpus = os.fspath(run), os.fspath(corpus)
    # The one clock corpustools reads: run.yaml records when the run was started.
    started_at = started_at or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    require_corpus(corpus)
    refuse_corpus_path(run, corpus)
    manifest, remarks = build_manifest(
        corpus, os.fspath(prompt), model=model, temperature=temperature, harness=harness, operator=operator,
        started_at=started_at, prompt_name=prompt_name, notes=notes)
    return write_manifest(run, manifest_yaml(manifest), force=force), remarks


def run_refresh(run: PathLike, corpus: PathLike, *, inputs_unchanged: bool = False) -> tuple[str | None, str]:
    """`corpustools run init RUN --corpus CORPUS --refresh`: adds the inputs and labels hashes to
    RUN/run.yaml once its sessions are known unchanged, and writes it; (the path written, or None
    when there was nothing to add; what was checked)."""
    from corpustools.io.writing import refuse_corpus_path, write_text
    from corpustools.manifest import manifest_path, refresh_manifest
    from corpustools.model.corpus import require_corpus

    run, corpus = os.fspath(run), os.fspath(corpus)
    require_corpus(corpus)
    refuse_corpus_path(run, corpus)
    refreshed = refresh_manifest(run, corpus, inputs_unchanged=inputs_unchanged)
    if refreshed.text is None:
        return None, refreshed.says
    write_text(manifest_path(run), refreshed.text, updating=True)
    return manifest_path(run), refreshed.says


def import_promptfoo(log: PathLike, corpus: PathLike, run: PathLike, *, column: str | None = None,
                     prompt: PathLike | None = None, operator: str = "unrecorded",
                     force: bool = False) -> list[ImportedRun]:
    """`corpustools import promptfoo RESULTS.json --corpus CORPUS --run DIR`: writes the run folder."""
    from corpustools.interop import import_runs, read_promptfoo_results

    folder = os.fspath(run)
    if "{epoch}" in folder:
        raise UsageError("{epoch} in --run DIR goes with `import inspect` (a promptfoo results file has no epochs)")
    return import_runs(os.fspath(corpus), [(folder, read_promptfoo_results(os.fspath(log), column))],
                       prompt_path=None if prompt is None else os.fspath(prompt), operator=operator, force=force)


def import_inspect(log: PathLike, corpus: PathLike, run: PathLike, *, epoch: int | None = None,
                   prompt: PathLike | None = None, operator: str = "unrecorded",
                   force: bool = False) -> list[ImportedRun]:
    """`corpustools import inspect LOG --corpus CORPUS --run DIR`: writes the run folder (one per
    epoch when DIR holds `{epoch}`)."""
    from corpustools.interop import import_runs, read_inspect_log

    folder = os.fspath(run)
    runs = read_inspect_log(os.fspath(log), epoch=epoch, each_epoch="{epoch}" in folder)
    return import_runs(os.fspath(corpus), [(folder.replace("{epoch}", str(number)), each) for number, each in runs],
                       prompt_path=None if prompt is None else os.fspath(prompt), operator=operator, force=force)


def export(kind: str, corpus: PathLike, prompt: PathLike, out: PathLike, *, replay: PathLike | None = None,
           force: bool = False) -> list[str]:
    """`corpustools export jsonl|inspect|promptfoo CORPUS --prompt FILE --out PATH`: writes the corpus
    for that tool; the paths written."""
    from corpustools.interop import export as exported

    return exported(kind, os.fspath(corpus), os.fspath(prompt), os.fspath(out),
                    replay=None if replay is None else os.fspath(replay), force=force)


def export_formats() -> tuple[str, ...]:
    """What `export` writes (its FORMAT choices)."""
    from corpustools.interop import EXPORT_FORMATS

    return tuple(EXPORT_FORMATS)


def provenance_record(corpus: PathLike, authoring_prompt: PathLike, authored_by: str, reviewed_by: str, *,
                      output: PathLike | None = None, date: str | None = None, force: bool = False,
                      out: TextIO | None = None) -> tuple[str, dict[str, Any]]:
    """`corpustools provenance record CORPUS`: writes the corpus's provenance record to `output`
    (default: where lint's CT801 looks; `-`: to the stream `out`); (where it went, the record)."""
    from corpustools.provenance import corpus_record_path, record

    root = os.fspath(corpus)
    path = os.fspath(output) if output else corpus_record_path(root)
    return path, record(root, os.fspath(authoring_prompt), authored_by, reviewed_by, path, date, force=force, out=out)


def provenance_freeze(corpus: PathLike, record: PathLike | None = None, *, worksheets: Iterable[PathLike] = (),
                      date: str | None = None) -> Freeze:
    """`corpustools provenance freeze CORPUS`: writes the labels' freeze into the record."""
    from corpustools.provenance import freeze

    return freeze(os.fspath(corpus), None if record is None else os.fspath(record),
                  extra=tuple(_paths(worksheets)), date=date)


def verify(record: PathLike | None = None, corpus: PathLike | None = None) -> VerifyReport:
    """`corpustools provenance verify [RECORD] [--corpus CORPUS]`: every file changed since the record."""
    from corpustools.provenance import verify_report

    if record and corpus:
        raise UsageError("give RECORD or --corpus, not both")
    return verify_report(None if record is None else os.fspath(record), None if corpus is None else os.fspath(corpus))


def validate(kind: str, files: Iterable[PathLike], *, standard_input: bool = False) -> ValidationReport:
    """`corpustools validate KIND FILE...`: each file against the shipped schema `kind` (one of
    VALIDATE_KINDS; `standard_input`: a file `-` is standard input, as the command line reads it);
    `validate("result", [CORPUS, FILE...])`: answers against the corpus's output contract."""
    from corpustools.validation import validate_files, validate_results

    given = _paths(files)
    if "-" in given and not standard_input and kind != RESULT_KIND:
        raise UsageError("validate: a file is a path; the API never reads standard input")
    if kind == RESULT_KIND:
        if len(given) < 2 or "-" in given:
            raise UsageError("validate result takes CORPUS FILE...: the corpus whose output contract the answers "
                             "follow, then each answer file, saved as score reads it (not standard input)")
        return validate_results(given[0], given[1:])
    return validate_files(kind, given)


def schema(kind: str) -> str:
    """`corpustools schema KIND`: the shipped JSON Schema `kind` (one of SCHEMA_KINDS), as text."""
    from corpustools.io.schemastore import schema_text

    try:
        return schema_text(kind)
    except FileNotFoundError:
        raise CorpustoolsError(f"schema {kind!r} is not shipped in this build") from None
