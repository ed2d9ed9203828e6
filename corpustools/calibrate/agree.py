"""agree: two raters' worksheets of one run, answer by answer (docs/calibration.md, "Two raters").

Each pair of worksheets (written by `adjudicate`, filled by two different raters) must judge the
same outputs: the same run, the same result file of every fixture (its sha256), the same proposals.
Anything else is refused, every problem one line, nothing compared. The answers are then paired
at five levels (fixture verdicts, expected points captured, optional points captured, proposal
classes, leak answers), pooled over every pair of worksheets, and each level gets its counts, its
percent agreement with the Wilson interval, Cohen's kappa, Gwet's AC1 with its 95% interval and
Krippendorff's alpha (corpustools.calibrate.agreement). Every disagreement is listed fixture by
fixture, for the meeting that reconciles them. corpus.yaml's `agreement:` threshold says PASS or
FAIL per level it names.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from corpustools.calibrate.agreement import Coefficient, cohen_kappa_table, gwet_ac1, krippendorff_alpha
from corpustools.calibrate.answers import JudgedFixture, JudgedWorksheet, read_worksheet
from corpustools.calibrate.calibration import CalibrationProblems
from corpustools.calibrate.worksheet import (
    DURABLE_UNLABELED,
    OPTIONAL_CLASS,
    OVER_EXTRACTION,
    POINT_CLASS,
)
from corpustools.io.errors import UsageError
from corpustools.io.positions import Pos, Problem
from corpustools.model.contract import TEXT_FIELD, Contract
from corpustools.model.spec import AgreementThreshold
from corpustools.reporting.formatting import plural
from corpustools.score.aggregate import Proportion
from corpustools.score.scoring import CorpusInfo, open_corpus

YES, NO, PASS, FAIL = "yes", "no", "PASS", "FAIL"


@dataclass(frozen=True)
class AgreeLevel:
    key: str  # what corpus.yaml's agreement: levels and --fail-under name it
    label: str
    answers: tuple[str, ...] | None  # the two answers of a yes/no level, in table order; None: nominal classes


VERDICTS = AgreeLevel("verdicts", "fixture verdicts", (PASS, FAIL))
POINTS = AgreeLevel("points", "expected points captured", (YES, NO))
OPTIONAL = AgreeLevel("optional", "optional points captured", (YES, NO))
CLASSES = AgreeLevel("classes", "proposal classes", None)
LEAKS = AgreeLevel("leaks", "leak answers", (YES, NO))
LEVELS = (VERDICTS, POINTS, OPTIONAL, CLASSES, LEAKS)
LEVEL_BY_KEY = {level.key: level for level in LEVELS}
# The kinds of a class a proposal's confusion table shows (point:<id> and optional:<id> by kind).
CLASS_KINDS = ("point", "optional", DURABLE_UNLABELED, OVER_EXTRACTION)
# Within a fixture, a meeting reads its disagreements in this order.
_MEETING_ORDER = {key: i for i, key in enumerate(("verdicts", "leaks", "points", "optional", "classes"))}


def class_kind(cls: str) -> str:
    """`point`, `optional`, `durable-unlabeled` or `over-extraction`: a class without its point id."""
    for prefix in (POINT_CLASS, OPTIONAL_CLASS):
        if cls.startswith(prefix):
            return prefix[:-1]
    return cls


@dataclass(frozen=True)
class Answered:
    """One question both raters answered."""

    level: str  # an AgreeLevel key
    fixture: str
    item: str | None  # the point id or the proposal's name; None for a fixture's own answer
    first: str
    second: str
    title: str | None = None  # a proposal's title, so that a reader knows which one

    @property
    def agrees(self) -> bool:
        return self.first == self.second


@dataclass(frozen=True)
class LevelAgreement:
    """One level's answers as a confusion table, rows the first rater, and its statistics."""

    level: AgreeLevel
    categories: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]
    categories_available: int  # how many answers a rater could choose from (AC1's q)

    @classmethod
    def of(cls, level: AgreeLevel, answered: Sequence[Answered]) -> LevelAgreement:
        mine = [a for a in answered if a.level == level.key]
        if level.answers is not None:
            categories = level.answers
        else:
            categories = tuple(sorted({a.first for a in mine} | {a.second for a in mine}))
        index = {category: i for i, category in enumerate(categories)}
        counts = [[0] * len(categories) for _ in categories]
        for a in mine:
            counts[index[a.first]][index[a.second]] += 1
        return cls(level, categories, tuple(tuple(row) for row in counts), max(2, len(categories)))

    @property
    def total(self) -> int:
        return sum(map(sum, self.counts))

    @property
    def percent(self) -> Proportion:
        return Proportion(sum(self.counts[k][k] for k in range(len(self.categories))), self.total)

    @cached_property
    def kappa(self) -> Coefficient:
        return cohen_kappa_table(self.counts)

    @cached_property
    def ac1(self) -> Coefficient:
        return gwet_ac1(self.counts, self.categories_available)

    @cached_property
    def alpha(self) -> Coefficient:
        return krippendorff_alpha(self.counts)

    def statistic(self, name: str) -> Coefficient:
        """ac1, kappa, alpha or percent (the agreement rate, with its Wilson interval)."""
        if name == "percent":
            p = self.percent
            if p.rate is None:
                return Coefficient.none("no pairs")
            low, high = p.interval or (None, None)
            return Coefficient(p.rate, low, high)
        return {"ac1": self.ac1, "kappa": self.kappa, "alpha": self.alpha}[name]

    @property
    def kind_table(self) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...], int]:
        """For proposal classes: the confusion table by kind (CLASS_KINDS) and how many of its
        diagonal pairs named two different points of one kind."""
        counts = [[0] * len(CLASS_KINDS) for _ in CLASS_KINDS]
        other_point = 0
        for i, first in enumerate(self.categories):
            for j, second in enumerate(self.categories):
                n = self.counts[i][j]
                if not n:
                    continue
                a, b = CLASS_KINDS.index(class_kind(first)), CLASS_KINDS.index(class_kind(second))
                counts[a][b] += n
                other_point += n if a == b and first != second else 0
        return CLASS_KINDS, tuple(tuple(row) for row in counts), other_point


