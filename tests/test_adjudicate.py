"""`corpustools adjudicate`: the blind worksheet, its round trip, and never losing a judge's answers."""

from __future__ import annotations

import hashlib
import json

from corpustools.io.schemastore import validate
from corpustools.io.yamlload import parse_yaml
from tests.support.calibrate import fill, fill_all
from tests.support.corpus import ADMIT_ID, REJECT_ID
from tests.support.score import GOOD_ADMIT, output, proposal, run_cli, write_results

TRICKY_BODY = ("  leading spaces\n\ttab line\n\nkey: value # not a comment\n- not a list\n"
               "trailing spaces   \n\"quotes\" and 'apostrophes'\nUnicode: é 日本語 \u2028 NEL\x85 BEL\x07\n\n")


def _corpus_with_notes(make_corpus):
    points = ("\n  - id: expire-via-queue\n    type: practice\n    notes: Expired signups go through the queue.\n"
              "    must_match_all:\n      - queue worker\n      - expired signups\n"
              "    must_not_match: [signup table]\n")
    optional = "\n  - id: newsletter-module-map\n    type: map\n    must_match_all: [newsletter module]\n"
    from tests.support.corpus import sidecar_text

    return make_corpus({f"expected/{ADMIT_ID}.yaml": sidecar_text(points=points, optional=optional)})


def _adjudicate(capsys, corpus, run, out, *extra):
    return run_cli(capsys, "adjudicate", corpus, run, "--out", out, *extra)


def test_worksheet_lists_fixtures_points_and_proposals_without_terms_or_verdicts(make_corpus, tmp_path, capsys):
    corpus = _corpus_with_notes(make_corpus)
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT})  # reject-noise-01 missing
    sheet = tmp_path / "sheet.yaml"
    code, out, err = _adjudicate(capsys, corpus, run, sheet)
    assert (code, out) == (0, "") and err.endswith(f"wrote {sheet} (2 fixtures, 1 proposal to judge)\n")
    text = sheet.read_text(encoding="utf-8")
    assert text.startswith("# corpustools adjudication worksheet (version 2). Fill every blank answer; see "
                           "docs/calibration.md.")
    # the questions are worded for the corpus's item types, the leak question in the notes' words
    assert "# Read the session, the notes and every practice or map of a fixture, then answer:" in text
    assert "does some practice or map carry what the notes say must be left out? yes | no" in text
    # neither terms (the forbidden "signup table" is the label's alone) nor any verdict or reason
    body = "\n".join(line.split("#")[0] for line in text.split("\nfixtures:")[1].split("\n"))  # no hints
    for hidden in ("must_match_all", "must_not_match", "signup table", "PASS", "FAIL", "missed-point", "matched"):
        assert hidden not in body
    data = parse_yaml(text, str(sheet)).data
    assert data["worksheet_version"] == 2 and data["shows_terms"] is False and "rater" not in data
    assert data["run"] == {"results": str(run), "prompt": None}
    admit, reject = data["fixtures"]
    digest = hashlib.sha256((run / f"{ADMIT_ID}.json").read_bytes()).hexdigest()
    assert (admit["fixture_id"], admit["category"], admit["expect"], admit["session"]) == (
        ADMIT_ID, "admit-convention", "practice", f"sessions/{ADMIT_ID}.md")
    assert (admit["result_sha256"], admit["result_status"]) == (digest, "ok")
    assert [(p["id"], p["list"], p["type"], p["notes"], p["captured"]) for p in admit["points"]] == [
        ("expire-via-queue", "expected", "practice", "Expired signups go through the queue.", None),
        ("newsletter-module-map", "optional", "map", None, None)]
    (shown,) = admit["proposals"]
    original = GOOD_ADMIT["practice"][0]
    assert shown["fields"] == {k: original[k] for k in ("title", "description", "body", "tags")}
    assert (shown["name"], shown["type"], shown["class"]) == ("practice[0]", "practice", None)
    assert (admit["task_detail_leak"], admit["verdict"], admit["why"]) == (None, None, None)
    assert (reject["result_status"], reject["result_sha256"], reject["expect"]) == ("missing", None, "empty")
    assert reject["points"] == [] and reject["proposals"] == []


