"""`corpustools calibrate`: agreement statistics, every disagreement cause, worksheet problems, and
the RUN --verdicts FILE command line."""

from __future__ import annotations

import json

import pytest

from corpustools.calibrate.agreement import Table, cohen_kappa, table_of
from corpustools.commands.calibrate import PairsError, split_pairs
from corpustools.io.schemastore import validate
from corpustools.score.stats import wilson
from tests.support.calibrate import fill, fill_all
from tests.support.corpus import ADMIT_ID, REJECT_ID, sidecar_text
from tests.support.score import EMPTY, GOOD_ADMIT, output, points_yaml, proposal, run_cli, write_results

POINT = "expire-via-queue"
SIDECAR = sidecar_text(points=points_yaml(("expire-via-queue", "practice", ["queue worker", "expired signups"],
                                           ["signup table"])),
                       optional=points_yaml(("newsletter-module", "map", ["newsletter module"])))
EXTRA = proposal("Run the linter before committing", "Always run the linter.")
UNLABELED_MAP = proposal("Mailing vendor client", "The vendor client lives in src/Vendor.", type="map")


@pytest.fixture
def corpus(make_corpus):
    return make_corpus({f"expected/{ADMIT_ID}.yaml": SIDECAR})


def judged(tmp_path, capsys, corpus, name, admit, answers=None, **default):
    """A run folder holding `admit` (and an empty reject output) and its filled worksheet."""
    run = write_results(tmp_path / name, {ADMIT_ID: admit, REJECT_ID: EMPTY})
    sheet = tmp_path / f"{name}.yaml"
    assert run_cli(capsys, "adjudicate", corpus, run, "--out", sheet)[0] == 0
    answers = {(ADMIT_ID, "newsletter-module", "captured"): "no", **(answers or {})}
    sheet.write_text(fill_all(sheet.read_text(encoding="utf-8"), answers, **default), encoding="utf-8")
    return run, sheet


def calibrate_json(capsys, corpus, *pairs):
    argv = ["calibrate", corpus]
    for run, sheet in pairs:
        argv += [run, "--verdicts", sheet]
    code, out, err = run_cli(capsys, *argv, "--format", "json")
    assert (code, err) == (0, ""), err
    data = json.loads(out)
    assert validate("calibration-report", data) == []
    return data


def disagreements(data, run=0, fixture=ADMIT_ID):
    entry = next(f for f in data["runs"][run]["fixtures"] if f["id"] == fixture)
    return [(d["cause"], d["levels"], d["point"], d["proposal"]) for d in entry["disagreements"]]


# --- statistics --------------------------------------------------------------------------------

def test_kappa_known_values():
    assert cohen_kappa(20, 5, 10, 15) == pytest.approx(0.4)
    assert cohen_kappa(10, 0, 0, 10) == 1.0
    assert cohen_kappa(0, 10, 10, 0) == -1.0
    assert cohen_kappa(10, 0, 0, 0) is None and cohen_kappa(0, 0, 0, 7) is None  # one category: undefined
    assert cohen_kappa(0, 0, 0, 0) is None
    assert cohen_kappa(45, 15, 25, 15) == pytest.approx(0.1304, abs=1e-4)  # the textbook example


def test_agreement_tables_and_wilson_intervals():
    t = table_of([(True, True)] * 20 + [(True, False)] * 5 + [(False, True)] * 10 + [(False, False)] * 15)
    assert (t.both_yes, t.scorer_only, t.human_only, t.both_no) == (20, 5, 10, 15)
    assert (t.agreement.successes, t.agreement.total) == (35, 50) and t.kappa == pytest.approx(0.4)
    low, high = t.agreement.interval
    assert (round(low, 4), round(high, 4)) == (0.5625, 0.8090)
    assert wilson(17, 20) == pytest.approx((0.6396, 0.9476), abs=1e-4)
    assert (Table(1, 0, 0, 0) + Table(0, 1, 2, 3)) == Table(1, 1, 2, 3)


# --- causes ------------------------------------------------------------------------------------

