"""Scoring a corpus against one or more run folders: the values every reporter formats."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from corpustools.io.errors import CorpustoolsError, InputError
from corpustools.io.layout import SESSION_SUFFIX, SESSIONS_DIR, SIDECAR_SUFFIX, SIDECARS_DIR
from corpustools.io.positions import printable
from corpustools.manifest import UNRECORDED, CorpusState, RunDrift, RunManifest, corpus_state, run_drift
from corpustools.model.contract import DEFAULT, Contract
from corpustools.model.corpus import (
    MISNAMED,
    STRAY_LINK,
    UNREAD,
    ScoringCorpus,
    bad_names,
    load_scoring_corpus,
    require_corpus,
)
from corpustools.model.spec import CONTRACT_KEYS, DEFAULT_BLOCKING, category_from_name
from corpustools.model.status import FileStatus
from corpustools.reporting.formatting import plural
from corpustools.score.aggregate import Aggregate, CategoryRow, aggregate, category_rows, taxonomy
from corpustools.score.fixture import FixtureScore, invalid_sidecar_score, score_fixture
from corpustools.score.results import RunFolder, read_run_folder

if TYPE_CHECKING:
    from corpustools.score.repeated import RepeatedSummary


@dataclass(frozen=True)
class CorpusInfo:
    path: str  # as given on the command line
    name: str
    version: int | None
    sha256: str
    categories: tuple[str, ...]  # declared, in corpus.yaml order
    contract: Contract | None = None  # the output contract results are read through
    prompt: tuple[str, str] | None = None  # corpus.yaml's prompt_under_eval: (name, version)
    blocking: tuple[str, ...] = DEFAULT_BLOCKING  # the metrics compare requires not to worsen
    state: CorpusState | None = None  # what a run.yaml records of this corpus, to tell drift

    @property
    def short_sha(self) -> str:
        return self.sha256[:12]


@dataclass(frozen=True)
class RunScore:
    folder: str  # as given on the command line
    manifest: RunManifest | None
    fixtures: tuple[FixtureScore, ...]
    categories: tuple[CategoryRow, ...]
    aggregate: Aggregate
    taxonomy: tuple[tuple[str, int], ...]
    warnings: tuple[str, ...]
    drift: str | None  # why this run's outputs may answer other inputs (input drift), if they may
    fingerprint: tuple  # (fixture id, digest) of each result file present
    labels: str | None = None  # `labels revised since this run (...)`: scored under revised labels
    added: tuple[str, ...] = ()  # scored fixtures added since the run (its run.yaml has no input for them): left out


@dataclass(frozen=True)
class LoadedCorpus:
    corpus: ScoringCorpus
    info: CorpusInfo
    warnings: tuple[str, ...]

    @property
    def contract(self) -> Contract:
        """The output contract results are read through: corpus.yaml's (open_corpus refuses a
        broken one), or the built-in one when corpus.yaml cannot be read at all."""
        return self.corpus.contract or DEFAULT


def refuse_broken_contract(corpus: ScoringCorpus) -> None:
    """InputError naming the first problem of corpus.yaml's `output:` or `session:` keys: no
    result can be read, nor any score trusted, under an output contract that cannot be built."""
    if corpus.contract is not None or not os.path.isfile(corpus.spec_path):
        return
    pointers = tuple(f"/{key}" for key in CONTRACT_KEYS)
    problem = next((p for p in corpus.problems if p.pos.path == corpus.spec_path and p.message.startswith(pointers)),
                   None)
    if problem is not None:
        raise InputError(problem.pos, f"{problem.message}; no result can be read under a broken output contract "
                                      "(corpustools lint names every problem)")


def open_corpus(root: str) -> LoadedCorpus:
    """Load and identify the corpus at `root`; InputError when it is not a corpus folder, or a file
    name in it is not UTF-8 (its hash could not name the file the same way on every machine)."""
    require_corpus(root)
    corpus = load_scoring_corpus(root)
    for problem in bad_names(corpus.problems):
        raise InputError(problem.pos, problem.message)
    refuse_broken_contract(corpus)
    spec = corpus.spec
    warnings = []
    if spec is None:
        first = next((p for p in corpus.problems if p.pos.path == corpus.spec_path), None)
        warnings.append(f"{first}; categories unknown" if first
                        else f"{corpus.spec_path}: invalid; categories unknown")
    for fixture_id, path in corpus.session_paths.items():
        if corpus.digests.get(f"{SESSIONS_DIR}/{fixture_id}{SESSION_SUFFIX}") == UNREAD:
            warnings.append(f"{first_problem(corpus, path) or path}; its transcript is not checked")
    for fixture_id in sorted(set(corpus.session_paths) - set(corpus.sidecar_paths)):
        warnings.append(f"{corpus.session_paths[fixture_id]}: no sidecar "
                        f"{os.path.join(root, SIDECARS_DIR, fixture_id + SIDECAR_SUFFIX)}; not scored")
    warnings += [str(p) for p in corpus.problems if p.kind == MISNAMED]  # as lint's CT205
    # a sessions/ or expected/ folder that is a link or cannot be listed: said, never a silent 0 fixtures
    warnings += [f"{p}; its files are not scored" for p in corpus.problems if p.kind == STRAY_LINK]
    name = spec.name if spec else os.path.basename(os.path.normpath(root))
    state = corpus_state(corpus)
    info = CorpusInfo(root, name, spec.corpus_version if spec else None, state.sha256,
                      tuple(c.id for c in spec.categories) if spec else (), corpus.contract or DEFAULT,
                      (spec.prompt_name, str(spec.prompt_version)) if spec else None,
                      spec.blocking if spec else DEFAULT_BLOCKING, state)
    return LoadedCorpus(corpus, info, tuple(warnings))


def first_problem(corpus: ScoringCorpus, path: str) -> str | None:
    problem = next((p for p in corpus.problems if p.pos.path == path), None)
    return str(problem) if problem else None


def read_run(loaded: LoadedCorpus, folder: str) -> tuple[RunFolder, RunDrift]:
    """A run folder's results (every scored fixture's) and how the corpus drifted since the run."""
    corpus, info = loaded.corpus, loaded.info
    run = read_run_folder(folder, sorted(corpus.sidecar_paths), loaded.contract, set(corpus.session_paths))
    drift = run_drift(run.manifest, folder, info.path, info.state) if info.state is not None else RunDrift()
    return run, drift


def score_runs(loaded: LoadedCorpus, folders: list[str]) -> tuple[RunScore, ...]:
    """Score each run folder on the fixtures every one of them was made against: a fixture added to
    the corpus since one of the runs (its run.yaml records every other session unchanged) is left
    out of all of them, so that their figures stay comparable fixture by fixture."""
    read = [read_run(loaded, folder) for folder in folders]
    scored = set(loaded.corpus.sidecar_paths)
    left_out = frozenset(fixture_id for _, drift in read for fixture_id in drift.added if fixture_id in scored)
    return tuple(_score_read(loaded, run, drift, left_out) for run, drift in read)


def score_run(loaded: LoadedCorpus, folder: str) -> RunScore:
    return score_runs(loaded, [folder])[0]


def _score_read(loaded: LoadedCorpus, run: RunFolder, drift: RunDrift, left_out: frozenset[str]) -> RunScore:
    corpus, info = loaded.corpus, loaded.info
    fixtures = []
    for fixture_id in sorted(corpus.sidecar_paths):
        if fixture_id in left_out:
            continue
        sidecar = corpus.sidecars.get(fixture_id)
        if sidecar is None:
            problem = first_problem(corpus, corpus.sidecar_paths[fixture_id])
            fixtures.append(invalid_sidecar_score(fixture_id, list(info.categories), problem))
            continue
        fixtures.append(score_fixture(sidecar, run.results[fixture_id], corpus.transcripts.get(fixture_id),
                                      loaded.contract))
    added = tuple(fixture_id for fixture_id in drift.added if fixture_id in left_out)
    warnings = run.warnings + tuple(
        f"{result.path}: {fixture_id} was added to the corpus since this run (its run.yaml records no input for "
        "it): not scored" for fixture_id in added if (result := run.results[fixture_id]).status != FileStatus.MISSING)
    categories = category_rows(fixtures, _categories(loaded, left_out, fixtures))
    return RunScore(run.path, run.manifest, tuple(fixtures), categories, aggregate(fixtures, loaded.contract),
                    taxonomy(fixtures), warnings, drift.inputs, run.fingerprint, drift.labels, added)


def _categories(loaded: LoadedCorpus, left_out: frozenset[str], fixtures: list[FixtureScore]) -> list[str]:
    """The declared categories a run's rows show: all of them (an empty one shows a fixture missing
    from the corpus) but those whose every fixture was left out (added since a run)."""
    if not left_out:
        return list(loaded.info.categories)
    sidecars, declared = loaded.corpus.sidecars, list(loaded.info.categories)
    gone = {sidecars[i].category if i in sidecars else category_from_name(i, declared) for i in left_out}
    gone -= {f.category for f in fixtures}
    return [c for c in declared if c not in gone]


def since_lines(runs: tuple[RunScore, ...]) -> tuple[str, ...]:
    """What changed since the runs that is no drift, as a report says it first: the label-drift
    line(s), then the fixtures added since."""
    return label_lines(runs) + added_lines(runs)


def added_lines(runs: tuple[RunScore, ...]) -> tuple[str, ...]:
    """What a report says of fixtures added since a run: `10 fixtures added since this run
    (sessions/a.md, ...): scored on the 16 fixtures it was made against`; once when every run
    says the same, else each run's, named by its folder; none when no fixture was added."""
    said = [run.added for run in runs]
    if not any(said):
        return ()
    scored = plural(len(runs[0].fixtures), "fixture")
    if all(added == said[0] for added in said):
        this, made = ("this run", "it was") if len(runs) == 1 else ("these runs", "they were")
        return (f"{added_text(said[0], this)}: scored on the {scored} {made} made against",)
    return tuple(f"{run.folder}: {added_text(run.added, 'this run')}: scored on the {scored} every run was made "
                 "against" for run in runs if run.added)


