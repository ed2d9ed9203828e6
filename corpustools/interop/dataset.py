"""A corpus as another tool's dataset: one row per fixture (every session `render --all` renders),
`{"id", "input": [{"role": "user", "content": <rendered prompt>}], "ideal", "metadata"}`, the shape
openai/evals, inspect_ai's `json_dataset` and `datasets.load_dataset("json")` read.

The labels stay corpustools': a row carries what a reader of another tool's results needs to find
the fixture again (category, what is expected, the points' ids and notes, the hashes of the corpus
and the prompt), never the match terms, which only corpustools' scorer applies as it should.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass

from corpustools.io.errors import InputError
from corpustools.io.inputs import note_folder
from corpustools.io.layout import GOLD_DIR
from corpustools.io.positions import Pos
from corpustools.io.textfile import decode_text, read_bytes
from corpustools.manifest import corpus_state, prompt_version
from corpustools.model.contract import Contract
from corpustools.model.sidecar import ExpectedPoint, Sidecar
from corpustools.render import rendered_prompts
from corpustools.score import open_corpus
from corpustools.score.results import result_path


@dataclass(frozen=True)
class Fixture:
    fixture_id: str
    rendered: str  # the prompt with this fixture's transcript, as `corpustools render` prints it
    ideal: str | None  # the gold output's text; None when the corpus has none for it
    sidecar: Sidecar | None  # None: a session without a (valid) sidecar, not scored


@dataclass(frozen=True)
class Exported:
    """A corpus rendered with one prompt, ready to be written in another tool's format."""

    root: str
    name: str
    contract: Contract
    fixtures: tuple[Fixture, ...]
    corpus_sha256: str
    prompt_path: str
    prompt_name: str
    prompt_version: int | str | None
    prompt_sha256: str

    @property
    def prompt_id(self) -> str:
        """`ticket-triage-v1`: the prompt by name and version (`-v?` without a Version line)."""
        return f"{self.prompt_name}-v{'?' if self.prompt_version is None else self.prompt_version}"


def read_text_exactly(path: str) -> str:
    """A saved answer or gold output as its text, every byte kept (no line ending or BOM check):
    InputError when it is not UTF-8."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(Pos(path), f"not valid UTF-8 (offset {err.start}); cannot be exported") from None


def export_corpus(corpus_root: str, prompt_path: str) -> Exported:
    """Every session of the corpus rendered with the prompt at `prompt_path`, with its gold output
    and sidecar; InputError when the prompt or a session cannot be rendered."""
    loaded = open_corpus(corpus_root)
    corpus, contract = loaded.corpus, loaded.contract
    data = read_bytes(prompt_path)  # read once: the text rendered and the sha256 recorded are of the same bytes
    prompt_text = decode_text(data, prompt_path)
    rendered, errors = rendered_prompts(corpus_root, prompt_path, prompt_text=prompt_text)
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise InputError(Pos(corpus_root), f"a session cannot be rendered: {errors[0]}{more}; nothing exported")
    fixtures = []
    gold_dir = os.path.join(corpus_root, GOLD_DIR)
    for fixture_id, text in rendered.items():
        gold = result_path(gold_dir, fixture_id, contract)
        ideal = read_text_exactly(gold) if os.path.isfile(gold) and not os.path.islink(gold) else None
        fixtures.append(Fixture(fixture_id, text, ideal, corpus.sidecars.get(fixture_id)))
    spec = corpus.spec
    name = spec.name if spec is not None else os.path.basename(os.path.normpath(corpus_root))
    prompt_name = spec.prompt_name if spec is not None else os.path.basename(prompt_path).split(".", 1)[0]
    return Exported(corpus_root, name, contract, tuple(fixtures), corpus_state(corpus).sha256, prompt_path,
                    prompt_name, prompt_version(prompt_text), hashlib.sha256(data).hexdigest())


def _points(points: tuple[ExpectedPoint, ...]) -> list[dict]:
    return [{"id": point.id, "type": point.type, "notes": point.notes} for point in points]


def metadata(exported: Exported, fixture: Fixture) -> dict:
    """A row's metadata: what the labels expect, without their match terms; the hashes that say
    which corpus and prompt the row was made from."""
    sidecar = fixture.sidecar
    labels: dict = {"category": None, "expect_empty": None, "expected_fields": {}, "expected_points": [],
                    "optional_points": [], "max_unexpected_proposals": None}
    if sidecar is not None:
        labels = {
            "category": sidecar.category,
            "expect_empty": sidecar.expect_empty,
            "expected_fields": {pointer: list(values) if len(values) > 1 else values[0]
                                for pointer, values in sidecar.expected_fields},
            "expected_points": _points(sidecar.points),
            "optional_points": _points(sidecar.optional_points),
            "max_unexpected_proposals": sidecar.max_unexpected_proposals,
        }
    return {**labels, "corpus": exported.name, "corpus_sha256": exported.corpus_sha256,
            "prompt": exported.prompt_id, "prompt_sha256": exported.prompt_sha256}


def row(exported: Exported, fixture: Fixture) -> dict:
    return {"id": fixture.fixture_id, "input": [{"role": "user", "content": fixture.rendered}],
            "ideal": fixture.ideal, "metadata": metadata(exported, fixture)}


def jsonl(exported: Exported) -> str:
    """The dataset: one JSON object per line, one line per fixture, by fixture id."""
    return "".join(json.dumps(row(exported, fixture), ensure_ascii=False) + "\n" for fixture in exported.fixtures)


def export_files(exported: Exported, out: str, *, replay: str | None, answers: dict[str, str] | None) -> dict[str, str]:
    """`export jsonl`: the dataset at `out` (a JSONL dataset holds no answers: export refuses --replay)."""
    return {out: jsonl(exported)}


def saved_answers(exported: Exported, run_folder: str) -> dict[str, str]:
    """fixture id -> the saved answer of the run in `run_folder`, byte for byte (a fixture without
    a result file has none: a replay leaves it unanswered)."""
    if not os.path.isdir(run_folder):
        raise InputError(Pos(run_folder), "no such results folder")
    contract = exported.contract
    note_folder(run_folder, f"the replayed run {run_folder}", suffixes=(contract.result_suffix,))
    answers = {}
    for fixture in exported.fixtures:
        path = result_path(run_folder, fixture.fixture_id, contract)
        if os.path.lexists(path):
            answers[fixture.fixture_id] = read_text_exactly(path)
    return answers
