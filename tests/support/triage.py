"""A small corpus of a support-ticket triage prompt, written in a test's tmp folder: not the
shipped prompt's `{practice, map}` but a classification answer (`queue`, `priority`, `escalate`)
with a list of facts worth keeping, sessions between `[CUSTOMER]` and `[AGENT]`, and a two-key
frontmatter, all declared in corpus.yaml (docs/contracts.md).

`TRIAGE_FILES` lints clean under `--strict`; `GOLD` holds an output per fixture that scores 100%.
"""

from __future__ import annotations

import json
from pathlib import Path

BILLING, OUTAGE = "billing-refund-01", "outage-report-01"

# The corpus's output contract as corpus.yaml says it (a test swaps it for another contract).
OUTPUT = """\
output:
  format: json
  schema: output.schema.json
  items:
    - type: fact
      at: /kb_facts
  fields: [/queue, /priority, /escalate]
"""

SPEC = """\
corpus_version: 1
name: triage-mini
prompt_under_eval:
  name: ticket-triage
  version: 1
harnesses: [claude]
turns:
  min: 4
  max: 10
""" + OUTPUT + """\
session:
  roles: {CUSTOMER: user, AGENT: agent}
  frontmatter: [session_id, captured_at]
categories:
  - id: billing-refund
    count: 1
    expect: fact
    tests: a duplicate charge whose refund delay is worth keeping
  - id: outage-report
    count: 1
    expect: empty
    tests: a one-off outage to escalate, with nothing worth keeping
"""

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["queue", "priority", "escalate", "kb_facts"],
    "additionalProperties": False,
    "properties": {
        "queue": {"enum": ["billing", "technical", "account"]},
        "priority": {"enum": ["low", "normal", "high", "urgent"]},
        "escalate": {"type": "boolean"},
        "kb_facts": {"type": "array", "items": {"type": "string"}},
    },
}


def session(session_id: str, turns) -> str:
    body = "".join(f"[{tag}]: {text}\n" for tag, text in turns)
    return f"---\nsession_id: {session_id}\ncaptured_at: '2026-02-03T10:00:00Z'\n---\n{body}"


BILLING_TURNS = (
    ("CUSTOMER", "I was charged twice for the March invoice on my card. Can you look at it?"),
    ("AGENT", "I see two charges for the March invoice; the duplicate charge will be refunded."),
    ("CUSTOMER", "How long until the refund reaches my card?"),
    ("AGENT", "A refund of a duplicate charge reaches the card within five business days."),
    ("CUSTOMER", "Five business days is fine, thanks."),
)
OUTAGE_TURNS = (
    ("CUSTOMER", "Your checkout page returns an error for every order since ten minutes ago."),
    ("AGENT", "Thanks, I can reproduce the checkout error. The engineers on call are paged now."),
    ("CUSTOMER", "We are losing orders every minute, please hurry."),
    ("AGENT", "The engineers on call are working on the checkout error; I will post updates here."),
)

TRIAGE_FILES = {
    "corpus.yaml": SPEC,
    "output.schema.json": json.dumps(SCHEMA, indent=2) + "\n",
    f"sessions/{BILLING}.md": session("6f1c2a94-3b7e-4d58-9a21-c4e8b07d5f36", BILLING_TURNS),
    f"sessions/{OUTAGE}.md": session("a3d95e07-81c4-4f2b-b6e9-2c7f40d18a5b", OUTAGE_TURNS),
    f"expected/{BILLING}.yaml": f"""\
fixture_id: {BILLING}
category: billing-refund
expect_empty: false
expected_points:
  - id: refund-delay
    type: fact
    must_match_all: [refund, business days]
    must_not_match: [march invoice]
    notes: A refund of a duplicate charge takes five business days to reach the card.
expected_fields:
  /queue: billing
  /priority: [normal, low]
  /escalate: false
max_unexpected_proposals: 0
notes: A duplicate charge on the March invoice; the refund delay is the fact to keep, the invoice is this ticket's detail.
""",
    f"expected/{OUTAGE}.yaml": f"""\
fixture_id: {OUTAGE}
category: outage-report
expect_empty: true
expected_points: []
expected_fields:
  /queue: technical
  /priority: urgent
  /escalate: true
max_unexpected_proposals: 0
notes: A checkout outage in progress; escalate it at once, and keep nothing.
""",
}

GOLD = {
    BILLING: {"queue": "billing", "priority": "normal", "escalate": False,
              "kb_facts": ["A refund of a duplicate charge reaches the card within five business days."]},
    OUTAGE: {"queue": "technical", "priority": "urgent", "escalate": True, "kb_facts": []},
}


def write_files(root, files: dict) -> Path:
    """Write `files` (relative POSIX path -> text; None leaves a file out) under `root`."""
    root = Path(root)
    for relative, text in sorted(files.items()):
        if text is None:
            continue
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    return root


def write_triage(root, overrides: dict | None = None) -> Path:
    """The triage corpus under `root`, with `overrides` applied (text replaces, None removes)."""
    return write_files(root, {**TRIAGE_FILES, **(overrides or {})})


def write_run(folder, outputs: dict) -> Path:
    """`<folder>/<fixture>.json` per output: a dict dumped as JSON, a str written as is."""
    return write_files(folder, {f"{fixture}.json": text if isinstance(text, str) else json.dumps(text)
                                for fixture, text in outputs.items()})
