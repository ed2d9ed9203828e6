"""Helpers for the adjudicate/calibrate tests: filling a worksheet's blanks as a judge would.

A judge edits the YAML text in an editor, so `fill` edits the text too: each blank answer line
(`captured:`, `class:`, `task_detail_leak:`, `verdict:`, `why:`) gets the value given for
(fixture id, point id or proposal name or None, key), and stays blank when none is given.
"""

from __future__ import annotations

import json
import re

_FIXTURE = re.compile(r"^  - fixture_id: (.+)$")
_ITEM = re.compile(r"^      - (?:id|name): (.+)$")
_BLANK = re.compile(r"^( *)(captured|class|task_detail_leak|verdict|why):( *)(#.*)?$")


def _plain(value: str) -> str:
    return json.loads(value) if value.startswith('"') else value


def fill(text: str, answers: dict, default: dict | None = None) -> str:
    """`answers`: {(fixture, item or None, key): value}; `default`: {key: value} for the rest."""
    default = default or {}
    fixture = item = None
    lines = []
    for line in text.split("\n"):
        if m := _FIXTURE.match(line):
            fixture, item = _plain(m.group(1)), None
        elif m := _ITEM.match(line):
            item = _plain(m.group(1))
        elif m := _BLANK.match(line):
            key = m.group(2)
            subject = item if key in ("captured", "class") else None
            value = answers.get((fixture, subject, key), default.get(key))
            if value is not None:
                line = f"{m.group(1)}{key}: {json.dumps(value)}"
        lines.append(line)
    return "\n".join(lines)


def fill_all(text: str, answers: dict | None = None, **default) -> str:
    """Every blank filled: `answers` first, then `default` (keys captured, class, ...)."""
    values = {"captured": "yes", "class": "durable-unlabeled", "task_detail_leak": "no", "verdict": "PASS",
              "why": ""}
    values.update(default)
    return fill(text, answers or {}, values)
