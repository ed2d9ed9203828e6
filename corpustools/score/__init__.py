"""`corpustools score` and `compare`: the deterministic scorer.

One module per concept, each a set of pure functions over small frozen values:

- results.py       reading `<results>/<fixture_id>.json` (`.txt`) through the corpus's output contract
                   (corpustools.model.contract: a result's items and fields), and the run manifest
- reasons.py       verdicts, statuses, reasons and advisories as values; their text is made here
- match.py         the rules of one fixture's verdict and reasons (the scoring contract, docs/scoring.md),
                   pinned fields included
- advisories.py    advisories that never change a verdict (reported as "diagnostics")
- evidence.py      each point's terms in each proposal: what reasons and drill-downs are built on
- fixture.py       scoring one fixture (`FixtureScore`): match's rules and the advisories applied to its result
- aggregate.py     per-category rows, aggregates (precision and F1 per item type, accuracy per field),
                   the failure taxonomy, the metrics
- stats.py         Wilson intervals, mean / sample std, McNemar's exact test, flips needed
- scoring.py       the whole score of one corpus against one or more run folders
- repeated.py      k >= 2 runs of one prompt version: noise floor, flaky fixtures, stability
- compare.py       base versus candidate, fixture by fixture and metric by metric, and its headline
                   (improved, regressed, no change beyond noise) from the blocking metrics
- history.py       the Markdown history table `--append-history` appends to
- thresholds.py    `--fail-under`: the opt-in gate on a score report
- report/          the reports of a score and of a comparison (text, markdown, json, html); they only format
                   (what they share with calibrate's: corpustools.reporting)

Reports are written by corpustools.io.writing (never into a corpus's own files). The scorer shares
only the corpus model (corpustools.model) and corpustools.model.normalize with the linter.
"""

from typing import TYPE_CHECKING

from corpustools.io.lazy import lazy_names

if TYPE_CHECKING:
    from corpustools.model.status import FixtureStatus
    from corpustools.score.aggregate import Aggregate, Proportion
    from corpustools.score.compare import Comparison, CorpusDrift, compare_runs
    from corpustools.score.fixture import FixtureScore
    from corpustools.score.history import HistoryPlan, plan_history
    from corpustools.score.reasons import Advisory, Reason, Verdict
    from corpustools.score.scoring import (
        CorpusInfo,
        LoadedCorpus,
        MixedRuns,
        RunScore,
        ScoreReport,
        open_corpus,
        score_report,
    )
    from corpustools.score.thresholds import breaches, parse_thresholds

# Each public name is imported from its module when first read, so that `score` never loads
# compare (nor a report format it does not print), and `compare` never loads the history.
_MODULES = {
    "corpustools.model.status": ("FixtureStatus",),
    "corpustools.score.aggregate": ("Aggregate", "Proportion"),
    "corpustools.score.compare": ("Comparison", "CorpusDrift", "compare_runs"),
    "corpustools.score.history": ("HistoryPlan", "plan_history"),
    "corpustools.score.fixture": ("FixtureScore",),
    "corpustools.score.reasons": ("Advisory", "Reason", "Verdict"),
    "corpustools.score.scoring": ("CorpusInfo", "LoadedCorpus", "MixedRuns", "RunScore", "ScoreReport",
                                  "open_corpus", "score_report"),
    "corpustools.score.thresholds": ("breaches", "parse_thresholds"),
    "corpustools.score.report": ("report",),
}
__getattr__, __dir__ = lazy_names(__name__, {name: module for module, names in _MODULES.items() for name in names})

# The public API (commands and corpustools.api use only these; the rest is internal): scoring and
# comparing, the values a report holds, the history and the gate. `report` is the subpackage of
# the score and comparison reports (their FORMATTERS).
__all__ = ["Advisory", "Aggregate", "Comparison", "CorpusDrift", "CorpusInfo", "FixtureScore", "FixtureStatus",
           "HistoryPlan", "LoadedCorpus", "MixedRuns", "Proportion", "Reason", "RunScore", "ScoreReport", "Verdict",
           "breaches", "compare_runs", "open_corpus", "parse_thresholds", "plan_history", "report", "score_report"]
