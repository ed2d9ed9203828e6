"""A point's `item_fields`: the values of one item (issue 30 part 2, docs/contracts.md), run through
the real commands on a clinic-intake corpus made in tmp (tests/support/clinic.py): medicines as
`{name, dose}` objects, allergies as strings. A wrong dose is a miss, said with the field."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpustools.cli import main
from corpustools.io.yamlload import parse_yaml
from corpustools.model.contract import parse_contract
from corpustools.model.sidecar import parse_sidecar
from corpustools.score.evidence import point_evidence
from tests.support.calibrate import fill_all
from tests.support.clinic import (
    BILLING,
    CLINIC_FILES,
    GOLD,
    MEDS,
    MEDS_SIDECAR,
    OUTPUT,
    SPEC,
    answer,
    medication,
    write_clinic,
)
from tests.support.triage import write_run

pytestmark = pytest.mark.usefixtures("in_tmp")


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def meds_report(capsys, meds: dict, *, corpus: str = "c", fmt: str = "json"):
    write_run("run", {MEDS: meds, BILLING: GOLD[BILLING]})
    code, out, err = run(capsys, "score", corpus, "run", "--format", fmt)
    assert code == 0, err
    if fmt != "json":
        return out
    return next(f for f in json.loads(out)["fixtures"] if f["id"] == MEDS)


def sidecar_with(old: str, new: str) -> dict:
    assert old in MEDS_SIDECAR
    return {f"expected/{MEDS}.yaml": MEDS_SIDECAR.replace(old, new)}


def test_the_clinic_corpus_lints_clean_and_its_gold_scores_100_percent(capsys):
    write_clinic("c")
    assert run(capsys, "lint", "c", "--strict") == (0, "All checks passed.\n", "")
    meds = meds_report(capsys, GOLD[MEDS])
    assert (meds["verdict"], meds["reasons"]) == ("PASS", [])


# --- scoring ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dose", ["2.5 mg", "25 mg", "0.5 mg", "5 mg daily", "5", "", "50 mg"])
def test_a_wrong_dose_misses_the_point(capsys, dose):
    write_clinic("c")
    meds = meds_report(capsys, answer(medication("lisinopril", "10 mg"), medication("amlodipine", dose),
                                      medication("albuterol inhaler", "90 mcg")))
    assert meds["verdict"] == "FAIL"
    assert "missed-point:amlodipine-5" in meds["reasons"]
    point = next(p for p in meds["points"] if p["id"] == "amlodipine-5")
    assert point["item_fields"] == [{"field": "dose", "expected": ["5 mg"], "got": dose, "matched": False}]


@pytest.mark.parametrize("dose", ["5 mg", "5mg", "5MG", " 5  mg ", "5-mg"])
def test_the_right_dose_however_spaced_or_cased_matches(capsys, dose):
    write_clinic("c")
    meds = meds_report(capsys, answer(medication("lisinopril", "10 mg"), medication("Amlodipine", dose),
                                      medication("albuterol inhaler", "90 mcg")))
    assert (meds["verdict"], meds["reasons"]) == ("PASS", [])
    point = next(p for p in meds["points"] if p["id"] == "amlodipine-5")
    assert point["item_fields"] == [{"field": "dose", "expected": ["5 mg"], "got": dose, "matched": True}]
    assert point["matched_by"] == ["medication[1]"]


def test_the_evidence_names_the_field_expected_and_got(capsys):
    write_clinic("c")
    text = meds_report(capsys, answer(medication("lisinopril", "10 mg"), medication("amlodipine", "2.5 mg"),
                                      medication("albuterol inhaler", "90 mcg")), fmt="text")
    assert ('  missed point amlodipine-5: closest medication[1] "amlodipine": dose expected "5 mg"; got "2.5 mg"  '
            "[missed-point:amlodipine-5]\n") in text
    markdown = run(capsys, "score", "c", "run", "--format", "markdown")[1]
    assert "  - closest: `medication[1]` `amlodipine`; `dose` expected `\"5 mg\"`; got `\"2.5 mg\"`\n" in markdown
    page = run(capsys, "score", "c", "run", "--format", "html")[1]
    assert ('<span class="term absent" data-field="dose">dose: &quot;2.5 mg&quot; (expected &quot;5 mg&quot;)'
            "</span>") in page
    # reason codes are unchanged: one missed point, and the item is a phantom
    assert "[phantom-over-budget:1>0]" in text


def test_an_item_holding_the_terms_in_another_field_is_not_the_item_with_that_value(capsys):
    # The fields are no longer joined for the value: a name that says the dose, beside an empty
    # dose, holds the words `[albuterol, 90 mcg]` but not the dose.
    write_clinic("c")
    said_in_the_name = answer(medication("lisinopril", "10 mg"), medication("amlodipine", "5 mg"),
                              medication("albuterol 90 mcg inhaler", ""))
    meds = meds_report(capsys, said_in_the_name)
    assert meds["reasons"] == ["missed-point:albuterol-90", "phantom-over-budget:1>0"]
    point = next(p for p in meds["points"] if p["id"] == "albuterol-90")
    assert point["item_fields"] == [{"field": "dose", "expected": ["90 mcg", "90 micrograms"], "got": "",
                                     "matched": False}]
    # the same point written as words, as before item_fields, passes that answer
    write_clinic("c", sidecar_with("""    must_match_all: [albuterol]
    item_fields:
      dose: ["90 mcg", "90 micrograms"]""", "    must_match_all: [albuterol, 90 mcg]"))
    assert meds_report(capsys, said_in_the_name)["verdict"] == "PASS"


def test_any_of_a_list_of_values_matches_and_a_missing_key_is_nothing(capsys):
    write_clinic("c")
    meds = meds_report(capsys, answer(medication("lisinopril", "10 mg"), medication("amlodipine", "5 mg"),
                                      medication("albuterol inhaler", "90 Micrograms")))
    assert meds["verdict"] == "PASS"
    write_run("run", {MEDS: answer(medication("lisinopril", "10 mg"), medication("amlodipine", "5 mg"),
                                   {"name": "albuterol"}), BILLING: GOLD[BILLING]})
    write_clinic("c", {"output.schema.json": json.dumps({"type": "object"})})  # let the item lack its dose
    text = run(capsys, "score", "c", "run")[1]
    assert 'missed point albuterol-90: closest medication[2] "albuterol": dose expected "90 mcg" or ' \
           '"90 micrograms"; got nothing  [missed-point:albuterol-90]' in text


def test_a_point_of_item_fields_alone_and_a_number_compared_as_json(capsys):
    write_clinic("c", {"output.schema.json": json.dumps({"type": "object"}),
                       **sidecar_with("""    must_match_all: [amlodipine]
    item_fields:
      dose: "5 mg\"""", """    item_fields:
      name: amlodipine
      tablets: 2""")})
    good = answer(medication("lisinopril", "10 mg"), {"name": "Amlodipine", "dose": "5 mg", "tablets": 2},
                  medication("albuterol inhaler", "90 mcg"))
    assert meds_report(capsys, good)["verdict"] == "PASS"
    good["medications"][1]["tablets"] = "2"  # a string is not the number 2
    assert "missed-point:amlodipine-5" in meds_report(capsys, good)["reasons"]


