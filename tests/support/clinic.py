"""A small clinic-intake corpus, written in a test's tmp folder: the answer lists medicines as
`{name, dose}` objects and allergies as strings, with a visit reason and an urgency flag
(docs/contracts.md), so that a dose can be checked as a value (`item_fields`) and as words.

`CLINIC_FILES` lints clean under `--strict`; `GOLD` holds an output per fixture that scores 100%.
"""

from __future__ import annotations

import json

from tests.support.triage import session, write_files

MEDS, BILLING = "intake-meds-01", "intake-billing-01"

OUTPUT = """\
output:
  format: json
  schema: output.schema.json
  items:
    - type: medication
      at: /medications
      match: [name, dose]
      title: name
    - type: allergy
      at: /allergies
  fields: [/visit_reason, /urgent]
"""

SPEC = """\
corpus_version: 1
name: clinic-mini
prompt_under_eval:
  name: clinic-intake
  version: 1
harnesses: [claude]
turns:
  min: 4
  max: 10
""" + OUTPUT + """\
session:
  roles: {PATIENT: user, RECEPTIONIST: agent}
  frontmatter: [session_id, captured_at]
categories:
  - id: intake-meds
    count: 1
    expect: medication
    tests: a patient lists the medicines and doses they take, and an allergy
  - id: intake-billing
    count: 1
    expect: empty
    tests: a billing question with no medicine in it
"""

# The item schema sits behind a $ref, as a schema written by hand often has it.
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["visit_reason", "urgent", "medications", "allergies"],
    "additionalProperties": False,
    "properties": {
        "visit_reason": {"enum": ["checkup", "billing", "injury"]},
        "urgent": {"type": "boolean"},
        "medications": {"type": "array", "items": {"$ref": "#/$defs/medication"}},
        "allergies": {"type": "array", "items": {"type": "string"}},
    },
    "$defs": {"medication": {"type": "object", "required": ["name", "dose"], "additionalProperties": False,
                             "properties": {"name": {"type": "string"}, "dose": {"type": "string"}}}},
}

MEDS_TURNS = (
    ("PATIENT", "Hello, I'm here for my blood pressure checkup. I take amlodipine 5 mg every morning."),
    ("RECEPTIONIST", "Thank you. Amlodipine 5 mg in the morning. Do you take any other medicine?"),
    ("PATIENT", "Lisinopril 10 mg at night, and an albuterol inhaler, 90 mcg, when my chest is tight."),
    ("RECEPTIONIST", "So lisinopril 10 mg at night and albuterol 90 mcg as needed. Any allergies?"),
    ("PATIENT", "Latex. Gloves give me a rash, so please tell the nurse."),
    ("RECEPTIONIST", "Noted, a latex allergy. Please take a seat, the nurse will call you."),
)
BILLING_TURNS = (
    ("PATIENT", "I got a bill for my last visit but my insurance should have paid it."),
    ("RECEPTIONIST", "Let me look. The claim went to your old insurer; I will send it again today."),
    ("PATIENT", "Thanks. Do I need to pay anything meanwhile?"),
    ("RECEPTIONIST", "No, nothing until the new claim is settled. You will get a letter."),
)

MEDS_SIDECAR = f"""\
fixture_id: {MEDS}
category: intake-meds
expect_empty: false
expected_points:
  - id: lisinopril-10
    type: medication
    must_match_all: [lisinopril, 10 mg]
    notes: Lisinopril, 10 mg, at night.
  - id: amlodipine-5
    type: medication
    must_match_all: [amlodipine]
    item_fields:
      dose: "5 mg"
    notes: Amlodipine, 5 mg, every morning.
  - id: albuterol-90
    type: medication
    must_match_all: [albuterol]
    item_fields:
      dose: ["90 mcg", "90 micrograms"]
    notes: An albuterol inhaler, 90 mcg, as needed.
  - id: latex-allergy
    type: allergy
    must_match_all: [latex]
    notes: An allergy to latex.
expected_fields:
  /visit_reason: checkup
  /urgent: false
max_unexpected_proposals: 0
notes: A checkup where the patient lists three medicines with their doses and a latex allergy.
"""

CLINIC_FILES = {
    "corpus.yaml": SPEC,
    "output.schema.json": json.dumps(SCHEMA, indent=2) + "\n",
    f"sessions/{MEDS}.md": session("0b6f6c1e-5d0a-4a57-8c3e-7d2b9a41f6e8", MEDS_TURNS),
    f"sessions/{BILLING}.md": session("c2e4a9f3-1b7d-4e60-a8d5-3f9b0c6e27a1", BILLING_TURNS),
    f"expected/{MEDS}.yaml": MEDS_SIDECAR,
    f"expected/{BILLING}.yaml": f"""\
fixture_id: {BILLING}
category: intake-billing
expect_empty: true
expected_points: []
expected_fields:
  /visit_reason: billing
  /urgent: false
max_unexpected_proposals: 0
notes: A billing question; there is no medicine or allergy to record.
""",
}


def medication(name: str, dose: str) -> dict:
    return {"name": name, "dose": dose}


def answer(*medications: dict, allergies=("latex",), visit_reason: str = "checkup", urgent: bool = False) -> dict:
    return {"visit_reason": visit_reason, "urgent": urgent, "medications": list(medications),
            "allergies": list(allergies)}


GOLD = {
    MEDS: answer(medication("lisinopril", "10 mg"), medication("amlodipine", "5 mg"),
                 medication("albuterol inhaler", "90 mcg")),
    BILLING: answer(allergies=(), visit_reason="billing"),
}


def write_clinic(root, overrides: dict | None = None):
    """The clinic corpus under `root`, with `overrides` applied (text replaces, None removes)."""
    return write_files(root, {**CLINIC_FILES, **(overrides or {})})
