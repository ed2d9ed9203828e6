"""The adjudication worksheet: one run's outputs laid out for a human judge, with blank answers.

The worksheet shows each fixture's session path, the sidecar's notes, the result's value at each
field pointer the output contract declares (`output.fields`: what a sidecar's expected_fields
pins, so a judge can check queue or priority too), each point's id, list, type and one-sentence
notes, and every proposal (item) in full: the fields the output contract shows
(corpustools.model.contract), under the proposal's own `fields:` key. It never shows the scorer's
verdicts, and by default not the match terms either: a judge who sees them anchors on them. Its
questions are worded for the corpus's contract (header), and `--rater NAME` records who fills it
in. The format (version 2; version 1 is still read) is documented in docs/calibration.md;
`corpustools schema adjudication` is the schema of a completed one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from corpustools.io.documents import dump_json
from corpustools.io.errors import InputError
from corpustools.io.layout import SESSION_SUFFIX, SESSIONS_DIR
from corpustools.io.positions import Pos
from corpustools.io.textfile import read_text
from corpustools.io.yamlload import parse_yaml
from corpustools.io.yamlwrite import flow_scalar, inline_scalar, scalar_lines
from corpustools.manifest import RunManifest
from corpustools.model.contract import ABSENT, DEFAULT, TEXT_FIELD, Contract, Item
from corpustools.model.sidecar import Sidecar
from corpustools.score.results import ResultFile
from corpustools.score.scoring import LoadedCorpus, read_run

WORKSHEET_VERSION = 2  # what adjudicate writes; version 1 (item fields beside name/type/class) is read too
READ_VERSIONS = (1, 2)
DURABLE_UNLABELED, OVER_EXTRACTION = "durable-unlabeled", "over-extraction"
POINT_CLASS, OPTIONAL_CLASS = "point:", "optional:"
EXPECTED_LIST, OPTIONAL_LIST = "expected", "optional"
# The answers a judge writes: (where, key, hint shown beside the blank).
POINT_ANSWER = ("captured", "yes | no")
PROPOSAL_ANSWER = ("class", "point:<id> | optional:<id> | durable-unlabeled | over-extraction")
FIXTURE_ANSWERS = (("task_detail_leak", "yes | no"), ("verdict", "PASS | FAIL"), ("why", "free text, may stay empty"))
ANSWER_KEYS = frozenset({POINT_ANSWER[0], PROPOSAL_ANSWER[0], *(key for key, _ in FIXTURE_ANSWERS)})
FIELDS = "fields"  # a proposal's item fields (version 2), and a fixture's field answers
ABSENT_NOTE = "# absent from the result"  # beside a field pointer the result lacks (shown as null)


def item_noun(contract: Contract) -> str:
    """What a judge calls one item of this contract's answers: its item types (`practice or map`,
    `fact`; `answer` for a text contract)."""
    types = list(contract.item_types) or ["item"]
    return types[0] if len(types) == 1 else f"{', '.join(types[:-1])} or {types[-1]}"


def header(contract: Contract) -> tuple[str, ...]:
    """The worksheet's opening comment: every question, worded for the corpus's output contract (its
    item types, and the notes' words for what must be left out), never for one shipped prompt."""
    noun = item_noun(contract)
    return (
        "# corpustools adjudication worksheet (version 2). Fill every blank answer; see docs/calibration.md.",
        f"# Read the session, the notes and every {noun} of a fixture, then answer:",
        f"#   captured (each point): does some {noun} carry this point's meaning, in any wording? yes | no",
        f"#   class (each {noun}): point:<id> it carries that expected point | optional:<id> that optional",
        "#     point | durable-unlabeled right to keep, though no point names it | over-extraction not wanted",
        f"#   task_detail_leak (each fixture): does some {noun} carry what the notes say must be left out? yes | no",
        "#   verdict (each fixture): would you accept this output for this session? PASS | FAIL",
        "#   why: one line on the verdict, above all on a close call; may stay empty",
        "# This worksheet never shows the scorer's verdicts, and shows the match terms only when shows_terms",
        "# is true: a judge who sees them anchors on them.",
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
    rater: str | None = None  # `--rater NAME`: who fills it in (None: the file's name says)
    header: tuple[str, ...] = ()  # the opening comment, its questions worded for the contract
    every_field: bool = False  # show each item's every field (a declared contract), not only the shown ones


def build_worksheet(loaded: LoadedCorpus, folder: str, *, shows_terms: bool = False,
                    rater: str | None = None) -> Worksheet:
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
                     tuple(skipped), rater, header(loaded.contract), every_field=loaded.contract.declared)


# --- The worksheet as data, and as YAML -----------------------------------------------------------
#
# A worksheet is first a document (the plain data a reader gets back, version 2) and then its YAML
# text; `reconcile` writes the documents it merges through the same writer.

def _entries(entries) -> list:
    """A sidecar's term entries as the worksheet lists them: a term, or a list of alternatives (a
    forbidden combination)."""
    return [list(found.texts) if found.listed else found.text for found in entries]


def _point_data(point, *, shows_terms: bool) -> dict:
    data = {"id": point.id, "list": OPTIONAL_LIST if point.optional else EXPECTED_LIST, "type": point.type,
            "notes": point.notes}
    if shows_terms:
        data["must_match_all"] = _entries(point.must_match_all)
        data["must_not_match"] = _entries(point.must_not_match)
        if point.item_fields:
            data["item_fields"] = {f.name: list(f.values) if f.listed else f.values[0] for f in point.item_fields}
    return data | {POINT_ANSWER[0]: None}


def _proposal_data(proposal: Item, *, every_field: bool) -> dict:
    """The item by name and type, its fields under `fields:` (so that an item field named `name`,
    `type` or `class` is never a second key beside the worksheet's), and the blank class. The fields
    the output contract shows come first; with `every_field` (a declared contract) the item's other
    fields follow as the answer wrote them, since a judge weighs the values too (a dose, a quantity
    and its unit). The built-in contract shows its own curated fields only."""
    shown = dict(proposal.fields)
    if every_field and isinstance(proposal.raw, dict):
        shown |= {key: value for key, value in proposal.raw.items() if key not in shown}
    return {"name": proposal.name, "type": proposal.type, FIELDS: shown, PROPOSAL_ANSWER[0]: None}


def _fixture_data(fixture: WorksheetFixture, *, shows_terms: bool, every_field: bool) -> dict:
    sidecar, result = fixture.sidecar, fixture.result
    data: dict = {"fixture_id": fixture.fixture_id, "category": sidecar.category, "expect": fixture.expect,
                  "session": fixture.session, "result_sha256": known_sha256(result.digest),
                  "result_status": result.status}
    if result.error:
        data["result_error"] = result.error
    data["notes"] = sidecar.notes
    if fixture.fields:
        data[FIELDS] = dict(fixture.fields)
    data["points"] = [_point_data(point, shows_terms=shows_terms) for point in sidecar.all_points]
    data["proposals"] = [_proposal_data(proposal, every_field=every_field) for proposal in fixture.proposals]
    return data | {key: None for key, _ in FIXTURE_ANSWERS}


def worksheet_document(sheet: Worksheet) -> dict:
    """The worksheet as the data a reader gets back (a field the result lacks is ABSENT)."""
    data: dict = {"worksheet_version": WORKSHEET_VERSION}
    if sheet.rater is not None:
        data["rater"] = sheet.rater
    data |= {"corpus": sheet.corpus, "run": {"results": sheet.results, "prompt": sheet.prompt},
             "shows_terms": sheet.shows_terms,
             "fixtures": [_fixture_data(f, shows_terms=sheet.shows_terms, every_field=sheet.every_field)
                          for f in sheet.fixtures]}
    return data


def worksheet_yaml(sheet: Worksheet) -> str:
    """The worksheet as YAML text: deterministic, and read back by corpustools.io.yamlload exactly."""
    return render_worksheet(sheet.header, worksheet_document(sheet))


Notes = Mapping[tuple, Sequence[str]]  # key path of an answer -> comment lines written above it


def _answer_lines(key: str, value, hint: str, indent: int, above: Sequence[str]) -> list[str]:
    """An answer: blank with its hint beside it, or its value (a hint too when it fits on the line);
    `above`: comment lines for the one who fills it in (reconcile's other readings)."""
    pad = " " * indent
    lines = [f"{pad}# {line}".rstrip() for line in above]
    if value is None:
        return lines + [f"{pad}{key}:".ljust(indent + 24) + f"# {hint}"]
    if key == FIXTURE_ANSWERS[-1][0]:  # why: free text, any length
        return lines + scalar_lines(key, value, indent)
    # yes, no, PASS, FAIL and classes bare, as a judge writes them (YAML 1.2 reads `yes` as a string)
    shown = value if value in ("yes", "no") else inline_scalar(value)
    return lines + [f"{pad}{key}: {shown}"]


def _flow(value) -> str:
    """A list of scalars (or of lists of scalars) in flow style: `[a, [b, c]]`."""
    if isinstance(value, list):
        return f"[{', '.join(_flow(v) for v in value)}]"
    return flow_scalar(value)


# A key written bare in a flow mapping (item_fields); any other is quoted.
_FLOW_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _flow_mapping(value: Mapping) -> str:
    """A point's item_fields as the sidecar writes them, in flow style (`{dose: "5 mg"}`), a list of
    acceptable values as a list."""
    def key(name: str) -> str:
        return name if _FLOW_KEY.fullmatch(name) and name.lower() not in ("true", "false", "null") else flow_scalar(name)

    return "{" + ", ".join(f"{key(name)}: {_flow(found)}" for name, found in value.items()) + "}"


def _item_field_lines(key: str, value, indent: int) -> list[str]:
    """One field of an item as written: a string as a scalar, a list of scalars as a flow sequence,
    anything else as JSON text."""
    if isinstance(value, list) and all(v is None or isinstance(v, (str, int, float)) for v in value):
        return [f"{' ' * indent}{inline_scalar(key)}: {_flow(value)}"]
    return scalar_lines(inline_scalar(key), value if isinstance(value, (str, int, float)) or value is None
                        else dump_json(value, sort_keys=True), indent)


def _field_answer_lines(fields: dict) -> list[str]:
    """The result's answer at each declared field pointer, as JSON (which YAML reads back as the
    same value): `true` is a boolean, `"true"` a string; a pointer the result lacks is null, said."""
    lines = [f"    {FIELDS}:"]
    for pointer, value in fields.items():
        shown = f"null  {ABSENT_NOTE}" if value is ABSENT else dump_json(value)
        lines.append(f"      {inline_scalar(pointer)}: {shown}")
    return lines


def _mapping(key: str, values: dict | None, indent: int) -> list[str]:
    if values is None:
        return [f"{' ' * indent}{key}: null"]
    lines = [f"{' ' * indent}{key}:"]
    for inner, value in values.items():
        lines += _mapping(inner, value, indent + 2) if isinstance(value, dict) else scalar_lines(inner, value,
                                                                                                indent + 2)
    return lines


_POINT_HEAD = ("id", "list", "type")  # written bare: adjudicate's own identifiers


def _fixture_lines(i: int, fixture: dict, notes: Notes) -> list[str]:
    here = ("fixtures", i)
    lines = [f"  - fixture_id: {inline_scalar(fixture['fixture_id'])}"]
    for key in ("category", "expect", "session", "result_sha256", "result_status", "result_error", "notes"):
        if key in fixture:
            lines += scalar_lines(key, fixture[key], 4)
    if fixture.get(FIELDS):
        lines += _field_answer_lines(fixture[FIELDS])
    points, proposals = fixture["points"], fixture["proposals"]
    lines.append("    points:" + ("" if points else " []"))
    for j, point in enumerate(points):
        lines += [f"      - id: {inline_scalar(point['id'])}", f"        list: {point['list']}",
                  f"        type: {point['type']}"]
        lines += scalar_lines("notes", point["notes"], 8)
        lines += [f"        {key}: {_flow(point[key])}" for key in ("must_match_all", "must_not_match") if key in point]
        if "item_fields" in point:
            lines.append(f"        item_fields: {_flow_mapping(point['item_fields'])}")
        lines += _answer_lines(POINT_ANSWER[0], point[POINT_ANSWER[0]], POINT_ANSWER[1], 8,
                               notes.get((*here, "points", j, POINT_ANSWER[0]), ()))
    lines.append("    proposals:" + ("" if proposals else " []"))
    for j, proposal in enumerate(proposals):
        lines += [f"      - name: {proposal['name']}", f"        type: {proposal['type']}"]
        shown = proposal[FIELDS]
        lines.append(f"        {FIELDS}:" + ("" if shown else " {}"))
        for key, value in shown.items():
            lines += _item_field_lines(key, value, 10)
        lines += _answer_lines(PROPOSAL_ANSWER[0], proposal[PROPOSAL_ANSWER[0]], PROPOSAL_ANSWER[1], 8,
                               notes.get((*here, "proposals", j, PROPOSAL_ANSWER[0]), ()))
    for key, hint in FIXTURE_ANSWERS:
        lines += _answer_lines(key, fixture[key], hint, 4, notes.get((*here, key), ()))
    return lines


def render_worksheet(opening: Sequence[str], document: dict, notes: Notes | None = None) -> str:
    """A worksheet document (version 2) as YAML text, after its opening comment lines; `notes` adds
    comment lines above answers. Deterministic, and read back by corpustools.io.yamlload exactly."""
    notes = notes or {}
    lines = list(opening)
    lines.append(f"worksheet_version: {document['worksheet_version']}")
    if document.get("rater") is not None:
        lines += scalar_lines("rater", document["rater"], 0)
    if document.get("reconciled") is not None:
        lines.append(f"reconciled: {_flow(document['reconciled'])}")
    lines += _mapping("corpus", document["corpus"], 0)
    lines += _mapping("run", document["run"], 0)
    lines.append(f"shows_terms: {'true' if document['shows_terms'] else 'false'}")
    fixtures = document["fixtures"]
    lines.append("fixtures:" + ("" if fixtures else " []"))
    for i, fixture in enumerate(fixtures):
        lines += _fixture_lines(i, fixture, notes)
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
_TOP_KEYS = frozenset({"worksheet_version", "rater", "reconciled", "corpus", "run", "shows_terms", "fixtures"})
_FIXTURE_KEYS = frozenset({"fixture_id", "category", "expect", "session", "result_sha256", "result_status",
                           "result_error", "notes", FIELDS, "points", "proposals", "task_detail_leak", "verdict", "why"})
_POINT_KEYS = frozenset({"id", "list", "type", "notes", "must_match_all", "must_not_match", "item_fields", "captured"})
_PROPOSAL_KEYS = frozenset({"name", "type", FIELDS, PROPOSAL_ANSWER[0]})  # version 2


def shown_fields(contract: Contract) -> frozenset[str]:
    """The item fields a worksheet's proposal shows: each item type's (ItemType.shown), or `text`
    for strings and text answers."""
    return frozenset({key for item in contract.items for key in item.shown} | {TEXT_FIELD})


def proposal_keys(contract: Contract) -> frozenset[str]:
    """The keys of a version-1 worksheet's proposal: its name, type and class, and beside them the
    fields the output contract shows."""
    return frozenset({"name", "type", "class"} | shown_fields(contract))


def _unknown_item_key(fixture: dict, i: int, version, contract: Contract) -> tuple | None:
    allowed = {"points": _POINT_KEYS, "proposals": _PROPOSAL_KEYS if version == 2 else proposal_keys(contract)}
    fields = shown_fields(contract)
    for list_key, keys in allowed.items():
        items = fixture.get(list_key)
        for j, item in enumerate(items if isinstance(items, list) else []):
            for key in item if isinstance(item, dict) else ():
                if key not in keys:
                    return ("fixtures", i, list_key, j, key)
            shown = item.get(FIELDS) if list_key == "proposals" and version == 2 and isinstance(item, dict) else None
            if contract.declared:  # a declared contract's worksheet shows every field its items have
                continue
            for key in shown if isinstance(shown, dict) else ():
                if key not in fields:
                    return ("fixtures", i, list_key, j, FIELDS, key)
    return None


def unknown_key(data, contract: Contract = DEFAULT) -> tuple | None:
    """The key path of the first key adjudicate would not have written (`verdit:`), or None."""
    if not isinstance(data, dict):
        return None
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
        found = _unknown_item_key(fixture, i, data.get("worksheet_version"), contract)
        if found is not None:
            return found
    return None


def refuse_answered(path: str, contract: Contract = DEFAULT) -> None:
    """InputError when `path` exists and is not a blank worksheet: a judge's answers are never lost.
    `contract` is the corpus's output contract (which fields a proposal shows)."""
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
