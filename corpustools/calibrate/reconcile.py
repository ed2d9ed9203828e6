"""reconcile: two raters' worksheets of one run merged into one, for a third reading.

Every answer both raters gave is kept; every answer they gave differently is left blank, with both
answers (and, for a verdict, both raters' `why`) as comments above it, so that a third reader (or
the two raters together) fills exactly the disagreements. The result is a worksheet version 2 like
any other, which records `reconciled: [A, B]`: calibrate reads it like any other, once its blanks
are filled, and says that its verdicts are a reconciled pair's. The two worksheets must judge the
same outputs, as agree requires (same run, same result files, same proposals, every fixture in
both).
"""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.calibrate.agree import pair_problems
from corpustools.calibrate.answers import JudgedWorksheet, item_fields, read_worksheet
from corpustools.calibrate.calibration import CalibrationProblems
from corpustools.calibrate.worksheet import (
    ABSENT_NOTE,
    FIELDS,
    FIXTURE_ANSWERS,
    POINT_ANSWER,
    PROPOSAL_ANSWER,
    WORKSHEET_VERSION,
    render_worksheet,
)
from corpustools.io.positions import Problem
from corpustools.io.textfile import read_text
from corpustools.io.yamlload import YamlDoc
from corpustools.model.contract import ABSENT

WHY = FIXTURE_ANSWERS[-1][0]


@dataclass(frozen=True)
class Reconciled:
    text: str  # the merged worksheet
    agreed: int  # answers both gave (why not counted)
    blank: int  # answers left blank for a third reading
    raters: tuple[str, str]


def _opening(doc_text: str, raters: tuple[str, str], paths: tuple[str, str]) -> list[str]:
    """The first worksheet's opening comment, and what reconcile did."""
    lines = []
    for line in doc_text.split("\n"):
        if not line.startswith("#"):
            break
        lines.append(line)
    return lines + [
        f"# Reconciled by corpustools reconcile from {raters[0]} ({paths[0]}) and {raters[1]} ({paths[1]}):",
        "# every answer they gave alike is kept; each one they gave differently is blank, both readings in the",
        "# comments above it. Fill the blanks (a third reader, or both raters together), then calibrate.",
    ]


def _as_version_2(doc: YamlDoc) -> dict:
    """The worksheet's data in version 2's shape: item fields under `fields:`, a field pointer the
    result lacks (written `null  # absent from the result`) ABSENT again."""
    data = doc.data
    lines = doc_lines(doc)
    fixtures = []
    for i, fixture in enumerate(data["fixtures"]):
        fixture = dict(fixture)
        if isinstance(fixture.get(FIELDS), dict):
            shown = {}
            for pointer, value in fixture[FIELDS].items():
                line = doc.pos(("fixtures", i, FIELDS, pointer)).line
                absent = value is None and ABSENT_NOTE in lines[line - 1] if 0 < line <= len(lines) else False
                shown[pointer] = ABSENT if absent else value
            fixture[FIELDS] = shown
        if data["worksheet_version"] != WORKSHEET_VERSION:
            fixture["proposals"] = [{"name": p["name"], "type": p["type"], FIELDS: item_fields(p, 1),
                                     "class": p["class"]} for p in fixture["proposals"]]
        fixtures.append(fixture)
    return {"worksheet_version": WORKSHEET_VERSION, "corpus": data["corpus"], "run": data["run"],
            "shows_terms": data["shows_terms"], "fixtures": fixtures}


def doc_lines(doc: YamlDoc) -> list[str]:
    return read_text(doc.path).split("\n")


def _merged_why(first: str | None, second: str | None, raters: tuple[str, str]) -> str:
    a, b = " ".join((first or "").split()), " ".join((second or "").split())
    if a == b or not b:
        return a
    if not a:
        return b
    return f"{raters[0]}: {a} | {raters[1]}: {b}"


def reconcile_worksheets(first_path: str, second_path: str) -> Reconciled:
    """The merged worksheet of two raters' worksheets of one run. CalibrationProblems (every
    problem, one line each) when either cannot be read or the two do not judge the same outputs."""
    problems: list[Problem] = []
    read: list[tuple[JudgedWorksheet, YamlDoc]] = []
    for path in (first_path, second_path):
        judged, doc, found = read_worksheet(path)
        if judged is None or doc is None:
            problems += found
        else:
            read.append((judged, doc))
    if problems:
        raise CalibrationProblems(problems)
    (first, first_doc), (second, second_doc) = read
    if first.corpus_name != second.corpus_name:
        problems.append(Problem(second.corpus_pos, f"judges the corpus {second.corpus_name!r}, {first.path} the "
                                f"corpus {first.corpus_name!r}: give two worksheets of one run"))
    problems += pair_problems(first, second, allow_partial=False, command="reconcile")
    if problems:
        raise CalibrationProblems(problems)
    raters = (first.rater_name, second.rater_name)
    document = _as_version_2(first_doc)
    document["reconciled"] = list(raters)
    others = {f["fixture_id"]: f for f in _as_version_2(second_doc)["fixtures"]}
    notes: dict[tuple, list[str]] = {}
    agreed = blank = 0

    def merge(keypath: tuple, mine: dict, theirs: dict, key: str, extra: tuple[str, str] = ("", "")) -> None:
        nonlocal agreed, blank
        if mine[key] == theirs[key]:
            agreed += 1
            return
        blank += 1
        notes[keypath] = [f"{rater}: {value}{more}" for rater, value, more in
                          zip(raters, (mine[key], theirs[key]), extra, strict=True)]
        mine[key] = None

    for i, fixture in enumerate(document["fixtures"]):
        other = others[fixture["fixture_id"]]
        here = ("fixtures", i)
        points = {p["id"]: p for p in other["points"]}
        for j, point in enumerate(fixture["points"]):
            if point["id"] in points:  # a point in one worksheet only keeps the first rater's answer
                merge((*here, "points", j, POINT_ANSWER[0]), point, points[point["id"]], POINT_ANSWER[0])
        proposals = {p["name"]: p for p in other["proposals"]}
        for j, proposal in enumerate(fixture["proposals"]):
            merge((*here, "proposals", j, PROPOSAL_ANSWER[0]), proposal, proposals[proposal["name"]],
                  PROPOSAL_ANSWER[0])
        verdicts_differ = fixture["verdict"] != other["verdict"]
        for key, _ in FIXTURE_ANSWERS[:-1]:
            merge((*here, key), fixture, other, key)
        if verdicts_differ:  # the third reader writes the why of the verdict they give
            notes[here + (WHY,)] = [f"{rater}'s why: {' '.join((why or '').split()) or '(none given)'}"
                                   for rater, why in zip(raters, (fixture[WHY], other[WHY]), strict=True)]
            fixture[WHY] = None
        else:
            fixture[WHY] = _merged_why(fixture[WHY], other[WHY], raters)
    opening = _opening("\n".join(doc_lines(first_doc)), raters, (first.path, second.path))
    return Reconciled(render_worksheet(opening, document, notes), agreed, blank, raters)

