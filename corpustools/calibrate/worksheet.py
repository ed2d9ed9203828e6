"""The adjudication worksheet: one run's outputs laid out for a human judge, with blank answers.

The worksheet shows each fixture's session path, the sidecar's notes, the result's value at each
field pointer the output contract declares (`output.fields`: what a sidecar's expected_fields
pins, so a judge can check queue or priority too), each point's id, list, type and one-sentence
notes, and every proposal (item) in full: the fields the output contract shows
(corpustools.model.contract). It never shows the scorer's verdicts, and by
default not the match terms either: a judge who sees them anchors on them. The format (version 1)
is documented in docs/calibration.md; `corpustools schema adjudication` is the schema of a
completed one.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from corpustools.io.errors import InputError
from corpustools.io.layout import SESSION_SUFFIX, SESSIONS_DIR
from corpustools.io.positions import Pos
from corpustools.io.yamlwrite import flow_scalar, inline_scalar, scalar_lines
from corpustools.manifest import RunManifest
from corpustools.model.contract import ABSENT, DEFAULT, TEXT_FIELD, Contract, Item
from corpustools.model.sidecar import Sidecar
from corpustools.score.results import ResultFile
from corpustools.score.scoring import LoadedCorpus, read_run

WORKSHEET_VERSION = 1
DURABLE_UNLABELED, OVER_EXTRACTION = "durable-unlabeled", "over-extraction"
POINT_CLASS, OPTIONAL_CLASS = "point:", "optional:"
EXPECTED_LIST, OPTIONAL_LIST = "expected", "optional"
# The answers a judge writes: (where, key, hint shown beside the blank).
POINT_ANSWER = ("captured", "yes | no")
PROPOSAL_ANSWER = ("class", "point:<id> | optional:<id> | durable-unlabeled | over-extraction")
FIXTURE_ANSWERS = (("task_detail_leak", "yes | no"), ("verdict", "PASS | FAIL"), ("why", "free text, may stay empty"))

HEADER = (
    "# corpustools adjudication worksheet. Fill every blank answer; see docs/calibration.md.",
    "# captured: yes | no      class: point:<id> | optional:<id> | durable-unlabeled | over-extraction",
    "# task_detail_leak: yes | no      verdict: PASS | FAIL      why: free text",
    "# Judge from the session and the proposals alone. This worksheet never shows the scorer's verdicts,",
    "# and shows the match terms only when shows_terms is true: a judge who sees them anchors on them.",
)


def known_sha256(digest: str | None) -> str | None:
    """A result file's digest as the worksheet records it: None when the file is missing or
    could not be read (corpustools.score.results marks those `unread:<why>`)."""
    return None if digest is None or digest.startswith("unread:") else digest


def unjudgeable(sidecar: Sidecar | None) -> str | None:
    """Why a fixture cannot be judged point by point (None when it can): an invalid sidecar, or
    two points sharing an id, which a judge's `point:<id>` could not tell apart."""
    if sidecar is None:
        return "invalid sidecar"
    seen: set[str] = set()
    twice = None
    for point in sidecar.all_points:
        if point.id in seen:
            twice = point.id
            break
        seen.add(point.id)
    return None if twice is None else f"two points have the id {twice} (lint CT609)"


def prompt_identity(manifest: RunManifest | None) -> dict | None:
    """The prompt by name, version and sha256 (never its path: a worksheet names no outside file)."""
    return None if manifest is None else manifest.prompt.identity()


@dataclass(frozen=True)
class WorksheetFixture:
    fixture_id: str  # the sidecar's file name, as the scorer names the fixture
    sidecar: Sidecar
    expect: str | None  # the category's `expect` in corpus.yaml; None for an unknown category
    session: str | None  # the session file relative to the corpus, None when there is none
    result: ResultFile
    proposals: tuple[Item, ...]
    fields: tuple[tuple[str, object], ...] = ()  # (pointer, the result's value or ABSENT), per declared field


@dataclass(frozen=True)
class Worksheet:
    corpus: dict  # name, version, sha256
    results: str  # the run folder as given
    prompt: dict | None
    shows_terms: bool
    fixtures: tuple[WorksheetFixture, ...]
    skipped: tuple[str, ...]  # one line per fixture left out (an invalid sidecar cannot be judged)


