"""What a term matches, end to end (issue 30 part 1, docs/scoring.md "What a term matches"): every
example of the issue through `corpustools score` and `corpustools lint` on the clinic-intake corpus
of tests/support/clinic.py, under the default rule (words) and under `output: {matching:
substring}`, which keeps the rule from before."""

from __future__ import annotations

import json

import pytest

from corpustools.cli import main
from tests.support.clinic import BILLING, CLINIC_FILES, GOLD, MEDS, MEDS_SIDECAR, SPEC, answer, medication, write_clinic
from tests.support.triage import write_run

pytestmark = pytest.mark.usefixtures("in_tmp")

SUBSTRING = {"corpus.yaml": SPEC.replace("  fields: [/visit_reason, /urgent]\n",
                                         "  fields: [/visit_reason, /urgent]\n  matching: substring\n")}


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def labelled(term: str, *, forbidden: str | None = None) -> dict:
    """The corpus with one medication point whose only term is `term` (and a forbidden term)."""
    point = f"""  - id: the-point
    type: medication
    must_match_all: [{json.dumps(term)}]
""" + (f"    must_not_match: [{json.dumps(forbidden)}]\n" if forbidden else "") + """    notes: The one medicine.
"""
    start = MEDS_SIDECAR.index("  - id: lisinopril-10")
    end = MEDS_SIDECAR.index("expected_fields:")
    return {f"expected/{MEDS}.yaml": MEDS_SIDECAR[:start] + point + MEDS_SIDECAR[end:]}


def point_matched(capsys, written: str) -> bool:
    write_run("run", {MEDS: answer(medication(written, "")), BILLING: GOLD[BILLING]})
    code, out, err = run(capsys, "score", "c", "run", "--format", "json")
    assert code == 0, err
    meds = next(f for f in json.loads(out)["fixtures"] if f["id"] == MEDS)
    return meds["points"][0]["matched"]


# (term, what the item says, matched by words, matched by substring): every example of the issue
EXAMPLES = [
    ("5 mg", "amlodipine 2.5 mg", False, True),
    ("5 mg", "amlodipine 25 mg", False, True),
    ("5 mg", "amlodipine 0.5 mg", False, True),
    ("5 mg", "amlodipine 5 mg", True, True),
    ("10 mg", "lisinopril 10mg", True, False),
    ("5 mg", "amlodipine 5MG", True, False),
    ("400 mg", "ibuprofen 1400 mg", False, True),
    ("400 mg", "ibuprofen 4.400 mg", False, True),
    ("400 mg", "ibuprofen 400mg", True, False),
    ("1,000 units", "heparin 1,000 units", True, True),
    ("1,000", "heparin 11,000 units", False, True),
    ("000 units", "heparin 1,000 units", False, True),
    ("tag", "hashtag", False, True),
    ("latex", "nonlatex gloves", False, True),
    ("latex", "latex gloves", True, True),
    ("cache tag", "cache tags", True, True),
    ("revers", "the reversal", True, True),
    ("revers", "it reverses", True, True),
]


@pytest.mark.parametrize("term, written, words, substring", EXAMPLES)
def test_what_a_term_matches_through_score(capsys, term, written, words, substring):
    write_clinic("c", labelled(term))
    assert point_matched(capsys, written) is words
    write_clinic("c", {**labelled(term), **SUBSTRING})
    assert point_matched(capsys, written) is substring


def test_a_wrong_dose_fails_a_label_written_as_words(capsys):
    # `must_match_all: [amlodipine, 5 mg]` no longer passes `2.5 mg`: the worst error of a run
    write_clinic("c", labelled("amlodipine 5 mg"))
    assert point_matched(capsys, "amlodipine 2.5 mg") is False
    write_run("run", {MEDS: answer(medication("amlodipine", "2.5 mg")), BILLING: GOLD[BILLING]})
    text = run(capsys, "score", "c", "run")[1]
    assert ('missed point the-point: no medication states it; closest medication[0] "amlodipine" (dose "2.5 mg") '
            'lacks "amlodipine 5 mg"  [missed-point:the-point]') in text
    # and a wrong number is no near miss: the label is right, the answer wrong
    assert "near-miss" not in text


def test_substring_keeps_the_old_evidence_of_a_missed_dose(capsys):
    # the evidence names the value that missed (issue 33 item 8), here under the old rule
    write_clinic("c", {**SUBSTRING, f"expected/{MEDS}.yaml": MEDS_SIDECAR})
    write_run("run", {MEDS: answer(medication("lisinopril", "10mg"), *GOLD[MEDS]["medications"][1:]),
                      BILLING: GOLD[BILLING]})
    text = run(capsys, "score", "c", "run")[1]
    assert ('missed point lisinopril-10: no medication states it; closest medication[0] "lisinopril" (dose "10mg") '
            'lacks "10 mg"  [missed-point:lisinopril-10]') in text
    assert "diagnostic: near-miss:lisinopril-10:10 mg:medication[0]" in text


