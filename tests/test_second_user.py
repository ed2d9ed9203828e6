"""The second user's first day (issue 33): each friction of a clinic front-desk intake corpus
(tests/support/frontdesk.py: roles RECEPTIONIST/PATIENT, the receptionist greeting first, `{name,
dose}` medication items, string allergies, fields /visit_reason and /urgent, a billing chat that
mentions an allergy in passing), retried with the real commands."""

from __future__ import annotations

import json

import pytest

from corpustools.cli import main
from corpustools.io.yamlload import parse_yaml
from corpustools.model.contract import parse_contract
from tests.support.calibrate import fill_all
from tests.support.frontdesk import (
    ALLERGY,
    BILLING,
    FRONTDESK_FILES,
    GOLD,
    REFILL,
    RESCHEDULE,
    SESSION,
    SIDECARS,
    SPEC,
    write_frontdesk,
)
from tests.support.triage import write_run

pytestmark = pytest.mark.usefixtures("in_tmp")

# CT604's minimum per item type (one-word allergies) is issue 33's item 2, another change's.
NOT_HERE = "CT604"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def spec_with(old: str, new: str) -> dict:
    assert old in SPEC, old
    return {"corpus.yaml": SPEC.replace(old, new)}


def sidecar_with(fixture: str, old: str, new: str) -> dict:
    assert old in SIDECARS[fixture], old
    return {f"expected/{fixture}.yaml": SIDECARS[fixture].replace(old, new)}


def lint_lines(capsys, *argv) -> list[str]:
    code, out, err = run(capsys, "lint", "c", "--ignore", NOT_HERE, *argv)
    assert code in (0, 1) and err == "", err
    return out.splitlines()[:-1]  # the summary line aside


def test_the_front_desk_corpus_lints_clean_and_its_gold_scores_100_percent(capsys):
    write_frontdesk("c")
    write_run("gold", GOLD)
    assert run(capsys, "lint", "c", "--strict", "--ignore", NOT_HERE) == (0, "All checks passed.\n", "")
    code, out, _ = run(capsys, "score", "c", "gold", "--format", "json")
    aggregate = json.loads(out)["aggregate"]
    assert code == 0 and aggregate["fixtures_passed"] == aggregate["fixtures_total"] == 4


# --- 1. who opens a session is the corpus's session format ----------------------------------------

def test_a_front_desk_that_greets_first_declares_it_and_ct403_follows(capsys):
    write_frontdesk("c")
    assert lint_lines(capsys, "--select", "CT403") == []
    # without the declaration, today's rule: every session is opened by the agent
    write_frontdesk("c", spec_with("  opens_with: agent\n", ""))
    lines = lint_lines(capsys, "--select", "CT403")
    assert len(lines) == 4 and lines[0] == (f"c/sessions/{ALLERGY}.md:5:1: CT403 [warning] session begins with a "
                                           "[RECEPTIONIST] turn, not [PATIENT]")
    # declared, a session the patient opens is the one out of shape
    session = ("---\nsession_id: 8da729f6-171c-46e3-8bf2-804092fbdb2e\ncaptured_at: '2026-03-02T09:00:00Z'\n---\n"
               "[PATIENT]: Hello, I am calling about my appointment.\n[RECEPTIONIST]: Of course, which day?\n")
    write_frontdesk("c", {f"sessions/{RESCHEDULE}.md": session})
    assert lint_lines(capsys, "--select", "CT403") == [
        f"c/sessions/{RESCHEDULE}.md:5:1: CT403 [warning] session begins with a [PATIENT] turn, not [RECEPTIONIST] "
        "(corpus.yaml session.opens_with: agent)"]
    # any: either may open, but a session still needs a patient turn
    only_desk = session.replace("[PATIENT]: Hello, I am calling about my appointment.\n", "")
    write_frontdesk("c", {**spec_with("opens_with: agent", "opens_with: any"), f"sessions/{RESCHEDULE}.md": session})
    assert lint_lines(capsys, "--select", "CT403") == []
    write_frontdesk("c", {**spec_with("opens_with: agent", "opens_with: any"),
                          f"sessions/{RESCHEDULE}.md": only_desk})
    assert lint_lines(capsys, "--select", "CT403") == [
        f"c/sessions/{RESCHEDULE}.md:5:1: CT403 [warning] session has no [PATIENT] turn"]


