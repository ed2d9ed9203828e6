"""Reading a filled worksheet back: every problem one line naming the file and line, or the answers.

A worksheet is refused as a whole when anything in it is wrong: unreadable or malformed YAML, a
blank answer, a value the `adjudication` schema rejects, a class naming no point of its fixture,
or a fixture listed twice. Problems are collected, not raised, so a judge sees them all at once.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from corpustools.calibrate.worksheet import (
    EXPECTED_LIST,
    FIELDS,
    FIXTURE_ANSWERS,
    OPTIONAL_CLASS,
    OPTIONAL_LIST,
    OVER_EXTRACTION,
    POINT_ANSWER,
    POINT_CLASS,
    PROPOSAL_ANSWER,
)
from corpustools.io.errors import InputError
from corpustools.io.positions import Pos, Problem
from corpustools.io.schemastore import validate
from corpustools.io.textfile import decode_text, read_stdin_bytes, read_text
from corpustools.io.yamlload import YamlDoc, parse_yaml
from corpustools.score.reasons import Verdict

STDIN, STDIN_NAME = "-", "<stdin>"  # `--verdicts -` reads the worksheet from standard input


@dataclass(frozen=True)
class JudgedProposal:
    name: str
    type: str
    cls: str  # point:<id> | optional:<id> | durable-unlabeled | over-extraction
    fields: Mapping[str, Any] = field(default_factory=dict, compare=False)  # the item's fields as shown

    @property
    def point_id(self) -> str | None:
        """The point the judge says this proposal carries, expected or optional."""
        for prefix in (POINT_CLASS, OPTIONAL_CLASS):
            if self.cls.startswith(prefix):
                return self.cls[len(prefix):]
        return None

    @property
    def over_extraction(self) -> bool:
        return self.cls == OVER_EXTRACTION


@dataclass(frozen=True)
class JudgedFixture:
    fixture_id: str
    result_sha256: str | None
    pos: Pos  # where the fixture is in the worksheet, for messages
    captured: Mapping[str, bool]  # point id -> captured, every point listed
    proposals: tuple[JudgedProposal, ...]
    leak: bool
    verdict: Verdict  # PASS | FAIL
    why: str
    optional: frozenset[str] = frozenset()  # the ids of the points listed `optional`
    category: str = ""

    def proposal(self, name: str) -> JudgedProposal | None:
        return self._by_name.get(name)

    @cached_property
    def _by_name(self) -> dict[str, JudgedProposal]:  # the first of a name (names are unique once read)
        by_name: dict[str, JudgedProposal] = {}
        for proposal in self.proposals:
            by_name.setdefault(proposal.name, proposal)
        return by_name


@dataclass(frozen=True)
class JudgedWorksheet:
    path: str
    shows_terms: bool
    fixtures: Mapping[str, JudgedFixture]  # by fixture id
    corpus_name: str = ""  # the corpus the worksheet was written for (its `corpus: name:`)
    corpus_pos: Pos = Pos("")  # where that name is, for messages
    rater: str | None = None  # its `rater:`; None when it records none (its file name names the rater)
    reconciled: tuple[str, ...] = ()  # the two raters a reconciled worksheet merges
    corpus_sha256: str = ""  # the corpus as it was when the worksheet was written
    results: str = ""  # its `run: results:`, the run folder as adjudicate was given it
    prompt: Mapping[str, Any] | None = None  # its `run: prompt:`

    @property
    def rater_name(self) -> str:
        """Who filled it in: its `rater:`, else the file's name without its extension."""
        if self.rater is not None:
            return self.rater.strip()
        return os.path.splitext(os.path.basename(self.path))[0] or self.path


def _blank_problem(doc: YamlDoc, keypath: tuple) -> Problem | None:
    """The problem of a blank answer at `keypath`, or None when the value there is not blank."""
    data = doc.data
    try:
        fixture = data["fixtures"][keypath[1]]
        value = fixture
        for key in keypath[2:]:
            value = value[key]
    except (KeyError, IndexError, TypeError):
        return None
    if value is not None:
        return None
    name = fixture.get("fixture_id", f"#{keypath[1] + 1}")
    answer = keypath[-1]
    if len(keypath) == 5 and answer == POINT_ANSWER[0]:
        item = fixture["points"][keypath[3]].get("id", f"#{keypath[3] + 1}")
        where, hint = f"fixture {name}, point {item}", POINT_ANSWER[1]
    elif len(keypath) == 5 and answer == PROPOSAL_ANSWER[0]:
        item = fixture["proposals"][keypath[3]].get("name", f"#{keypath[3] + 1}")
        where, hint = f"fixture {name}, proposal {item}", PROPOSAL_ANSWER[1]
    elif len(keypath) == 3 and answer in dict(FIXTURE_ANSWERS):
        where, hint = f"fixture {name}", dict(FIXTURE_ANSWERS)[answer]
    else:
        return None
    return Problem(doc.pos(keypath), f"{where}: {answer} is blank ({hint.replace(' | ', '|')})")