def test_every_cause_from_hand_made_runs(corpus, tmp_path, capsys):
    rephrased = proposal("Expired signups are removed by the background job queue", "Never delete them inline.")
    leaky = proposal("Expired signups go through the queue worker", "The signup table is never touched directly.")
    cases = {
        # the human saw the point in a wording the terms miss
        "brittle": (output([rephrased]), {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}"}),
        # the terms fit a proposal the human rejects
        "loose": (GOOD_ADMIT, {(ADMIT_ID, POINT, "captured"): "no",
                               (ADMIT_ID, "practice[0]", "class"): "over-extraction",
                               (ADMIT_ID, None, "verdict"): "FAIL"}),
        # a legitimate map the labels lack
        "narrow": (output(GOOD_ADMIT["practice"], [UNLABELED_MAP]),
                   {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}"}),
        # a leak no forbidden term catches, and a forbidden term where the human sees no leak
        "missing-forbidden": (GOOD_ADMIT, {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}",
                                           (ADMIT_ID, None, "task_detail_leak"): "yes",
                                           (ADMIT_ID, None, "why"): "names issue 412"}),
        "over-forbidden": (output([leaky]), {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}"}),
        # the classes agree (one over-extraction), the budget is 0, the human still passes it
        "budget": (output(GOOD_ADMIT["practice"] + [EXTRA]), {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}",
                                                              (ADMIT_ID, "practice[1]", "class"): "over-extraction"}),
        # everything agrees but the verdict
        "unexplained": (GOOD_ADMIT, {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}",
                                     (ADMIT_ID, None, "verdict"): "FAIL", (ADMIT_ID, None, "why"): "too vague"}),
    }
    pairs = [judged(tmp_path, capsys, corpus, name, admit, answers) for name, (admit, answers) in cases.items()]
    data = calibrate_json(capsys, corpus, *pairs)
    found = {name: disagreements(data, i) for i, name in enumerate(cases)}
    assert found == {
        "brittle": [("brittle-term", ["point", "proposal"], POINT, "practice[0]")],
        "loose": [("loose-term", ["point", "proposal"], POINT, "practice[0]")],
        "narrow": [("label-too-narrow", ["proposal"], None, "map[0]")],
        "missing-forbidden": [("missing-forbidden", ["leak"], None, None)],
        "over-forbidden": [("over-forbidden", ["leak"], POINT, None)],
        "budget": [("budget", ["fixture"], None, None)],
        "unexplained": [("unexplained", ["fixture"], None, None)],
    }
    details = {name: data["runs"][i]["fixtures"][0]["disagreements"][0]["detail"] for i, name in enumerate(cases)}
    assert details["brittle"] == "terms absent from practice[0]: 'queue worker'"
    assert details["missing-forbidden"].endswith("(why: names issue 412)")
    assert details["over-forbidden"] == f"must_not_match 'signup table' of {POINT} fired; the human saw no leak"
    assert details["budget"].startswith("the human classed 1 proposal(s) over-extraction against "
                                        "max_unexpected_proposals 0 and still said PASS")
    assert details["unexplained"] == "scorer PASS (no reasons), human FAIL; why: too vague"
    assert [c["count"] for c in data["causes"]] == [1, 1, 1, 1, 1, 1, 1]
    # the reject fixture agrees everywhere in every run
    assert all(disagreements(data, i, REJECT_ID) == [] for i in range(len(cases)))


def test_brittle_term_names_the_closest_proposal_when_the_human_named_none(corpus, tmp_path, capsys):
    near = proposal("The queue worker handles expiry", "Signups that expire are queued.")
    far = proposal("Unrelated", "Nothing here.")
    pair = judged(tmp_path, capsys, corpus, "r", output([far, near]), {(ADMIT_ID, "practice[0]", "class"): "over-extraction",
                                                                     (ADMIT_ID, "practice[1]", "class"): "durable-unlabeled"})
    data = calibrate_json(capsys, corpus, pair)
    (first, second) = data["runs"][0]["fixtures"][0]["disagreements"]
    assert (first["cause"], first["proposal"], first["detail"]) == (
        "brittle-term", "practice[1]", "terms absent from practice[1]: 'expired signups'; practice[1] says "
        "'expiry signups': write the entry as [expired signups, expiry signups]")
    assert (second["cause"], second["proposal"]) == ("label-too-narrow", "practice[1]")