def test_opens_with_takes_three_values_and_is_no_part_of_the_contract_hash(capsys):
    write_frontdesk("c", spec_with("opens_with: agent", "opens_with: receptionist"))
    lines = lint_lines(capsys)
    assert len(lines) == 1 and lines[0].startswith("c/corpus.yaml:24:3: CT003 [error] /session/opens_with: ")
    assert "'receptionist' is not one of ['user', 'agent', 'any']" in lines[0]

    def contract_sha(spec: str) -> str:
        contract, problems = parse_contract(parse_yaml(spec, "corpus.yaml").data, "c")
        assert contract is not None, problems
        return contract.sha256

    # who opens a session is a lint expectation: a run's results are read the same way
    assert contract_sha(SPEC) == contract_sha(SPEC.replace(SESSION, SESSION.replace("  opens_with: agent\n", "")))


# --- 3. CT612 and an entry of alternatives; suppression at one point ---------------------------------

def test_an_entry_of_alternatives_is_one_term_for_ct612(capsys):
    write_frontdesk("c")
    assert lint_lines(capsys, "--select", "CT612") == []  # [400 mg, 400mg]: a value, both spellings found
    # alternatives that are all phrases, said once between them, are reported once, at the entry
    write_frontdesk("c", sidecar_with(REFILL, "      - [400 mg, 400mg]\n", "      - [400 mg tablets, 400 mg pills]\n"))
    assert lint_lines(capsys, "--select", "CT612") == [
        f"c/expected/{REFILL}.yaml:9:9: CT612 [warning] must_match_all entry ['400 mg tablets', '400 mg pills'] "
        "occurs once in the transcript, only in these wordings; a paraphrase will miss every one"]


# The refill chat saying the drug and its dose together, once.
SAID_WITH_DOSE = {f"sessions/{REFILL}.md": FRONTDESK_FILES[f"sessions/{REFILL}.md"].replace(
    "my ibuprofen before the weekend, the 400 mg tablets", "my ibuprofen 400 mg before the weekend")}


@pytest.mark.parametrize("entry", ["400 mg", "400mg", "[400 mg]", "[400 mg, 400mg]", "[400mg, 400 MG]",
                                   "[400 mg, 400 milligrams]"])
def test_a_number_and_its_unit_said_once_is_a_value_not_a_rare_phrase(capsys, entry):
    """Words matching finds `400 mg` written `400mg` or `400 MG`, and an answer copies a dose: no
    finding, and so no advice to list `400mg` beside it (which would change nothing)."""
    write_frontdesk("c", {**SAID_WITH_DOSE, **sidecar_with(REFILL, "[400 mg, 400mg]", entry)})
    assert lint_lines(capsys, "--select", "CT601,CT612") == []


def test_a_phrase_holding_a_value_is_told_to_make_the_value_its_own_term(capsys):
    write_frontdesk("c", {**SAID_WITH_DOSE, **sidecar_with(REFILL, "      - ibuprofen\n      - [400 mg, 400mg]\n",
                                                            "      - ibuprofen 400 mg\n")})
    assert lint_lines(capsys, "--select", "CT612") == [
        f"c/expected/{REFILL}.yaml:8:9: CT612 [warning] must_match_all term 'ibuprofen 400 mg' occurs once in the "
        "transcript, only in this wording; a paraphrase will miss it (a number and its unit are one value, found "
        "however an answer spaces it: make '400 mg' a term of its own)"]
    # the advice taken: two terms, neither reported
    write_frontdesk("c", {**SAID_WITH_DOSE, **sidecar_with(REFILL, "[400 mg, 400mg]", "400 mg")})
    assert lint_lines(capsys, "--select", "CT612") == []


def test_an_entry_is_said_once_where_two_alternatives_find_the_same_words(capsys):
    """`ibuprofen 400mg` is `ibuprofen 400 mg` under words matching: one place, not two."""
    write_frontdesk("c", {**SAID_WITH_DOSE, **sidecar_with(REFILL, "      - ibuprofen\n      - [400 mg, 400mg]\n",
                                                            "      - [ibuprofen 400 mg, ibuprofen 400mg]\n")})
    assert lint_lines(capsys, "--select", "CT612") == [
        f"c/expected/{REFILL}.yaml:8:9: CT612 [warning] must_match_all entry ['ibuprofen 400 mg', 'ibuprofen 400mg'] "
        "occurs once in the transcript, only in these wordings; a paraphrase will miss every one"]


