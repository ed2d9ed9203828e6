"""Two raters: `adjudicate --rater`, `agree`, `reconcile`, corpus.yaml's `agreement:` threshold and
the provenance record's history, `provenance freeze` and calibrate's held-out runs (issue 32)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from corpustools import api
from corpustools.calibrate.report.agree import FORMATTERS
from corpustools.io.schemastore import validate
from corpustools.io.yamlload import parse_yaml
from tests.support.calibrate import fill_all
from tests.support.corpus import ADMIT_ID, REJECT_ID, SPEC_TEXT, sidecar_text
from tests.support.raters import FACT, second_rater, write_meds, write_meds_run
from tests.support.recipes import FORMAT
from tests.support.score import EMPTY, GOOD_ADMIT, output, points_yaml, proposal, run_cli, write_results
from tests.support.triage import BILLING, OUTAGE

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "fixtures" / "prompt-eval"
POINT = "expire-via-queue"
SIDECAR = sidecar_text(points=points_yaml((POINT, "practice", ["queue worker", "expired signups"])),
                       optional=points_yaml(("newsletter-module", "map", ["newsletter module"])))
EXTRA = proposal("Run the linter before committing", "Always run the linter.")
THRESHOLD = "agreement:\n  statistic: ac1\n  min: 0.8\n  levels: [verdicts, points]\n"


@pytest.fixture
def corpus(make_corpus):
    return make_corpus({f"expected/{ADMIT_ID}.yaml": SIDECAR})


def sheet(capsys, corpus, run, path, rater, answers=None, **default):
    """A worksheet of `run` written with --rater and filled: `answers` first, then `default`."""
    code, _, err = run_cli(capsys, "adjudicate", corpus, run, "--rater", rater, "--out", path)
    assert code == 0, err
    answers = {(ADMIT_ID, "newsletter-module", "captured"): "no", **(answers or {})}
    path.write_text(fill_all(path.read_text(encoding="utf-8"), answers, **default), encoding="utf-8")
    return path


def two_raters(tmp_path, capsys, corpus, alice=None, bob=None, admit=None):
    run = write_results(tmp_path / "run", {ADMIT_ID: admit or output(GOOD_ADMIT["practice"] + [EXTRA]),
                                           REJECT_ID: EMPTY})
    a = sheet(capsys, corpus, run, tmp_path / "alice.yaml", "alice", alice)
    b = sheet(capsys, corpus, run, tmp_path / "bob.yaml", "bob", bob)
    return run, a, b


def agree_json(capsys, *argv):
    code, out, err = run_cli(capsys, "agree", *argv, "--format", "json")
    assert code in (0, 1), err
    data = json.loads(out)
    assert validate("agreement-report", data) == []
    return data


# --- adjudicate --rater ---------------------------------------------------------------------------

def test_rater_is_recorded_and_a_worksheet_without_one_is_named_by_its_file(corpus, tmp_path, capsys):
    run, a, _ = two_raters(tmp_path, capsys, corpus)
    assert parse_yaml(a.read_text(encoding="utf-8"), "a").data["rater"] == "alice"
    assert run_cli(capsys, "adjudicate", corpus, run, "--rater", "  ", "--out", tmp_path / "x.yaml")[0] == 2
    anonymous = tmp_path / "carol.yaml"
    assert run_cli(capsys, "adjudicate", corpus, run, "--out", anonymous)[0] == 0
    anonymous.write_text(fill_all(anonymous.read_text(encoding="utf-8")), encoding="utf-8")
    data = agree_json(capsys, corpus, a, anonymous)
    assert [(p["first"]["rater"], p["second"]["rater"]) for p in data["pairs"]] == [("alice", "carol")]


# --- agree: the levels, the statistics, the disagreements ----------------------------------------

def test_every_level_with_its_statistics_and_n_a_said(corpus, tmp_path, capsys):
    _, a, b = two_raters(tmp_path, capsys, corpus,
                         alice={(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}",
                                (ADMIT_ID, "practice[1]", "class"): "over-extraction",
                                (ADMIT_ID, None, "verdict"): "FAIL", (ADMIT_ID, None, "why"): "one extra"},
                         bob={(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}",
                              (ADMIT_ID, "practice[1]", "class"): "durable-unlabeled",
                              (ADMIT_ID, None, "why"): "a fine rule"})
    data = agree_json(capsys, corpus, a, b)
    verdicts, points, classes = (data["agreement"][k] for k in ("verdicts", "points", "classes"))
    assert (verdicts["agreed"], verdicts["total"]) == (1, 2)
    assert verdicts["table"] == {"categories": ["PASS", "FAIL"], "counts": [[1, 0], [1, 0]]}
    assert verdicts["kappa"] == {"value": 0.0, "low": None, "high": None, "undefined": None}
    # both captured the one point: kappa and alpha undefined, said; AC1 1 with its interval
    assert points["kappa"]["value"] is None and points["kappa"]["undefined"] == "all answers one value"
    assert points["alpha"]["undefined"] == "all answers one value"
    assert points["ac1"]["value"] == 1.0 and points["ac1"]["undefined"] == "one pair: no interval"
    assert classes["table"]["categories"] == ["point", "optional", "durable-unlabeled", "over-extraction"]
    assert classes["table"]["counts"][3][2] == 1 and classes["table"]["other_point"] == 0
    (fixture,) = data["disagreements"]
    assert (fixture["fixture"], fixture["first"], fixture["second"]) == (
        ADMIT_ID, {"verdict": "FAIL", "why": "one extra"}, {"verdict": "PASS", "why": "a fine rule"})
    assert [(x["level"], x["item"], x["title"], x["first"], x["second"]) for x in fixture["answers"]] == [
        ("verdicts", None, None, "FAIL", "PASS"),
        ("classes", "practice[1]", "Run the linter before committing", "over-extraction", "durable-unlabeled")]
    text = run_cli(capsys, "agree", corpus, a, b)[1]
    assert text.startswith(f"{ADMIT_ID} (admit-convention): alice FAIL, bob PASS\n")
    assert '  proposal practice[1] "Run the linter before committing": alice over-extraction, bob durable-unlabeled' in text
    assert text.rstrip().splitlines()[-1].startswith("Raters agree on fixture verdicts 1/2 (50.0%, ")
    assert "NaN" not in text and "nan" not in json.dumps(data)


def test_disagreements_are_sorted_for_the_meeting(make_corpus, tmp_path, capsys):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": SIDECAR})
    alice = {(ADMIT_ID, None, "task_detail_leak"): "yes", (REJECT_ID, None, "verdict"): "FAIL"}
    _, a, b = two_raters(tmp_path, capsys, corpus, alice=alice)
    found = agree_json(capsys, corpus, a, b)["disagreements"]
    # reject-noise-01's verdicts differ: it comes first, though admit-convention-01 sorts first by id
    assert [(d["fixture"], [x["level"] for x in d["answers"]]) for d in found] == [
        (REJECT_ID, ["verdicts"]), (ADMIT_ID, ["leaks"])]


def test_pairs_are_pooled_and_shown_one_by_one(corpus, tmp_path, capsys):
    _, a, b = two_raters(tmp_path, capsys, corpus)
    (tmp_path / "second").mkdir()
    _, c, d = two_raters(tmp_path / "second", capsys, corpus, bob={(ADMIT_ID, None, "verdict"): "FAIL"})
    data = agree_json(capsys, corpus, a, b, c, d)
    assert (data["agreement"]["verdicts"]["agreed"], data["agreement"]["verdicts"]["total"]) == (3, 4)
    assert [p["agreement"]["verdicts"]["agreed"] for p in data["pairs"]] == [2, 1]
    assert data["disagreements"][0]["pair"] == 2
    markdown = run_cli(capsys, "agree", corpus, a, b, c, d, "--format", "markdown")[1]
    assert "### Per pair" in markdown


# --- agree: refusals, one line each --------------------------------------------------------------

def test_refusals(corpus, tmp_path, capsys):
    run, a, b = two_raters(tmp_path, capsys, corpus)
    # the same rater twice, by rater: or by file name
    code, _, err = run_cli(capsys, "agree", corpus, a, a)
    assert code == 2 and "the same rater 'alice'" in err and err.count("\n") == 2
    # another run
    other = write_results(tmp_path / "other", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    c = sheet(capsys, corpus, other, tmp_path / "carol.yaml", "carol")
    code, _, err = run_cli(capsys, "agree", corpus, a, c)
    assert code == 2 and f"judges another run ({other})" in err
    # the run's outputs changed between the two adjudications
    write_results(run, {REJECT_ID: output([EXTRA])})
    d = sheet(capsys, corpus, run, tmp_path / "dan.yaml", "dan")
    code, _, err = run_cli(capsys, "agree", corpus, a, d)
    assert code == 2 and f"fixture {REJECT_ID}: the result judged here has sha256" in err
    assert "the two raters judged different outputs" in err
    # not in pairs
    code, _, err = run_cli(capsys, "agree", corpus, a)
    assert code == 2 and "give worksheets in pairs" in err


def test_a_fixture_in_one_worksheet_only_unless_allow_partial(corpus, tmp_path, capsys):
    _, a, b = two_raters(tmp_path, capsys, corpus)
    data = parse_yaml(b.read_text(encoding="utf-8"), "b").data
    lines = b.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line == f"  - fixture_id: {REJECT_ID}")
    b.write_text("\n".join(lines[:start]) + "\n", encoding="utf-8")
    assert len(data["fixtures"]) == 2
    code, _, err = run_cli(capsys, "agree", corpus, a, b)
    assert code == 2 and f"fixture {REJECT_ID} is not in {b} (--allow-partial compares the fixtures both judged)" in err
    data = agree_json(capsys, corpus, a, b, "--allow-partial")
    assert data["pairs"][0]["left_out"] == [REJECT_ID] and data["agreement"]["verdicts"]["total"] == 1
    assert any("judged in one worksheet only" in w for w in data["warnings"])
    # in words a person reads: one fixture, not "1 fixture(s)"
    text = run_cli(capsys, "agree", corpus, a, b, "--allow-partial")[1]
    assert f"warning: pair 1: 1 fixture judged in one worksheet only, not compared (--allow-partial): {REJECT_ID}" in text
    assert "; 1 fixture compared; 1 fixture in one worksheet only\n" in text
    markdown = run_cli(capsys, "agree", corpus, a, b, "--allow-partial", "--format", "markdown")[1]
    assert "- pair 1: 1 fixture judged in one worksheet only" in markdown and "(s)" not in markdown


# --- the threshold, its history, --fail-under ----------------------------------------------------

def test_the_threshold_says_pass_or_fail_per_level(make_corpus, tmp_path, capsys):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": SIDECAR, "corpus.yaml": SPEC_TEXT + THRESHOLD})
    _, a, b = two_raters(tmp_path, capsys, corpus, bob={(ADMIT_ID, None, "verdict"): "FAIL"})
    data = agree_json(capsys, corpus, a, b)
    assert data["threshold"] == {"statistic": "ac1", "min": 0.8, "levels": ["verdicts", "points"]}
    assert [(g["level"], g["passed"]) for g in data["gates"]] == [("verdicts", False), ("points", True)]
    last = run_cli(capsys, "agree", corpus, a, b)[1].rstrip().splitlines()[-1]
    assert last.endswith("threshold ac1 >= 0.8 on verdicts, points: fixture verdicts FAIL (ac1 0.20), expected "
                         "points captured PASS (ac1 1.00).")
    # no provenance record: nothing says the threshold was fixed before the second rater started
    assert any(w.startswith("no provenance record") for w in data["warnings"])


def test_a_threshold_changed_after_the_first_worksheet_was_written_is_said(make_corpus, tmp_path, capsys):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": SIDECAR, "corpus.yaml": SPEC_TEXT + THRESHOLD})
    prompt = tmp_path / "authoring.md"
    prompt.write_text("# Author it\n")
    record = ["provenance", "record", corpus, "--authoring-prompt", prompt, "--authored-by", "m", "--reviewed-by", "p"]
    assert run_cli(capsys, *record, "--date", "2026-01-02")[0] == 0
    _, a, b = two_raters(tmp_path, capsys, corpus)
    assert not agree_json(capsys, corpus, a, b)["warnings"]  # fixed before both worksheets
    (corpus / "corpus.yaml").write_text(SPEC_TEXT + THRESHOLD.replace("0.8", "0.6"))
    assert run_cli(capsys, *record, "--date", "2026-01-09")[0] == 0
    warnings = agree_json(capsys, corpus, a, b)["warnings"]
    assert warnings == [f"the agreement threshold changed after the first worksheet compared here was written: ac1 "
                        f">= 0.8 on verdicts, points when {a} was written (the record of 2026-01-02), ac1 >= 0.6 on "
                        "verdicts, points since 2026-01-09"]
    history = parse_yaml((corpus / "authoring" / "provenance.yaml").read_text(), "r").data["history"]
    assert [h["recorded"] for h in history] == ["2026-01-02"] and history[0]["agreement"]["min"] == 0.8


def test_fail_under_gates_like_score(corpus, tmp_path, capsys):
    _, a, b = two_raters(tmp_path, capsys, corpus, bob={(ADMIT_ID, None, "verdict"): "FAIL"})
    code, out, err = run_cli(capsys, "agree", corpus, a, b, "--fail-under", "verdicts=0.8,points.kappa=0.5,leaks=1")
    assert code == 1 and out
    assert err.splitlines() == ["corpustools agree: verdicts ac1 0.2000 is under 0.8",
                                "corpustools agree: points kappa is n/a (all answers one value) and cannot meet 0.5"]
    for bad in ("verdict=0.8", "verdicts.ac2=0.8", "verdicts=2", "verdicts=0.1,verdicts=0.2"):
        assert run_cli(capsys, "agree", corpus, a, b, "--fail-under", bad)[0] == 2


def test_formats_and_the_api(corpus, tmp_path, capsys):
    _, a, b = two_raters(tmp_path, capsys, corpus)
    agreement = api.agree(corpus, [a, b])
    assert api.report_formats(agreement) == tuple(FORMATTERS), FORMAT
    for fmt in api.report_formats(agreement):
        assert api.format_report(agreement, fmt) == run_cli(capsys, "agree", corpus, a, b, "--format", fmt)[1]
    assert agreement.level("verdicts").ac1.value == 1.0
    with pytest.raises(api.CalibrationProblems):
        api.agree(corpus, [a, a])


# --- reconcile -----------------------------------------------------------------------------------

def test_reconcile_keeps_what_both_gave_and_blanks_each_disagreement(corpus, tmp_path, capsys):
    run, a, b = two_raters(tmp_path, capsys, corpus,
                           alice={(ADMIT_ID, "practice[1]", "class"): "over-extraction",
                                  (ADMIT_ID, None, "verdict"): "FAIL", (ADMIT_ID, None, "why"): "an extra rule"},
                           bob={(ADMIT_ID, None, "why"): "fine"})
    before = (a.read_bytes(), b.read_bytes())
    out = tmp_path / "reconciled.yaml"
    code, _, err = run_cli(capsys, "reconcile", a, b, "--out", out)
    assert code == 0 and err.endswith("(6 answers both gave, 2 left blank for a third reading)\n")
    assert (a.read_bytes(), b.read_bytes()) == before
    text = out.read_text(encoding="utf-8")
    assert ("        # alice: over-extraction\n        # bob: durable-unlabeled\n        class:  " in text)
    assert "    # alice: FAIL\n    # bob: PASS\n    verdict:  " in text
    assert "    # alice's why: an extra rule\n    # bob's why: fine\n    why:  " in text
    data = parse_yaml(text, "r").data
    assert data["reconciled"] == ["alice", "bob"] and "rater" not in data
    assert data["fixtures"][0]["proposals"][0]["class"] == "durable-unlabeled"  # both gave it
    # an input is never written over; calibrate refuses the blanks, then takes it once filled
    assert run_cli(capsys, "reconcile", a, b, "--out", a)[0] == 2 and a.read_bytes() == before[0]
    code, _, err = run_cli(capsys, "calibrate", corpus, run, "--verdicts", out)
    assert code == 2 and "class is blank" in err
    out.write_text(fill_all(text, verdict="FAIL", **{"class": "over-extraction"}), encoding="utf-8")
    code, report, err = run_cli(capsys, "calibrate", corpus, run, "--verdicts", out)
    assert code == 0, err
    assert f"judged in {out} (a reconciled pair's: alice and bob)" in report


def test_reconcile_refuses_worksheets_of_other_outputs(corpus, tmp_path, capsys):
    _, a, _ = two_raters(tmp_path, capsys, corpus)
    other = write_results(tmp_path / "other", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    c = sheet(capsys, corpus, other, tmp_path / "carol.yaml", "carol")
    code, _, err = run_cli(capsys, "reconcile", a, c, "--out", tmp_path / "r.yaml")
    assert code == 2 and "judges another run" in err and not (tmp_path / "r.yaml").exists()


def test_reconcile_s_refusals_name_reconcile_and_no_option_it_lacks(corpus, tmp_path, capsys):
    # pair checks are agree's; their advice must fit reconcile, which has no --allow-partial
    _, a, b = two_raters(tmp_path, capsys, corpus)
    code, _, err = run_cli(capsys, "reconcile", a, a, "--out", tmp_path / "r.yaml")
    assert code == 2 and "reconcile merges two raters' worksheets" in err and "agree" not in err
    lines = b.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line == f"  - fixture_id: {REJECT_ID}")
    b.write_text("\n".join(lines[:start]) + "\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "reconcile", a, b, "--out", tmp_path / "r.yaml")
    assert code == 2 and f"fixture {REJECT_ID} is not in {b} (reconcile needs both raters' answers on every " \
        "fixture)" in err and "--allow-partial" not in err
    assert not (tmp_path / "r.yaml").exists()


# --- held out, by hashes -------------------------------------------------------------------------

def init_run(capsys, corpus, folder, prompt, outputs):
    assert run_cli(capsys, "run", "init", folder, "--corpus", corpus, "--prompt", prompt, "--model", "m")[0] == 0
    return write_results(folder, outputs)


def test_freeze_then_calibrate_says_held_out_or_revision_set(corpus, tmp_path, capsys):
    prompt = tmp_path / "prompt.md"
    prompt.write_text("Extract.\n\n{{TRANSCRIPT}}\n")
    author = tmp_path / "authoring.md"
    author.write_text("# Author it\n")
    assert run_cli(capsys, "provenance", "record", corpus, "--authoring-prompt", author, "--authored-by", "m",
                   "--reviewed-by", "p", "--date", "2026-01-02")[0] == 0
    old = init_run(capsys, corpus, tmp_path / "old", prompt, {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    (corpus / "judging").mkdir()  # a worksheet under the corpus: the freeze finds it
    old_sheet = sheet(capsys, corpus, old, corpus / "judging" / "old.yaml", "alice")
    code, _, err = run_cli(capsys, "provenance", "freeze", corpus, "--date", "2026-01-03")
    assert code == 0 and "2 outputs judged in 1 worksheet before the freeze" in err
    new = init_run(capsys, corpus, tmp_path / "new", prompt, {ADMIT_ID: output([EXTRA]), REJECT_ID: output([EXTRA])})
    new_sheet = sheet(capsys, corpus, new, tmp_path / "new.yaml", "alice", verdict="FAIL")
    # a copy of a judged output is not unseen: the hashes say so, whatever the folder or date
    copy = init_run(capsys, corpus, tmp_path / "copy", prompt, {})
    shutil.copy(old / f"{ADMIT_ID}.json", copy / f"{ADMIT_ID}.json")
    shutil.copy(new / f"{REJECT_ID}.json", copy / f"{REJECT_ID}.json")
    copy_sheet = sheet(capsys, corpus, copy, tmp_path / "copy.yaml", "alice")
    code, out, err = run_cli(capsys, "calibrate", corpus, old, "--verdicts", old_sheet, new, "--verdicts", new_sheet,
                             copy, "--verdicts", copy_sheet, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert validate("calibration-report", data) == []
    assert [(r["held_out"], r["revision_why"]) for r in data["runs"]] == [
        (False, "2 of its outputs judged before the freeze"), (True, None),
        (False, "1 of its outputs judged before the freeze")]
    assert data["headline"]["held_out_only"] is True and data["headline"]["agreement"]["fixture"]["total"] == 2
    text = run_cli(capsys, "calibrate", corpus, old, "--verdicts", old_sheet, new, "--verdicts", new_sheet)[1]
    assert "; held-out\n" in text and "; revision set: 2 of its outputs judged before the freeze\n" in text
    assert text.rstrip().endswith("; held-out runs: 1 of 2 (the headline is theirs).")
    assert text.rstrip().splitlines()[-1].startswith("Fixture verdicts agree on 2/2")
    # revised labels: no run is held out any more
    (corpus / "expected" / f"{REJECT_ID}.yaml").write_text(
        (corpus / "expected" / f"{REJECT_ID}.yaml").read_text() + "# revised\n")
    data = json.loads(run_cli(capsys, "calibrate", corpus, new, "--verdicts", new_sheet, "--format", "json")[1])
    assert [(r["held_out"], r["revision_why"]) for r in data["runs"]] == [(False, "the labels changed since the freeze")]
    # and a freeze refuses labels changed since the record
    code, _, err = run_cli(capsys, "provenance", "freeze", corpus)
    assert code == 2 and "review the labels and record provenance again, then freeze" in err


def test_freeze_refuses_a_worksheets_path_it_cannot_read(corpus, tmp_path, capsys):
    # a mistyped --worksheets would freeze without the outputs judged there, and later call a run
    # that informed the labels held-out: a path that is not there, or a file that is no worksheet
    # of this corpus, is refused and nothing is written
    author = tmp_path / "authoring.md"
    author.write_text("# Author it\n")
    assert run_cli(capsys, "provenance", "record", corpus, "--authoring-prompt", author, "--authored-by", "m",
                   "--reviewed-by", "p", "--date", "2026-01-02")[0] == 0
    record = corpus / "authoring" / "provenance.yaml"
    before = record.read_bytes()
    not_a_sheet = tmp_path / "notes.yaml"
    not_a_sheet.write_text("notes: nothing judged here\n")
    for given, said in ((tmp_path / "judging", "no such file or folder"),
                        (not_a_sheet, "is not an adjudication worksheet of the corpus")):
        code, out, err = run_cli(capsys, "provenance", "freeze", corpus, "--worksheets", given)
        assert (code, out) == (2, ""), err
        assert err.startswith(f"corpustools provenance: {given}: {said}") and len(err.splitlines()) == 1, err
        assert record.read_bytes() == before


def test_without_a_freeze_calibrate_says_nothing_of_it(corpus, tmp_path, capsys):
    run, a, _ = two_raters(tmp_path, capsys, corpus)
    data = json.loads(run_cli(capsys, "calibrate", corpus, run, "--verdicts", a, "--format", "json")[1])
    assert data["runs"][0]["held_out"] is None and data["headline"]["held_out_only"] is False
    assert "held" not in run_cli(capsys, "calibrate", corpus, run, "--verdicts", a)[1]


# --- end to end ----------------------------------------------------------------------------------

def test_item_fields_named_name_type_and_class_round_trip_through_every_command(tmp_path, capsys):
    corpus, run = write_meds(tmp_path / "meds"), write_meds_run(tmp_path / "run")
    answers = {(BILLING, "fact[0]", "class"): "point:refund-delay"}
    paths = {}
    for rater, verdict in (("alice", "PASS"), ("bob", "FAIL")):
        path = paths[rater] = tmp_path / f"{rater}.yaml"
        assert run_cli(capsys, "adjudicate", corpus, run, "--rater", rater, "--out", path)[0] == 0
        path.write_text(fill_all(path.read_text(encoding="utf-8"), {**answers, (BILLING, None, "verdict"): verdict}),
                        encoding="utf-8")
    assert parse_yaml(paths["alice"].read_text(), "a").data["fixtures"][0]["proposals"][0]["fields"] == FACT
    data = agree_json(capsys, corpus, paths["alice"], paths["bob"])
    assert data["disagreements"][0]["fixture"] == BILLING
    assert (data["agreement"]["classes"]["agreed"], data["agreement"]["classes"]["total"]) == (1, 1)
    reconciled = tmp_path / "reconciled.yaml"
    assert run_cli(capsys, "reconcile", paths["alice"], paths["bob"], "--out", reconciled)[0] == 0
    text = reconciled.read_text(encoding="utf-8")
    assert parse_yaml(text, "r").data["fixtures"][0]["proposals"][0]["fields"] == FACT
    reconciled.write_text(fill_all(text, verdict="PASS"), encoding="utf-8")
    code, out, err = run_cli(capsys, "calibrate", corpus, run, "--verdicts", reconciled)
    assert code == 0, err
    assert "(a reconciled pair's: alice and bob)" in out and "Fixture verdicts agree on 2/2" in out
    assert OUTAGE in text


def test_on_the_shipped_corpus_a_v1_worksheet_and_a_second_rater(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    first = "fixtures/prompt-eval/calibration/held-out-corpus-v5/v5-run8.yaml"
    bob = second_rater(ROOT / first, tmp_path / "bob.yaml")
    data = agree_json(capsys, "fixtures/prompt-eval", first, bob)
    assert data["raters"] == ["v5-run8", "bob"]  # a version-1 worksheet without rater: its file's name
    assert (data["agreement"]["verdicts"]["agreed"], data["agreement"]["verdicts"]["total"]) == (22, 24)
    reconciled = tmp_path / "reconciled.yaml"
    assert run_cli(capsys, "reconcile", first, bob, "--out", reconciled)[0] == 0
    assert parse_yaml(reconciled.read_text(encoding="utf-8"), "r").data["worksheet_version"] == 2
    reconciled.write_text(fill_all(reconciled.read_text(encoding="utf-8"), verdict="FAIL", captured="yes",
                                   **{"class": "over-extraction"}), encoding="utf-8")
    code, out, err = run_cli(capsys, "calibrate", "fixtures/prompt-eval", "fixtures/prompt-eval/runs/v5-run8",
                             "--verdicts", reconciled)
    assert code == 0, err
    assert "a reconciled pair's: v5-run8 and bob" in out
