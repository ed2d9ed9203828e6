"""Any extraction prompt, not only the shipped one: corpus.yaml's `output:` and `session:` declare
the output contract and the session format (issue 20, docs/contracts.md). These run the real
commands on a support-ticket triage corpus made in tmp (tests/support/triage.py): a
classification answer (`queue`, `priority`, `escalate`) plus a list of facts, roles
CUSTOMER/AGENT."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpustools.cli import main
from tests.support.triage import BILLING, GOLD, OUTAGE, OUTPUT, SPEC, TRIAGE_FILES, write_files, write_run, write_triage

pytestmark = pytest.mark.usefixtures("in_tmp")


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def score_json(capsys, *argv) -> dict:
    code, out, err = run(capsys, "score", *argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def fixture(report: dict, fixture_id: str) -> dict:
    return next(f for f in report["fixtures"] if f["id"] == fixture_id)


def with_spec(old: str, new: str) -> dict:
    assert old in SPEC
    return {"corpus.yaml": SPEC.replace(old, new)}


# --- a classification corpus, end to end -------------------------------------------------------

def test_a_triage_corpus_lints_clean_and_its_gold_scores_100_percent(capsys):
    write_triage("c")
    write_run("gold", GOLD)
    assert run(capsys, "lint", "c", "--strict") == (0, "All checks passed.\n", "")
    report = score_json(capsys, "c", "gold")
    assert [(f["id"], f["verdict"], f["reasons"]) for f in report["fixtures"]] == [
        (BILLING, "PASS", []), (OUTAGE, "PASS", [])]
    assert fixture(report, BILLING)["proposals"] == [
        {"name": "fact[0]", "type": "fact",
         "title": "A refund of a duplicate charge reaches the card within five business days."}]
    aggregate = report["aggregate"]
    assert [(f["field"], f["matched"], f["pinned"]) for f in aggregate["fields"]] == [
        ("/queue", 2, 2), ("/priority", 2, 2), ("/escalate", 2, 2)]
    assert (aggregate["precision"]["rate"], aggregate["f1"]) == (1.0, 1.0)


def test_a_wrong_classification_fails_with_field_mismatch_and_its_evidence(capsys):
    write_triage("c")
    write_run("run", {BILLING: {**GOLD[BILLING], "priority": "urgent"}, OUTAGE: {**GOLD[OUTAGE], "escalate": False}})
    report = score_json(capsys, "c", "run")
    assert fixture(report, BILLING)["reasons"] == ["field-mismatch:/priority"]
    assert fixture(report, OUTAGE)["reasons"] == ["field-mismatch:/escalate"]
    assert fixture(report, BILLING)["fields"][:2] == [
        {"field": "/queue", "expected": ["billing"], "got": "billing", "present": True, "matched": True},
        {"field": "/priority", "expected": ["normal", "low"], "got": "urgent", "present": True, "matched": False}]
    code, markdown, _ = run(capsys, "score", "c", "run", "--format", "markdown")
    assert "- `field-mismatch:/priority`\n  - expected `\"normal\"` or `\"low\"`; got `\"urgent\"`\n" in markdown
    assert "- `field-mismatch:/escalate`\n  - expected `true`; got `false`\n" in markdown
    # the per-field table: accuracy with its interval, then expected against got, fixture by fixture
    assert "| `/escalate` | 1/2 | 50.0% | 9.5%–90.5% |" in markdown
    assert f"| {OUTAGE} | `true` | `false` | **no** |" in markdown
    text = run(capsys, "score", "c", "run", "--format", "text")[1]
    assert ('  field /priority: expected "normal" or "low"; got "urgent"  [field-mismatch:/priority]\n') in text
    assert "\nfield /priority: 1/2 (50.0%, 95% CI 9.5%–90.5%)\n" in text


def test_a_pinned_field_absent_from_the_result_is_a_mismatch_not_an_invalid_result(capsys):
    write_triage("c")
    write_files("c", {"output.schema.json": json.dumps({"type": "object"})})  # the schema no longer requires it
    write_run("run", {BILLING: {k: v for k, v in GOLD[BILLING].items() if k != "escalate"}, OUTAGE: GOLD[OUTAGE]})
    report = score_json(capsys, "c", "run")
    billing = fixture(report, BILLING)
    assert (billing["status"], billing["reasons"]) == ("ok", ["field-mismatch:/escalate"])
    assert billing["fields"][2] == {"field": "/escalate", "expected": [False], "got": None, "present": False,
                                    "matched": False}
    text = run(capsys, "score", "c", "run", "--format", "text")[1]
    assert "expected false; got nothing: /escalate is absent from the output" in text


@pytest.mark.parametrize("expected, got, matched", [
    ('"needs review"', "Needs-Review", True),  # strings compare after the scorer's normalization
    ("2", 2.0, True), ("2", "2", False),  # numbers exactly, and only numbers
    ("true", True, True), ("true", 1, False), ("true", "true", False),  # booleans are booleans
    ("null", None, True), ("null", "", False),
    ("[low, normal]", "normal", True), ("[low, normal]", "high", False),  # a list: any one of them
])
def test_how_a_pinned_value_is_compared(capsys, expected, got, matched):
    sidecar = TRIAGE_FILES[f"expected/{BILLING}.yaml"].replace("  /queue: billing", f"  /queue: {expected}")
    write_triage("c", {f"expected/{BILLING}.yaml": sidecar, "output.schema.json": json.dumps({"type": "object"})})
    write_run("run", {BILLING: {**GOLD[BILLING], "queue": got}, OUTAGE: GOLD[OUTAGE]})
    assert fixture(score_json(capsys, "c", "run"), BILLING)["fields"][0]["matched"] is matched


def test_precision_and_f1_per_item_type_on_a_hand_computed_example(capsys):
    # Two item types. Expected points: fact 2 (one matched), step 1 (matched) -> recall 2/3.
    # Items: fact 3 (one matching), step 2 (one matching; the other matches only an optional
    # point, which counts for precision) -> fact precision 1/3, step 2/2, overall 3/5.
    # F1 overall = 2 * 0.6 * 0.6667 / (0.6 + 0.6667) = 0.6316; fact 2 * (1/3) * (1/2) / (5/6) = 0.4;
    # step 1.0.
    spec = SPEC.replace("""      at: /kb_facts