@dataclass(frozen=True)
class Side:
    """One rater's worksheet of a pair."""

    worksheet: str  # the path as given
    rater: str
    reconciled: tuple[str, ...] = ()


@dataclass(frozen=True)
class FixtureDisagreement:
    """One fixture on which the raters of a pair disagree somewhere: what a meeting reads."""

    pair: int  # 1-based
    fixture: str
    category: str
    first_verdict: str
    second_verdict: str
    first_why: str
    second_why: str
    answers: tuple[Answered, ...]  # every disagreeing answer, in meeting order

    @property
    def verdicts_differ(self) -> bool:
        return self.first_verdict != self.second_verdict


@dataclass(frozen=True)
class PairAgreement:
    first: Side
    second: Side
    results: str  # the run both judged, as the first worksheet names it
    prompt: dict | None
    fixtures: int  # compared
    answered: tuple[Answered, ...]
    left_out: tuple[str, ...] = ()  # fixtures in one worksheet only (--allow-partial)

    def level(self, key: str) -> LevelAgreement:
        return LevelAgreement.of(LEVEL_BY_KEY[key], self.answered)


@dataclass(frozen=True)
class Gate:
    """A level the threshold names: its value of the statistic and whether it passes."""

    level: str
    statistic: str
    min: float
    value: float | None
    undefined: str | None

    @property
    def passed(self) -> bool:
        return self.value is not None and round(self.value, 4) >= self.min

    def __str__(self) -> str:
        label = LEVEL_BY_KEY[self.level].label
        if self.value is None:
            return f"{label} FAIL ({self.statistic} n/a: {self.undefined})"
        return f"{label} {'PASS' if self.passed else 'FAIL'} ({self.statistic} {self.value:.2f})"