def test_an_optional_point_with_item_fields_is_never_a_miss(capsys):
    write_clinic("c", sidecar_with("expected_fields:", """optional_points:
  - id: paracetamol-500
    type: medication
    must_match_all: [paracetamol]
    item_fields: {dose: "500 mg"}
    notes: Paracetamol 500 mg, tolerated if the patient's mention of it is kept.
expected_fields:"""))
    meds = meds_report(capsys, answer(*GOLD[MEDS]["medications"], medication("paracetamol", "1000 mg")))
    assert meds["reasons"] == ["phantom-over-budget:1>0"]
    optional = meds["optional_points"][0]
    assert optional["matched"] is False
    assert optional["item_fields"] == [{"field": "dose", "expected": ["500 mg"], "got": "1000 mg", "matched": False}]


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.integers(1, 2000), st.sampled_from(["", ".5", ".25", ",000"]), st.sampled_from(["mg", "mcg", "ml"]),
       st.integers(1, 2000), st.sampled_from(["", ".5", ",000"]), st.sampled_from(["{n} {u}", "{n}{u}", "{n} {U}"]))
def test_a_dose_matches_only_its_own_number_and_unit(whole, part, unit, other, other_part, written):
    label = f"{whole}{part} {unit}"
    declared = {k: v for k, v in parse_yaml(OUTPUT, "corpus.yaml").data["output"].items() if k != "schema"}
    contract, problems = parse_contract({"output": declared}, ".")
    assert contract is not None and not problems
    parsed, errors = parse_sidecar(parse_yaml(MEDS_SIDECAR.replace('dose: "5 mg"', f'dose: "{label}"'),
                                              f"expected/{MEDS}.yaml"), contract)
    assert parsed is not None and not errors
    for number in (f"{whole}{part}", f"{other}{other_part}"):
        dose = written.format(n=number, u=unit, U=unit.upper())
        items = contract.read_json(answer(medication("amlodipine", dose))).items
        [point] = [p for p in point_evidence(parsed, items) if p.point_id == "amlodipine-5"]
        assert point.matched is (number == f"{whole}{part}"), (label, dose)