""", """      at: /kb_facts
    - type: step
      at: /steps
      match: [action]
""").replace("expect: fact", "expect: subset")
    sidecar = TRIAGE_FILES[f"expected/{BILLING}.yaml"].replace("""    notes: A refund of a duplicate charge takes five business days to reach the card.
""", """    notes: A refund of a duplicate charge takes five business days to reach the card.
  - id: two-charges
    type: fact
    must_match_all: [duplicate charge, card]
  - id: refund-step
    type: step
    must_match_all: [duplicate charge, refunded]
optional_points:
  - id: reproduce
    type: step
    must_match_all: [charges, invoice]
""").replace("max_unexpected_proposals: 0", "max_unexpected_proposals: 2")
    write_triage("c", {"corpus.yaml": spec, f"expected/{BILLING}.yaml": sidecar,
                       "output.schema.json": json.dumps({"type": "object"})})
    write_run("run", {BILLING: {**GOLD[BILLING], "kb_facts": [
        "A refund reaches you in five business days.", "The customer was polite.", "Checkout was down."],
        "steps": [{"action": "The duplicate charge was refunded."}, {"action": "Found two charges on the invoice."}]},
        OUTAGE: {**GOLD[OUTAGE], "steps": []}})
    report = score_json(capsys, "c", "run")
    assert fixture(report, BILLING)["reasons"] == ["missed-point:two-charges"]  # 2 phantoms, within the budget
    a = report["aggregate"]
    assert (a["items_matching"], a["items_total"], a["precision"]["rate"]) == (3, 5, 0.6)
    assert (a["points_matched"], a["points_total"], a["f1"]) == (2, 3, 0.6316)
    assert [(t["type"], t["recall"]["successes"], t["recall"]["total"], t["items_matching"], t["items_total"],
             t["f1"]) for t in a["types"]] == [("fact", 1, 2, 1, 3, 0.4), ("step", 1, 1, 2, 2, 1.0)]
    assert a["precision"]["low"] == 0.2307 and a["precision"]["high"] == 0.8824  # its Wilson interval
    text = run(capsys, "score", "c", "run", "--format", "text")[1]
    assert "\nprecision (items matching a point): 3/5 (60.0%, 95% CI 23.1%–88.2%); F1 0.632\n" in text
    assert "  fact: recall 1/2 (50.0%, 95% CI 9.5%–90.5%); precision 1/3 (33.3%, 95% CI 6.1%–79.2%); F1 0.400\n" in text
    page = run(capsys, "score", "c", "run", "--format", "html")[1]
    assert "<td><code>step</code></td><td>1/1</td><td>100.0%</td><td>2/2</td><td>100.0%</td><td>1.000</td>" in page


# --- bad input: one line each, file:line:col ----------------------------------------------------

@pytest.mark.parametrize("old, new, line", [
    ("  format: json\n", "  fromat: json\n",
     "c/corpus.yaml:11:3: CT003 [error] /output/fromat: unknown key 'fromat': did you mean 'format'?"),
    ("  frontmatter:", "  frontmater:",
     "c/corpus.yaml:19:3: CT003 [error] /session/frontmater: unknown key 'frontmater': did you mean "
     "'frontmatter'?"),
    ("      at: /kb_facts\n", "      at: /kb_facts\n      mach: [text]\n",
     "c/corpus.yaml:16:7: CT003 [error] /output/items/0/mach: unknown key 'mach': did you mean 'match'?"),
    ("      at: /kb_facts", "      at: kb_facts",
     "c/corpus.yaml:15:7: CT003 [error] /output/items/0/at: 'kb_facts' is not a JSON pointer: a pointer starts "
     "with '/' (write /kb_facts)"),
    ("  fields: [/queue,", "  fields: [queue,",
     "c/corpus.yaml:16:12: CT003 [error] /output/fields/0: 'queue' is not a JSON pointer: a pointer starts with "
     "'/' (write /queue)"),
    ("      at: /kb_facts\n", "      at: /kb_facts\n    - type: fact\n      at: /facts\n",
     "c/corpus.yaml:16:7: CT003 [error] /output/items/1/type: item type 'fact' is declared twice (also "
     "output.items[0]); one entry per type"),
    ("CUSTOMER: user", "CUSTOMER: customer",
     "c/corpus.yaml:18:3: CT003 [error] /session/roles: no tag stands for the user; map at least one role tag to "
     "user\nc/corpus.yaml:18:11: CT003 [error] /session/roles/CUSTOMER: speaker 'customer' is not one of user, "
     "agent (did you mean user?)\n"),
    ("  frontmatter: [session_id, captured_at]", "  frontmatter: [captured_at]",
     "c/corpus.yaml:19:3: CT003 [error] /session/frontmatter: session_id is always required; add it to the list"),
    ("  format: json\n", "  format: text\n",
     "c/corpus.yaml:12:3: CT003 [error] /output/schema: not for format text: a text output is no JSON document; "
     "remove it"),
    ("  schema: output.schema.json", "  schema: missing.schema.json",
     "c/corpus.yaml:12:3: CT003 [error] /output/schema: cannot read the schema file: missing.schema.json: "),
])
def test_a_contract_mistake_in_corpus_yaml_is_one_line_at_its_key(capsys, old, new, line):
    write_triage("c", with_spec(old, new))
    code, out, err = run(capsys, "lint", "c")
    assert code == 1 and err == ""
    assert out.startswith(line), out
    # ...and only there: the sessions are still read with the declared tags and frontmatter keys
    # (unless the key that declares them is itself misspelt)
    assert "expected/" not in out and ("sessions/" not in out or "frontmater" in new), out
    # score refuses with the first of those lines: no result can be read under a broken contract
    write_run("run", GOLD)
    code, out, err = run(capsys, "score", "c", "run")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("corpustools score: " + line.split("\n")[0].replace(" CT003 [error]", "")), err


def test_an_expect_that_is_no_item_type_is_a_spec_error_with_a_suggestion(capsys):
    write_triage("c", with_spec("expect: fact", "expect: facts"))
    assert run(capsys, "lint", "c")[1].splitlines()[0] == (
        "c/corpus.yaml:23:5: CT003 [error] /categories/0/expect: expect 'facts' is not an item type of the output "
        "contract (fact), empty or subset (did you mean fact?)")


def test_an_undeclared_point_type_or_field_in_a_sidecar_is_a_lint_error_with_a_suggestion(capsys):
    sidecar = (TRIAGE_FILES[f"expected/{BILLING}.yaml"].replace("type: fact", "type: facts")
               .replace("  /queue: billing", "  /queu: billing"))
    write_triage("c", {f"expected/{BILLING}.yaml": sidecar})
    code, out, _ = run(capsys, "lint", "c")
    assert code == 1
    assert out.splitlines()[:2] == [
        f"c/expected/{BILLING}.yaml:6:5: CT005 [error] /expected_points/0/type: type 'facts' is not an item type "
        "of the output contract (fact) (did you mean fact?)",
        f"c/expected/{BILLING}.yaml:11:3: CT005 [error] expected_fields key '/queu' is not a declared field of "
        "the output contract (/queue, /priority, /escalate) (did you mean /queue?)"]


def test_a_role_tag_the_corpus_does_not_declare_names_the_declared_ones(capsys):
    session = TRIAGE_FILES[f"sessions/{OUTAGE}.md"].replace("[AGENT]: The engineers", "[SUPPORT]: The engineers")
    write_triage("c", {f"sessions/{OUTAGE}.md": session})
    code, out, _ = run(capsys, "lint", "c")
    assert (f"c/sessions/{OUTAGE}.md:8:1: CT402 [error] unknown tag [SUPPORT]: only [CUSTOMER] and [AGENT] "
            "(optionally qualified) are turns") in out.splitlines()
    # and the default tags are no turns in this corpus
    session = TRIAGE_FILES[f"sessions/{OUTAGE}.md"].replace("[CUSTOMER]: Your", "[USER]: Your")
    write_triage("c", {f"sessions/{OUTAGE}.md": session})
    out = run(capsys, "lint", "c")[1]
    assert f"c/sessions/{OUTAGE}.md:5:1: CT402 [error] unknown tag [USER]: only [CUSTOMER] and [AGENT]" in out
    assert f"c/sessions/{OUTAGE}.md:6:1: CT403 [warning] session begins with an [AGENT] turn, not [CUSTOMER]" in out


def test_declared_frontmatter_keys_are_the_keys_a_session_has(capsys):
    session = TRIAGE_FILES[f"sessions/{OUTAGE}.md"].replace("captured_at:", "harness: claude\ncaptured_at:")
    write_triage("c", {f"sessions/{OUTAGE}.md": session})
    out = run(capsys, "lint", "c")[1]
    assert out.splitlines()[0] == (f"c/sessions/{OUTAGE}.md:3:1: CT004 [error] unexpected frontmatter key "
                                   "'harness' (allowed: session_id, captured_at)")


@pytest.mark.parametrize("content, line", [
    ({**GOLD[BILLING], "kb_facts": {"refund": "five business days"}},
     "/kb_facts: {'refund': 'five business days'} is not of type 'array'"),
    ({**GOLD[BILLING], "queue": "refunds"},
     "/queue: 'refunds' is not one of ['billing', 'technical', 'account']"),  # the declared schema's words
    ({k: v for k, v in GOLD[BILLING].items() if k != "kb_facts"}, "/: 'kb_facts' is a required property"),
])
def test_a_result_the_contract_cannot_read_is_an_invalid_result_naming_the_pointer(capsys, content, line):
    write_triage("c")
    write_run("run", {BILLING: content, OUTAGE: GOLD[OUTAGE]})
    billing = fixture(score_json(capsys, "c", "run"), BILLING)
    assert (billing["status"], billing["reasons"]) == ("invalid-result", [f"invalid-result:run/{BILLING}.json: {line}"])


@pytest.mark.parametrize("content, line", [
    ({k: v for k, v in GOLD[BILLING].items() if k != "kb_facts"},
     "/kb_facts: missing; the output contract reads fact items from an array there"),
    ({**GOLD[BILLING], "kb_facts": {"refund": "five business days"}},
     "/kb_facts: is an object, not an array of fact items"),
    ({**GOLD[BILLING], "kb_facts": "A refund takes five business days."},
     "/kb_facts: is a string, not an array of fact items"),
    ({**GOLD[BILLING], "kb_facts": [{"text": "A refund takes five business days."}]},
     "/kb_facts/0: is an object, not a string (fact items are strings: the contract names no match fields)"),
])
def test_without_a_schema_the_contract_still_names_the_pointer_it_cannot_read(capsys, content, line):
    write_triage("c", {**with_spec("  schema: output.schema.json\n", ""), "output.schema.json": None})
    write_run("run", {BILLING: content, OUTAGE: GOLD[OUTAGE]})
    assert fixture(score_json(capsys, "c", "run"), BILLING)["reasons"] == [f"invalid-result:run/{BILLING}.json: {line}"]


def test_a_result_saved_under_the_other_formats_name_says_which_name_to_use(capsys):
    write_triage("c")
    write_run("run", {OUTAGE: GOLD[OUTAGE]})
    write_files("run", {f"{BILLING}.txt": json.dumps(GOLD[BILLING])})
    assert fixture(score_json(capsys, "c", "run"), BILLING)["reasons"] == [
        f"invalid-result:run/{BILLING}.txt: this corpus's output format is json (corpus.yaml output.format): "
        f"save the result as {BILLING}.json"]


def test_the_schema_files_dialect_uri_is_no_host_finding_but_another_url_there_is(capsys):
    schema = TRIAGE_FILES["output.schema.json"].replace(
        '"type": "object",', '"type": "object",\n  "$comment": "see https://wiki.acme-support.com/triage",')
    write_triage("c", {"output.schema.json": schema})
    code, out, _ = run(capsys, "lint", "c")
    assert code == 1
    assert out.splitlines()[0].startswith("c/output.schema.json:4:20: CT504 [error] URL with host "
                                          "`wiki.acme-support.com`; fingerprint ")
    assert "json-schema.org" not in out


def test_score_flags_results_produced_under_another_contract(capsys, tmp_path):
    write_triage("c")
    (tmp_path / "prompt.md").write_text("Version: 1\nTriage the ticket.\n")
    assert run(capsys, "run", "init", "run", "--corpus", "c", "--prompt", "prompt.md", "--model", "m",
               "--temperature", "0")[0] == 0
    write_run("run", GOLD)
    assert "contract_sha256: " in (tmp_path / "run/run.yaml").read_text()
    assert score_json(capsys, "c", "run")["corpus_drift"] is None
    # the schema file is part of the contract, not of the corpus hash; the contract is label-side:
    # the run is scored under the current contract, and says so
    write_files("c", {"output.schema.json": json.dumps({**json.loads(TRIAGE_FILES["output.schema.json"]),
                                                         "additionalProperties": True})})
    report = score_json(capsys, "c", "run")
    assert report["corpus_drift"] is None
    assert report["labels_revised"] == "labels revised since this run (corpus version 1 → 1): scored under the " \
                                       "current labels"
    code, out, err = run(capsys, "compare", "c", "--base", "run", "--candidate", "run")
    assert code == 0 and "labels revised since this run" in out


# --- text answers --------------------------------------------------------------------------------

TEXT_SPEC = SPEC.replace(OUTPUT, """output:
  format: text
  empty: ["", "none", "n/a"]