def _schema_problems(doc: YamlDoc) -> list[Problem]:
    problems = []
    for error in validate("adjudication", doc.data):
        blank = _blank_problem(doc, error.keypath) if len(error.keypath) in (3, 5) else None
        problems.append(blank or Problem(doc.pos(error.keypath), str(error)))
    return list(dict.fromkeys(problems))


def _class_problems(doc: YamlDoc) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[str, int] = {}  # fixture id -> line it is first listed at
    for i, fixture in enumerate(doc.data["fixtures"]):
        name = fixture["fixture_id"]
        if name in seen:
            problems.append(Problem(doc.pos(("fixtures", i, "fixture_id")), f"fixture {name} is listed twice "
                                    f"(first at line {seen[name]})"))
        seen.setdefault(name, doc.pos(("fixtures", i)).line)
        # point ids by list, in order (dicts: a membership test per proposal stays constant-time)
        lists = {EXPECTED_LIST: dict.fromkeys(p["id"] for p in fixture["points"] if p["list"] == EXPECTED_LIST),
                 OPTIONAL_LIST: dict.fromkeys(p["id"] for p in fixture["points"] if p["list"] == OPTIONAL_LIST)}
        for list_key, key in (("points", "id"), ("proposals", "name")):
            names: set[str] = set()
            for j, item in enumerate(fixture[list_key]):
                item_name = item[key]
                if item_name not in names:
                    names.add(item_name)
                else:
                    problems.append(Problem(doc.pos(("fixtures", i, list_key, j, key)), f"fixture {name}: "
                                            f"{list_key[:-1]} {item_name} is listed twice"))
        if not doc.data["shows_terms"]:
            for j, point in enumerate(fixture["points"]):
                shown = next((key for key in ("must_match_all", "must_not_match") if key in point), None)
                if shown is not None:  # the flag a reader trusts says blind; the worksheet is not
                    problems.append(Problem(doc.pos(("fixtures", i, "points", j, shown)), f"fixture {name}, point "
                                            f"{point['id']}: the worksheet shows {shown} but says shows_terms: false"))
        for j, proposal in enumerate(fixture["proposals"]):
            cls = proposal["class"]
            for prefix, list_name in ((POINT_CLASS, EXPECTED_LIST), (OPTIONAL_CLASS, OPTIONAL_LIST)):
                if cls.startswith(prefix) and cls[len(prefix):] not in lists[list_name]:
                    known = ", ".join(lists[list_name]) or "none"
                    problems.append(Problem(doc.pos(("fixtures", i, "proposals", j, "class")), f"fixture {name}, "
                                            f"proposal {proposal['name']}: class {cls} names no {list_name} point of "
                                            f"this fixture ({list_name} points: {known})"))
    return problems


def item_fields(proposal: dict, version: int) -> dict:
    """A proposal's item fields: under `fields:` (version 2), or beside name, type and class (1)."""
    if version == 2:
        return dict(proposal[FIELDS])
    return {key: value for key, value in proposal.items() if key not in ("name", "type", PROPOSAL_ANSWER[0])}


def _judged(doc: YamlDoc) -> JudgedWorksheet:
    fixtures = {}
    data = doc.data
    version = data["worksheet_version"]
    for i, fixture in enumerate(data["fixtures"]):
        points = fixture["points"]
        fixtures[fixture["fixture_id"]] = JudgedFixture(
            fixture_id=fixture["fixture_id"],
            result_sha256=fixture["result_sha256"],
            pos=doc.pos(("fixtures", i)),
            captured={p["id"]: p["captured"] == "yes" for p in points},
            proposals=tuple(JudgedProposal(p["name"], p["type"], p["class"], item_fields(p, version))
                            for p in fixture["proposals"]),
            leak=fixture["task_detail_leak"] == "yes",
            verdict=Verdict(fixture["verdict"]),  # the schema allows PASS and FAIL only
            why=" ".join((fixture["why"] or "").split()),
            optional=frozenset(p["id"] for p in points if p["list"] == OPTIONAL_LIST),
            category=fixture["category"],
        )
    return JudgedWorksheet(doc.path, data["shows_terms"], fixtures, data["corpus"]["name"],
                           doc.pos(("corpus", "name")), data.get("rater"), tuple(data.get("reconciled") or ()),
                           data["corpus"]["sha256"], data["run"]["results"], data["run"]["prompt"])


def read_worksheet(path: str) -> tuple[JudgedWorksheet | None, YamlDoc | None, list[Problem]]:
    """-> (the answers, the document, []) or (None, document or None, every problem, each at its place)."""
    try:
        if path == STDIN:
            doc = parse_yaml(decode_text(read_stdin_bytes(STDIN_NAME), STDIN_NAME), STDIN_NAME)
        else:
            doc = parse_yaml(read_text(path), path)
    except InputError as err:
        return None, None, [Problem(err.pos, err.message)]
    if not isinstance(doc.data, dict) or "worksheet_version" not in doc.data:
        return None, None, [Problem(doc.pos(), "not an adjudication worksheet (no worksheet_version; write one "
                                               "with corpustools adjudicate)")]
    problems = _schema_problems(doc)
    if problems:
        return None, doc, problems
    problems = _class_problems(doc)
    if problems:
        return None, doc, problems
    return _judged(doc), doc, []