# --- lint -------------------------------------------------------------------------------------

def test_item_fields_on_a_string_item_type_names_the_type(capsys):
    write_clinic("c", sidecar_with("    must_match_all: [latex]\n", "    must_match_all: [latex]\n"
                                   "    item_fields: {text: latex}\n"))
    code, out, _ = run(capsys, "lint", "c")
    assert code == 1
    assert (f"c/expected/{MEDS}.yaml:24:5: CT005 [error] /expected_points/3/item_fields: item_fields on a point of "
            "type allergy: allergy items are strings (output.items names no match fields for them), so they have no "
            "fields; say the value with must_match_all") in out.splitlines()


def test_a_field_the_schema_does_not_name_is_an_error_with_a_suggestion(capsys):
    write_clinic("c", sidecar_with('      dose: "5 mg"', '      dosage: "5 mg"'))
    code, out, _ = run(capsys, "lint", "c")
    assert code == 1
    assert out.splitlines()[0] == (
        f"c/expected/{MEDS}.yaml:13:7: CT005 [error] item_fields key 'dosage': the output schema's medication "
        "items have no field 'dosage' (name, dose) (did you mean dose?)")
    # and the sidecar is invalid for scoring, as any CT005 makes it
    write_run("run", GOLD)
    report = json.loads(run(capsys, "score", "c", "run", "--format", "json")[1])
    assert report["fixtures"][1]["status"] == "sidecar-invalid"


def test_a_pinned_value_of_a_json_type_the_schema_never_allows_is_an_error(capsys):
    # `dose: 5` (a number) can never equal a string dose, `/urgent: "no"` never a boolean: without
    # this, both lint clean and the point or field is lost on every run.
    files = sidecar_with('      dose: "5 mg"', "      dose: 5")
    files[f"expected/{MEDS}.yaml"] = files[f"expected/{MEDS}.yaml"].replace("  /urgent: false", '  /urgent: "no"')
    write_clinic("c", files)
    code, out, _ = run(capsys, "lint", "c")
    assert code == 1
    assert (f"c/expected/{MEDS}.yaml:13:7: CT005 [error] item_fields key 'dose': 5 (a number) can never match: "
            "the output schema says medication items' 'dose' is of type string; write the value as a JSON string") in out.splitlines()
    assert any(line.startswith(f"c/expected/{MEDS}.yaml:") and "CT005 [error] expected_fields key '/urgent': "
               '"no" (a string) can never match: the output schema says the field /urgent is of type boolean' in line
               for line in out.splitlines()), out


@pytest.mark.parametrize("dose", ['"5 mg"', '["5", "5 mg"]', "[5, \"5 mg\"]"])
def test_a_value_of_the_schema_s_type_or_one_among_alternatives_is_clean(capsys, dose):
    write_clinic("c", sidecar_with('      dose: "5 mg"', f"      dose: {dose}"))
    assert "CT005" not in run(capsys, "lint", "c")[1]


