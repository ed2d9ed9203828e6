"""calibrate: score each run now, read its worksheet, and compare them fixture by fixture.

Any problem with a worksheet (see answers.py) or with its pairing to the run (a fixture missing
from it, a result file that changed since it was written) stops the whole comparison: agreement
measured on outputs the judge never saw would mean nothing. Points added to or removed from a
sidecar since adjudication are only warnings: they are left out of the point level.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from corpustools.calibrate.agreement import Table, table_of
from corpustools.calibrate.answers import JudgedWorksheet, read_worksheet
from corpustools.calibrate.causes import CAUSES, FixtureCalibration, calibrate_fixture
from corpustools.calibrate.worksheet import known_sha256, unjudgeable
from corpustools.io.errors import CorpustoolsError, InputError
from corpustools.io.positions import Pos, Problem
from corpustools.manifest import PromptRecord
from corpustools.reporting.formatting import plural
from corpustools.score.reasons import Verdict
from corpustools.score.results import result_path
from corpustools.score.scoring import CorpusInfo, LoadedCorpus, RunScore, added_text, open_corpus, score_run

MAX_SHOWN = 50  # lines of bad input shown before "and N more problems"


def _file_order(problem: Problem) -> tuple:
    """Problems sorted by file, line and column, so a judge fixes them top to bottom."""
    return problem.pos.path, problem.pos.line, problem.pos.col, str(problem)


class CalibrationProblems(CorpustoolsError):
    """Bad input: every problem, each at its place (the file, and the line where there is one),
    in file order."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=_file_order)
        # str(): one line that names a file (the first problem), as the API promises; lines(): all
        more = len(self.problems) - 1
        super().__init__(f"{self.problems[0]}" + (f" (and {more} more problem(s))" if more > 0 else "")
                         if self.problems else "no problem")

    def lines(self, prefix: str) -> list[str]:
        """The first MAX_SHOWN problems, how many more, and the count: nothing was compared."""
        shown = self.problems[:MAX_SHOWN]
        lines = [f"{prefix}: {problem}" for problem in shown]
        if len(self.problems) > len(shown):
            lines.append(f"{prefix}: and {len(self.problems) - len(shown)} more problems")
        return lines + [f"{prefix}: {len(self.problems)} problem(s); nothing compared"]


@dataclass(frozen=True)
class RunCalibration:
    results: str  # the run folder as given
    verdicts: str  # the worksheet as given
    prompt: PromptRecord | None  # what run.yaml records (a report shows its name, version and sha256)
    shows_terms: bool
    fixtures: tuple[FixtureCalibration, ...]
    warnings: tuple[str, ...]
    rater: str | None = None  # the worksheet's `rater:`, when it records one
    reconciled: tuple[str, ...] = ()  # the two raters whose worksheets `reconcile` merged into it
    held_out: bool | None = None  # by the provenance record's freeze; None when there is none
    revision_why: str = ""  # why the run is a revision-set run, not held out

    @property
    def judged_by(self) -> str:
        """Who gave the verdicts, when the worksheet says: ` (rater alice)`, ` (a reconciled pair's:
        alice and bob)`, else nothing (a report of a worksheet that says nothing is unchanged)."""
        if self.reconciled:
            return f" (a reconciled pair's: {' and '.join(self.reconciled)})"
        return f" (rater {self.rater})" if self.rater else ""

    def table(self, level: str) -> Table:
        if level == "fixture":
            return table_of((f.scorer_verdict is Verdict.PASS, f.human_verdict is Verdict.PASS) for f in self.fixtures)
        attr = {"point": "points", "optional": "optional", "proposal": "proposals"}[level]
        return table_of((scorer, human) for f in self.fixtures for _, scorer, human in getattr(f, attr))


