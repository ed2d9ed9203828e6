"""k >= 2 runs of one prompt version: how much the same prompt moves between runs.

This is the measured noise floor a comparison is judged against: the spread of each metric,
fixtures that pass in some runs and not others (flaky), and how stable each expected point is.
"""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.score.aggregate import METRICS, Proportion, metric_value
from corpustools.score.reasons import Verdict
from corpustools.score.stats import mean, sample_std


@dataclass(frozen=True)
class MetricSpread:
    key: str
    label: str
    values: tuple[float | None, ...]  # one per run; None where the metric is undefined
    mean: float | None
    std: float | None  # sample standard deviation over the runs where it is defined


@dataclass(frozen=True)
class FixtureStability:
    id: str
    category: str
    passed: int  # in how many runs
    runs: int

    @property
    def flaky(self) -> bool:
        return 0 < self.passed < self.runs


@dataclass(frozen=True)
class PointStability:
    fixture_id: str
    point_id: str
    matched: int  # in how many runs
    runs: int


@dataclass(frozen=True)
class RepeatedSummary:
    runs: int
    spread: tuple[MetricSpread, ...]
    fixtures: tuple[FixtureStability, ...]
    points: tuple[PointStability, ...]
    identical: tuple[tuple[str, str], ...]  # pairs of run folders with byte-identical results

    @property
    def flaky(self) -> tuple[FixtureStability, ...]:
        return tuple(f for f in self.fixtures if f.flaky)

    @property
    def stability(self) -> Proportion:
        """Points matched in every run / points matched in at least one run: a share over the
        union, so a run that simply matches fewer points does not look more stable."""
        ever = [p for p in self.points if p.matched > 0]
        return Proportion(sum(p.matched == p.runs for p in ever), len(ever))

    def spread_of(self, key: str) -> MetricSpread:
        return next(s for s in self.spread if s.key == key)


def metric_spread(runs, metric) -> MetricSpread:
    values = tuple(metric_value(run.aggregate, metric.key) for run in runs)
    defined = [v for v in values if v is not None]
    return MetricSpread(metric.key, metric.label, values, mean(defined), sample_std(defined))


def identical_pairs(runs) -> tuple[tuple[str, str], ...]:
    pairs = []
    for i, first in enumerate(runs):
        for second in runs[i + 1:]:
            if first.fingerprint and first.fingerprint == second.fingerprint:
                pairs.append((first.folder, second.folder))
    return tuple(pairs)


def point_stability(runs) -> tuple[PointStability, ...]:
    """In how many of `runs` each expected point was matched, in the first run's fixture order
    (the runs are scored against one corpus, so fixture lists line up)."""
    points = []
    for position, fixture in enumerate(runs[0].fixtures):
        same = [run.fixtures[position] for run in runs]
        for index, point in enumerate(fixture.points):
            matched = sum(f.points[index].matched for f in same if index < len(f.points))
            points.append(PointStability(fixture.id, point.id, matched, len(runs)))
    return tuple(points)


def summarize(runs) -> RepeatedSummary:
    """The spread of `runs`, all scored against the same corpus (so fixture lists line up)."""
    k = len(runs)
    fixtures = tuple(
        FixtureStability(fixture.id, fixture.category,
                         sum(run.fixtures[position].verdict is Verdict.PASS for run in runs), k)
        for position, fixture in enumerate(runs[0].fixtures))
    return RepeatedSummary(k, tuple(metric_spread(runs, m) for m in METRICS), fixtures, point_stability(runs),
                           identical_pairs(runs))