def test_show_terms_adds_the_terms_and_says_so(make_corpus, tmp_path, capsys):
    corpus = _corpus_with_notes(make_corpus)
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT})
    sheet = tmp_path / "sheet.yaml"
    assert _adjudicate(capsys, corpus, run, sheet, "--show-terms")[0] == 0
    data = parse_yaml(sheet.read_text(encoding="utf-8"), "s").data
    assert data["shows_terms"] is True
    point, optional = data["fixtures"][0]["points"]
    assert (point["must_match_all"], point["must_not_match"]) == (["queue worker", "expired signups"],
                                                                  ["signup table"])
    assert (optional["must_match_all"], optional["must_not_match"]) == (["newsletter module"], [])


def test_any_text_round_trips_exactly(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    tricky = proposal("Title: with a colon # and hash", TRICKY_BODY, description="  padded  ",
                      tags=("yes", "null", "12"))
    single_line = proposal("x" * 300, "one line, no newline")
    run = write_results(tmp_path / "run", {ADMIT_ID: output([tricky, single_line], [proposal("\n", "\n\n", type="map")])})
    sheet = tmp_path / "sheet.yaml"
    assert _adjudicate(capsys, corpus, run, sheet)[0] == 0
    shown = parse_yaml(sheet.read_text(encoding="utf-8"), "s").data["fixtures"][0]["proposals"]
    for got, want in zip(shown, [tricky, single_line, proposal("\n", "\n\n", type="map")], strict=True):
        assert got["fields"] == {k: want[k] for k in ("title", "description", "body", "tags")}


def test_bytes_are_deterministic_and_valid_yaml_for_the_schema_once_filled(make_corpus, tmp_path, capsys):
    corpus = _corpus_with_notes(make_corpus)
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: output()})
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    assert _adjudicate(capsys, corpus, run, first)[0] == _adjudicate(capsys, corpus, run, second)[0] == 0
    assert first.read_bytes() == second.read_bytes()
    filled = fill_all(first.read_text(encoding="utf-8"))
    assert validate("adjudication", parse_yaml(filled, "f").data) == []
    first.write_text(filled, encoding="utf-8")
    code, out, _ = run_cli(capsys, "validate", "adjudication", first)
    assert code == 0 and out.endswith("valid\n")
    code, out, _ = run_cli(capsys, "validate", "adjudication", second)
    assert code == 1 and "/fixtures/0/points/0/captured: None is not one of ['yes', 'no']" in out


def test_a_blank_worksheet_is_regenerated_but_an_answered_one_is_never_overwritten(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT})
    sheet = tmp_path / "sheet.yaml"
    assert _adjudicate(capsys, corpus, run, sheet)[0] == 0
    assert _adjudicate(capsys, corpus, run, sheet)[0] == 0  # blank: may be regenerated
    answered = fill(sheet.read_text(encoding="utf-8"), {(REJECT_ID, None, "why"): "looks right"})
    sheet.write_text(answered, encoding="utf-8")
    code, out, err = _adjudicate(capsys, corpus, run, sheet)
    line = next(i for i, text in enumerate(answered.split("\n"), 1) if text.startswith("    why: \"looks"))
    assert code == 2 and out == ""
    assert err == (f"corpustools adjudicate: {sheet}:{line}:5: worksheet already has answers (fixture {REJECT_ID}, "
                   "why); not overwritten: move it away or write to another file\n")
    assert sheet.read_text(encoding="utf-8") == answered
    captured_only = fill(answered.replace('why: "looks right"', "why:"), {(ADMIT_ID, "expire-via-queue",
                                                                              "captured"): "no"})
    sheet.write_text(captured_only, encoding="utf-8")
    assert _adjudicate(capsys, corpus, run, sheet)[0] == 2 and sheet.read_text(encoding="utf-8") == captured_only