def test_a_phrase_with_a_number_and_no_unit_is_told_to_list_its_wordings(capsys):
    session = FRONTDESK_FILES[f"sessions/{REFILL}.md"].replace("twice a day", "2 times a day", 1)
    write_frontdesk("c", {f"sessions/{REFILL}.md": session,
                          **sidecar_with(REFILL, "[400 mg, 400mg]", "2 times a day")})
    assert lint_lines(capsys, "--select", "CT612") == [
        f"c/expected/{REFILL}.yaml:9:9: CT612 [warning] must_match_all term '2 times a day' occurs once in the "
        "transcript, only in this wording; a paraphrase will miss it (a number alone is no distinctive word: list "
        "the wordings an answer may write as one entry of alternatives)"]
    # listing them is the fix: together the chat says them twice (`twice a day` in the receptionist's turn)
    write_frontdesk("c", {f"sessions/{REFILL}.md": session,
                          **sidecar_with(REFILL, "[400 mg, 400mg]", "[2 times a day, twice a day, twice daily]")})
    assert lint_lines(capsys, "--select", "CT612") == []


SUBSTRING = "  matching: substring\n"


def test_under_substring_matching_a_value_needs_both_spellings_listed(capsys):
    """Substring matching does not find `400 mg` in `400mg`: there listing both is the fix."""
    assert "output:\n" in SPEC
    spec = {"corpus.yaml": SPEC.replace("output:\n", "output:\n" + SUBSTRING, 1)}
    write_frontdesk("c", {**spec, **SAID_WITH_DOSE})
    assert lint_lines(capsys, "--select", "CT612") == []
    write_frontdesk("c", {**spec, **SAID_WITH_DOSE, **sidecar_with(REFILL, "[400 mg, 400mg]", "400 mg")})
    assert lint_lines(capsys, "--select", "CT612") == [
        f"c/expected/{REFILL}.yaml:9:9: CT612 [warning] must_match_all term '400 mg' occurs once in the transcript, "
        "only in this wording; a paraphrase will miss it (a number and its unit, which substring matching finds "
        "only as written: list the spellings as one entry, ['400 mg', '400mg'])"]


def test_ct612_counts_an_entry_of_alternatives_as_the_scorer_finds_it(capsys):
    """A larger number holding the phrase (`1400 mg tablets`) is not the phrase under the corpus's
    matching (number-safe, from a word's start), so it does not make a rare entry look common."""
    phrases = sidecar_with(REFILL, "      - [400 mg, 400mg]\n", "      - [400 mg tablets, 400 mg pills]\n")
    larger = {f"sessions/{REFILL}.md": FRONTDESK_FILES[f"sessions/{REFILL}.md"].replace(
        "I take the ibuprofen twice a day with food.", "The 1400 mg tablets last year were a mistake.")}
    write_frontdesk("c", {**phrases, **larger})
    assert lint_lines(capsys, "--select", "CT612") == [
        f"c/expected/{REFILL}.yaml:9:9: CT612 [warning] must_match_all entry ['400 mg tablets', '400 mg pills'] "
        "occurs once in the transcript, only in these wordings; a paraphrase will miss every one"]


def test_explain_ct612_advises_numbers_and_units(capsys):
    code, out, _ = run(capsys, "lint", "--explain", "CT612")
    assert code == 0 and "A number and its unit (`400 mg`" in out and "already\nfinds `400mg`" in out
    assert "use: [ibuprofen, 400 mg]" in out and "[400 mg, 400mg]]" not in out


POINT_IGNORE = """\
lint:
  per_point_ignores:
    - point: ibuprofen-dose
      codes: [term-rare-phrase]
      reason: the dose is written as the patient said it
"""