@dataclass(frozen=True)
class Agreement:
    """What `agree` found: every pair of worksheets, the pooled levels, the disagreements."""

    corpus: CorpusInfo
    pairs: tuple[PairAgreement, ...]
    threshold: AgreementThreshold | None
    warnings: tuple[str, ...] = ()
    contract: Contract | None = field(default=None, compare=False, repr=False)
    whys: dict = field(default_factory=dict, compare=False, repr=False)  # pair -> fixture -> (category, whys)

    @cached_property
    def answered(self) -> tuple[Answered, ...]:
        return tuple(a for pair in self.pairs for a in pair.answered)

    def level(self, key: str) -> LevelAgreement:
        return LevelAgreement.of(LEVEL_BY_KEY[key], self.answered)

    @property
    def levels(self) -> tuple[LevelAgreement, ...]:
        """Every level with something to compare (optional points only when there are some)."""
        return tuple(self.level(level.key) for level in LEVELS if level.key != "optional"
                     or self.level(level.key).total)

    @property
    def gates(self) -> tuple[Gate, ...]:
        """The threshold's verdict on each level it names (none without a threshold)."""
        if self.threshold is None:
            return ()
        gates = []
        for key in self.threshold.levels:
            found = self.level(key).statistic(self.threshold.statistic)
            gates.append(Gate(key, self.threshold.statistic, self.threshold.min, found.value, found.undefined))
        return tuple(gates)

    @property
    def raters(self) -> tuple[str, str]:
        """The two sides' names: the raters of every pair when they are the same two, else A and B."""
        names = {(p.first.rater, p.second.rater) for p in self.pairs}
        return names.pop() if len(names) == 1 else ("rater A", "rater B")

    @cached_property
    def disagreements(self) -> tuple[FixtureDisagreement, ...]:
        """Every fixture of every pair with a disagreeing answer, sorted for a reconciliation
        meeting: the fixtures whose verdicts differ first, then the most disagreements first, then
        by fixture id and pair; within a fixture, the verdict, the leak, points, optional points,
        then proposals."""
        found = []
        for number, pair in enumerate(self.pairs, 1):
            by_fixture: dict[str, list[Answered]] = {}
            for a in pair.answered:
                if not a.agrees:
                    by_fixture.setdefault(a.fixture, []).append(a)
            verdicts = {a.fixture: a for a in pair.answered if a.level == "verdicts"}
            whys = self.whys.get(number, {})
            for fixture, answers in by_fixture.items():
                verdict = verdicts[fixture]
                category, first_why, second_why = whys.get(fixture, ("", "", ""))
                ordered = tuple(sorted(answers, key=lambda a: _MEETING_ORDER[a.level]))  # stable: worksheet order
                found.append(FixtureDisagreement(number, fixture, category, verdict.first, verdict.second,
                                                 first_why, second_why, ordered))
        return tuple(sorted(found, key=lambda d: (not d.verdicts_differ, -len(d.answers), d.fixture, d.pair)))


def _title(contract: Contract, proposal) -> str | None:
    """A proposal's title as reports show it: the contract's title field, or a text's first line."""
    declared = contract.item_type(proposal.type)
    value = proposal.fields.get(declared.title if declared is not None and declared.title else TEXT_FIELD)
    if not isinstance(value, str):
        return None
    return next((line.strip() for line in value.splitlines() if line.strip()), None)


def _fixture_answers(first: JudgedFixture, second: JudgedFixture, contract: Contract,
                     warnings: list[str], where: str) -> list[Answered]:
    fixture = first.fixture_id
    answered = [Answered("verdicts", fixture, None, first.verdict.value, second.verdict.value),
                Answered("leaks", fixture, None, YES if first.leak else NO, YES if second.leak else NO)]
    for point_id, captured in first.captured.items():
        if point_id not in second.captured:
            warnings.append(f"{where}: fixture {fixture}: point {point_id} is in one worksheet only (the labels "
                            "changed between the two adjudications?); not compared")
            continue
        optional = point_id in first.optional
        if optional != (point_id in second.optional):
            warnings.append(f"{where}: fixture {fixture}: point {point_id} is expected in one worksheet and "
                            "optional in the other; not compared")
            continue
        answered.append(Answered("optional" if optional else "points", fixture, point_id,
                                 YES if captured else NO, YES if second.captured[point_id] else NO))
    for point_id in second.captured:
        if point_id not in first.captured:
            warnings.append(f"{where}: fixture {fixture}: point {point_id} is in one worksheet only (the labels "
                            "changed between the two adjudications?); not compared")
    for proposal in first.proposals:
        other = second.proposal(proposal.name)
        if other is not None:
            answered.append(Answered("classes", fixture, proposal.name, proposal.cls, other.cls,
                                     _title(contract, proposal)))
    return answered