@dataclass(frozen=True)
class Calibration:
    corpus: CorpusInfo
    corpus_warnings: tuple[str, ...]
    runs: tuple[RunCalibration, ...]

    def table(self, level: str) -> Table:
        total = Table()
        for run in self.runs:
            total = total + run.table(level)
        return total

    @property
    def held_out(self) -> tuple[RunCalibration, ...]:
        return tuple(run for run in self.runs if run.held_out)

    @property
    def frozen(self) -> bool:
        """Whether the provenance record holds a freeze (each run is then held-out or revision set)."""
        return any(run.held_out is not None for run in self.runs)

    def headline_table(self, level: str) -> Table:
        """The table the verdict line reports: the held-out runs' when there are any, else every run's."""
        total = Table()
        for run in self.held_out or self.runs:
            total = total + run.table(level)
        return total

    @property
    def cause_counts(self) -> tuple[tuple[str, int], ...]:
        """Every cause, in report order, with how many disagreements it explains."""
        found = [d.cause for run in self.runs for f in run.fixtures for d in f.disagreements]
        return tuple((cause, found.count(cause)) for cause, _ in CAUSES)


def compared(loaded: LoadedCorpus, run: RunScore) -> list:
    """The fixture scores calibrate compares: those a worksheet could judge (see unjudgeable)."""
    return [f for f in run.fixtures if not unjudgeable(loaded.corpus.sidecars.get(f.id))]


def _pairing_problems(loaded: LoadedCorpus, run: RunScore, judged: JudgedWorksheet) -> list[Problem]:
    problems = []
    digests = dict(run.fingerprint)
    for fixture in compared(loaded, run):
        entry = judged.fixtures.get(fixture.id)
        if entry is None:
            problems.append(Problem(Pos(judged.path), f"fixture {fixture.id} is not in the worksheet; write a "
                                    "worksheet for this corpus and run with corpustools adjudicate"))
            continue
        actual = known_sha256(digests.get(fixture.id))
        if entry.result_sha256 != actual:
            result = result_path(run.folder, fixture.id, loaded.contract)
            now = actual[:12] if actual else "missing or unreadable"
            was = entry.result_sha256[:12] if entry.result_sha256 else "missing"
            problems.append(Problem(entry.pos, f"fixture {fixture.id}: the worksheet judged a result with sha256 "
                                    f"{was}, but {result} is {now}: this worksheet belongs to other outputs"))
            continue
        # Same result bytes, so the same proposals: any difference is an edit to the worksheet.
        scored, listed = [p.name for p in fixture.proposals], [p.name for p in entry.proposals]
        scored_names, listed_names = set(scored), set(listed)
        for name in [n for n in scored if n not in listed_names]:
            problems.append(Problem(entry.pos, f"fixture {fixture.id}: proposal {name} is missing from the worksheet"))
        for name in [n for n in listed if n not in scored_names]:
            problems.append(Problem(entry.pos, f"fixture {fixture.id}: the worksheet's proposal {name} is not in "
                                    "the result"))
    return problems


def _warnings(loaded: LoadedCorpus, run: RunScore, judged: JudgedWorksheet) -> list[str]:
    warnings = []
    for fixture in run.fixtures:
        why = unjudgeable(loaded.corpus.sidecars.get(fixture.id))
        if why:
            warnings.append(f"{loaded.corpus.sidecar_paths[fixture.id]}: {why}; fixture not compared")
            continue
        sidecar, entry = loaded.corpus.sidecars[fixture.id], judged.fixtures[fixture.id]
        for point in sidecar.all_points:
            if point.id not in entry.captured:
                warnings.append(f"{entry.pos}: fixture {fixture.id}: point {point.id} is not in the worksheet "
                                "(added since adjudication?); not compared")
        current = {p.id for p in sidecar.all_points}
        for point_id in entry.captured:
            if point_id not in current:
                warnings.append(f"{entry.pos}: fixture {fixture.id}: the worksheet's point {point_id} is no "
                                "longer in the sidecar; not compared")
    for fixture_id in sorted(set(judged.fixtures) - {f.id for f in run.fixtures} - set(run.added)):
        warnings.append(f"{judged.fixtures[fixture_id].pos}: fixture {fixture_id} is not a scored fixture of "
                        "this corpus; ignored")
    return warnings