def test_without_a_schema_any_field_is_allowed(capsys):
    spec = SPEC.replace("  schema: output.schema.json\n", "")
    write_clinic("c", {"corpus.yaml": spec, "output.schema.json": None,
                       **sidecar_with('      dose: "5 mg"', '      dosage: "5 mg"')})
    assert "CT005" not in run(capsys, "lint", "c")[1]


def test_a_point_needs_must_match_all_or_item_fields(capsys):
    write_clinic("c", sidecar_with("""    must_match_all: [amlodipine]
    item_fields:
      dose: "5 mg"
""", ""))
    out = run(capsys, "lint", "c")[1]
    assert (f"c/expected/{MEDS}.yaml:9:5: CT005 [error] /expected_points/1: a point needs must_match_all, "
            "item_fields or both: with neither it would match any item of its type") in out
    write_clinic("c", sidecar_with('    item_fields:\n      dose: "5 mg"\n', "    item_fields: {}\n"))
    out = run(capsys, "lint", "c")[1]
    assert "/expected_points/1/item_fields: an empty item_fields pins nothing" in out


def test_a_value_the_transcript_never_says_is_unwinnable(capsys):
    write_clinic("c", {**sidecar_with('      dose: "5 mg"', '      dose: "50 mg"')})
    code, out, _ = run(capsys, "lint", "c")
    assert out.splitlines()[0] == (f"c/expected/{MEDS}.yaml:13:7: CT601 [error] item_fields dose '50 mg' of point "
                                   "'amlodipine-5' never occurs in the transcript; no faithful extraction can match it")
    # number-safe: a transcript saying only "2.5 mg" never says "5 mg"
    session = CLINIC_FILES[f"sessions/{MEDS}.md"].replace("amlodipine 5 mg", "amlodipine 2.5 mg").replace(
        "Amlodipine 5 mg", "Amlodipine 2.5 mg")
    write_clinic("c", {f"sessions/{MEDS}.md": session})
    assert "item_fields dose '5 mg' of point 'amlodipine-5' never occurs" in run(capsys, "lint", "c")[1]
    # a list of values is unwinnable only when none is said; a number is never looked for in words
    write_clinic("c", {f"sessions/{MEDS}.md": CLINIC_FILES[f"sessions/{MEDS}.md"],
                       **sidecar_with('      dose: "5 mg"', '      dose: ["5 milligrams", "5 mg"]')})
    assert "CT601" not in run(capsys, "lint", "c")[1]


@pytest.mark.parametrize("point, option, warned", [
    ("    must_match_all: [latex]\n", None, False),             # a string item: one term is enough
    ("    must_match_all: [amlodipine]\n", None, True),       # an object item on prose fields: two
    ("    must_match_all: [latex]\n", "{min_by_type: {allergy: 2}}", True),
    ("    must_match_all: [amlodipine]\n", "{min_by_type: {medication: 1}}", False),
    ("    must_match_all: [amlodipine]\n", "{min: 1}", False),
])
def test_term_count_minimum_follows_the_item_type(capsys, point, option, warned):
    # the amlodipine point without its item_fields is a prose point of one term
    sidecar = MEDS_SIDECAR.replace("""    must_match_all: [amlodipine]
    item_fields:
      dose: "5 mg"
""", "    must_match_all: [amlodipine]\n")
    spec = SPEC + (f"lint:\n  rules:\n    CT604: {option}\n" if option else "")
    write_clinic("c", {f"expected/{MEDS}.yaml": sidecar, "corpus.yaml": spec})
    out = run(capsys, "lint", "c", "--select", "CT604")[1]
    point_id = "latex-allergy" if "latex" in point else "amlodipine-5"
    assert (f"point '{point_id}' has 1 must_match_all term; use at least 2" in out) is warned, out


def test_term_count_counts_item_fields_and_a_point_with_them_needs_one(capsys):
    write_clinic("c", {"corpus.yaml": SPEC + "lint:\n  rules:\n    CT604: {min_by_type: {medication: 3}}\n"})
    out = run(capsys, "lint", "c", "--select", "CT604")[1]
    assert ("point 'amlodipine-5' has 1 must_match_all term and 1 item field; use at least 3 (3-4)") in out
    write_clinic("c", {"corpus.yaml": SPEC + "lint:\n  rules:\n    CT604: {min_by_type: {medication: -1}}\n"})
    code, _, err = run(capsys, "lint", "c")
    assert code == 2 and "lint.rules.CT604.min_by_type: medication: -1 is under 0" in err


