"""Aggregates over one run's fixture scores: counts, proportions, categories, failure taxonomy,
precision and recall per item type, accuracy per pinned field, and the metrics that repeated runs
and comparisons are measured on."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from corpustools.model.contract import DEFAULT, TEXT_FORMAT, Contract
from corpustools.model.status import FixtureStatus
from corpustools.score.fixture import FixtureScore
from corpustools.score.reasons import Verdict
from corpustools.score.stats import wilson


@dataclass(frozen=True)
class Proportion:
    successes: int
    total: int

    @property
    def rate(self) -> float | None:
        return self.successes / self.total if self.total else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.successes, self.total)


def f1(precision: Proportion, recall: Proportion) -> float | None:
    """The harmonic mean of the two rates; None while either has nothing to measure."""
    p, r = precision.rate, recall.rate
    if p is None or r is None:
        return None
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


@dataclass(frozen=True)
class TypeTally:
    """One item type: its expected points matched (recall) and its items that match an expected
    or optional point (precision), over the fixtures whose result was read."""

    type: str
    points_matched: int
    points_total: int
    items_matching: int
    items_total: int
    points_not_judged: int = 0  # of points_total: those of fixtures whose result was invalid
    recall_invalid: int = 0  # the fixtures with points of this type whose result was invalid

    @property
    def recall(self) -> Proportion:
        return Proportion(self.points_matched, self.points_total)

    @property
    def recall_valid_only(self) -> Proportion:
        """Recall over the points of valid results: an invalid result's points are not judged."""
        return Proportion(self.points_matched, self.points_total - self.points_not_judged)

    @property
    def precision(self) -> Proportion:
        return Proportion(self.items_matching, self.items_total)

    @property
    def f1(self) -> float | None:
        return f1(self.precision, self.recall)

    @property
    def f1_valid_only(self) -> float | None:
        """F1 of the precision and the recall over the valid results (the one a report shows beside them)."""
        return f1(self.precision, self.recall_valid_only)


@dataclass(frozen=True)
class FieldTally:
    """One declared field: the fixtures pinning it whose result holds an expected value."""

    pointer: str
    matched: int
    pinned: int
    invalid: int = 0  # of the fixtures pinning it, those whose result was invalid

    @property
    def accuracy(self) -> Proportion:
        return Proportion(self.matched, self.pinned)

    @property
    def accuracy_valid_only(self) -> Proportion:
        """Accuracy over the valid results: an invalid result's value is not judged."""
        return Proportion(self.matched, self.pinned - self.invalid)


@dataclass(frozen=True)
class Aggregate:
    fixtures_passed: int
    fixtures_failed: int
    fixtures_unchecked: int
    fixtures_total: int
    points_matched: int
    points_total: int
    phantoms: int
    gate_correct: int
    gate_total: int
    false_rejects: int
    expecting_output: int  # fixtures whose sidecar expects output: the false-reject denominator
    missing_results: int
    invalid_results: int
    invalid_sidecars: int
    optional_points_matched: int = 0  # optional points never count in recall
    optional_points_total: int = 0
    unreadable_results: int = 0  # results there but not readable (never counted as missing)
    types: tuple[TypeTally, ...] = ()  # per item type of the output contract, in its order
    fields: tuple[FieldTally, ...] = ()  # per declared field, in its order
    phantoms_apply: bool = True  # False for a text output: an answer is right or wrong, never a phantom
    # Invalid apart from wrong (docs/scoring.md): what the strict figures count as missed or wrong
    # only because a result was invalid, so that each can also be told over the valid results.
    points_not_judged: int = 0  # expected points of fixtures whose result was invalid
    recall_invalid: int = 0  # fixtures with expected points whose result was invalid
    gate_not_judged: int = 0  # expect-empty fixtures whose result was invalid

    @property
    def items_matching(self) -> int:
        return sum(t.items_matching for t in self.types)

    @property
    def items_total(self) -> int:
        return sum(t.items_total for t in self.types)

    @property
    def precision(self) -> Proportion:
        """Items matching an expected or optional point / all items of read results."""
        return Proportion(self.items_matching, self.items_total)

    @property
    def f1(self) -> float | None:
        return f1(self.precision, self.recall)

    @property
    def f1_valid_only(self) -> float | None:
        """F1 of the precision and the recall over the valid results (the one a report shows beside them)."""
        return f1(self.precision, self.recall_valid_only)

    @property
    def optional_matched(self) -> Proportion:
        return Proportion(self.optional_points_matched, self.optional_points_total)

    @property
    def pass_rate(self) -> Proportion:
        return Proportion(self.fixtures_passed, self.fixtures_total)

    @property
    def recall(self) -> Proportion:
        return Proportion(self.points_matched, self.points_total)

    @property
    def gate_accuracy(self) -> Proportion:
        return Proportion(self.gate_correct, self.gate_total)

    @property
    def recall_valid_only(self) -> Proportion:
        """Recall over the points of valid results (recall counts an invalid result's as missed)."""
        return Proportion(self.points_matched, self.points_total - self.points_not_judged)

    @property
    def gate_accuracy_valid_only(self) -> Proportion:
        """Gate accuracy over the expect-empty fixtures whose result was valid."""
        return Proportion(self.gate_correct, self.gate_total - self.gate_not_judged)

    @property
    def false_reject_rate(self) -> Proportion:
        return Proportion(self.false_rejects, self.expecting_output)