def test_refuses_other_files_the_corpus_and_a_missing_run(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT})
    notes = tmp_path / "notes.yaml"
    notes.write_text("just: notes\n")
    code, _, err = _adjudicate(capsys, corpus, run, notes)
    assert code == 2 and "is not an adjudication worksheet; not overwritten" in err
    assert notes.read_text() == "just: notes\n"
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [\n")
    code, _, err = _adjudicate(capsys, corpus, run, broken)
    assert code == 2 and err.startswith(f"corpustools adjudicate: {broken}:") and "not overwritten" in err
    code, _, err = _adjudicate(capsys, corpus, run, corpus / "expected" / "sheet.yaml")
    assert code == 2 and "never writes there" in err and not (corpus / "expected" / "sheet.yaml").exists()
    code, _, err = _adjudicate(capsys, corpus, tmp_path / "nope", tmp_path / "s.yaml")
    assert (code, err) == (2, f"corpustools adjudicate: {tmp_path / 'nope'}: no such results folder\n")
    code, _, err = _adjudicate(capsys, tmp_path, run, tmp_path / "s.yaml")
    assert code == 2 and "not a corpus folder" in err


def test_invalid_results_and_sidecars(make_corpus, tmp_path, capsys):
    corpus = make_corpus({f"expected/{REJECT_ID}.yaml": "fixture_id: [\n"})
    run = write_results(tmp_path / "run", {ADMIT_ID: "{not json"})
    sheet = tmp_path / "sheet.yaml"
    code, _, err = _adjudicate(capsys, corpus, run, sheet)
    assert code == 0 and f"warning: {corpus / 'expected' / (REJECT_ID + '.yaml')}: invalid sidecar" in err
    (admit,) = parse_yaml(sheet.read_text(encoding="utf-8"), "s").data["fixtures"]
    assert admit["result_status"] == "invalid" and admit["result_sha256"] is not None
    assert admit["result_error"].startswith(f"{run / (ADMIT_ID + '.json')}:1:2: invalid JSON")


def test_the_prompt_is_named_by_identity_never_by_path(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT})
    prompt = tmp_path / "proposal-extract.md"
    prompt.write_text("Version: 7\n[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n")
    assert run_cli(capsys, "run", "init", run, "--corpus", corpus, "--prompt", prompt)[0] == 0
    sheet = tmp_path / "sheet.yaml"
    assert _adjudicate(capsys, corpus, run, sheet)[0] == 0
    text = sheet.read_text(encoding="utf-8")
    assert str(tmp_path / "proposal-extract.md") not in text
    assert parse_yaml(text, "s").data["run"]["prompt"] == {
        "name": "proposal-extract", "version": 7, "sha256": hashlib.sha256(prompt.read_bytes()).hexdigest()}
    assert json.loads(json.dumps(parse_yaml(text, "s").data))  # plain data all the way down


def test_an_answer_under_a_misspelt_key_is_never_thrown_away(make_corpus, tmp_path, capsys):
    corpus = _corpus_with_notes(make_corpus)
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT})
    sheet = tmp_path / "sheet.yaml"
    assert _adjudicate(capsys, corpus, run, sheet)[0] == 0
    edited = sheet.read_text(encoding="utf-8").replace("\n    verdict:", "\n    verdit: PASS\n    verdict:", 1)
    sheet.write_text(edited, encoding="utf-8")
    code, out, err = _adjudicate(capsys, corpus, run, sheet)
    assert code == 2 and "'verdit'" in err and "not overwritten" in err
    assert sheet.read_text(encoding="utf-8") == edited


def test_output_names_the_worksheet_as_out_does(make_corpus, tmp_path, capsys):
    # --output, as score, compare, calibrate and lint spell it; the same bytes as --out
    corpus = _corpus_with_notes(make_corpus)
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT})
    code, _, err = run_cli(capsys, "adjudicate", corpus, run, "--output", tmp_path / "a.yaml")
    assert (code, err) == (0, f"wrote {tmp_path / 'a.yaml'} (2 fixtures, 1 proposal to judge)\n")
    assert _adjudicate(capsys, corpus, run, tmp_path / "b.yaml")[0] == 0
    assert (tmp_path / "a.yaml").read_bytes() == (tmp_path / "b.yaml").read_bytes()


def test_item_fields_named_like_worksheet_keys_round_trip(tmp_path, capsys):
    """An item field called `name`, `type` or `class` sits under the proposal's `fields:` (before
    worksheet version 2 it was a second `name:` key, and calibrate stopped on a duplicate key)."""
    from tests.support.raters import FACT, write_meds, write_meds_run

    corpus, run = write_meds(tmp_path / "meds"), write_meds_run(tmp_path / "run")
    sheet = tmp_path / "sheet.yaml"
    assert _adjudicate(capsys, corpus, run, sheet)[0] == 0
    data = parse_yaml(sheet.read_text(encoding="utf-8"), str(sheet)).data
    (fact,) = data["fixtures"][0]["proposals"]
    assert (fact["name"], fact["type"], fact["class"]) == ("fact[0]", "fact", None)
    assert fact["fields"] == FACT
    sheet.write_text(fill_all(sheet.read_text(encoding="utf-8"), {("billing-refund-01", "fact[0]", "class"):
                                                                  "point:refund-delay"}), encoding="utf-8")
    code, out, err = run_cli(capsys, "calibrate", corpus, run, "--verdicts", sheet)
    assert code == 0, err
    assert "Fixture verdicts agree on 2/2" in out