""").replace("expect: fact", "expect: answer")
TEXT_SIDECAR = TRIAGE_FILES[f"expected/{BILLING}.yaml"].replace("type: fact", "type: answer").replace("""expected_fields:
  /queue: billing
  /priority: [normal, low]
  /escalate: false
""", "")
TEXT_FILES = {"corpus.yaml": TEXT_SPEC, "output.schema.json": None, f"expected/{BILLING}.yaml": TEXT_SIDECAR,
              f"expected/{OUTAGE}.yaml": TRIAGE_FILES[f"expected/{OUTAGE}.yaml"].split("expected_fields:")[0]
              + "max_unexpected_proposals: 0\nnotes: A checkout outage in progress; nothing to keep.\n"}


def test_a_text_answer_is_one_item_and_empty_answers_are_declared(capsys):
    write_triage("c", TEXT_FILES)
    assert run(capsys, "lint", "c", "--strict") == (0, "All checks passed.\n", "")
    write_files("run", {f"{BILLING}.txt": "Refunds of a duplicate charge\ntake five business days.\n",
                        f"{OUTAGE}.txt": "  None \n"})
    report = score_json(capsys, "c", "run")
    assert [(f["id"], f["verdict"]) for f in report["fixtures"]] == [(BILLING, "PASS"), (OUTAGE, "PASS")]
    assert fixture(report, BILLING)["proposals"] == [
        {"name": "answer[0]", "type": "answer", "title": "Refunds of a duplicate charge"}]
    assert fixture(report, OUTAGE)["proposals"] == []  # "None" is an empty answer here
    assert report["aggregate"]["phantoms"] is None and report["aggregate"]["gate_correct"] == 1
    text = run(capsys, "score", "c", "run", "--format", "text")[1]
    assert "; phantoms n/a (text answers); " in text.splitlines()[-1]  # the verdict line, last
    markdown = run(capsys, "score", "c", "run", "--format", "markdown")[1]
    assert "| phantoms (unexpected proposals) | n/a (text answers) |  |  |" in markdown


def test_a_wrong_text_answer_fails_and_is_never_a_phantom(capsys):
    write_triage("c", TEXT_FILES)
    write_files("run", {f"{BILLING}.txt": "The March invoice was charged twice.\n",
                        f"{OUTAGE}.txt": "Escalate: checkout is down.\n"})
    report = score_json(capsys, "c", "run")
    assert fixture(report, BILLING)["reasons"] == ["missed-point:refund-delay", "forbidden-match:refund-delay:march invoice"]
    assert fixture(report, BILLING)["forbidden"] == [
        {"point": "refund-delay", "term": "march invoice", "proposal": "answer[0]", "field": "text"}]
    assert fixture(report, OUTAGE)["reasons"] == ["non-empty-where-empty"]
    assert all(f["unexpected"] == [] for f in report["fixtures"])


def test_a_json_result_under_a_text_contract_says_which_name_to_use(capsys):
    write_triage("c", TEXT_FILES)
    write_files("run", {f"{BILLING}.json": '"refunds take five business days"', f"{OUTAGE}.txt": ""})
    assert fixture(score_json(capsys, "c", "run"), BILLING)["reasons"] == [
        f"invalid-result:run/{BILLING}.json: this corpus's output format is text (corpus.yaml output.format): "
        f"save the result as {BILLING}.txt"]


@pytest.mark.parametrize("matching, fires", [(None, False), ("words", False), ("substring", True)])
def test_matching_decides_what_a_term_matches_for_scorer_and_linter(capsys, matching, fires):
    # `voice` is part of the word "invoice": a substring, never a word start
    sidecar = TRIAGE_FILES[f"expected/{BILLING}.yaml"].replace("must_not_match: [march invoice]",
                                                               "must_not_match: [voice]")
    spec = SPEC.replace("  fields: [", f"  matching: {matching}\n  fields: [") if matching else SPEC
    write_triage("c", {"corpus.yaml": spec, f"expected/{BILLING}.yaml": sidecar})
    write_run("run", {**GOLD, BILLING: {**GOLD[BILLING], "kb_facts": ["Refunds of an invoice take five business days."]}})
    assert fixture(score_json(capsys, "c", "run"), BILLING)["reasons"] == (
        ["forbidden-match:refund-delay:voice"] if fires else [])
    # the linter finds the term as the scorer does: said in the chat only as part of "invoice"
    assert ("CT607" in run(capsys, "lint", "c", "--select", "CT607")[1]) is not fires


# --- the lint rules that know about item types ---------------------------------------------------

def test_taught_by_makes_ct602_check_the_declared_speaker(capsys):
    sidecar = TRIAGE_FILES[f"expected/{BILLING}.yaml"].replace("[refund, business days]", "[duplicate charge, business days]")
    spec = SPEC.replace("      at: /kb_facts\n", "      at: /kb_facts\n      taught_by: [user]\n")
    write_triage("c", {"corpus.yaml": spec, f"expected/{BILLING}.yaml": sidecar})
    out = run(capsys, "lint", "c", "--strict")[1]
    # the customer says "business days" too, but only the agent says "duplicate charge"
    assert out.splitlines()[0] == (
        f"c/expected/{BILLING}.yaml:7:22: CT602 [warning] term 'duplicate charge' of fact point 'refund-delay' "
        "occurs only in [AGENT] turns; facts come from what the user taught")
    spec = SPEC.replace("      at: /kb_facts\n", "      at: /kb_facts\n      taught_by: [agent]\n")
    write_triage("c", {"corpus.yaml": spec, f"expected/{BILLING}.yaml": sidecar})
    assert run(capsys, "lint", "c", "--strict") == (0, "All checks passed.\n", "")


def test_a_category_expecting_an_item_type_needs_a_point_of_it(capsys):
    sidecar = TRIAGE_FILES[f"expected/{BILLING}.yaml"]
    spec = SPEC.replace("""      at: /kb_facts
