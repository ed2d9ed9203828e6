"""k >= 2 runs of one prompt version: noise floor, flaky fixtures, point stability, caches."""

import json

import pytest

from corpustools.io.schemastore import validate
from corpustools.score.scoring import score_report
from tests.support.corpus import ADMIT_ID, REJECT_ID
from tests.support.score import EMPTY, GOOD_ADMIT, admit_sidecar, output, proposal, run_cli, write_results

PHANTOM = proposal("Fix the typo in the help text")
MISS = output([proposal("Delete expired signups in cron")])
TWO_POINTS = admit_sidecar(("expire-via-queue", "practice", ["queue worker", "expired signups"]),
                           ("vendor-unsubscribe", "practice", ["unsubscribe"]), max_unexpected=2)
BOTH = output([proposal("Expired signups go through the queue worker", "It calls the vendor's unsubscribe.")])
FIRST_ONLY = output([proposal("Expired signups go through the queue worker")])


def runs(tmp_path, *outputs):
    return [str(write_results(tmp_path / f"run{i}", dict(zip((ADMIT_ID, REJECT_ID), pair, strict=True))))
            for i, pair in enumerate(outputs, 1)]


def test_noise_floor_on_known_inputs(make_corpus, tmp_path):
    folders = runs(tmp_path, (GOOD_ADMIT, EMPTY), (MISS, EMPTY), (MISS, output([PHANTOM])))
    summary = score_report(str(make_corpus()), folders).repeated
    assert summary.runs == 3
    pass_rate = summary.spread_of("pass_rate")
    assert pass_rate.values == (1.0, 0.5, 0.0)
    assert pass_rate.mean == pytest.approx(0.5) and pass_rate.std == pytest.approx(0.5)
    phantoms = summary.spread_of("phantoms")  # MISS's proposal is a phantom too
    assert phantoms.values == (0.0, 1.0, 2.0)
    assert (phantoms.mean, phantoms.std) == (pytest.approx(1.0), pytest.approx(1.0))
    recall = summary.spread_of("recall")
    assert recall.values == (1.0, 0.0, 0.0) and recall.std == pytest.approx(0.57735027)
    gate = summary.spread_of("gate_accuracy")
    assert gate.values == (1.0, 1.0, 0.0) and gate.mean == pytest.approx(2 / 3)


def test_flaky_fixtures_passed_in_some_runs_only(make_corpus, tmp_path):
    folders = runs(tmp_path, (GOOD_ADMIT, EMPTY), (MISS, EMPTY))
    summary = score_report(str(make_corpus()), folders).repeated
    assert [(f.id, f.passed, f.runs) for f in summary.flaky] == [(ADMIT_ID, 1, 2)]
    assert [(f.id, f.passed) for f in summary.fixtures] == [(ADMIT_ID, 1), (REJECT_ID, 2)]


def test_stability_is_a_share_of_the_union(make_corpus, tmp_path):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": TWO_POINTS})
    # The first run matches fewer points; counted over the union it is not "more stable".
    summary = score_report(str(corpus), runs(tmp_path, (FIRST_ONLY, EMPTY), (BOTH, EMPTY))).repeated
    assert [(p.point_id, p.matched) for p in summary.points] == [("expire-via-queue", 2), ("vendor-unsubscribe", 1)]
    assert (summary.stability.successes, summary.stability.total) == (1, 2)
    never = score_report(str(corpus), runs(tmp_path, (MISS, EMPTY), (MISS, EMPTY))).repeated
    assert (never.stability.successes, never.stability.total) == (0, 0)


def test_identical_runs_are_flagged_as_a_cache(make_corpus, tmp_path, capsys):
    folders = runs(tmp_path, (GOOD_ADMIT, EMPTY), (GOOD_ADMIT, EMPTY), (MISS, EMPTY))
    summary = score_report(str(make_corpus()), folders).repeated
    assert summary.identical == ((folders[0], folders[1]),)
    code, out, _ = run_cli(capsys, "score", make_corpus(name="c2"), *folders, "--format", "markdown")
    assert code == 0
    assert f"> **WARNING:** `{folders[0]}` and `{folders[1]}` have byte-identical result files" in out
    # The same JSON written with different whitespace is a different file: not flagged.
    (tmp_path / "run2" / f"{ADMIT_ID}.json").write_text(json.dumps(GOOD_ADMIT))
    assert score_report(str(make_corpus(name="c3")), folders).repeated.identical == ()