def test_per_point_ignores_switch_a_rule_off_at_one_point_only(capsys):
    rare = {**SAID_WITH_DOSE, **sidecar_with(REFILL, "      - ibuprofen\n      - [400 mg, 400mg]\n",
                                             "      - ibuprofen 400 mg\n")}
    also_rare = sidecar_with(BILLING, "must_match_all: [penicillin]", "must_match_all: [penicillin allergy]")
    said_once = {f"sessions/{BILLING}.md": FRONTDESK_FILES[f"sessions/{BILLING}.md"].replace(
        "note the penicillin allergy", "note the allergy")}
    write_frontdesk("c", {**rare, **also_rare, **said_once, "corpus.yaml": SPEC + POINT_IGNORE})
    lines = lint_lines(capsys, "--select", "CT612,CT615")
    assert lines == [f"c/expected/{BILLING}.yaml:7:22: CT612 [warning] must_match_all term 'penicillin allergy' "
                     "occurs once in the transcript, only in this wording; a paraphrase will miss it"]
    # an entry that switches nothing off is reported at the entry
    write_frontdesk("c", {"corpus.yaml": SPEC + POINT_IGNORE})
    assert lint_lines(capsys, "--select", "CT612,CT615") == [
        "c/corpus.yaml:44:7: CT615 [warning] lint.per_point_ignores: CT612 finds nothing at point 'ibuprofen-dose'; "
        "delete this entry"]
    assert lint_lines(capsys, "--select", "CT615") == []  # CT612 did not run: nothing to judge
    # one code of an entry that switches nothing off
    both = POINT_IGNORE.replace("codes: [term-rare-phrase]", "codes: [term-rare-phrase, CT605]")
    write_frontdesk("c", {**rare, "corpus.yaml": SPEC + both})
    assert lint_lines(capsys, "--select", "CT605,CT612,CT615") == [
        "c/corpus.yaml:44:7: CT615 [warning] lint.per_point_ignores: CT605 finds nothing at point 'ibuprofen-dose'; "
        "remove CT605 from this entry"]
    # a point no sidecar has, with the point it probably meant
    write_frontdesk("c", {"corpus.yaml": SPEC + POINT_IGNORE.replace("ibuprofen-dose", "ibuprofen-dos")})
    assert lint_lines(capsys, "--select", "CT615") == [
        "c/corpus.yaml:44:7: CT615 [warning] lint.per_point_ignores: no sidecar has a point 'ibuprofen-dos' (did you "
        "mean ibuprofen-dose?); delete this entry"]


@pytest.mark.parametrize("entry, line", [
    ("    - point: ibuprofen-dose\n      codes: [term-rare-phrse]\n      reason: r\n",
     "c/corpus.yaml:45:15: lint.per_point_ignores: unknown rule 'term-rare-phrse': did you mean CT612 "
     "(term-rare-phrase)? (see corpustools lint --list-rules)"),
    ("    - point: ibuprofen-dose\n      codes: [CT501]\n      reason: r\n",
     "c/corpus.yaml:45:15: lint.per_point_ignores: CT501 (secret-token) is a secret rule and can never be ignored "
     "per point"),
    ("    - point: ibuprofen-dose\n      codes: [CT612]\n      reason: ' '\n",
     "c/corpus.yaml:46:7: lint.per_point_ignores: reason must say why the point is exempt"),
])
def test_a_bad_per_point_ignores_entry_is_one_line(capsys, entry, line):
    write_frontdesk("c", {"corpus.yaml": SPEC + "lint:\n  per_point_ignores:\n" + entry})
    code, out, err = run(capsys, "lint", "c")
    assert (code, out, err) == (2, "", line + "\n")


def test_a_misspelt_per_point_ignores_key_gets_a_did_you_mean(capsys):
    write_frontdesk("c", {"corpus.yaml": SPEC + POINT_IGNORE.replace("      reason:", "      reasn:")})
    lines = lint_lines(capsys)
    assert "c/corpus.yaml:46:7: CT003 [error] /lint/per_point_ignores/0/reasn: unknown key 'reasn': did you mean " \
           "'reason'?" in lines


# --- 4. a category is a scenario: it may expect several item types --------------------------------

def test_a_billing_chat_with_an_allergy_in_passing_expects_either_item_type(capsys):
    write_frontdesk("c")
    assert lint_lines(capsys, "--select", "CT303") == []
    # a billing fixture with neither type says which types it may have
    point = "  - id: penicillin-allergy\n    type: allergy\n    must_match_all: [penicillin]\n"
    write_frontdesk("c", {**sidecar_with(BILLING, "expect_empty: false\nexpected_points:\n" + point,
                                         "expect_empty: true\nexpected_points: []\n")})
    assert f"c/expected/{BILLING}.yaml:4:1: CT303 [error] category billing-question expects a point of one of its " \
           "item types (medication, allergy); there is none" in lint_lines(capsys, "--select", "CT303")


