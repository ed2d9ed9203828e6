"""`corpustools init DIR`: a new corpus to start from, which lints clean and scores its own gold.

Four fixtures, one per kind of expectation (corpus.yaml's `expect`): `admit-convention-01`
(practice: a practice point with a forbidden term), `admit-map-01` (map: a map point),
`mixed-salvage-01` (subset: a durable rule inside task narration that must not survive) and
`reject-noise-01` (empty: expect_empty). Each has a session, a sidecar and a gold
output; corpus.yaml explains every key in comments. The files are fixed text (the corpus name
aside), so the same DIR name always gives the same bytes.
"""

from __future__ import annotations

import json
import os

from corpustools.io.positions import InputError, Pos
from corpustools.io.writing import write_text
from corpustools.io.yamlwrite import flow_scalar

ADMIT_ID, MAP_ID, SUBSET_ID, REJECT_ID = "admit-convention-01", "admit-map-01", "mixed-salvage-01", "reject-noise-01"

CORPUS_YAML = """\
# corpus.yaml: the corpus spec, the one machine-readable source for the categories, their
# counts, the allowed harnesses and the turn range. Written by `corpustools init`; every key is
# explained below, and in docs/corpus-format.md. Check it with `corpustools lint`.

# An integer >= 1. Bump it whenever the corpus changes meaning (a label, a session, a
# fixture added or removed): scores of different versions are not comparable.
corpus_version: 1

# The corpus's name, shown in reports and recorded by `provenance record`.
name: {name}

# The prompt this corpus evaluates: its name and the `Version:` it is at. `run init` and
# `score` warn when a run was made with another version.
prompt_under_eval:
  name: my-extraction-prompt
  version: 1

# The allowed values of each session's `harness` frontmatter key (the program the sessions
# were captured from).
harnesses: [claude]

# How many turns ([USER]: and [AGENT]: segments) a session may have (lint CT401).
turns:
  min: 6
  max: 20

# One entry per category: an id (lowercase words joined by '-'; fixture files are named
# <id>-NN), how many fixtures the corpus should hold (lint CT301), what a correct prompt
# extracts from them (`expect`: practice | map | empty | subset) and what the category tests.
categories:
  - id: admit-convention
    count: 1
    expect: practice
    tests: the user teaches a project convention
  - id: admit-map
    count: 1
    expect: map
    tests: the user says where a system lives and how its parts fit
  - id: mixed-salvage
    count: 1
    expect: subset
    tests: a durable rule inside ticket narration; only the rule survives, not the ticket
  - id: reject-noise
    count: 1
    expect: empty
    tests: productive, but only first-try code and small fixes; nothing durable is taught

# Options of `corpustools lint` (all optional; see docs/lint-rules.md): `prompt` (enables
# CT703), `kb` (CT704), `provenance` (where CT801 reads the provenance record; default
# ../../authoring/provenance.yaml from this folder), `ignore`, `severity`, `per_file_ignores`
# and `rules` (rule options). None is needed here: the corpus-wide shape rules (CT404, CT405,
# CT406, CT705) only look at corpora of at least 3 to 8 sessions, so four fixtures pass them.
# As the corpus grows they start to apply; vary session lengths and openings rather than
# raising their thresholds. For example:
# lint:
#   prompt: ../../prompts/my-extraction-prompt.md
#   ignore: [CT605]
"""

ADMIT_SESSION = """\
---
schema_version: 1
session_id: 4c9e2f71-8a3d-4b6e-9f15-2d7c0a6b8e43
harness: claude
captured_at: '2026-01-12T09:14:05.000Z'
---
[USER]: The invoice export test went red after I touched the discount code. Can you see why?
[AGENT]: Running the export tests:

```
$ pytest tests/test_export.py -q
F.
AssertionError: assert '10.1' == '10.10'
```

The discounted total is computed as a float, and the formatter drops the trailing zero.
[AGENT]: I can pass the total through `round(total, 2)` and force two decimals in the format string.
[USER]: No. Money is never a float in this codebase. Every amount is an integer number of cents, and only `money.format_cents()` turns cents into text, at the edge.
[AGENT]: Changed `discounts.py` to subtract the discount in cents and to format the total with `money.format_cents()`. `test_export.py` passes now.
[USER]: The CSV importer has the same problem. Parse amounts into cents as soon as they are read.
[AGENT]: `importer.py` now parses each amount into cents when the row is read; the full suite passes (58 tests).
[USER]: Good, commit both.
"""

REJECT_SESSION = """\
---
schema_version: 1
session_id: e1a7b3d5-6f24-4c08-b9e2-73f5a1c0d8b6
harness: claude
captured_at: '2026-01-14T15:42:31.000Z'
---
[USER]: There's a typo in the README heading: "Instalation". Please fix it.
[AGENT]: Fixed the heading in `README.md` to read "Installation".
[USER]: While you're there, add a `--verbose` flag to the report command that prints every row it reads.
[AGENT]: Added `--verbose` to the argument parser in `cli.py`; `report()` prints each row before it is summed.
[AGENT]: Ran the suite after the change: 41 passed.
[USER]: What does load_rows return for an empty file?
[AGENT]: An empty list: the reader yields nothing, so the report prints only its header.
[USER]: Fine, that's all for today.
"""