def test_repeated_report_formats(make_corpus, tmp_path, capsys):
    folders = runs(tmp_path, (GOOD_ADMIT, EMPTY), (MISS, output([PHANTOM])))
    corpus = make_corpus()
    code, out, _ = run_cli(capsys, "score", corpus, *folders, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert validate("score-report", data) == []
    assert [r["results"] for r in data["runs"]] == folders
    assert data["repeated"]["flaky"] == [ADMIT_ID, REJECT_ID]
    assert data["repeated"]["metrics"][0] == {"metric": "pass_rate", "values": [1.0, 0.0], "mean": 0.5,
                                              "std": 0.7071}
    _, markdown, _ = run_cli(capsys, "score", corpus, *folders, "--format", "markdown")
    assert markdown.startswith("**2/2, 0/2 fixtures passed in 2 runs** (mean 50.0%, sample std 70.7 pp); ")
    assert "<details><summary>Noise floor (run-to-run spread of the same prompt)</summary>" in markdown
    assert "<details><summary>Run 2: every table</summary>" in markdown
    assert "| fixture pass rate | 50.0% | 70.7 pp | 100.0%, 0.0% |" in markdown
    assert "| phantoms | 1.0 | 1.4 | 0, 2 |" in markdown
    _, text, _ = run_cli(capsys, "score", corpus, *folders, "--format", "text")
    assert "flaky: admit-convention-01 passed in 1/2" in text


def test_every_format_renders_the_reports_one_list_of_warnings(make_corpus, tmp_path):
    """ScoreReport.warnings is built once; text, Markdown and HTML each give every one of them, in
    their own words around the same sentence."""
    from dataclasses import replace

    from corpustools.score.report import FORMATTERS
    from corpustools.score.scoring import WarningKind

    folders = runs(tmp_path, (GOOD_ADMIT, EMPTY), (GOOD_ADMIT, EMPTY))
    report = score_report(str(make_corpus()), folders)
    report = replace(report, mixed=("a and b are not repeats",), corpus_warnings=("sidecars/x.yaml: skipped",),
                     runs=(replace(report.runs[0], drift="run1 answers other inputs", warnings=()),
                           replace(report.runs[1], warnings=())))
    assert [w.kind for w in report.warnings] == [WarningKind.CORPUS_DRIFT, WarningKind.MIXED_RUNS,
                                                 WarningKind.CACHED_REPEAT, WarningKind.SKIPPED]
    cached = f"{folders[0]} and {folders[1]} have byte-identical result files: a cache, not an independent run"
    assert report.warnings[2].text() == cached
    text, markdown, page = (FORMATTERS[fmt](report) for fmt in ("text", "markdown", "html"))
    for line in ("WARNING: CORPUS DRIFT: run1 answers other inputs",
                 "WARNING: MIXED RUNS (--allow-mixed): a and b are not repeats: the means and the noise floor pool them",
                 f"WARNING: {cached}", "warning: sidecars/x.yaml: skipped"):
        assert f"\n{line}\n" in text
    for line in ("> **WARNING: CORPUS DRIFT.** run1 answers other inputs.",
                 "> **MIXED RUNS (--allow-mixed):** a and b are not repeats: the means and the noise floor pool them.",
                 f"> **WARNING:** `{folders[0]}` and `{folders[1]}` have byte-identical result files: a cache, not an "
                 "independent run.", "- sidecars/x.yaml: skipped"):
        assert f"{line}\n" in markdown.splitlines(keepends=True)
    for line in ("WARNING: CORPUS DRIFT. run1 answers other inputs.",
                 "MIXED RUNS (--allow-mixed): a and b are not repeats: the means and the noise floor pool them.",
                 f"WARNING: {cached}.", "sidecars/x.yaml: skipped"):
        assert f'<div class="warn">{line}</div>' in page
