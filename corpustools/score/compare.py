"""Base versus candidate: what changed fixture by fixture, point by point and metric by metric,
and whether the change is larger than what re-running the same prompt produces.

Both sides are scored with scoring.score_runs against one corpus; nothing here re-scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from corpustools.io.errors import CorpustoolsError
from corpustools.io.positions import printable
from corpustools.model.corpus import ScoringCorpus
from corpustools.model.status import TextEnum
from corpustools.reporting.formatting import plural, run_value, signed
from corpustools.score.aggregate import METRICS, Metric, metric_value
from corpustools.score.reasons import Verdict
from corpustools.score.repeated import point_stability
from corpustools.score.scoring import CorpusInfo, RunScore, added_lines, label_lines, open_corpus, score_runs
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


_EPSILON = 1e-12  # float sums of identical rates may differ in the last bit


class Headline(TextEnum):
    """What a comparison says first, decided by its blocking metrics."""

    IMPROVED = "improved"
    REGRESSED = "regressed"
    NO_CHANGE = "no change beyond noise"


class CorpusDrift(CorpustoolsError):
    """A run's outputs answer other inputs (sessions changed since, or a run.yaml too old to tell)
    and drift was not allowed. Revised labels are no drift: both sides are scored under them."""

    def lines(self, prefix: str) -> list[str]:
        return [f"{prefix}: {printable(str(self))}; refusing to compare (pass --allow-corpus-drift to compare anyway)"]


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
    drift: tuple[str, ...]  # runs whose outputs answer other inputs (only when drift was allowed)
    blocking: tuple[str, ...]  # the keys of the metrics that decide the headline (corpus.yaml compare: blocking:)
    labels_revised: tuple[str, ...] = ()  # the label-drift line(s): both sides are scored under the current labels
    fixtures_added: tuple[str, ...] = ()  # fixtures added since a run: both sides compared on the others
    # The corpus as loaded for scoring: the HTML page shows its transcripts and sidecars.
    loaded: ScoringCorpus | None = field(default=None, compare=False, repr=False)

    @property
    def since_lines(self) -> tuple[str, ...]:
        """What changed since the runs that is no drift: the label-drift line(s), then the fixtures added."""
        return self.labels_revised + self.fixtures_added

    @property
    def several_runs(self) -> bool:
        return len(self.base) >= 2 or len(self.candidate) >= 2

    @property
    def changed_points(self) -> tuple[PointChange, ...]:
        """The expected points gained or lost, in point order."""
        return tuple(p for p in self.points if p.transition is not Transition.SAME)

    @property
    def lost(self) -> tuple[FixtureChange, ...]:
        return tuple(f for f in self.fixtures if f.transition is Transition.LOST)

    @property
    def gained(self) -> tuple[FixtureChange, ...]:
        return tuple(f for f in self.fixtures if f.transition is Transition.GAINED)

    @property
    def blocking_changes(self) -> tuple[MetricChange, ...]:
        """The blocking metrics' changes, in report order."""
        return tuple(m for m in self.metrics if m.metric.key in self.blocking)

    def moved(self, m: MetricChange) -> Direction:
        """How a metric moved for the headline: its direction, counted only beyond noise when a
        side has several runs (a move within noise is UNCHANGED)."""
        if m.direction in (Direction.IMPROVED, Direction.WORSENED) and m.noise is Noise.WITHIN:
            return Direction.UNCHANGED
        return m.direction

    @property
    def regressed_because(self) -> tuple[str, ...]:
        """Each blocking metric that worsened (`recall dropped 100.0% → 96.0%, beyond noise`)."""
        return tuple(self.change_text(m) for m in self.blocking_changes if self.moved(m) is Direction.WORSENED)

    @property
    def improved_because(self) -> tuple[str, ...]:
        """Each blocking metric that improved (beyond noise with several runs a side)."""
        return tuple(self.change_text(m) for m in self.blocking_changes if self.moved(m) is Direction.IMPROVED)

    @property
    def regressed(self) -> bool:
        return bool(self.regressed_because)

    @property
    def headline(self) -> Headline:
        """regressed when a blocking metric worsened, else improved when one improved, else no change."""
        if self.regressed:
            return Headline.REGRESSED
        return Headline.IMPROVED if self.improved_because else Headline.NO_CHANGE

    @property
    def headline_text(self) -> str:
        """The one line every format shows first (the text report last): `improved: 7 fixtures
        gained, 1 lost (reject-noise-01)`, the lost fixtures always named; a regression also says
        which blocking metric worsened."""
        gained, lost = len(self.gained), len(self.lost)
        text = f"{self.headline}: {plural(gained, 'fixture')} gained, {lost} lost"
        text += f" ({', '.join(f.id for f in self.lost)})" if lost else ""
        return text + (f"; {'; '.join(self.regressed_because)}" if self.regressed else "")

    @property
    def blocking_rule(self) -> str:
        return "must not worsen" + (" beyond noise" if self.several_runs else "")

    @property
    def blocking_text(self) -> str:
        """How each blocking metric moved: what decided the headline."""
        return f"blocking metrics ({self.blocking_rule}): " + self.blocking_moves

    @property
    def blocking_moves(self) -> str:
        return "; ".join(self.change_text(m) for m in self.blocking_changes)

    def number(self, m: MetricChange, value: float | None) -> str:
        """A side's value of `m` (a mean over its runs): a rate as a percentage, a count as the whole
        number it is, else with one decimal."""
        return run_value(value, is_rate=m.metric.is_rate)

    def delta_text(self, m: MetricChange) -> str:
        """The delta signed: percentage points for a rate; a count's whole when it is."""
        return signed(m.delta, is_rate=m.metric.is_rate)

    def change_text(self, m: MetricChange) -> str:
        """`recall dropped 100.0% → 96.0%`, `recall unchanged at 100.0%`, `gate accuracy n/a`; with
        several runs a side the values are means, and a move says whether it is beyond noise."""
        def value(v: float | None) -> str:
            return self.number(m, v)

        if m.direction is Direction.UNDEFINED:
            return f"{m.metric.label} n/a"
        if m.direction is Direction.UNCHANGED:
            return f"{m.metric.label} unchanged at {value(m.base)}"
        word = "rose" if (m.delta or 0) > 0 else "dropped"
        noise = f", {m.noise}" if m.noise is not None else ""
        return f"{m.metric.label} {word} {value(m.base)} → {value(m.candidate)}{noise}"


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
    scored = score_runs(loaded, [*base_folders, *candidate_folders])  # on the fixtures every run was made against
    base, candidate = scored[:len(base_folders)], scored[len(base_folders):]
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
    return Comparison(loaded.info, loaded.warnings, base, candidate, fixtures, points, metrics, paired_test(fixtures),
                      drift, loaded.info.blocking, label_lines(base + candidate), added_lines(base + candidate),
                      loaded.corpus)