MAP_SESSION = """\
---
schema_version: 1
session_id: 7b2d9c41-3e6a-4f58-a1c7-5d8e2b9f0a36
harness: claude
captured_at: '2026-01-13T10:02:11.000Z'
---
[USER]: A webhook for `refund.created` is coming next sprint. Where do the webhook handlers live? I keep getting lost in this repo.
[AGENT]: Searching for the webhook routes:

```
$ grep -rn "WEBHOOK_HANDLERS" src/
src/hooks/registry.py:12: WEBHOOK_HANDLERS = {
```

Every webhook handler is registered in `src/hooks/registry.py`, keyed by event name.
[USER]: Right, the registry is the one place handlers are added. And the signature check happens in `src/hooks/verify.py`, before any handler runs, so a handler never sees an unsigned request.
[AGENT]: So the request path is: `verify.py` checks the signature, then the registry picks the handler by event name.
[USER]: Exactly. For now, add a `refund.created` handler that only logs the refund id.
[AGENT]: Added `on_refund_created` to the registry; it logs the refund id. The webhook tests pass (12 tests).
[USER]: Thanks, that's it.
"""

SUBSET_SESSION = """\
---
schema_version: 1
session_id: 2d6f8b3a-5c14-4e97-b0a2-9e7c1f4d6a58
harness: claude
captured_at: '2026-01-13T16:20:47.000Z'
---
[USER]: Ticket OPS-212: the Friday payroll export for the Leeds office timed out again. Finance needs it by noon.
[AGENT]: The export query scans every payslip since 2019; on the Leeds data it runs past the 30 second limit.
[USER]: Add a date filter for this run so Finance gets the file. And a rule for the future: every report query takes an explicit date range. No report ever scans a whole table.
[AGENT]: Added `start` and `end` parameters to `payroll_export()`, required, and ran it for this month: the Leeds file was written in 4 seconds.
[AGENT]: The two other report queries, `headcount()` and `leave_balance()`, also scan whole tables.
[USER]: Give them a date range too, same rule.
[AGENT]: Both now require a date range; the report tests pass (23 tests).
[USER]: Good. Send the Leeds file to Finance and close OPS-212.
"""

ADMIT_SIDECAR = """\
fixture_id: admit-convention-01
category: admit-convention
expect_empty: false
expected_points:
  - id: money-is-integer-cents
    type: practice
    must_match_all:
      - cents
      - format_cents
    must_not_match:
      - test_export
    notes: Amounts are integer cents, turned into text only by money.format_cents(), never floats.
max_unexpected_proposals: 1
notes: The user corrects a float rounding fix and teaches the project's money convention (integer cents, formatted by money.format_cents() at the edge); the failing export test is task detail, so a proposal naming test_export fails.
"""

MAP_SIDECAR = """\
fixture_id: admit-map-01
category: admit-map
expect_empty: false
expected_points:
  - id: webhook-registry-and-verify
    type: map
    must_match_all:
      - registry
      - verify.py
    must_not_match:
      - refund
    notes: Webhook handlers are registered in src/hooks/registry.py by event name; src/hooks/verify.py checks the signature before any handler runs.
max_unexpected_proposals: 0
notes: The user explains where webhook handlers are registered and where their signature is checked, a map worth keeping; the refund.created handler is this sprint's task, so a map naming refund fails.
"""

SUBSET_SIDECAR = """\
fixture_id: mixed-salvage-01
category: mixed-salvage
expect_empty: false
expected_points:
  - id: report-queries-take-a-date-range
    type: practice
    must_match_all:
      - date range
      - report
    must_not_match:
      - ops-212
      - leeds
    notes: Every report query takes an explicit date range; no report scans a whole table.
max_unexpected_proposals: 0
notes: Inside ticket OPS-212 (the Leeds payroll export timing out) the user states a standing rule that every report query takes an explicit date range; only the rule survives, while the ticket, the office and the deadline are task detail.
"""

REJECT_SIDECAR = """\
fixture_id: reject-noise-01
category: reject-noise
expect_empty: true
expected_points: []
max_unexpected_proposals: 0
notes: A typo fix, a small flag added on the first try and a question answered; nothing the user teaches outlives the session.
"""

ADMIT_GOLD = {
    "practice": [{
        "type": "practice",
        "tags": ["money", "conventions"],
        "title": "Keep money as integer cents",
        "description": "Every amount is an integer number of cents; only money.format_cents() turns it into text.",
        "body": "Never compute or store money as a float. Parse amounts into integer cents as soon as they are "
                "read (the CSV importer included), do the arithmetic in cents, and format with "
                "money.format_cents() only where the amount leaves the program.",
        "kk_confidence": "high",
    }],
    "map": [],
}