# Each proportion reported with its interval: (key, label); the key is both the JSON key and the
# Aggregate attribute, so the two cannot drift apart.
PROPORTIONS = (
    ("pass_rate", "fixtures passed"),
    ("recall", "expected-point recall"),
    ("gate_accuracy", "gate accuracy (expect-empty fixtures that came back empty)"),
    ("false_reject_rate", "false rejects (fixtures expecting output that came back empty)"),
)


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    higher_is_better: bool
    is_rate: bool  # a proportion in [0, 1]; otherwise a count


# What repeated runs and comparisons measure, in report order.
METRICS = (
    Metric("pass_rate", "fixture pass rate", True, True),
    Metric("recall", "recall", True, True),
    Metric("phantoms", "phantoms", False, False),
    Metric("gate_accuracy", "gate accuracy", True, True),
    Metric("false_rejects", "false rejects", False, False),
)


def metric_value(aggregate: Aggregate, key: str) -> float | None:
    if key == "phantoms" and not aggregate.phantoms_apply:
        return None
    if key in ("phantoms", "false_rejects"):
        return float(getattr(aggregate, key))
    return getattr(aggregate, key).rate


def invalid_result(fixture: FixtureScore) -> bool:
    """Whether the fixture's result was there but invalid: a format failure, told apart from a wrong
    answer (its points and fields are not judged in the valid-only figures)."""
    return fixture.status is FixtureStatus.INVALID_RESULT


def type_tallies(fixtures: list[FixtureScore], contract: Contract) -> tuple[TypeTally, ...]:
    points_matched: Counter = Counter()
    points_total: Counter = Counter()
    items_matching: Counter = Counter()
    items_total: Counter = Counter()
    not_judged: Counter = Counter()
    invalid: Counter = Counter()
    for f in fixtures:
        for p in f.points:
            points_total[p.type] += 1
            points_matched[p.type] += p.matched
        if invalid_result(f):
            types = [p.type for p in f.points]
            not_judged.update(types)
            invalid.update(set(types))
        matching = {name for p in f.points + f.optional_points for name in p.matched_by}
        for item in f.proposals:
            items_total[item.type] += 1
            items_matching[item.type] += item.name in matching
    return tuple(TypeTally(t, points_matched[t], points_total[t], items_matching[t], items_total[t], not_judged[t],
                           invalid[t]) for t in contract.item_types)


def field_tallies(fixtures: list[FixtureScore], contract: Contract) -> tuple[FieldTally, ...]:
    matched: Counter = Counter()
    pinned: Counter = Counter()
    invalid: Counter = Counter()
    for f in fixtures:
        for field in f.fields:
            pinned[field.pointer] += 1
            matched[field.pointer] += field.matched
            invalid[field.pointer] += invalid_result(f)
    return tuple(FieldTally(pointer, matched[pointer], pinned[pointer], invalid[pointer]) for pointer in contract.fields)


def aggregate(fixtures: list[FixtureScore], contract: Contract = DEFAULT) -> Aggregate:
    verdicts = Counter(f.verdict for f in fixtures)
    statuses = Counter(f.status for f in fixtures)
    return Aggregate(
        fixtures_passed=verdicts[Verdict.PASS],
        fixtures_failed=verdicts[Verdict.FAIL],
        fixtures_unchecked=verdicts[Verdict.UNCHECKED],
        fixtures_total=len(fixtures),
        points_matched=sum(p.matched for f in fixtures for p in f.points),
        points_total=sum(len(f.points) for f in fixtures),
        phantoms=sum(len(f.unexpected) for f in fixtures),
        gate_correct=sum(f.gate_correct for f in fixtures),
        gate_total=sum(f.expect_empty is True for f in fixtures),
        false_rejects=sum(f.false_reject for f in fixtures),
        expecting_output=sum(f.expect_empty is False for f in fixtures),
        missing_results=statuses[FixtureStatus.MISSING_RESULT],
        invalid_results=statuses[FixtureStatus.INVALID_RESULT],
        unreadable_results=statuses[FixtureStatus.UNREADABLE_RESULT],
        invalid_sidecars=statuses[FixtureStatus.SIDECAR_INVALID],
        optional_points_matched=sum(p.matched for f in fixtures for p in f.optional_points),
        optional_points_total=sum(len(f.optional_points) for f in fixtures),
        types=type_tallies(fixtures, contract),
        fields=field_tallies(fixtures, contract),
        phantoms_apply=contract.format != TEXT_FORMAT,
        points_not_judged=sum(len(f.points) for f in fixtures if invalid_result(f)),
        recall_invalid=sum(bool(f.points) for f in fixtures if invalid_result(f)),
        gate_not_judged=sum(f.expect_empty is True for f in fixtures if invalid_result(f)),
    )


@dataclass(frozen=True)
class CategoryRow:
    category: str
    passed: int
    total: int


def category_rows(fixtures: list[FixtureScore], declared: list[str]) -> tuple[CategoryRow, ...]:
    """Declared categories in corpus.yaml order (empty ones too: a missing fixture shows), then
    any other category a fixture names, by code point."""
    passed: Counter = Counter()
    total: Counter = Counter()
    for f in fixtures:  # one pass, grouped; not one walk over every fixture per category
        total[f.category] += 1
        passed[f.category] += f.verdict is Verdict.PASS
    order = list(declared) + sorted(set(total) - set(declared))
    return tuple(CategoryRow(c, passed[c], total[c]) for c in order)


def taxonomy(fixtures: list[FixtureScore]) -> tuple[tuple[str, int], ...]:
    """Reason kinds with their counts, most frequent first, ties by code point."""
    counts = Counter(r.kind.value for f in fixtures for r in f.reasons)
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
