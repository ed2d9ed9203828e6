"""What corpustools reads of another tool's log: one answer per fixture and how the run was made.

A reader (interop/promptfoo.py, interop/inspectai.py) turns its tool's file into a `ToolRun`;
interop/runs.py writes any `ToolRun` as a run folder. Nothing here knows either tool.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from corpustools.io.documents import parse_json
from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.textfile import read_bytes

# Another tool's log may hold every prompt several times over (inspect keeps each sample's input
# in its messages and events): a larger bound than a corpus file's, still far below memory.
MAX_LOG_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Answer:
    """One fixture's answer as the log holds it."""

    fixture_id: str
    where: str  # where the log holds it, for a message: `results[3]`, `samples[2]`
    output: str | None  # the answer's text, byte for byte; None: no answer (an error or a limit)
    why_none: str = ""  # when output is None: what the log says went wrong
    as_json: bool = False  # the log held an object, written as JSON
    prompt_seen: str | None = None  # the prompt the model was given, when the log holds it


@dataclass(frozen=True)
class ToolRun:
    """A run of one prompt over a corpus's fixtures, made by another tool, as run.yaml records it."""

    tool: str  # the command's word for it: promptfoo | inspect
    path: str  # the log, as given
    answers: tuple[Answer, ...]
    model: str
    temperature: int | float | str
    harness: str
    started_at: str
    cost: Mapping[str, int | float] = field(default_factory=dict)
    identity: str = ""  # what the log calls this run, for notes: `evalId eval-x, column [echo] v1`
    prompt_name: str | None = None  # the prompt's name in the log, when it has one
    prompt_text: str | None = None  # the prompt template the log holds (recorded when no --prompt is given)


def read_log_json(path: str, tool: str) -> Any:
    """The JSON document of another tool's log file; InputError (one line) when it is not JSON."""
    data = read_bytes(path, limit=MAX_LOG_BYTES)
    what = f"{'an' if tool[:1] in 'aeiou' else 'a'} {tool} JSON file"  # an inspect_ai log, a promptfoo one
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(Pos(path), f"not {what}: not valid UTF-8 (offset {err.start})") from None
    if not text.strip():
        raise InputError(Pos(path), f"file is empty; not {what}")
    return parse_json(text, path)


def as_text(value) -> tuple[str, bool]:
    """An answer as the file it is saved to: a string byte for byte; anything else as JSON (True)."""
    if isinstance(value, str):
        return value, False
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n", True


def mapping(value) -> Mapping:
    """`value` when it is a JSON object, else an empty one: a log's optional parts read alike."""
    return value if isinstance(value, dict) else {}


def add_cost(sums: dict[str, int | float], key: str, value) -> None:
    """Add a reported count or amount to run.yaml's `cost` sums (a token count only when whole);
    anything else a log holds there (null, a string, a negative number) is not a cost."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return
    if key.endswith("_tokens") and not isinstance(value, int):
        return
    sums[key] = sums.get(key, 0) + value
    if key == "usd":
        sums[key] = round(sums[key], 10)  # sums of float dollars print the same on every machine