""", """      at: /kb_facts
    - type: step
      at: /steps
""").replace("expect: fact", "expect: step")
    write_triage("c", {"corpus.yaml": spec, f"expected/{BILLING}.yaml": sidecar})
    out = run(capsys, "lint", "c")[1]
    assert "CT303 [error] category billing-refund expects a step point; there is none" in out


# --- adjudicate and calibrate --------------------------------------------------------------------

def test_a_worksheet_shows_each_item_as_the_contract_declares_it_and_calibrates(capsys, tmp_path):
    write_triage("c")
    write_run("gold", GOLD)
    assert run(capsys, "adjudicate", "c", "gold", "--out", "ws.yaml")[0] == 0
    sheet = (tmp_path / "ws.yaml").read_text()
    assert ("      - name: fact[0]\n        type: fact\n        fields:\n          text: A refund of a duplicate "
            "charge reaches the card within five business days.\n        class: ") in sheet
    assert "    expect: fact\n" in sheet and "    expect: empty\n" in sheet
    answers = {"captured:": "captured: yes", "class:": "class: point:refund-delay", "task_detail_leak:":
               "task_detail_leak: no", "verdict:": "verdict: PASS", "why:": 'why: ""'}
    judged = "\n".join(next((line[:len(line) - len(line.lstrip())] + answer for key, answer in answers.items()
                             if line.strip().startswith(key)), line) for line in sheet.splitlines()) + "\n"
    (tmp_path / "judged.yaml").write_text(judged)
    assert run(capsys, "validate", "adjudication", "judged.yaml")[0] == 0
    code, out, _ = run(capsys, "calibrate", "c", "gold", "--verdicts", "judged.yaml", "--format", "markdown")
    assert code == 0 and "**Fixture verdicts agree on 2/2**" in out and "proposals 1/1" in out


def test_a_worksheet_shows_the_results_pinned_fields_so_a_judge_can_check_them(capsys, tmp_path):
    # without the output schema, so that a string "false" and a missing priority still read
    write_triage("c", {"corpus.yaml": SPEC.replace("  schema: output.schema.json\n", ""), "output.schema.json": None})
    outage = {key: value for key, value in GOLD[OUTAGE].items() if key != "priority"}  # no priority at all
    write_run("run", {BILLING: {**GOLD[BILLING], "escalate": "false"}, OUTAGE: outage})
    assert run(capsys, "adjudicate", "c", "run", "--out", "ws.yaml")[0] == 0
    sheet = (tmp_path / "ws.yaml").read_text()
    # JSON values, so a judge tells the string "false" from the boolean, and a missing answer is said
    assert ('    fields:\n      "/queue": "billing"\n      "/priority": "normal"\n      "/escalate": "false"\n'
            '    points:\n') in sheet
    assert '      "/priority": null  # absent from the result\n      "/escalate": true\n' in sheet
    assert run(capsys, "validate", "adjudication", "ws.yaml")[1].count("fields") == 0  # only its blanks are wrong


def test_a_worksheet_of_the_built_in_contract_has_no_fields_block(capsys, tmp_path):
    shipped = Path(__file__).resolve().parents[1] / "fixtures" / "prompt-eval"
    assert run(capsys, "adjudicate", shipped, shipped / "runs" / "v5-run6", "--out", "ws.yaml")[0] == 0
    assert "\n    fields:" not in (tmp_path / "ws.yaml").read_text()  # (each proposal's fields are deeper)


def test_a_blank_answer_is_empty_whatever_empty_declares(capsys):
    write_triage("c", {**TEXT_FILES, "corpus.yaml": TEXT_SPEC.replace('empty: ["", "none", "n/a"]', "empty: [none]")})
    write_files("run", {f"{BILLING}.txt": "none", f"{OUTAGE}.txt": " \n\n"})
    report = score_json(capsys, "c", "run")
    assert [(f["id"], f["proposals"], f["reasons"]) for f in report["fixtures"]] == [
        (BILLING, [], ["missed-point:refund-delay"]), (OUTAGE, [], [])]
    assert report["aggregate"]["false_rejects"] == 1


def test_validate_checks_a_sidecar_against_the_contract_of_the_corpus_it_is_in(capsys, tmp_path):
    write_triage("c")
    assert run(capsys, "validate", "sidecar", f"c/expected/{BILLING}.yaml") == (
        0, f"c/expected/{BILLING}.yaml: valid\n", "")
    # outside any corpus, the built-in contract: no `fact` type, no fields
    (tmp_path / "loose.yaml").write_text(TRIAGE_FILES[f"expected/{BILLING}.yaml"])
    code, out, _ = run(capsys, "validate", "sidecar", "loose.yaml")
    assert code == 1 and out.splitlines()[0] == (
        "loose.yaml: /expected_points/0/type: type 'fact' is not an item type of the output contract "
        "(practice, map)")
    write_triage("c", with_spec("      at: /kb_facts", "      at: kb_facts"))
    code, out, _ = run(capsys, "validate", "corpus-spec", "c/corpus.yaml")
    assert (code, out) == (1, "c/corpus.yaml: /output/items/0/at: 'kb_facts' is not a JSON pointer: a pointer "
                              "starts with '/' (write /kb_facts)\n")


# --- the keys are documented ----------------------------------------------------------------------

def undocumented_keys(schema: dict, docs: str) -> list[str]:
    """The keys of corpus.yaml's `output:` and `session:` (and of an `output.items[]` entry) in the
    corpus-spec schema that docs/contracts.md has no table row for (`| \\`key\\` |`)."""
    properties = schema["properties"]
    keys = [("output", key) for key in properties["output"]["properties"]]
    keys += [("output", f"items[].{key}") for key in properties["output"]["properties"]["items"]["items"]["properties"]]
    keys += [("session", key) for key in properties["session"]["properties"]]
    sections = {name: docs[docs.find(f"### `{name}:`"):] for name in ("output", "session")}
    return [f"{name}.{key}: no row in docs/contracts.md's `{name}:` table" for name, key in keys
            if f"| `{key}` |" not in sections[name].split("\n### ", 1)[0]]


def test_every_contract_key_of_the_schema_is_documented():
    from corpustools.io.schemastore import schema_text
    from tests.support.recipes import CONTRACT_KEY

    docs = (Path(__file__).resolve().parent.parent / "docs" / "contracts.md").read_text(encoding="utf-8")
    gaps = undocumented_keys(json.loads(schema_text("corpus-spec")), docs)
    assert gaps == [], "\n".join(gaps + [CONTRACT_KEY])


def test_an_undocumented_contract_key_is_named_with_the_recipe():
    schema = {"properties": {
        "output": {"properties": {"format": {}, "description": {}, "items": {"items": {"properties": {"type": {}}}}}},
        "session": {"properties": {"roles": {}}}}}
    docs = "### `output:`\n| `format` | x |\n| `items` | x |\n| `items[].type` | x |\n### `session:`\n| `roles` | x |\n"
    assert undocumented_keys(schema, docs) == ["output.description: no row in docs/contracts.md's `output:` table"]