def added_text(added: tuple[str, ...], since: str) -> str:
    """`3 fixtures added since this run (sessions/a.md, sessions/b.md, sessions/c.md)`, the first
    five named."""
    named = [f"{SESSIONS_DIR}/{fixture_id}{SESSION_SUFFIX}" for fixture_id in added[:5]]
    more = f" and {len(added) - len(named)} more" if len(added) > len(named) else ""
    return f"{plural(len(added), 'fixture')} added since {since} ({', '.join(named)}{more})"


class WarningKind(Enum):
    """What a score report warns of; each format gives each kind its own heading and emphasis."""

    CORPUS_DRIFT = "corpus drift"  # a run's outputs answer other inputs (its sessions changed)
    MIXED_RUNS = "mixed runs"  # runs pooled with --allow-mixed that are not repeats of one prompt
    CACHED_REPEAT = "cached repeat"  # two run folders with byte-identical results: one run counted twice
    SKIPPED = "skipped"  # something of the corpus or a run that was not scored as it should be


# What each kind says, its subjects (user text: a run folder, a drift line) in the {} places.
_SAYS = {
    WarningKind.CORPUS_DRIFT: "{}",
    WarningKind.MIXED_RUNS: "{}: the means and the noise floor pool them",
    WarningKind.CACHED_REPEAT: "{} and {} have byte-identical result files: a cache, not an independent run",
    WarningKind.SKIPPED: "{}",
}


