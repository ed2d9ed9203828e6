"""Base versus candidate: what changed fixture by fixture, point by point and metric by metric,
and whether the change is larger than what re-running the same prompt produces.

Both sides are scored with scoring.score_run against one corpus; nothing here re-scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from corpustools.score.aggregate import METRICS, Metric, metric_value
from corpustools.score.reasons import TextEnum, Verdict
from corpustools.score.repeated import point_stability
from corpustools.score.scoring import CorpusInfo, RunScore, label_lines, open_corpus, score_run
from corpustools.score.stats import flips_needed, mcnemar_exact, mean, sample_std


class Transition(TextEnum):
    """A fixture's pass share, or a point's match share, from base to candidate."""

    GAINED = "gained"
    LOST = "lost"
    SAME = "same"


class Direction(TextEnum):
    """A metric's change, better or worse by the metric's own sense."""

    IMPROVED = "improved"
    WORSENED = "worsened"
    UNCHANGED = "unchanged"
    UNDEFINED = "n/a"


class Noise(TextEnum):
    BEYOND = "beyond noise"
    WITHIN = "within noise"


# Metrics whose loss beyond noise marks a comparison `regressed` (with several runs a side).
REGRESSION_METRICS = ("recall", "gate_accuracy")
_EPSILON = 1e-12  # float sums of identical rates may differ in the last bit


class CorpusDrift(Exception):
    """A run's outputs answer other inputs (sessions changed since, or a run.yaml too old to tell)
    and drift was not allowed. Revised labels are no drift: both sides are scored under them."""


def transition(base: Fraction, candidate: Fraction) -> Transition:
    return Transition.GAINED if candidate > base else Transition.LOST if candidate < base else Transition.SAME


@dataclass(frozen=True)
class FixtureChange:
    id: str
    category: str
    base: tuple[Verdict, ...]  # the verdict in each base run
    candidate: tuple[Verdict, ...]

    @property
    def base_share(self) -> Fraction:
        return Fraction(self.base.count(Verdict.PASS), len(self.base))

    @property
    def candidate_share(self) -> Fraction:
        return Fraction(self.candidate.count(Verdict.PASS), len(self.candidate))

    @property
    def transition(self) -> Transition:
        return transition(self.base_share, self.candidate_share)


@dataclass(frozen=True)
class PointChange:
    fixture_id: str
    point_id: str
    base_matched: int
    base_runs: int
    candidate_matched: int
    candidate_runs: int

    @property
    def transition(self) -> Transition:
        return transition(Fraction(self.base_matched, self.base_runs),
                          Fraction(self.candidate_matched, self.candidate_runs))


@dataclass(frozen=True)
class MetricChange:
    metric: Metric
    base: float | None  # the mean over the side's runs
    candidate: float | None
    base_std: float | None  # run-to-run sample std, with two or more runs on that side
    candidate_std: float | None
    noise: Noise | None  # None unless a side has two or more runs

    @property
    def delta(self) -> float | None:
        if self.base is None or self.candidate is None:
            return None
        return self.candidate - self.base

    @property
    def direction(self) -> Direction:
        delta = self.delta
        if delta is None:
            return Direction.UNDEFINED
        if abs(delta) < _EPSILON:
            return Direction.UNCHANGED
        better = delta > 0 if self.metric.higher_is_better else delta < 0
        return Direction.IMPROVED if better else Direction.WORSENED


@dataclass(frozen=True)
class PairedTest:
    """McNemar's exact test on fixture pass/fail (a side passes a fixture when it passed in more
    than half of that side's runs)."""

    b: int  # base pass, candidate fail
    c: int  # base fail, candidate pass
    fixtures: int
    p_value: float
    flips_needed: int | None  # one-directional flips this corpus size needs for p < 0.05


@dataclass(frozen=True)
class Comparison:
    corpus: CorpusInfo
    corpus_warnings: tuple[str, ...]
    base: tuple[RunScore, ...]
    candidate: tuple[RunScore, ...]
    fixtures: tuple[FixtureChange, ...]
    points: tuple[PointChange, ...]
    metrics: tuple[MetricChange, ...]
    paired: PairedTest
    regressed_because: tuple[str, ...]  # empty when not regressed
    drift: tuple[str, ...]  # runs whose outputs answer other inputs (only when drift was allowed)
    labels_revised: tuple[str, ...] = ()  # the label-drift line(s): both sides are scored under the current labels

    @property
    def regressed(self) -> bool:
        return bool(self.regressed_because)

    @property
    def several_runs(self) -> bool:
        return len(self.base) >= 2 or len(self.candidate) >= 2

    @property
    def changed_points(self) -> tuple[PointChange, ...]:
        """The expected points gained or lost, in point order."""
        return tuple(p for p in self.points if p.transition is not Transition.SAME)


