"""A corpus whose items have fields named like a worksheet's own keys (`name`, `type`, `class`),
and helpers for two raters' worksheets of one run (adjudicate --rater, agree, reconcile).

The corpus is the triage corpus of tests/support/triage.py with its facts as objects: a drug
`{name, type, class, dose}`, as a clinic-intake prompt might answer. `MEDS_GOLD` scores 100%.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.triage import BILLING, OUTAGE, write_run, write_triage

MEDS_OUTPUT = """\
output:
  format: json
  items:
    - type: fact
      at: /kb_facts
      match: [name, type, class, dose]
      title: name
  fields: [/queue, /priority, /escalate]
"""


def write_meds(root, overrides: dict | None = None) -> Path:
    """The triage corpus with object facts whose fields are name, type, class and dose."""
    from tests.support.triage import OUTPUT, SPEC

    return write_triage(root, {"corpus.yaml": SPEC.replace(OUTPUT, MEDS_OUTPUT), "output.schema.json": None,
                               **(overrides or {})})


FACT = {"name": "Duplicate charge refund", "type": "refund rule", "class": "billing",
        "dose": "A refund reaches the card within five business days."}
MEDS_GOLD = {
    BILLING: {"queue": "billing", "priority": "normal", "escalate": False, "kb_facts": [FACT]},
    OUTAGE: {"queue": "technical", "priority": "urgent", "escalate": True, "kb_facts": []},
}


def write_meds_run(folder, outputs: dict | None = None) -> Path:
    return write_run(folder, {**MEDS_GOLD, **(outputs or {})})


def second_rater(worksheet, out, rater: str = "bob", *, flips: int = 2) -> Path:
    """A synthetic second rater's worksheet of the run `worksheet` judges (for tests only: a real
    second rater reads the outputs blind): `worksheet` with `rater: RATER`, its first `flips`
    FAIL verdicts PASS, its first captured point not captured and its first `flips`
    over-extractions durable-unlabeled."""
    text = Path(worksheet).read_text(encoding="utf-8")
    version = next(line for line in text.splitlines() if line.startswith("worksheet_version:"))
    text = text.replace(version, f"{version}\nrater: {rater}", 1)
    text = text.replace("    verdict: FAIL\n", "    verdict: PASS\n", flips)
    text = text.replace("        captured: yes\n", "        captured: no\n", 1)
    text = text.replace("        class: over-extraction\n", "        class: durable-unlabeled\n", flips)
    out = Path(out)
    out.write_text(text, encoding="utf-8")
    return out