def _identity(judged: JudgedWorksheet) -> str:
    prompt = judged.prompt
    named = f", prompt {prompt.get('name')} version {prompt.get('version')}" if isinstance(prompt, dict) else ""
    return f"{judged.results}{named}"


# What each command asking pair_problems does with two raters, and what to do with a fixture in one only.
_PAIRS_FOR = {"agree": ("agree compares two raters", "--allow-partial compares the fixtures both judged"),
              "reconcile": ("reconcile merges two raters' worksheets",
                            "reconcile needs both raters' answers on every fixture")}


def pair_problems(first: JudgedWorksheet, second: JudgedWorksheet, *, allow_partial: bool,
                  command: str = "agree") -> list[Problem]:
    """Why these two worksheets cannot be compared: not one run, not one set of outputs, one rater,
    a fixture in one only (unless allow_partial), a proposal in one only; advice worded for `command`."""
    a, b = first.path, second.path
    two_raters, one_only = _PAIRS_FOR[command]
    if first.rater_name.casefold() == second.rater_name.casefold():
        how = "its rater:" if second.rater is not None else "its file name, as it records no rater:"
        return [Problem(Pos(b), f"the same rater {second.rater_name!r} as {a} (named by {how}); {two_raters}: "
                                "give another rater's worksheet, or set rater: NAME in each")]
    common = [f for f in first.fixtures if f in second.fixtures]
    changed = [f for f in common if first.fixtures[f].result_sha256 != second.fixtures[f].result_sha256]
    prompts_differ = isinstance(first.prompt, dict) and isinstance(second.prompt, dict) and (
        first.prompt.get("sha256") != second.prompt.get("sha256"))
    same_folder = os.path.normpath(first.results) == os.path.normpath(second.results)
    if prompts_differ or (changed and not same_folder):
        return [Problem(Pos(b), f"judges another run ({_identity(second)}) than {a} ({_identity(first)}): give two "
                                "raters' worksheets of one run")]
    problems = []
    for fixture in changed:
        was, now = first.fixtures[fixture].result_sha256, second.fixtures[fixture].result_sha256
        problems.append(Problem(second.fixtures[fixture].pos, f"fixture {fixture}: the result judged here has sha256 "
                                f"{(now or 'none (missing)')[:12]}, in {a} {(was or 'none (missing)')[:12]}: the two "
                                "raters judged different outputs"))
    if not allow_partial:
        for fixture in [f for f in first.fixtures if f not in second.fixtures]:
            problems.append(Problem(first.fixtures[fixture].pos, f"fixture {fixture} is not in {b} ({one_only})"))
        for fixture in [f for f in second.fixtures if f not in first.fixtures]:
            problems.append(Problem(second.fixtures[fixture].pos, f"fixture {fixture} is not in {a} ({one_only})"))
    for fixture in [f for f in common if f not in changed]:
        names = [p.name for p in first.fixtures[fixture].proposals]
        others = [p.name for p in second.fixtures[fixture].proposals]
        for name in [n for n in others if n not in names] + [n for n in names if n not in others]:
            problems.append(Problem(second.fixtures[fixture].pos, f"fixture {fixture}: proposal {name} is in one "
                                    "worksheet only, of one result file: a worksheet was edited beyond its answers"))
    return problems