def test_agreement_levels_and_optional_points_count_apart(corpus, tmp_path, capsys):
    admit = output(GOOD_ADMIT["practice"], [proposal("The newsletter module", "It owns signups.", type="map")])
    pair = judged(tmp_path, capsys, corpus, "r", admit, {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}",
                                                        (ADMIT_ID, "map[0]", "class"): "optional:newsletter-module",
                                                        (ADMIT_ID, "newsletter-module", "captured"): "yes"})
    data = calibrate_json(capsys, corpus, pair)
    agreement = data["agreement"]
    assert (agreement["fixture"]["agreed"], agreement["fixture"]["total"]) == (2, 2)
    assert (agreement["point"]["agreed"], agreement["point"]["total"]) == (1, 1)  # optional not in the point level
    assert agreement["optional"]["table"] == {"scorer_yes_human_yes": 1, "scorer_yes_human_no": 0,
                                              "scorer_no_human_yes": 0, "scorer_no_human_no": 0}
    assert (agreement["proposal"]["agreed"], agreement["proposal"]["total"]) == (2, 2)
    assert agreement["fixture"]["kappa"] is None  # every verdict PASS on both sides: undefined
    assert data["runs"][0]["agreement"] == agreement and disagreements(data) == []
    markdown = run_cli(capsys, "calibrate", corpus, pair[0], "--verdicts", pair[1], "--format", "markdown")[1]
    assert "**Fixture verdicts agree on 2/2** (100.0%, 95% CI 34.2%–100.0%; kappa n/a)" in markdown
    assert "| optional points (secondary) | matched | captured | 1/1 |" in markdown
    assert "None: the scorer and the judge agree on every fixture, point and proposal." in markdown


# --- the round trip, formats and determinism --------------------------------------------------