def build_worksheet(loaded: LoadedCorpus, folder: str, *, shows_terms: bool = False) -> Worksheet:
    corpus, info = loaded.corpus, loaded.info
    run, drift = read_run(loaded, folder)
    fixtures, skipped = [], []
    for fixture_id in sorted(corpus.sidecar_paths):
        if fixture_id in drift.added:  # the run answered the fixtures it has; calibrate compares those
            skipped.append(f"{corpus.session_paths[fixture_id]}: added to the corpus since this run (its run.yaml "
                           "records no input for it); fixture left out of the worksheet")
            continue
        sidecar = corpus.sidecars.get(fixture_id)
        why = unjudgeable(sidecar)
        if why or sidecar is None:  # an invalid sidecar has a why
            skipped.append(f"{corpus.sidecar_paths[fixture_id]}: {why}; fixture left out of the worksheet")
            continue
        category = corpus.spec.category(sidecar.category) if corpus.spec else None
        session = (f"{SESSIONS_DIR}/{fixture_id}{SESSION_SUFFIX}" if fixture_id in corpus.session_paths else None)
        result = run.results[fixture_id]
        proposals = result.answer.items if result.answer is not None else ()
        fields = tuple((pointer, result.answer.fields.get(pointer, ABSENT)) for pointer in loaded.contract.fields
                       ) if result.answer is not None else ()
        fixtures.append(WorksheetFixture(fixture_id, sidecar, category.expect_text if category else None, session, result,
                                         proposals, fields))
    corpus_id = {"name": info.name, "version": info.version, "sha256": info.sha256}
    return Worksheet(corpus_id, folder, prompt_identity(run.manifest), shows_terms, tuple(fixtures),
                     tuple(skipped))


def _terms_line(key: str, entries, indent: int) -> list[str]:
    """A term list as the sidecar writes it, in flow style: an entry of several terms (alternatives,
    or a forbidden combination) as a nested list."""
    def entry(found) -> str:
        if not found.listed:
            return flow_scalar(found.text)
        return f"[{', '.join(flow_scalar(t) for t in found.texts)}]"

    return [f"{' ' * indent}{key}: [{', '.join(entry(e) for e in entries)}]"]


def _answer(key: str, hint: str, indent: int) -> str:
    return f"{' ' * indent}{key}:".ljust(indent + 24) + f"# {hint}"


def _mapping(key: str, values: dict | None, indent: int) -> list[str]:
    if values is None:
        return [f"{' ' * indent}{key}: null"]
    lines = [f"{' ' * indent}{key}:"]
    for inner, value in values.items():
        lines += _mapping(inner, value, indent + 2) if isinstance(value, dict) else scalar_lines(inner, value,
                                                                                                indent + 2)
    return lines


def _point_lines(point, *, shows_terms: bool) -> list[str]:
    lines = [f"      - id: {inline_scalar(point.id)}",
             f"        list: {OPTIONAL_LIST if point.optional else EXPECTED_LIST}",
             f"        type: {point.type}"]
    lines += scalar_lines("notes", point.notes, 8)
    if shows_terms:
        lines += _terms_line("must_match_all", point.must_match_all, 8)
        lines += _terms_line("must_not_match", point.must_not_match, 8)
    return lines + [_answer(POINT_ANSWER[0], POINT_ANSWER[1], 8)]


def _proposal_lines(proposal: Item) -> list[str]:
    """The item by name and type, then each field the output contract shows, as written: a string
    as a scalar, a list of scalars as a flow sequence, anything else as JSON text."""
    lines = [f"      - name: {proposal.name}", f"        type: {proposal.type}"]
    for key, value in proposal.fields:
        if isinstance(value, list) and all(v is None or isinstance(v, (str, int, float)) for v in value):
            lines.append(f"        {inline_scalar(key)}: [{', '.join(flow_scalar(v) for v in value)}]")
        else:
            lines += scalar_lines(inline_scalar(key), value if isinstance(value, (str, int, float)) or value is None
                                  else json.dumps(value, ensure_ascii=False, sort_keys=True), 8)
    return lines + [_answer(PROPOSAL_ANSWER[0], PROPOSAL_ANSWER[1], 8)]


def _field_lines(fields: tuple[tuple[str, object], ...]) -> list[str]:
    """The result's answer at each declared field pointer, as JSON (which YAML reads back as the
    same value): `true` is a boolean, `"true"` a string; a pointer the result lacks is null, said."""
    if not fields:
        return []
    lines = ["    fields:"]
    for pointer, value in fields:
        shown = "null  # absent from the result" if value is ABSENT else json.dumps(value, ensure_ascii=False)
        lines.append(f"      {inline_scalar(pointer)}: {shown}")
    return lines


def _fixture_lines(fixture: WorksheetFixture, *, shows_terms: bool) -> list[str]:
    sidecar, result = fixture.sidecar, fixture.result
    lines = [f"  - fixture_id: {inline_scalar(fixture.fixture_id)}"]
    lines += scalar_lines("category", sidecar.category, 4)
    lines += scalar_lines("expect", fixture.expect, 4)
    lines += scalar_lines("session", fixture.session, 4)
    lines += scalar_lines("result_sha256", known_sha256(result.digest), 4)
    lines += scalar_lines("result_status", result.status, 4)
    if result.error:
        lines += scalar_lines("result_error", result.error, 4)
    lines += scalar_lines("notes", sidecar.notes, 4)
    lines += _field_lines(fixture.fields)
    points = sidecar.all_points
    lines.append("    points:" + ("" if points else " []"))
    for point in points:
        lines += _point_lines(point, shows_terms=shows_terms)
    lines.append("    proposals:" + ("" if fixture.proposals else " []"))
    for proposal in fixture.proposals:
        lines += _proposal_lines(proposal)
    return lines + [_answer(key, hint, 4) for key, hint in FIXTURE_ANSWERS]