def agree_worksheets(corpus_root: str, worksheets: Sequence[str], *, allow_partial: bool = False) -> Agreement:
    """Compare each pair of worksheets (first, second, first, second, ...). CalibrationProblems lists
    every problem, one line each; InputError when the corpus cannot be opened."""
    if len(worksheets) < 2 or len(worksheets) % 2:
        raise UsageError("give worksheets in pairs: WS_A WS_B [WS_A2 WS_B2 ...], two raters' worksheets of one run")
    loaded = open_corpus(corpus_root)
    contract = loaded.contract
    problems: list[Problem] = []
    read: list[JudgedWorksheet] = []
    for path in worksheets:
        judged, _, found = read_worksheet(path)
        if judged is None:
            problems += found
        elif judged.corpus_name != loaded.info.name:
            problems.append(Problem(judged.corpus_pos, f"this worksheet judges the corpus {judged.corpus_name!r}, not "
                                    f"{loaded.info.name!r} ({loaded.info.path}); give the corpus it was written for"))
        else:
            read.append(judged)
    if problems:
        raise CalibrationProblems(problems)
    pairs: list[PairAgreement] = []
    warnings: list[str] = []
    whys: dict[int, dict[str, tuple[str, str, str]]] = {}
    for number, (first, second) in enumerate(zip(read[::2], read[1::2], strict=True), 1):
        found = pair_problems(first, second, allow_partial=allow_partial)
        if found:
            problems += found
            continue
        common = [f for f in first.fixtures if f in second.fixtures]
        left_out = tuple(sorted(set(first.fixtures) ^ set(second.fixtures)))
        if left_out:
            warnings.append(f"pair {number}: {plural(len(left_out), 'fixture')} judged in one worksheet only, not compared "
                            f"(--allow-partial): {', '.join(left_out)}")
        answered: list[Answered] = []
        whys[number] = {}
        for fixture in common:
            a, b = first.fixtures[fixture], second.fixtures[fixture]
            answered += _fixture_answers(a, b, contract, warnings, f"pair {number}")
            whys[number][fixture] = (a.category, a.why, b.why)
        pairs.append(PairAgreement(Side(first.path, first.rater_name, first.reconciled),
                                   Side(second.path, second.rater_name, second.reconciled), first.results,
                                   dict(first.prompt) if isinstance(first.prompt, dict) else None, len(common),
                                   tuple(answered), left_out))
    if problems:
        raise CalibrationProblems(problems)
    spec = loaded.corpus.spec
    threshold = spec.agreement if spec is not None else None
    from corpustools.provenance import threshold_warning  # provenance: for agree; reconcile imports this module

    changed = threshold_warning(corpus_root, threshold, {judged.path: judged.corpus_sha256 for judged in read})
    warnings += [changed] if changed else []
    return Agreement(loaded.info, tuple(pairs), threshold, tuple(dict.fromkeys(loaded.warnings + tuple(warnings))),
                     contract, whys)


# --- --fail-under ----------------------------------------------------------------------------------

STATISTICS = ("ac1", "kappa", "alpha", "percent")


def parse_fail_under(text: str) -> tuple[tuple[str, str | None, float], ...]:
    """`verdicts=0.8,points.kappa=0.6` -> ((level, statistic or None, number), ...): argparse's type
    (a usage error, exit 2). A level alone is gated on corpus.yaml's agreement: statistic (ac1
    without one)."""
    found: dict[tuple[str, str | None], float] = {}
    for item in text.split(","):
        key, equals, value = (part.strip() for part in item.partition("="))
        level, dot, statistic = key.partition(".")
        if level not in LEVEL_BY_KEY or (dot and statistic not in STATISTICS):
            raise argparse.ArgumentTypeError(
                f"{key or item.strip()!r} is not LEVEL or LEVEL.STATISTIC (levels: {', '.join(LEVEL_BY_KEY)}; "
                f"statistics: {', '.join(STATISTICS)}; expected KEY=NUMBER,...)")
        try:
            number = float(value) if equals else math.nan
        except ValueError:
            number = math.nan
        if not 0 <= number <= 1:  # also refuses nan and a missing value
            raise argparse.ArgumentTypeError(f"{key}: {value!r} is not a number from 0 to 1")
        if (level, statistic or None) in found:
            raise argparse.ArgumentTypeError(f"{key} is given twice")
        found[(level, statistic or None)] = number
    return tuple((level, statistic, number) for (level, statistic), number in found.items())


def breaches(agreement: Agreement, thresholds: tuple[tuple[str, str | None, float], ...]) -> list[str]:
    """One line per threshold a pooled level falls under (at the report's 4 decimals); a statistic
    that is undefined cannot meet a threshold."""
    default = agreement.threshold.statistic if agreement.threshold is not None else STATISTICS[0]
    lines = []
    for level, statistic, bound in thresholds:
        name = statistic or default
        found = agreement.level(level).statistic(name)
        if found.value is None:
            lines.append(f"{level} {name} is n/a ({found.undefined}) and cannot meet {bound:g}")
        elif round(found.value, 4) < bound:
            lines.append(f"{level} {name} {found.value:.4f} is under {bound:g}")
    return lines