def metric_change(metric: Metric, base: tuple[RunScore, ...], candidate: tuple[RunScore, ...]) -> MetricChange:
    def side(runs):
        values = [v for v in (metric_value(r.aggregate, metric.key) for r in runs) if v is not None]
        return mean(values), sample_std(values) if len(runs) >= 2 else None

    base_mean, base_std = side(base)
    cand_mean, cand_std = side(candidate)
    noise = None
    if (len(base) >= 2 or len(candidate) >= 2) and base_mean is not None and cand_mean is not None:
        stds = [s for s in (base_std, cand_std) if s is not None]
        floor = 2 * max(stds) if stds else 0.0
        noise = Noise.BEYOND if abs(cand_mean - base_mean) > floor + _EPSILON else Noise.WITHIN
    return MetricChange(metric, base_mean, cand_mean, base_std, cand_std, noise)


def paired_test(fixtures: tuple[FixtureChange, ...]) -> PairedTest:
    half = Fraction(1, 2)
    b = sum(f.base_share > half and not f.candidate_share > half for f in fixtures)
    c = sum(f.candidate_share > half and not f.base_share > half for f in fixtures)
    return PairedTest(b, c, len(fixtures), mcnemar_exact(b, c), flips_needed(len(fixtures)))


def shift_reasons(fixtures, metrics, several_runs: bool, direction: Direction, kind: Transition) -> tuple[str, ...]:
    """With several runs a side, each of REGRESSION_METRICS that moved in `direction` beyond noise;
    with one run a side, the fixtures of transition `kind` (`lost 1 fixture: reject-noise-01`)."""
    if several_runs:
        return tuple(f"{m.metric.label} {direction.value} beyond noise" for m in metrics
                     if m.metric.key in REGRESSION_METRICS and m.direction is direction and m.noise is Noise.BEYOND)
    ids = [f.id for f in fixtures if f.transition is kind]
    return (f"{kind.value} {len(ids)} fixture{'s' if len(ids) != 1 else ''}: {', '.join(ids)}",) if ids else ()


def regression_reasons(fixtures, metrics, several_runs: bool) -> tuple[str, ...]:
    return shift_reasons(fixtures, metrics, several_runs, Direction.WORSENED, Transition.LOST)


def improvement_reasons(comparison: Comparison) -> tuple[str, ...]:
    """Why a comparison that did not regress improved (the mirror of `regressed_because`); empty
    when it regressed or did not improve beyond noise."""
    if comparison.regressed:
        return ()
    return shift_reasons(comparison.fixtures, comparison.metrics, comparison.several_runs, Direction.IMPROVED,
                         Transition.GAINED)


def side_points(runs: tuple[RunScore, ...]) -> dict[tuple[str, int], tuple[str, int]]:
    """(fixture id, point index) -> (point id, runs it was matched in)."""
    keyed: dict[tuple[str, int], tuple[str, int]] = {}
    index: dict[str, int] = {}
    for p in point_stability(runs):
        position = index.get(p.fixture_id, 0)
        index[p.fixture_id] = position + 1
        keyed[(p.fixture_id, position)] = (p.point_id, p.matched)
    return keyed


def compare_runs(corpus_root: str, base_folders: list[str], candidate_folders: list[str], *,
                 allow_drift: bool = False) -> Comparison:
    """Raises InputError for a corpus that cannot be read, CorpusDrift for unallowed drift."""
    loaded = open_corpus(corpus_root)
    base = tuple(score_run(loaded, folder) for folder in base_folders)
    candidate = tuple(score_run(loaded, folder) for folder in candidate_folders)
    drift = tuple(run.drift for run in base + candidate if run.drift)
    if drift and not allow_drift:
        raise CorpusDrift(drift[0])
    fixtures = tuple(
        FixtureChange(f.id, f.category, tuple(r.fixtures[i].verdict for r in base),
                      tuple(r.fixtures[i].verdict for r in candidate))
        for i, f in enumerate(base[0].fixtures))
    base_points, cand_points = side_points(base), side_points(candidate)
    points = tuple(PointChange(key[0], point_id, matched, len(base), cand_points[key][1], len(candidate))
                   for key, (point_id, matched) in sorted(base_points.items()))
    metrics = tuple(metric_change(m, base, candidate) for m in METRICS)
    several = len(base) >= 2 or len(candidate) >= 2
    return Comparison(loaded.info, loaded.warnings, base, candidate, fixtures, points, metrics, paired_test(fixtures),
                      regression_reasons(fixtures, metrics, several), drift, label_lines(base + candidate))