MAP_GOLD = {
    "practice": [],
    "map": [{
        "type": "map",
        "tags": ["webhooks"],
        "title": "Webhook handlers: registry and signature check",
        "description": "Where webhook handlers are registered and where their signature is checked.",
        "body": "Every webhook handler is registered in src/hooks/registry.py, keyed by event name. "
                "src/hooks/verify.py checks the request signature before the registry picks a handler, "
                "so a handler never sees an unsigned request.",
        "kk_confidence": "high",
    }],
}

SUBSET_GOLD = {
    "practice": [{
        "type": "practice",
        "tags": ["reports", "queries"],
        "title": "Every report query takes a date range",
        "description": "Report queries take an explicit date range; none scans a whole table.",
        "body": "Give every report query required start and end parameters, an explicit date range, "
                "so no report ever scans a whole table.",
        "kk_confidence": "high",
    }],
    "map": [],
}

README = """\
# {name}

A fixture corpus for evaluating an extraction prompt, started with `corpustools init`. It holds
one fixture per kind of expectation: `{admit}` (practice: the user teaches a convention; one
expected point, with a forbidden term), `{map}` (map: where a system lives), `{subset}`
(subset: a durable rule inside ticket narration, whose ticket details must not survive) and
`{reject}` (empty: nothing to extract, `expect_empty: true`), each a session in `sessions/`, a
sidecar in `expected/` and a gold output in `gold/`. corpus.yaml
explains its keys in comments; the format is docs/corpus-format.md of corpustools.

Next steps:

1. Replace the four fixtures with your own and add categories to corpus.yaml; then
   `corpustools lint {path}` (add `--strict` to fail on warnings too).
2. `corpustools score {path} {path}/gold` checks that the gold outputs pass their own labels.
3. Render each fixture's prompt: `corpustools render {path} --all --out rendered --prompt PROMPT.md`.
4. Before running the model, once per run folder: `corpustools run init runs/run1 --corpus {path}
   --prompt PROMPT.md --model MODEL --temperature T`; save each output as `runs/run1/<fixture_id>.json`.
5. `corpustools score {path} runs/run1`, and `corpustools compare` between prompt versions.
"""


def scaffold_files(name: str, shown_path: str) -> dict[str, str]:
    """relative POSIX path -> text of every file `init` writes, corpus.yaml last (once it exists
    the folders below it are a corpus's own files, which no command writes into)."""
    gold_empty = json.dumps({"practice": [], "map": []}, indent=2) + "\n"
    return {
        "README.md": README.format(name=name, admit=ADMIT_ID, map=MAP_ID, subset=SUBSET_ID, reject=REJECT_ID,
                                   path=shown_path),
        f"sessions/{ADMIT_ID}.md": ADMIT_SESSION,
        f"sessions/{MAP_ID}.md": MAP_SESSION,
        f"sessions/{SUBSET_ID}.md": SUBSET_SESSION,
        f"sessions/{REJECT_ID}.md": REJECT_SESSION,
        f"expected/{ADMIT_ID}.yaml": ADMIT_SIDECAR,
        f"expected/{MAP_ID}.yaml": MAP_SIDECAR,
        f"expected/{SUBSET_ID}.yaml": SUBSET_SIDECAR,
        f"expected/{REJECT_ID}.yaml": REJECT_SIDECAR,
        f"gold/{ADMIT_ID}.json": json.dumps(ADMIT_GOLD, indent=2, ensure_ascii=False) + "\n",
        f"gold/{MAP_ID}.json": json.dumps(MAP_GOLD, indent=2, ensure_ascii=False) + "\n",
        f"gold/{SUBSET_ID}.json": json.dumps(SUBSET_GOLD, indent=2, ensure_ascii=False) + "\n",
        f"gold/{REJECT_ID}.json": gold_empty,
        "corpus.yaml": CORPUS_YAML.format(name=flow_scalar(name)),
    }


def refuse_folder(folder: str) -> None:
    """InputError unless `folder` is absent or an empty folder (never a link, never a file)."""
    if os.path.islink(folder):
        raise InputError(Pos(folder), "is a symbolic link; corpustools never writes through a link")
    if not os.path.lexists(folder):
        return
    if not os.path.isdir(folder):
        raise InputError(Pos(folder), "exists and is not a folder; not scaffolded")
    try:
        entries = os.listdir(folder)
    except OSError as err:
        raise InputError(Pos(folder), f"cannot list folder: {err.strerror or err}") from None
    if entries:
        raise InputError(Pos(folder), "is not empty; init writes only into a new or empty folder")


def scaffold(folder: str, shown_path: str) -> list[str]:
    """Write a new corpus into `folder` (absent or empty); the paths written, in order."""
    refuse_folder(folder)
    name = os.path.basename(os.path.normpath(os.path.abspath(folder))) or "corpus"
    written = []
    for relative, text in scaffold_files(name, shown_path).items():
        path = os.path.join(folder, *relative.split("/"))
        write_text(path, text)
        written.append(path)
    return written