@dataclass(frozen=True)
class ReportWarning:
    """One warning of a score report (ScoreReport.warnings): every format renders these values."""

    kind: WarningKind
    subjects: tuple[str, ...]

    def text(self, shown: Callable[[str], str] = str) -> str:
        """The sentence, no closing stop; `shown` writes each subject (Markdown: as code)."""
        return _SAYS[self.kind].format(*map(shown, self.subjects))


@dataclass(frozen=True)
class ScoreReport:
    corpus: CorpusInfo
    corpus_warnings: tuple[str, ...]
    runs: tuple[RunScore, ...]
    repeated: RepeatedSummary | None  # when there are two or more runs
    mixed: tuple[str, ...] = ()  # how the runs pooled with --allow-mixed differ (not repeats of one prompt)
    # The corpus as loaded for scoring: the HTML page shows its transcripts and sidecars.
    loaded: ScoringCorpus | None = field(default=None, compare=False, repr=False)
    # The history table the HTML page draws, and the file it came from (score.history.plan_history).
    history: tuple[str, str] | None = None

    @property
    def warnings(self) -> tuple[ReportWarning, ...]:
        """Every warning, in the order the reports give them: input drift, runs pooled with
        --allow-mixed, cached repeats, then what of the corpus and of each run was skipped."""
        identical = () if self.repeated is None else self.repeated.identical
        return (tuple(ReportWarning(WarningKind.CORPUS_DRIFT, (run.drift,)) for run in self.runs if run.drift)
                + tuple(ReportWarning(WarningKind.MIXED_RUNS, (line,)) for line in self.mixed)
                + tuple(ReportWarning(WarningKind.CACHED_REPEAT, pair) for pair in identical)
                + tuple(ReportWarning(WarningKind.SKIPPED, (line,))
                        for line in self.corpus_warnings + tuple(w for run in self.runs for w in run.warnings)))