@pytest.mark.parametrize("expect, message", [
    ("[medication, empty]", "/categories/2/expect: expect lists 'empty': a list names item types a fixture may have "
                            "a point of; empty stays single (write expect: empty)"),
    ("[medication, alergy]", "/categories/2/expect: expect lists 'alergy', which is not an item type of the output "
                             "contract (medication, allergy) (did you mean allergy?)"),
])
def test_empty_and_subset_stay_single(capsys, expect, message):
    write_frontdesk("c", spec_with("expect: [medication, allergy]", f"expect: {expect}"))
    assert lint_lines(capsys, "--select", "CT003") == [f"c/corpus.yaml:36:5: CT003 [error] {message}"]


def test_the_worksheet_shows_a_list_of_item_types_in_words(capsys):
    write_frontdesk("c")
    write_run("gold", GOLD)
    assert run(capsys, "adjudicate", "c", "gold", "--out", "sheet.yaml")[0] == 0
    sheet = open("sheet.yaml", encoding="utf-8").read()
    assert "    expect: medication or allergy\n" in sheet and "    expect: empty\n" in sheet


# --- 5. invalid apart from wrong ---------------------------------------------------------------------

def fenced(answer: dict) -> str:
    return "```json\n" + json.dumps(answer, indent=2) + "\n```\n"


def with_notes(answer: dict) -> dict:
    return {**answer, "notes": "the patient was polite"}


def test_an_extra_key_and_a_fence_are_format_failures_reported_as_what_they_are(capsys):
    write_frontdesk("c")
    write_run("run", {**GOLD, REFILL: with_notes(GOLD[REFILL]), RESCHEDULE: fenced(GOLD[RESCHEDULE])})
    code, out, _ = run(capsys, "score", "c", "run")
    lines = out.splitlines()
    assert code == 0
    # the verdict stays FAIL; the advisory says what the content would have scored
    assert lines[:3] == [
        f"FAIL {REFILL} (med-refill)",
        f"  the result is not a valid output: run/{REFILL}.json: /notes: unknown key 'notes' (allowed here: allergies, "
        f"medications, urgent, visit_reason)  [invalid-result:run/{REFILL}.json: /notes: unknown key 'notes' (allowed "
        "here: allergies, medications, urgent, visit_reason)]",
        "  diagnostic: invalid-format:content without the extra key /notes would pass"]
    assert "  diagnostic: invalid-format:content inside the fence would pass" in lines
    # each accuracy and recall is told over the valid results, beside how many were invalid
    assert "field /urgent: 2/2 of valid results, 2 invalid (100.0%, 95% CI 34.2%–100.0%)" in lines
    assert lines[-1] == ("2/4 fixtures passed (50.0%, 95% CI 15.0%–85.0%); recall 2/2 (100.0%, 95% CI 34.2%–100.0%) "
                         "(1 invalid result, its 1 point not judged); 0 phantoms; gate accuracy 0/0 (n/a) (1 invalid "
                         "result not judged); false rejects 0/3.")
    # the JSON: the strict figures as before, and the valid-only ones beside them
    code, out, _ = run(capsys, "score", "c", "run", "--format", "json")
    report = json.loads(out)
    aggregate = report["aggregate"]
    assert (aggregate["recall"]["successes"], aggregate["recall"]["total"]) == (2, 3)
    assert (aggregate["recall_valid_only"]["successes"], aggregate["recall_valid_only"]["total"]) == (2, 2)
    assert (aggregate["gate_accuracy"]["total"], aggregate["gate_accuracy_valid_only"]["total"]) == (1, 0)
    assert (aggregate["points_not_judged"], aggregate["gate_not_judged"], aggregate["invalid_results"]) == (1, 1, 2)
    urgent = next(f for f in aggregate["fields"] if f["field"] == "/urgent")
    assert (urgent["matched"], urgent["pinned"], urgent["invalid"], urgent["accuracy_valid_only"]["total"]) == (2, 4, 2, 2)
    medication = next(t for t in aggregate["types"] if t["type"] == "medication")
    assert (medication["points_not_judged"], medication["recall_valid_only"]["total"]) == (1, 0)
    refill = next(f for f in report["fixtures"] if f["id"] == REFILL)
    assert refill["verdict"] == "FAIL" and refill["diagnostics"] == [
        "invalid-format:content without the extra key /notes would pass"]
    from corpustools.io.schemastore import validate
    assert validate("score-report", report) == []
    # the pull request's report says the same, the advisory beside the reason
    markdown = run(capsys, "score", "c", "run", "--format", "markdown")[1]
    assert "(1 invalid result, its 1 point not judged)" in markdown.splitlines()[0]
    assert "- diagnostic: `invalid-format:content inside the fence would pass`" in markdown
    assert "| `/urgent` | 2/2 of valid results, 2 invalid | 100.0% | 34.2%–100.0% |" in markdown
    assert "| expected-point recall, of valid results (1 invalid result, its 1 point not judged) | 2/2 |" in markdown


