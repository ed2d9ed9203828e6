"""A clinic front-desk intake corpus, written in a test's tmp folder: the corpus a second user
brought on day one (issue 33). The receptionist greets first (`session: opens_with: agent`, roles
RECEPTIONIST/PATIENT); the prompt answers the medications a patient takes as `{name, dose}`
objects, their allergies as strings, the visit reason and whether it is urgent; a billing chat
mentions an allergy in passing, so its category expects either item type
(`expect: [medication, allergy]`).

`FRONTDESK_FILES` lints clean under `--strict` (CT604's one-word allergy points aside: its
minimum per item type is issue 33's item 2); `GOLD` holds an answer per fixture that scores 100%.
"""

from __future__ import annotations

import json

from tests.support.clinic import OUTPUT  # the same answer: {name, dose} medications, string allergies
from tests.support.triage import session, write_files

REFILL, ALLERGY, BILLING, RESCHEDULE = "med-refill-01", "allergy-intake-01", "billing-question-01", "reschedule-01"

SESSION = """\
session:
  roles: {RECEPTIONIST: agent, PATIENT: user}
  frontmatter: [session_id, captured_at]
  opens_with: agent
"""

CATEGORIES = """\
categories:
  - id: med-refill
    count: 1
    expect: medication
    tests: a refill request naming a medication and its dose
  - id: allergy-intake
    count: 1
    expect: allergy
    tests: a new patient states an allergy at intake
  - id: billing-question
    count: 1
    expect: [medication, allergy]
    tests: a question about a bill, with an allergy mentioned in passing
  - id: reschedule
    count: 1
    expect: empty
    tests: an appointment moved to another day; nothing clinical is said
"""

SPEC = """\
corpus_version: 1
name: front-desk
prompt_under_eval:
  name: front-desk-intake
  version: 1
harnesses: [claude]
turns:
  min: 6
  max: 12
""" + OUTPUT + SESSION + CATEGORIES

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["visit_reason", "urgent", "medications", "allergies"],
    "additionalProperties": False,
    "properties": {
        "visit_reason": {"enum": ["refill", "new-patient", "billing", "reschedule", "other"]},
        "urgent": {"type": "boolean"},
        "medications": {"type": "array", "items": {
            "type": "object", "required": ["name", "dose"], "additionalProperties": False,
            "properties": {"name": {"type": "string"}, "dose": {"type": "string"}}}},
        "allergies": {"type": "array", "items": {"type": "string"}},
    },
}


R, P = "RECEPTIONIST", "PATIENT"
TURNS = {
    REFILL: (
        (R, "Good morning, Elm Street clinic front desk, how can I help you today?"),
        (P, "Hello, I need a refill of my ibuprofen before the weekend, the 400 mg tablets."),
        (R, "Of course. Which pharmacy should the prescription go to?"),
        (P, "The pharmacy on Market Road, please. I take the ibuprofen twice a day with food."),
        (R, "Noted: ibuprofen twice a day with food, sent to the Market Road pharmacy."),
        (P, "Thank you, I will pick it up on Friday."),
    ),
    ALLERGY: (
        (R, "Welcome to the clinic. Are you registering as a new patient today?"),
        (P, "Yes, I moved here last month and need a family doctor."),
        (R, "Do you have any allergies the nurses should know about before your first visit?"),
        (P, "I am allergic to latex, so gloves need to be the other kind."),
        (R, "I have added the latex allergy to your chart for the nurses."),
        (P, "Good, the last clinic forgot about the latex twice."),
    ),
    BILLING: (
        (R, "Front desk, good afternoon. What can I do for you?"),
        (P, "My bill for the March visit shows a charge for a test I never had."),
        (R, "I see the charge; it was entered by mistake and I will remove it today."),
        (P, "Thanks. Also, the doctor gave me amoxicillin and I remembered I have a penicillin allergy."),
        (R, "I will note the penicillin allergy and ask the doctor to call you about the amoxicillin."),
        (P, "Please do, and send me the corrected bill by mail."),
    ),
    RESCHEDULE: (
        (R, "Good morning, this is the clinic calling about your appointment on Tuesday."),
        (P, "Oh yes, I was going to ask whether I could move it to Thursday."),
        (R, "Thursday at ten in the morning is free. Shall I book that?"),
        (P, "Thursday at ten works, thank you."),
        (R, "Done: Thursday at ten, and the Tuesday slot is released."),
        (P, "Perfect, see you on Thursday."),
    ),
}
IDS = {REFILL: "52cf1c26-8dc3-4fb4-8369-bf9d4679a664", ALLERGY: "08f7f61f-7181-493f-943c-6154016ce670",
       BILLING: "30f75e56-dff3-4ea7-98d3-fe076143ae0b", RESCHEDULE: "d3802c12-8aa9-4190-9c3b-f99dcbbc6e3d"}

SIDECARS = {
    REFILL: f"""\
fixture_id: {REFILL}
category: med-refill
expect_empty: false
expected_points:
  - id: ibuprofen-dose
    type: medication
    must_match_all:
      - ibuprofen
      - [400 mg, 400mg]
    must_not_match: [market road]
expected_fields:
  /visit_reason: refill
  /urgent: false
max_unexpected_proposals: 0
notes: A refill of ibuprofen 400 mg; the pharmacy is this request's detail, not a medication.
""",
    ALLERGY: f"""\
fixture_id: {ALLERGY}
category: allergy-intake
expect_empty: false
expected_points:
  - id: latex-allergy
    type: allergy
    must_match_all: [latex]
expected_fields:
  /visit_reason: new-patient
  /urgent: false
max_unexpected_proposals: 0
notes: A new patient allergic to latex.
""",
    BILLING: f"""\
fixture_id: {BILLING}
category: billing-question
expect_empty: false
expected_points:
  - id: penicillin-allergy
    type: allergy
    must_match_all: [penicillin]
expected_fields:
  /visit_reason: billing
  /urgent: false
max_unexpected_proposals: 1
notes: A wrong charge on a bill; the penicillin allergy said in passing is the clinical fact to keep.
""",
    RESCHEDULE: f"""\
fixture_id: {RESCHEDULE}
category: reschedule
expect_empty: true
expected_points: []
expected_fields:
  /visit_reason: reschedule
  /urgent: false
max_unexpected_proposals: 0
notes: An appointment moved from Tuesday to Thursday; nothing clinical.
""",
}

FRONTDESK_FILES = {
    "corpus.yaml": SPEC,
    "output.schema.json": json.dumps(SCHEMA, indent=2) + "\n",
    **{f"sessions/{fixture}.md": session(IDS[fixture], turns) for fixture, turns in TURNS.items()},
    **{f"expected/{fixture}.yaml": text for fixture, text in SIDECARS.items()},
}

GOLD = {
    REFILL: {"visit_reason": "refill", "urgent": False, "medications": [{"name": "ibuprofen", "dose": "400 mg"}],
             "allergies": []},
    ALLERGY: {"visit_reason": "new-patient", "urgent": False, "medications": [], "allergies": ["latex"]},
    BILLING: {"visit_reason": "billing", "urgent": False, "medications": [], "allergies": ["penicillin"]},
    RESCHEDULE: {"visit_reason": "reschedule", "urgent": False, "medications": [], "allergies": []},
}


def write_frontdesk(root, overrides: dict | None = None):
    """The front-desk corpus under `root`, with `overrides` applied (text replaces, None removes)."""
    return write_files(root, {**FRONTDESK_FILES, **(overrides or {})})