def test_adjudicate_show_terms_shows_item_fields(capsys):
    write_clinic("c")
    write_run("gold", GOLD)
    assert run(capsys, "adjudicate", "c", "gold", "--out", "ws.yaml", "--show-terms")[0] == 0
    sheet = open("ws.yaml", encoding="utf-8").read()
    assert ("        must_match_all: [\"amlodipine\"]\n        must_not_match: []\n"
            "        item_fields: {dose: \"5 mg\"}\n") in sheet
    assert "        item_fields: {dose: [\"90 mcg\", \"90 micrograms\"]}\n" in sheet
    assert run(capsys, "adjudicate", "c", "gold", "--out", "blind.yaml")[0] == 0
    assert "item_fields" not in open("blind.yaml", encoding="utf-8").read()  # the judge never sees the labels


def test_calibrate_names_the_value_behind_a_disagreement(capsys):
    # the item objects' title key is `drug` here: a worksheet lists an item's fields beside its
    # own `name:` key, which a field called `name` would repeat
    spec = SPEC.replace("match: [name, dose]\n      title: name", "match: [drug, dose]\n      title: drug")
    schema = CLINIC_FILES["output.schema.json"].replace('"name"', '"drug"')
    write_clinic("c", {"corpus.yaml": spec, "output.schema.json": schema})
    meds = [{"drug": name, "dose": dose} for name, dose in
            (("lisinopril", "10 mg"), ("amlodipine", "2.5 mg"), ("albuterol inhaler", "90 mcg"))]
    write_run("run", {MEDS: {**GOLD[MEDS], "medications": meds}, BILLING: GOLD[BILLING]})
    assert run(capsys, "adjudicate", "c", "run", "--out", "ws.yaml")[0] == 0
    # a judge who counts the 2.5 mg answer as capturing the 5 mg point, and the answer as a pass
    judged = fill_all(open("ws.yaml", encoding="utf-8").read(),
                      {(MEDS, "medication[1]", "class"): "point:amlodipine-5",
                       (MEDS, "medication[0]", "class"): "point:lisinopril-10",
                       (MEDS, "medication[2]", "class"): "point:albuterol-90",
                       (MEDS, "allergy[0]", "class"): "point:latex-allergy"})
    open("judged.yaml", "w", encoding="utf-8").write(judged)
    code, out, err = run(capsys, "calibrate", "c", "run", "--verdicts", "judged.yaml", "--format", "json")
    assert code == 0, err
    causes = [d for f in json.loads(out)["runs"][0]["fixtures"] for d in f["disagreements"]]
    assert any(d["cause"] == "brittle-term" and d["point"] == "amlodipine-5" and d["detail"] ==
               "medication[1]'s dose is \"2.5 mg\", item_fields expects \"5 mg\"" for d in causes), causes


def test_a_blind_worksheet_shows_the_values_a_judge_weighs(capsys):
    # dose is matched by item_fields only, never by a term: the judge must still see each answer's dose
    write_clinic("c", {"corpus.yaml": SPEC.replace("match: [name, dose]", "match: [name]")})
    meds = [medication("amlodipine", "2.5 mg"), medication("lisinopril", "10 mg"),
            medication("albuterol inhaler", "90 mcg")]
    write_run("run", {MEDS: {**GOLD[MEDS], "medications": meds}, BILLING: GOLD[BILLING]})
    assert run(capsys, "adjudicate", "c", "run", "--out", "ws.yaml")[0] == 0
    sheet = open("ws.yaml", encoding="utf-8").read()
    assert "          name: amlodipine\n          dose: \"2.5 mg\"\n" in sheet
    assert "item_fields" not in sheet and "\"5 mg\"" not in sheet  # the label's value stays hidden
    # the worksheet is read back as written: it is not refused as holding keys adjudicate does not write
    assert run(capsys, "adjudicate", "c", "run", "--out", "ws.yaml")[0] == 0