def test_f1_beside_the_valid_only_recall_is_theirs(capsys):
    # the text report shows recall over the valid results when some were invalid; the F1 printed
    # beside it is of that recall and the precision shown, never of the strict recall it hides
    write_frontdesk("c")
    write_run("run", {**GOLD, REFILL: with_notes(GOLD[REFILL]), ALLERGY: with_notes(GOLD[ALLERGY])})
    lines = run(capsys, "score", "c", "run")[1].splitlines()
    assert next(line for line in lines if line.startswith("precision (items")).endswith("(100.0%, 95% CI 20.7%–100.0%); F1 1.000")
    assert "  allergy: recall 1/1 (100.0%, 95% CI 20.7%–100.0%) (1 invalid result, its 1 point not judged); precision " \
           "1/1 (100.0%, 95% CI 20.7%–100.0%); F1 1.000" in lines
    # the JSON keeps the strict F1 (of the strict recall), as it keeps the strict recall
    aggregate = json.loads(run(capsys, "score", "c", "run", "--format", "json")[1])["aggregate"]
    allergy = next(t for t in aggregate["types"] if t["type"] == "allergy")
    assert (aggregate["f1"], allergy["f1"]) == (0.5, 0.6667)


def test_calibrate_says_an_invalid_result_was_not_read_rather_than_that_it_has_no_item(capsys):
    # a judge who reads an invalid answer's content and sees the point: the scorer read no item from
    # it, and calibrate says so (the output does have the medication; it broke the format)
    write_frontdesk("c")
    write_run("run", {**GOLD, REFILL: with_notes(GOLD[REFILL])})
    assert run(capsys, "adjudicate", "c", "run", "--out", "ws.yaml")[0] == 0
    with open("ws.yaml", encoding="utf-8") as sheet:
        filled = fill_all(sheet.read())
    with open("ws.yaml", "w", encoding="utf-8") as sheet:
        sheet.write(filled)
    code, out, err = run(capsys, "calibrate", "c", "run", "--verdicts", "ws.yaml")
    assert code == 0, err
    detail = next(line for line in out.splitlines() if line.startswith("  brittle-term [point]"))
    assert "no medication proposal" not in detail
    assert detail.endswith("the result is invalid (invalid-result), so the scorer read no proposal from it and "
                           "judged none of its points: a format failure, which no label change fixes")


def test_content_that_would_fail_says_why_and_other_invalid_results_get_no_advisory(capsys):
    write_frontdesk("c")
    wrong = {**GOLD[REFILL], "medications": [{"name": "ibuprofen", "dose": "200 mg"}]}
    broken = {**GOLD[ALLERGY], "urgent": "no"}  # a wrong type: no format failure, a wrong answer's shape
    write_run("run", {**GOLD, REFILL: fenced(with_notes(wrong)), ALLERGY: broken})
    report = json.loads(run(capsys, "score", "c", "run", "--format", "json")[1])
    diagnostics = {f["id"]: f["diagnostics"] for f in report["fixtures"]}
    assert diagnostics[REFILL] == ["invalid-format:content inside the fence, without the extra key /notes would fail "
                                   "(missed-point:ibuprofen-dose, phantom-over-budget:1>0)"]
    assert diagnostics[ALLERGY] == []


def test_a_committed_run_without_invalid_results_reads_as_before_and_compare_warns_of_strictness(capsys):
    write_frontdesk("c")
    write_run("good", GOLD)
    before = run(capsys, "score", "c", "good")[1]
    assert "of valid results" not in before and "not judged" not in before
    write_run("bad", {**GOLD, REFILL: with_notes(GOLD[REFILL])})
    code, out, _ = run(capsys, "compare", "c", "--base", "good", "--candidate", "bad")
    assert code == 0 and ("warning: bad: 1 invalid result, compared strictly (as missed points, wrong fields and gate "
                          "errors: a format failure counts against the prompt); `corpustools score` shows each figure "
                          "over the valid results too") in out.splitlines()