def label_lines(runs: tuple[RunScore, ...]) -> tuple[str, ...]:
    """What a report says of label drift: the runs' `labels revised since this run (...)` line, once
    when every run says the same, else each run's, named by its folder; none when no run drifted."""
    said = [run.labels for run in runs]
    if not any(said):
        return ()
    if all(line == said[0] for line in said):
        return (str(said[0]),)
    return tuple(f"{run.folder}: {run.labels}" for run in runs if run.labels)


class MixedRuns(CorpustoolsError):
    """The runs given to score are not repeats of one prompt, and --allow-mixed was not given."""

    def lines(self, prefix: str) -> list[str]:
        return [f"{prefix}: {printable(str(self))}; score them apart, or pass --allow-mixed to pool them anyway"]


def score_report(corpus_root: str, folders: list[str], *, allow_mixed: bool = False) -> ScoreReport:
    """Score every run folder against the corpus; the repeated-run summary when k >= 2. MixedRuns
    when their manifests say they are not repeats (repeats_differ), unless `allow_mixed`."""
    loaded = open_corpus(corpus_root)
    runs = score_runs(loaded, folders)
    mixed = repeats_differ(runs)
    if mixed and not allow_mixed:
        raise MixedRuns(mixed[0])
    repeated = None
    if len(runs) >= 2:  # one run (the usual case) never loads corpustools.score.repeated
        from corpustools.score.repeated import summarize  # only k >= 2 runs are summarized

        repeated = summarize(runs)
    return ScoreReport(loaded.info, loaded.warnings, runs, repeated, mixed, loaded.corpus)


# What makes runs repeats of one prompt (what run.yaml records, as said in a message). Inputs are
# not among them: a run whose sessions changed since drifts, and its banner says so.
REPEAT_KEYS: tuple[tuple[Callable[[RunManifest], str | None], str], ...] = (
    (lambda m: m.prompt.sha256, "prompt sha256"), (lambda m: m.model, "model"),
    (lambda m: m.contract_sha256, "contract sha256"))


def _recorded(manifest: RunManifest | None, recorded: Callable[[RunManifest], str | None]) -> str | None:
    value = None if manifest is None else recorded(manifest)
    return None if value == UNRECORDED else value


def repeats_differ(runs: tuple[RunScore, ...]) -> tuple[str, ...]:
    """One line per run that is no repeat of the first run given: what its run.yaml records
    differently (prompt sha256, model, output contract). A value either run leaves unrecorded
    (no run.yaml, `unrecorded`, a run.yaml from before contracts) cannot differ."""
    lines = []
    first = runs[0] if runs else None
    for run in runs[1:]:
        assert first is not None
        differ = []
        for recorded, label in REPEAT_KEYS:
            a, b = _recorded(first.manifest, recorded), _recorded(run.manifest, recorded)
            if a is not None and b is not None and a != b:
                shown = (f"{a[:12]} vs {b[:12]}" if label.endswith("sha256") else f"{a!r} vs {b!r}")
                differ.append(f"{label} {shown}")
        if differ:
            lines.append(f"{first.folder} and {run.folder} are not repeats of one prompt: {'; '.join(differ)}")
    return tuple(lines)