def test_round_trip_reports_in_every_format_deterministically(corpus, tmp_path, capsys):
    pair = judged(tmp_path, capsys, corpus, "r", output(GOOD_ADMIT["practice"], [UNLABELED_MAP]),
                  {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}"})
    argv = ["calibrate", corpus, pair[0], "--verdicts", pair[1]]
    first = {fmt: run_cli(capsys, *argv, "--format", fmt) for fmt in ("markdown", "json", "text")}
    assert all(code == 0 and err == "" for code, _, err in first.values())
    assert {fmt: run_cli(capsys, *argv, "--format", fmt) for fmt in first} == first
    markdown, text = first["markdown"][1], first["text"][1]
    assert markdown.startswith("# corpustools calibrate: tiny v1\n")
    assert "- `label-too-narrow` [proposal] proposal map[0] \"Mailing vendor client\": a phantom to the scorer; the " \
           "human classed it durable-unlabeled" in markdown
    assert "| `label-too-narrow` | 1 |" in markdown
    # the terminal's: the disagreement first, the verdict line last
    assert text.startswith(f"{ADMIT_ID} (admit-convention): scorer FAIL, human PASS\n"
                           '  label-too-narrow [proposal] proposal map[0] "Mailing vendor client": a phantom to the scorer')
    assert text.splitlines()[-1].startswith("Fixture verdicts agree on 1/2 (50.0%, 95% CI 9.5%–90.5%; kappa")
    assert json.loads(first["json"][1])["runs"][0]["fixtures"][0]["disagreements"][0]["proposal_title"] == (
        "Mailing vendor client")
    out = tmp_path / "report.md"
    assert run_cli(capsys, *argv, "--format", "markdown", "--output", out) == (0, "", f"wrote {out}\n")
    assert out.read_text(encoding="utf-8") == markdown
    code, _, err = run_cli(capsys, *argv, "--output", corpus / "expected" / "r.md")
    assert code == 2 and "never writes there" in err


def test_the_command_line_pairs_runs_with_worksheets_in_order():
    assert split_pairs(["r1", "--verdicts", "a.yaml", "r2", "--verdicts=b.yaml", "--format", "json"]) == (
        [("r1", "a.yaml"), ("r2", "b.yaml")], ["--format", "json"])
    for bad, message in ((["r1"], "run r1 needs --verdicts FILE right after it"),
                         (["r1", "--verdicts"], "run r1 needs --verdicts FILE"),
                         (["--verdicts", "a.yaml"], "--verdicts must follow a RUN folder"),
                         ([], "give at least one RUN --verdicts FILE"),
                         (["r1", "r2", "--verdicts", "a"], "run r1 needs --verdicts FILE")):
        with pytest.raises(PairsError, match=message):
            split_pairs(bad)


def test_usage_errors_exit_2_with_one_line_and_the_usage(corpus, tmp_path, capsys):
    code, out, err = run_cli(capsys, "calibrate", corpus, tmp_path / "r1")
    assert (code, out) == (2, "") and err.startswith(f"corpustools calibrate: error: run {tmp_path / 'r1'} needs")
    assert "usage: corpustools calibrate" in err
    code, _, err = run_cli(capsys, "calibrate", corpus, "r", "--verdicts", "w", "--format", "xml")
    assert code == 2 and "invalid choice: 'xml'" in err
    code, out, _ = run_cli(capsys, "calibrate", "--help")
    assert code == 0 and "CORPUS RUN --verdicts FILE [RUN --verdicts FILE ...]" in out


# --- bad worksheets ----------------------------------------------------------------------------

def _errors(capsys, corpus, run, sheet):
    code, out, err = run_cli(capsys, "calibrate", corpus, run, "--verdicts", sheet)
    assert (code, out) == (2, "")
    return err.splitlines()


def _line_of(text: str, start: str, nth: int = 0) -> int:
    """The line number of the nth line that starts (after indentation) with `start`."""
    return [i for i, line in enumerate(text.split("\n"), 1) if line.lstrip().startswith(start)][nth]


def test_half_filled_worksheet_lists_every_blank_with_file_and_line(corpus, tmp_path, capsys):
    run = write_results(tmp_path / "r", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    sheet = tmp_path / "r.yaml"
    assert run_cli(capsys, "adjudicate", corpus, run, "--out", sheet)[0] == 0
    text = fill(sheet.read_text(encoding="utf-8"), {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}"},
                {"task_detail_leak": "no", "verdict": "PASS"})
    sheet.write_text(text, encoding="utf-8")
    lines = _errors(capsys, corpus, run, sheet)
    assert lines == [
        f"corpustools calibrate: {sheet}:{_line_of(text, 'captured:')}:9: fixture {ADMIT_ID}, point {POINT}: "
        "captured is blank (yes|no)",
        f"corpustools calibrate: {sheet}:{_line_of(text, 'captured:', 1)}:9: fixture {ADMIT_ID}, point "
        "newsletter-module: captured is blank (yes|no)",
        "corpustools calibrate: 2 problem(s); nothing compared"]


def test_malformed_and_inconsistent_worksheets(corpus, tmp_path, capsys):
    run, sheet = judged(tmp_path, capsys, corpus, "r", GOOD_ADMIT)
    good = sheet.read_text(encoding="utf-8")
    sheet.write_text(good.replace("verdict: \"PASS\"", "verdict: [PASS", 1), encoding="utf-8")
    (line, last) = _errors(capsys, corpus, run, sheet)
    assert line.startswith(f"corpustools calibrate: {sheet}:") and "YAML error" in line
    sheet.write_text(good.replace("verdict: \"PASS\"", "verdict: pass", 1).replace("class: \"durable-unlabeled\"",
                                                                                  "class: point:nope"), encoding="utf-8")
    lines = _errors(capsys, corpus, run, sheet)
    assert lines[0] == (f"corpustools calibrate: {sheet}:{_line_of(good, 'verdict:')}:5: /fixtures/0/verdict: "
                        "'pass' is not one of ['PASS', 'FAIL']")
    sheet.write_text(good.replace("class: \"durable-unlabeled\"", "class: point:nope"), encoding="utf-8")
    (line, _) = _errors(capsys, corpus, run, sheet)
    assert line == (f"corpustools calibrate: {sheet}:{_line_of(good, 'class:')}:9: fixture {ADMIT_ID}, proposal "
                    f"practice[0]: class point:nope names no expected point of this fixture (expected points: {POINT})")
    sheet.write_text("just: notes\n", encoding="utf-8")
    (line, _) = _errors(capsys, corpus, run, sheet)
    assert line.startswith(f"corpustools calibrate: {sheet}:1:1: not an adjudication worksheet")
    (line, _) = _errors(capsys, corpus, run, tmp_path / "gone.yaml")
    assert line.startswith(f"corpustools calibrate: {tmp_path / 'gone.yaml'}") and "no such file" in line


def test_a_worksheet_of_other_outputs_or_missing_a_fixture_is_refused(corpus, tmp_path, capsys):
    run, sheet = judged(tmp_path, capsys, corpus, "r", GOOD_ADMIT)
    text = sheet.read_text(encoding="utf-8")
    write_results(run, {ADMIT_ID: output(GOOD_ADMIT["practice"] + [EXTRA])})
    (line, _) = _errors(capsys, corpus, run, sheet)
    assert line.startswith(f"corpustools calibrate: {sheet}:{_line_of(text, f'- fixture_id: {ADMIT_ID}')}:5: fixture {ADMIT_ID}: the "
                           "worksheet judged a result with sha256 ")
    assert line.endswith(": this worksheet belongs to other outputs")
    run2, sheet2 = judged(tmp_path, capsys, corpus, "r2", GOOD_ADMIT)
    only_admit = sheet2.read_text(encoding="utf-8").split(f"  - fixture_id: {REJECT_ID}")[0]
    sheet2.write_text(only_admit, encoding="utf-8")
    (line, _) = _errors(capsys, corpus, run2, sheet2)
    assert line == (f"corpustools calibrate: {sheet2}: fixture {REJECT_ID} is not in the worksheet; write a worksheet "
                    "for this corpus and run with corpustools adjudicate")


def test_problems_are_capped(corpus, tmp_path, capsys):
    many = output([proposal(f"Rule {i}", "Body.") for i in range(60)])
    run = write_results(tmp_path / "r", {ADMIT_ID: many, REJECT_ID: EMPTY})
    sheet = tmp_path / "r.yaml"
    assert run_cli(capsys, "adjudicate", corpus, run, "--out", sheet)[0] == 0
    lines = _errors(capsys, corpus, run, sheet)
    assert len(lines) == 52 and lines[-2] == "corpustools calibrate: and 16 more problems"
    assert lines[-1] == "corpustools calibrate: 66 problem(s); nothing compared"


def test_labels_changed_since_adjudication_are_warnings(make_corpus, tmp_path, capsys):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": SIDECAR})
    pair = judged(tmp_path, capsys, corpus, "r", GOOD_ADMIT, {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}"})
    renamed = SIDECAR.replace("newsletter-module", "newsletter-map")
    (corpus / "expected" / f"{ADMIT_ID}.yaml").write_text(renamed, encoding="utf-8")
    data = calibrate_json(capsys, corpus, pair)
    warnings = data["runs"][0]["warnings"]
    assert any("point newsletter-map is not in the worksheet (added since adjudication?)" in w for w in warnings)
    assert any("the worksheet's point newsletter-module is no longer in the sidecar" in w for w in warnings)


@pytest.mark.parametrize("kind", ["adjudication", "calibration-report"])
def test_the_schemas_are_published(kind, capsys):
    from jsonschema import Draft202012Validator

    code, out, _ = run_cli(capsys, "schema", kind)
    assert code == 0 and json.loads(out)["$id"] == f"corpustools:{kind}"
    Draft202012Validator.check_schema(json.loads(out))


def test_an_edited_worksheet_whose_proposals_or_points_do_not_line_up_is_refused(corpus, tmp_path, capsys):
    run, sheet = judged(tmp_path, capsys, corpus, "r", output(GOOD_ADMIT["practice"], [UNLABELED_MAP]))
    text = sheet.read_text(encoding="utf-8")
    renamed = text.replace("- name: map[0]", "- name: map[7]")
    sheet.write_text(renamed, encoding="utf-8")
    fixture_line = _line_of(text, f"- fixture_id: {ADMIT_ID}")
    assert _errors(capsys, corpus, run, sheet)[:2] == [
        f"corpustools calibrate: {sheet}:{fixture_line}:5: fixture {ADMIT_ID}: proposal map[0] is missing from the "
        "worksheet",
        f"corpustools calibrate: {sheet}:{fixture_line}:5: fixture {ADMIT_ID}: the worksheet's proposal map[7] is not "
        "in the result"]
    sheet.write_text(text.replace("- name: map[0]", "- name: practice[0]"), encoding="utf-8")
    assert _errors(capsys, corpus, run, sheet)[0] == (
        f"corpustools calibrate: {sheet}:{_line_of(text, '- name: map[0]')}:9: fixture {ADMIT_ID}: proposal "
        "practice[0] is listed twice")


def test_a_brittle_term_on_a_proposal_of_the_other_type_says_so(corpus, tmp_path, capsys):
    as_map = proposal("Expired signups go through the queue worker", "Never delete them.", type="map")
    pair = judged(tmp_path, capsys, corpus, "r", output(map=[as_map]), {(ADMIT_ID, "map[0]", "class"): f"point:{POINT}"})
    (entry,) = calibrate_json(capsys, corpus, pair)["runs"][0]["fixtures"][0]["disagreements"]
    assert (entry["cause"], entry["levels"], entry["detail"]) == (
        "brittle-term", ["point", "proposal"], "map[0] is a map and the point a practice; every term is present")


def test_fixtures_a_judge_cannot_judge_point_by_point_are_left_out_with_a_warning(make_corpus, tmp_path, capsys):
    twice = points_yaml(("same", "practice", ["queue worker", "expired signups"]))
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": sidecar_text(points=twice, optional=twice)})
    run = write_results(tmp_path / "r", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    sheet = tmp_path / "r.yaml"
    code, out, err = run_cli(capsys, "adjudicate", corpus, run, "--out", sheet)
    path = corpus / "expected" / f"{ADMIT_ID}.yaml"
    assert (code, out) == (0, "")
    assert err == (f"corpustools adjudicate: warning: {path}: two points have the id same (lint CT609); fixture "
                   f"left out of the worksheet\nwrote {sheet} (1 fixture, 0 proposals to judge)\n")
    sheet.write_text(fill_all(sheet.read_text(encoding="utf-8")), encoding="utf-8")
    data = calibrate_json(capsys, corpus, (run, sheet))
    assert [f["id"] for f in data["runs"][0]["fixtures"]] == [REJECT_ID]
    assert data["runs"][0]["warnings"] == [f"{path}: two points have the id same (lint CT609); fixture not compared"]


def test_the_same_run_given_twice_is_counted_twice_with_a_warning(corpus, tmp_path, capsys):
    run, sheet = judged(tmp_path, capsys, corpus, "r", GOOD_ADMIT, {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}"})
    data = calibrate_json(capsys, corpus, (run, sheet), (run, sheet))
    assert data["agreement"]["fixture"]["total"] == 4
    assert data["runs"][0]["warnings"] == []
    assert data["runs"][1]["warnings"] == [f"{run} and {run} have byte-identical result files: one run counted twice "
                                           "in the pooled agreement"]


def test_report_options_may_come_before_between_or_after_the_pairs(corpus, tmp_path, capsys):
    run, sheet = judged(tmp_path, capsys, corpus, "r", GOOD_ADMIT, {(ADMIT_ID, "practice[0]", "class"): f"point:{POINT}"})
    expected = run_cli(capsys, "calibrate", corpus, run, "--verdicts", sheet, "--format", "text")
    assert expected[0] == 0 and expected[1].startswith("corpus: tiny, version 1 (")
    for argv in (("--format", "text", corpus, run, "--verdicts", sheet),
                 (corpus, "--format", "text", run, "--verdicts", sheet),
                 (corpus, run, f"--verdicts={sheet}", "--format=text")):
        assert run_cli(capsys, "calibrate", *argv) == expected


def test_a_report_is_never_written_over_its_own_inputs(corpus, tmp_path, capsys):
    # `--output` naming the judge's worksheet or a result file would destroy hours of work.
    run, sheet = judged(tmp_path, capsys, corpus, "mine", GOOD_ADMIT)
    before = sheet.read_bytes(), (run / f"{ADMIT_ID}.json").read_bytes()
    for target in (sheet, run / f"{ADMIT_ID}.json"):
        code, out, err = run_cli(capsys, "calibrate", corpus, run, "--verdicts", sheet, "--output", target)
        assert (code, out) == (2, "") and "is one of this command's own inputs; not overwritten" in err
    code, out, err = run_cli(capsys, "score", corpus, run, "--output", run / f"{ADMIT_ID}.json")
    assert code == 2 and "own inputs" in err
    code, out, err = run_cli(capsys, "score", corpus, run, "--output", tmp_path / "h.md",
                             "--append-history", tmp_path / "h.md")
    assert code == 2 and not (tmp_path / "h.md").exists()
    assert (sheet.read_bytes(), (run / f"{ADMIT_ID}.json").read_bytes()) == before


def test_problems_are_listed_in_file_order(corpus, tmp_path, capsys):
    run = write_results(tmp_path / "o", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    sheet = tmp_path / "o.yaml"
    assert run_cli(capsys, "adjudicate", corpus, run, "--out", sheet)[0] == 0
    lines = _errors(capsys, corpus, run, sheet)[:-1]
    numbers = [int(line.split(f"{sheet}:", 1)[1].split(":", 1)[0]) for line in lines]
    assert len(numbers) > 3 and numbers == sorted(numbers)


def test_a_worksheet_that_shows_the_terms_cannot_claim_to_be_blind(corpus, tmp_path, capsys):
    # The blindness flag is what tells a reader whether the agreement means anything.
    run = write_results(tmp_path / "t", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    sheet = tmp_path / "t.yaml"
    assert run_cli(capsys, "adjudicate", corpus, run, "--out", sheet, "--show-terms")[0] == 0
    text = fill_all(sheet.read_text(encoding="utf-8"), {(ADMIT_ID, "newsletter-module", "captured"): "no"})
    sheet.write_text(text.replace("shows_terms: true", "shows_terms: false"), encoding="utf-8")
    lines = _errors(capsys, corpus, run, sheet)
    assert any("the worksheet shows must_match_all but says shows_terms: false" in line for line in lines), lines
    sheet.write_text(text, encoding="utf-8")
    assert run_cli(capsys, "calibrate", corpus, run, "--verdicts", sheet)[0] == 0


def test_verdicts_from_standard_input(corpus, tmp_path, capsys, monkeypatch):
    import io
    import types

    run, sheet = judged(tmp_path, capsys, corpus, "r", GOOD_ADMIT)
    good = sheet.read_bytes()
    from_file = calibrate_json(capsys, corpus, (run, sheet))
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(good)))
    assert calibrate_json(capsys, corpus, (run, "-"))["runs"][0]["fixtures"] == from_file["runs"][0]["fixtures"]
    blank = good.decode().replace('verdict: "PASS"', "verdict:", 1)
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(blank.encode())))
    lines = _errors(capsys, corpus, run, "-")
    assert lines[0] == (f"corpustools calibrate: <stdin>:{_line_of(blank, 'verdict:')}:5: fixture {ADMIT_ID}: "
                        "verdict is blank (PASS|FAIL)")
    code, _, err = run_cli(capsys, "calibrate", corpus, run, "--verdicts", "-", run, "--verdicts", "-")
    assert code == 2 and "--verdicts - (standard input) may be given once" in err