# --- 6. validate result: any contract, the scorer's words ----------------------------------------------

def test_validate_result_checks_answers_against_the_corpus_contract_with_the_scorers_messages(capsys):
    write_frontdesk("c")
    write_run("run", {**GOLD, REFILL: with_notes(GOLD[REFILL]), RESCHEDULE: fenced(GOLD[RESCHEDULE]),
                      ALLERGY: {**GOLD[ALLERGY], "allergies": "latex"}})
    code, out, err = run(capsys, "validate", "result", "c", *(f"run/{f}.json" for f in sorted(GOLD)))
    assert (code, err) == (1, "")
    scored = json.loads(run(capsys, "score", "c", "run", "--format", "json")[1])
    reasons = {f["id"]: f["reasons"] for f in scored["fixtures"]}
    # each invalid answer's line is the scorer's invalid-result detail, word for word
    assert out.splitlines() == [
        reasons[ALLERGY][0].removeprefix("invalid-result:"),
        f"run/{BILLING}.json: valid",
        reasons[REFILL][0].removeprefix("invalid-result:"),
        f"run/{REFILL}.json: warning: the content without the extra key /notes is a valid answer",
        reasons[RESCHEDULE][0].removeprefix("invalid-result:"),
        f"run/{RESCHEDULE}.json: warning: the content inside the fence is a valid answer"]
    assert out.splitlines()[0] == f"run/{ALLERGY}.json: /allergies: 'latex' is not of type 'array'"
    code, out, _ = run(capsys, "validate", "result", "c", f"run/{ALLERGY}.json", "--format", "json")
    assert code == 1 and json.loads(out) == [{"path": f"run/{ALLERGY}.json", "line": None, "col": None,
                                              "pointer": "/allergies", "severity": "error",
                                              "message": "'latex' is not of type 'array'"}]


def test_validate_result_warns_of_an_absent_field_and_a_name_score_would_not_read(capsys):
    from tests.support.frontdesk import SCHEMA

    loose = json.dumps({**SCHEMA, "required": ["medications", "allergies"]}, indent=2) + "\n"
    write_frontdesk("c", {"output.schema.json": loose})
    answer = {k: v for k, v in GOLD[REFILL].items() if k != "urgent"}
    write_run("run", {"med-refil-01": answer})
    code, out, _ = run(capsys, "validate", "result", "c", "run/med-refil-01.json")
    assert code == 0 and out.splitlines() == [
        "run/med-refil-01.json: warning: /urgent: absent: the output contract declares this field (output.fields); "
        "a sidecar pinning it counts it as a mismatch",
        "run/med-refil-01.json: names no fixture with a sidecar; not scored (did you mean med-refill-01.json?)",
        "run/med-refil-01.json: valid"]


@pytest.mark.parametrize("argv, code, line", [
    (["c"], 2, "corpustools validate: validate result takes CORPUS FILE...: "),
    (["c", "-"], 2, "corpustools validate: validate result takes CORPUS FILE...: "),
    (["nowhere", "x.json"], 2, "corpustools validate: nowhere: "),
    (["c", "absent.json"], 2, "absent.json: no such file"),
])
def test_validate_result_needs_a_corpus_and_files(capsys, argv, code, line):
    write_frontdesk("c")
    got, out, err = run(capsys, "validate", "result", *argv)
    assert (got, out) == (code, "") and err.startswith(line) and err.count("\n") == 1


def test_validate_result_of_a_text_contract_and_a_file_saved_under_the_other_name(capsys):
    assert run(capsys, "init", "t", "--output", "text")[0] == 0
    answers = {"admit-rule-01.txt": "Run the linter before every commit.\n", "reject-noise-01.json": "{}"}
    for name, text in answers.items():
        (__import__("pathlib").Path("t/gold") / name).write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "validate", "result", "t", "t/gold/admit-rule-01.txt", "t/gold/reject-noise-01.json")
    assert code == 1 and out.splitlines() == [
        "t/gold/admit-rule-01.txt: valid",
        "t/gold/reject-noise-01.json: this corpus's output format is text (corpus.yaml output.format): save the "
        "result as reject-noise-01.txt"]
