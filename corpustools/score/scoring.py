"""Scoring a corpus against one or more run folders: the values every reporter formats."""

from __future__ import annotations

import os
from dataclasses import dataclass

from corpustools.io.layout import SESSION_SUFFIX, SESSIONS_DIR, SIDECAR_SUFFIX, SIDECARS_DIR
from corpustools.io.positions import InputError
from corpustools.model.contract import DEFAULT, Contract
from corpustools.model.corpus import (
    MISNAMED,
    STRAY_LINK,
    UNREAD,
    Corpus,
    bad_names,
    corpus_sha256,
    load_corpus,
    require_corpus,
)
from corpustools.model.spec import CONTRACT_KEYS, DEFAULT_BLOCKING
from corpustools.score.aggregate import Aggregate, CategoryRow, aggregate, category_rows, taxonomy
from corpustools.score.fixture import invalid_sidecar_score, score_fixture
from corpustools.score.match import FixtureScore
from corpustools.score.repeated import RepeatedSummary, summarize
from corpustools.score.results import read_run_folder


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

    @property
    def short_sha(self) -> str:
        return self.sha256[:12]


@dataclass(frozen=True)
class RunScore:
    folder: str  # as given on the command line
    manifest: dict | None
    fixtures: tuple[FixtureScore, ...]
    categories: tuple[CategoryRow, ...]
    aggregate: Aggregate
    taxonomy: tuple[tuple[str, int], ...]
    warnings: tuple[str, ...]
    drift: str | None  # why this run was produced against another corpus, if it was
    fingerprint: tuple  # (fixture id, digest) of each result file present


@dataclass(frozen=True)
class LoadedCorpus:
    corpus: Corpus
    info: CorpusInfo
    warnings: tuple[str, ...]

    @property
    def contract(self) -> Contract:
        """The output contract results are read through: corpus.yaml's (open_corpus refuses a
        broken one), or the built-in one when corpus.yaml cannot be read at all."""
        return self.corpus.contract or DEFAULT


def refuse_broken_contract(corpus: Corpus) -> None:
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
    corpus = load_corpus(root, for_scoring=True)
    for problem in bad_names(corpus.problems):
        raise InputError(problem.pos, problem.message)
    refuse_broken_contract(corpus)
    spec = corpus.spec
    warnings = []
    if spec is None:
        first = next((p for p in corpus.problems if p.pos.path == corpus.spec_path), None)
        warnings.append(f"{first.pos}: {first.message}; categories unknown" if first
                        else f"{corpus.spec_path}: invalid; categories unknown")
    for fixture_id, path in corpus.session_paths.items():
        if corpus.digests.get(f"{SESSIONS_DIR}/{fixture_id}{SESSION_SUFFIX}") == UNREAD:
            warnings.append(f"{first_problem(corpus, path) or path}; its transcript is not checked")
    for fixture_id in sorted(set(corpus.session_paths) - set(corpus.sidecar_paths)):
        warnings.append(f"{corpus.session_paths[fixture_id]}: no sidecar "
                        f"{os.path.join(root, SIDECARS_DIR, fixture_id + SIDECAR_SUFFIX)}; not scored")
    warnings += [f"{p.pos}: {p.message}" for p in corpus.problems if p.kind == MISNAMED]  # as lint's CT205
    # a sessions/ or expected/ folder that is a link or cannot be listed: said, never a silent 0 fixtures
    warnings += [f"{p.pos}: {p.message}; its files are not scored" for p in corpus.problems if p.kind == STRAY_LINK]
    name = spec.name if spec else os.path.basename(os.path.normpath(root))
    info = CorpusInfo(root, name, spec.corpus_version if spec else None, corpus_sha256(corpus),
                      tuple(c.id for c in spec.categories) if spec else (), corpus.contract or DEFAULT,
                      (spec.prompt_name, str(spec.prompt_version)) if spec else None,
                      spec.blocking if spec else DEFAULT_BLOCKING)
    return LoadedCorpus(corpus, info, tuple(warnings))


def first_problem(corpus: Corpus, path: str) -> str | None:
    problem = next((p for p in corpus.problems if p.pos.path == path), None)
    return f"{problem.pos}: {problem.message}" if problem else None


def drift_message(manifest: dict | None, folder: str, info: CorpusInfo) -> str | None:
    recorded = (manifest or {}).get("corpus_sha256")
    if recorded is not None and recorded != info.sha256:
        return (f"{os.path.join(folder, 'run.yaml')} was produced against corpus sha256 {recorded[:12]}, "
                f"but {info.path} is {info.short_sha}: these results belong to a different corpus")
    contract = (manifest or {}).get("contract_sha256")
    if contract is not None and info.contract is not None and contract != info.contract.sha256:
        return (f"{os.path.join(folder, 'run.yaml')} was produced under output contract sha256 {contract[:12]}, "
                f"but {info.path}'s is {info.contract.sha256[:12]}: these results were read under another "
                "contract (corpus.yaml's output:/session: or its schema file changed)")
    return None


def score_run(loaded: LoadedCorpus, folder: str) -> RunScore:
    corpus, info = loaded.corpus, loaded.info
    fixture_ids = sorted(corpus.sidecar_paths)
    run = read_run_folder(folder, fixture_ids, loaded.contract)
    fixtures = []
    for fixture_id in fixture_ids:
        sidecar = corpus.sidecars.get(fixture_id)
        if sidecar is None:
            problem = first_problem(corpus, corpus.sidecar_paths[fixture_id])
            fixtures.append(invalid_sidecar_score(fixture_id, list(info.categories), problem))
            continue
        fixtures.append(score_fixture(sidecar, run.results[fixture_id], corpus.transcripts.get(fixture_id),
                                      loaded.contract))
    drift = drift_message(run.manifest, folder, info)
    return RunScore(folder, run.manifest, tuple(fixtures), category_rows(fixtures, list(info.categories)),
                    aggregate(fixtures, loaded.contract), taxonomy(fixtures), run.warnings, drift, run.fingerprint)


@dataclass(frozen=True)
class ScoreReport:
    corpus: CorpusInfo
    corpus_warnings: tuple[str, ...]
    runs: tuple[RunScore, ...]
    repeated: RepeatedSummary | None  # when there are two or more runs


def score_report(corpus_root: str, folders: list[str]) -> ScoreReport:
    """Score every run folder against the corpus; the repeated-run summary when k >= 2."""
    loaded = open_corpus(corpus_root)
    runs = tuple(score_run(loaded, folder) for folder in folders)
    return ScoreReport(loaded.info, loaded.warnings, runs, summarize(runs) if len(runs) >= 2 else None)