def calibrate_runs(corpus_root: str, pairs: list[tuple[str, str]]) -> Calibration:
    """Compare each (run folder, worksheet) pair. InputError when the corpus cannot be opened;
    CalibrationProblems listing every problem with the runs and worksheets."""
    loaded = open_corpus(corpus_root)
    problems: list[Problem] = []
    runs: list[RunCalibration] = []
    scored: list[RunScore] = []
    for folder, path in pairs:
        if not os.path.isdir(folder):
            problems.append(Problem(Pos(folder), "no such results folder"))
            continue
        judged, _, found = read_worksheet(path)
        if judged is None:
            problems += found
            continue
        if judged.corpus_name != loaded.info.name:  # its fixture ids and points mean another corpus's
            problems.append(Problem(judged.corpus_pos, f"this worksheet judges the corpus {judged.corpus_name!r}, not "
                                    f"{loaded.info.name!r} ({loaded.info.path}); give the corpus it was written for"))
            continue
        run = score_run(loaded, folder)
        earlier = next((r.folder for r in scored if r.fingerprint and r.fingerprint == run.fingerprint), None)
        scored.append(run)
        found = _pairing_problems(loaded, run, judged)
        if found:
            problems += found
            continue
        fixtures = tuple(calibrate_fixture(loaded.corpus.sidecars[f.id], f, judged.fixtures[f.id])
                         for f in compared(loaded, run))
        warnings = _warnings(loaded, run, judged)
        if run.added:  # the run answered the fixtures it has; the judge judged those
            warnings.append(f"{added_text(run.added, 'this run')}: calibrated on the "
                            f"{plural(len(run.fixtures), 'fixture')} it was made against")
        if run.drift:  # revised labels are what calibrate is for; changed sessions are not
            warnings.append(f"CORPUS DRIFT: {run.drift}; the judge read the sessions these outputs answer, "
                            "not today's")
        if earlier is not None:
            warnings.append(f"{folder} and {earlier} have byte-identical result files: one run counted twice in "
                            "the pooled agreement")
        prompt = None if run.manifest is None else run.manifest.prompt
        runs.append(RunCalibration(folder, path, prompt, judged.shows_terms, fixtures, tuple(warnings), judged.rater,
                                   judged.reconciled))
    if problems:
        raise CalibrationProblems(problems)
    frozen, why = _freeze(loaded)
    corpus_warnings = loaded.warnings + ((why,) if why else ())
    if frozen is not None:
        runs = [_with_status(run, score, loaded, frozen) for run, score in zip(runs, scored, strict=True)]
    return Calibration(loaded.info, corpus_warnings, tuple(runs))


def _freeze(loaded: LoadedCorpus):
    """The provenance record's freeze (None without one), and a warning when the record cannot be read."""
    from corpustools.provenance import corpus_record_path, load_record  # provenance: calibrate only, not adjudicate

    path = corpus_record_path(loaded.info.path, loaded.corpus.spec)
    if not os.path.isfile(path):
        return None, None
    try:
        return load_record(path).freeze, None
    except InputError as err:
        return None, f"{err}; no run is called held-out or revision set"


def _with_status(run: RunCalibration, score: RunScore, loaded: LoadedCorpus, frozen) -> RunCalibration:
    """held-out: made under the frozen labels (run.yaml's labels sha256), none of its outputs judged
    before the freeze, scored under the frozen labels (today's); else revision set, saying why. The
    result hashes decide, never a date."""
    now = loaded.info.state.labels_sha256 if loaded.info.state is not None else None
    made_under = score.manifest.labels_sha256 if score.manifest is not None else None
    judged = sum(1 for _, digest in score.fingerprint if digest in frozen.judged)
    if now != frozen.labels_sha256:
        why = "the labels changed since the freeze"
    elif made_under is None:
        why = "its run.yaml does not record the labels it was made under"
    elif made_under != frozen.labels_sha256:
        why = "made under other labels than the frozen ones"
    elif judged:
        why = f"{judged} of its outputs judged before the freeze"
    else:
        return replace(run, held_out=True)
    return replace(run, held_out=False, revision_why=why)