def test_forbidden_terms_and_their_marks_follow_the_rule(capsys):
    write_clinic("c", labelled("amlodipine", forbidden="5 mg"))
    write_run("run", {MEDS: answer(medication("amlodipine", "2.5 mg, then 5mg"), allergies=()), BILLING: GOLD[BILLING]})
    code, out, _ = run(capsys, "score", "c", "run", "--format", "json")
    meds = next(f for f in json.loads(out)["fixtures"] if f["id"] == MEDS)
    assert meds["reasons"] == ["forbidden-match:the-point:5 mg"]
    page = run(capsys, "score", "c", "run", "--format", "html")[1]
    # the mark is on `5mg`, never on the 5 of 2.5
    assert '2.5 mg, then <mark class="forbidden" data-term="5 mg" data-point="the-point" ' in page
    assert 'title="forbidden by the-point: 5 mg">5mg</mark>' in page
    write_run("run", {MEDS: answer(medication("amlodipine", "2.5 mg"), allergies=()), BILLING: GOLD[BILLING]})
    code, out, _ = run(capsys, "score", "c", "run", "--format", "json")
    assert next(f for f in json.loads(out)["fixtures"] if f["id"] == MEDS)["verdict"] == "PASS"


def test_an_expected_field_compares_number_safe(capsys):
    spec = SPEC.replace("  fields: [/visit_reason, /urgent]", "  fields: [/visit_reason, /urgent, /dose]")
    sidecar = MEDS_SIDECAR.replace("  /urgent: false", "  /urgent: false\n  /dose: 5 mg")
    write_clinic("c", {"corpus.yaml": spec, f"expected/{MEDS}.yaml": sidecar,
                       "output.schema.json": json.dumps({"type": "object"})})
    for dose, matched in (("5mg", True), ("5 MG", True), ("2.5 mg", False), ("25 mg", False)):
        write_run("run", {MEDS: {**GOLD[MEDS], "dose": dose}, BILLING: GOLD[BILLING]})
        out = run(capsys, "score", "c", "run", "--format", "json")[1]
        fields = next(f for f in json.loads(out)["fixtures"] if f["id"] == MEDS)["fields"]
        assert next(f for f in fields if f["field"] == "/dose")["matched"] is matched, dose


def test_lint_finds_terms_as_the_scorer_does(capsys):
    # the transcript says "2.5 mg": a `5 mg` term is unwinnable under words, found under substring
    session = CLINIC_FILES[f"sessions/{MEDS}.md"].replace("amlodipine 5 mg", "amlodipine 2.5 mg").replace(
        "Amlodipine 5 mg", "Amlodipine 2.5 mg")
    files = {f"sessions/{MEDS}.md": session, **labelled("5 mg")}
    write_clinic("c", files)
    out = run(capsys, "lint", "c", "--select", "CT601")[1]
    assert (f"c/expected/{MEDS}.yaml:7:22: CT601 [error] must_match_all term '5 mg' of point 'the-point' never "
            "occurs in the transcript; no faithful extraction can match it") in out
    write_clinic("c", {**files, **SUBSTRING})
    assert run(capsys, "lint", "c", "--select", "CT601") == (0, "All checks passed.\n", "")


def test_a_forbidden_term_inside_a_required_one_follows_the_rule(capsys):
    # CT608: `5 mg` is not inside `2.5 mg` under words, so the point can pass
    write_clinic("c", labelled("2.5 mg", forbidden="5 mg"))
    assert "CT608" not in run(capsys, "lint", "c", "--select", "CT608")[1]
    write_clinic("c", {**labelled("2.5 mg", forbidden="5 mg"), **SUBSTRING})
    assert "CT608" in run(capsys, "lint", "c", "--select", "CT608")[1]


def test_matching_is_a_contract_key_with_a_suggestion(capsys):
    write_clinic("c", {"corpus.yaml": SUBSTRING["corpus.yaml"].replace("matching: substring", "matching: substrings")})
    code, out, _ = run(capsys, "lint", "c")
    assert code == 1
    assert ("c/corpus.yaml:21:3: CT003 [error] /output/matching: 'substrings' is not one of ['words', "
            "'substring']; did you mean 'substring'?") in out.splitlines()


def test_declaring_matching_revises_the_labels_not_the_contract(capsys):
    # how labels are read never makes a run's results drift (they answer the same contract), but
    # a run scored under another rule is scored under other labels, and the report says so
    write_clinic("c")
    assert run(capsys, "run", "init", "run", "--corpus", "c", "--prompt", "c/corpus.yaml")[0] == 0
    write_run("run", GOLD)
    write_clinic("c", SUBSTRING)
    code, out, _ = run(capsys, "score", "c", "run", "--format", "json")
    report = json.loads(out)
    assert report["corpus_drift"] is None
    assert report["labels_revised"].startswith("labels revised since this run")