def worksheet_yaml(sheet: Worksheet) -> str:
    """The worksheet as YAML text: deterministic, and read back by corpustools.io.yamlload exactly."""
    lines = list(HEADER)
    lines.append(f"worksheet_version: {WORKSHEET_VERSION}")
    lines += _mapping("corpus", sheet.corpus, 0)
    lines += _mapping("run", {"results": sheet.results, "prompt": sheet.prompt}, 0)
    lines.append(f"shows_terms: {'true' if sheet.shows_terms else 'false'}")
    lines.append("fixtures:" + ("" if sheet.fixtures else " []"))
    for fixture in sheet.fixtures:
        lines += _fixture_lines(fixture, shows_terms=sheet.shows_terms)
    return "\n".join(lines) + "\n"


def first_answer(data) -> tuple | None:
    """The key path of the first answer a judge filled in, or None when every answer is blank.

    A `why` of only whitespace is blank; any other value of an answer key counts as filled."""
    if not isinstance(data, dict) or not isinstance(data.get("fixtures"), list):
        return None
    for i, fixture in enumerate(data["fixtures"]):
        if not isinstance(fixture, dict):
            continue
        for list_key, answer in (("points", POINT_ANSWER[0]), ("proposals", PROPOSAL_ANSWER[0])):
            items = fixture.get(list_key)
            for j, item in enumerate(items if isinstance(items, list) else []):
                if isinstance(item, dict) and item.get(answer) is not None:
                    return ("fixtures", i, list_key, j, answer)
        for key, _ in FIXTURE_ANSWERS:
            value = fixture.get(key)
            if value is not None and not (isinstance(value, str) and not value.strip()):
                return ("fixtures", i, key)
    return None


# The keys adjudicate writes, by level; anything else in an existing worksheet is a judge's edit.
_TOP_KEYS = frozenset({"worksheet_version", "corpus", "run", "shows_terms", "fixtures"})
_FIXTURE_KEYS = frozenset({"fixture_id", "category", "expect", "session", "result_sha256", "result_status",
                           "result_error", "notes", "fields", "points", "proposals", "task_detail_leak", "verdict", "why"})
_POINT_KEYS = frozenset({"id", "list", "type", "notes", "must_match_all", "must_not_match", "captured"})


def proposal_keys(contract: Contract) -> frozenset[str]:
    """The keys of a worksheet's proposal: its name, type and class, and the fields the output
    contract shows (each item type's, or `text` for strings and text answers)."""
    shown = {key for item in contract.items for key in item.shown} | {TEXT_FIELD}
    return frozenset({"name", "type", "class"} | shown)


def unknown_key(data, contract: Contract = DEFAULT) -> tuple | None:
    """The key path of the first key adjudicate would not have written (`verdit:`), or None."""
    if not isinstance(data, dict):
        return None
    item_keys = {"points": _POINT_KEYS, "proposals": proposal_keys(contract)}
    for key in data:
        if key not in _TOP_KEYS:
            return (key,)
    fixtures = data.get("fixtures")
    for i, fixture in enumerate(fixtures if isinstance(fixtures, list) else []):
        if not isinstance(fixture, dict):
            continue
        for key in fixture:
            if key not in _FIXTURE_KEYS:
                return ("fixtures", i, key)
        for list_key, allowed in item_keys.items():
            items = fixture.get(list_key)
            for j, item in enumerate(items if isinstance(items, list) else []):
                for key in item if isinstance(item, dict) else ():
                    if key not in allowed:
                        return ("fixtures", i, list_key, j, key)
    return None


def refuse_answered(path: str, contract: Contract = DEFAULT) -> None:
    """InputError when `path` exists and is not a blank worksheet: a judge's answers are never lost.
    `contract` is the corpus's output contract (which fields a proposal shows)."""
    from corpustools.io.textfile import read_text
    from corpustools.io.yamlload import parse_yaml

    if not os.path.lexists(path):
        return
    if os.path.islink(path) or not os.path.isfile(path):
        raise InputError(Pos(path), "exists and is not a regular file; not overwritten")
    try:
        doc = parse_yaml(read_text(path), path)
    except InputError as err:
        raise InputError(err.pos, f"exists and cannot be read as a worksheet ({err.message}); not overwritten") from None
    if not isinstance(doc.data, dict) or "worksheet_version" not in doc.data:
        raise InputError(Pos(path), "exists and is not an adjudication worksheet; not overwritten")
    unknown = unknown_key(doc.data, contract)
    if unknown is not None:
        raise InputError(doc.pos(unknown), f"worksheet has a key adjudicate does not write ({unknown[-1]!r}: a "
                                           "misspelt answer?); not overwritten")
    answered = first_answer(doc.data)
    if answered is not None:
        where = doc.pos(answered)
        fixture = doc.data["fixtures"][answered[1]].get("fixture_id", f"#{answered[1] + 1}")
        raise InputError(where, f"worksheet already has answers (fixture {fixture}, {answered[-1]}); not "
                                "overwritten: move it away or write to another file")
