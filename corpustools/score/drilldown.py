"""What a report shows under each reason of a failing fixture: for `missed-point:<id>` the closest
same-type proposal and the terms it lacks, for `forbidden-match:<id>:<term>` each proposal field
holding the term, for `field-mismatch:<pointer>` the expected values and what the output holds
there, for `phantom-over-budget` each proposal matching no point, by name and title; and the
fixture's proposals by title. One layout, rendered as Markdown and as plain text."""

from __future__ import annotations

import json
from dataclasses import dataclass

from corpustools.model.contract import Item
from corpustools.score.evidence import ForbiddenHit, PointEvidence
from corpustools.score.formatting import code
from corpustools.score.match import FieldScore, FixtureScore
from corpustools.score.reasons import Reason, ReasonKind


@dataclass(frozen=True)
class ReasonDetail:
    reason: Reason
    missed: PointEvidence | None = None  # for missed-point
    hits: tuple[ForbiddenHit, ...] = ()  # for forbidden-match
    phantoms: tuple[Item, ...] = ()  # for phantom-over-budget, in output order
    field: FieldScore | None = None  # for field-mismatch


def reason_details(fixture: FixtureScore) -> tuple[ReasonDetail, ...]:
    """Each reason with its evidence, in reason order. Missed points pair with their evidence in
    sidecar order, so two points sharing an id each explain their own reason."""
    missed = [e for e in fixture.evidence if not e.optional and not e.matched]
    details = []
    for reason in fixture.reasons:
        if reason.kind is ReasonKind.MISSED_POINT:
            point = next((e for e in missed if e.point_id == reason.point_id), None)
            if point is not None:
                missed.remove(point)
            details.append(ReasonDetail(reason, missed=point))
        elif reason.kind is ReasonKind.FORBIDDEN_MATCH:
            details.append(ReasonDetail(reason, hits=tuple(
                h for h in fixture.forbidden if (h.point_id, h.term) == (reason.point_id, reason.term))))
        elif reason.kind is ReasonKind.FIELD_MISMATCH:
            details.append(ReasonDetail(reason, field=next(f for f in fixture.fields if f.pointer == reason.pointer)))
        elif reason.kind is ReasonKind.PHANTOM_OVER_BUDGET:
            unexpected = set(fixture.unexpected)
            details.append(ReasonDetail(reason, phantoms=tuple(p for p in fixture.proposals if p.name in unexpected)))
        else:
            details.append(ReasonDetail(reason))
    return tuple(details)


def matched_points(fixture: FixtureScore) -> dict[str, tuple[str, ...]]:
    """Item name -> ids of the points (expected or optional) it matches."""
    found: dict[str, tuple[str, ...]] = {}
    for point in fixture.evidence:
        for proposal in point.proposals:
            if proposal.matched:
                found[proposal.proposal] = found.get(proposal.proposal, ()) + (point.point_id,)
    return found


def one_line(text: str) -> str:
    return " ".join(text.split())


def json_text(value) -> str:
    """A field value as JSON text: a string quoted, so `"true"` and `true` never look alike."""
    return json.dumps(value, ensure_ascii=False)


def field_line(field: FieldScore, value) -> str:
    """`expected "billing" or "refunds"; got "sales"`: `value` renders a JSON text."""
    expected = " or ".join(value(json_text(v)) for v in field.expected)
    if not field.present:
        return f"expected {expected}; got nothing: {value(field.pointer)} is absent from the output"
    return f"expected {expected}; got {value(json_text(field.got))}"


def evidence_lines(detail: ReasonDetail, quote, value=None) -> list[str]:
    """The evidence under one reason, one line each; `quote` renders a user-provided string,
    `value` a JSON text (default: `quote`)."""
    if detail.field is not None:
        return [field_line(detail.field, value or quote)]
    if detail.missed is not None:
        closest = detail.missed.closest
        if closest is None:
            return [f"no {quote(detail.missed.type)} proposal in the output"]
        absent = ", ".join(quote(term) for term in closest.absent) or "nothing (it holds every term)"
        return [f"closest: {quote(closest.proposal)} {quote(one_line(closest.title))}; absent: {absent}"]
    if detail.hits:
        # proposal name -> part -> its fields holding the part, hits in order (one part: the term)
        fields: dict[str, dict[str, list[str]]] = {}
        titles = {}
        for hit in detail.hits:
            fields.setdefault(hit.proposal, {}).setdefault(hit.found, []).append(quote(hit.field))
            titles[hit.proposal] = hit.title
        return [f"in {quote(name)} {quote(one_line(titles[name]))}" + _fields_holding(parts, quote)
                for name, parts in fields.items()]
    if detail.phantoms:
        return [f"matching no point: {quote(p.name)} {quote(one_line(p.title))}" for p in detail.phantoms]
    return []


def _fields_holding(parts: dict[str, list[str]], quote) -> str:
    """`, fields body, tags[1]` for a term; for a combination each part with its fields:
    `: "reading list" in body; "surviving title" in body, title`."""
    def listed(found: list[str]) -> str:
        return f"field{'s' if len(found) > 1 else ''} " + ", ".join(found)

    if len(parts) == 1:
        return ", " + listed(next(iter(parts.values())))
    return ": " + "; ".join(f"{quote(part)} in {', '.join(found)}" for part, found in parts.items())


def proposal_lines(fixture: FixtureScore, quote) -> list[str]:
    matches = matched_points(fixture)
    return [f"{quote(p.name)} {quote(one_line(p.title))}" + (
        f" (matches {', '.join(quote(i) for i in matches[p.name])})" if p.name in matches else " (matches no point)")
        for p in fixture.proposals]


def reasons_markdown(fixture: FixtureScore, indent: str = "") -> list[str]:
    """One bullet per reason, a nested bullet per piece of evidence."""
    lines = []
    for detail in reason_details(fixture):
        lines.append(f"{indent}- {code(str(detail.reason))}")
        lines += [f"{indent}  - {line}" for line in evidence_lines(detail, code)]
    return lines


def proposals_markdown(fixture: FixtureScore, indent: str = "") -> list[str]:
    return [f"{indent}- {line}" for line in proposal_lines(fixture, code)]


def details(summary: str, body: list[str]) -> list[str]:
    """A collapsed <details> block; `summary` is text corpustools wrote (never user text)."""
    return [f"<details><summary>{summary}</summary>", ""] + body + ["", "</details>", ""]


def quoted(text: str) -> str:
    """A user-provided string in a plain-text report: as is when it is one plain word, else a JSON
    string (quotes and backslashes inside escaped, so where it ends is never in doubt)."""
    if text and not any(ch.isspace() or ch in "\"\\" for ch in text):
        return text
    return json.dumps(text, ensure_ascii=False)


def reasons_text(fixture: FixtureScore, indent: str) -> list[str]:
    lines = []
    for detail in reason_details(fixture):
        lines.append(f"{indent}{detail.reason}")
        lines += [f"{indent}  {line}" for line in evidence_lines(detail, quoted, str)]
    return lines


def proposals_text(fixture: FixtureScore, indent: str) -> list[str]:
    return [f"{indent}{line}" for line in proposal_lines(fixture, quoted)]
