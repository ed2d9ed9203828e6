"""What a report shows under each reason of a failing fixture: for `missed-point:<id>` the closest
same-type proposal, what its match fields say, the terms it lacks and the item_fields it holds
another value in, for `forbidden-match:<id>:<term>` each proposal field
holding the term, for `field-mismatch:<pointer>` the expected values and what the output holds
there, for `phantom-over-budget` each proposal matching no point, by name and title; and the
fixture's proposals by title. One layout, rendered as Markdown and as plain text."""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.io.documents import dump_json
from corpustools.model.contract import Item
from corpustools.model.sidecar import ANY_OF_JOINER, COMBINATION_JOINER
from corpustools.reporting.formatting import code, plural
from corpustools.score.evidence import FieldCheck, ForbiddenHit, PointEvidence, ProposalEvidence, TermCheck
from corpustools.score.fixture import FixtureScore
from corpustools.score.match import FieldScore
from corpustools.score.reasons import Reason, ReasonKind


@dataclass(frozen=True)
class ReasonDetail:
    reason: Reason
    missed: PointEvidence | None = None  # for missed-point
    hits: tuple[ForbiddenHit, ...] = ()  # for forbidden-match
    phantoms: tuple[Item, ...] = ()  # for phantom-over-budget, in output order
    field: FieldScore | None = None  # for field-mismatch
    proposals: int = 0  # for non-empty-where-empty: how many items the output holds


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
        elif reason.kind is ReasonKind.NON_EMPTY_WHERE_EMPTY:
            details.append(ReasonDetail(reason, proposals=len(fixture.proposals)))
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


# The longest field value (as JSON text) the evidence shows beside the closest item's title: a
# value such as a dose, a name or a date; prose is longer, and the HTML report shows it whole.
SAID_LENGTH = 60


def said_words(closest: ProposalEvidence, quote, value) -> str:
    """` (dose "10mg")`: what the closest item's match fields other than its title hold, each a
    value short enough to show whole (SAID_LENGTH), so a reader sees the wording that missed; ``
    when it has none."""
    shown = [f"{quote(name)} {value(text)}" for name, held in closest.shown
             if len(text := json_text(one_line(held) if isinstance(held, str) else held)) <= SAID_LENGTH]
    return f" ({', '.join(shown)})" if shown else ""


def item_field_words(check: FieldCheck, quote, value) -> str:
    """`dose expected "5 mg"; got "2.5 mg"` (or `"5 mg" or "5mg"`; `got nothing` when the item has
    no such key): one of a point's item_fields the closest item holds another value in."""
    expected = " or ".join(value(json_text(v)) for v in check.expected)
    return f"{quote(check.field)} expected {expected}; got {value(json_text(check.got)) if check.present else 'nothing'}"


def closest_words(closest: ProposalEvidence, quote, value, title, absent_words: str) -> str:
    """The closest item named, with what it lacks: the terms (`absent_words`, after what its match
    fields say) and each item field it holds another value in."""
    named = f"{quote(closest.proposal)} {title(one_line(closest.title))}"
    fields = "; ".join(item_field_words(check, quote, value) for check in closest.wrong_fields)
    if not absent_words:
        return f"{named}: {fields}" if fields else f"{named} holds every term"
    return f"{named}{said_words(closest, quote, value)} lacks {absent_words}" + (f"; {fields}" if fields else "")


def json_text(value) -> str:
    """A field value as JSON text: a string quoted, so `"true"` and `true` never look alike."""
    return dump_json(value)


def field_line(field: FieldScore, value) -> str:
    """`expected "billing" or "refunds"; got "sales"`: `value` renders a JSON text."""
    expected = " or ".join(value(json_text(v)) for v in field.expected)
    if not field.present:
        return f"expected {expected}; got nothing: {value(field.pointer)} is absent from the output"
    return f"expected {expected}; got {value(json_text(field.got))}"


def evidence_lines(detail: ReasonDetail, quote, value=None, title=None) -> list[str]:
    """The evidence under one reason, one line each; `quote` renders a user-provided string,
    `value` a JSON text and `title` a proposal's title (both default: `quote`)."""
    title = title or quote
    if detail.field is not None:
        return [field_line(detail.field, value or quote)]
    if detail.missed is not None:
        closest = detail.missed.closest
        if closest is None:
            return [f"no {quote(detail.missed.type)} proposal in the output"]
        value = value or quote
        named = f"closest: {quote(closest.proposal)} {title(one_line(closest.title))}"
        fields = "".join(f"; {item_field_words(check, quote, value)}" for check in closest.wrong_fields)
        if not closest.absent:
            return [named + (fields or "; absent: nothing (it holds every term)")]
        absent = ", ".join(quote(term) for term in closest.absent)
        return [f"{named}{said_words(closest, quote, value)}; absent: {absent}{fields}"]
    if detail.hits:
        return [f"in {quote(name)} {title(one_line(heading))}" + _fields_holding(parts, quote)
                for name, (heading, parts) in hits_by_proposal(detail.hits).items()]
    if detail.phantoms:
        return [f"matching no point: {quote(p.name)} {title(one_line(p.title))}" for p in detail.phantoms]
    return []


def hits_by_proposal(hits: tuple[ForbiddenHit, ...]) -> dict[str, tuple[str, dict[str, list[str]]]]:
    """Proposal name -> (its title, what it holds -> the fields holding it), hits in order: for a
    term, the term; for a forbidden combination, each part (in sidecar order)."""
    found: dict[str, tuple[str, dict[str, list[str]]]] = {}
    for hit in hits:
        found.setdefault(hit.proposal, (hit.title, {}))[1].setdefault(hit.found, []).append(hit.field)
    return found


def _fields_holding(parts: dict[str, list[str]], quote) -> str:
    """`, fields body, tags[1]` for a term; for a combination each part with its fields:
    `: "reading list" in body; "surviving title" in body, title`."""
    def listed(found: list[str]) -> str:
        return f"field{'s' if len(found) > 1 else ''} " + ", ".join(quote(f) for f in found)

    if len(parts) == 1:
        return ", " + listed(next(iter(parts.values())))
    return ": " + "; ".join(f"{quote(part)} in {', '.join(quote(f) for f in found)}" for part, found in parts.items())


def entry_words(check: TermCheck, quote) -> str:
    """A must_match_all entry in words: the term, or `any of a | b` for an entry of alternatives
    (each alternative rendered apart, so a term holding spaces is never read as two)."""
    if len(check.alternatives) < 2:
        return quote(check.term)
    return "any of " + ANY_OF_JOINER.join(quote(a) for a in check.alternatives)


def forbidden_words(detail: ReasonDetail, quote, title) -> str:
    """`forbidden term x (point p) in map[0] "...", field body`; for a combination its parts and
    where each was found: `forbidden combination a + b (point p) in map[0] "...": a in body and b
    in title`. Proposals apart by `; `."""
    reason = detail.reason
    by_proposal = hits_by_proposal(detail.hits)
    parts = list(dict.fromkeys(part for _, held in by_proposal.values() for part in held))
    point = f"(point {quote(str(reason.point_id))})"
    if len(parts) < 2:
        where = "; ".join(f"{quote(name)} {title(one_line(heading))}" + _fields_holding(held, quote)
                          for name, (heading, held) in by_proposal.items())
        return f"forbidden term {quote(str(reason.term))} {point}" + (f" in {where}" if where else "")
    where = "; ".join(f"{quote(name)} {title(one_line(heading))}: " + " and ".join(
        f"{quote(part)} in {', '.join(quote(f) for f in fields)}" for part, fields in held.items())
        for name, (heading, held) in by_proposal.items())
    return f"forbidden combination {COMBINATION_JOINER.join(quote(p) for p in parts)} {point} in {where}"


def reason_words(detail: ReasonDetail, quote, value=None, plain=str, title=None) -> str:
    """Why the fixture fails, in words, evidence included, on one line: `missed point x: no map
    states it; closest map[1] "..." lacks series_builder`. `quote` renders a user-provided name or
    term, `title` a proposal's title (default: `quote`), `value` a JSON text (default: `quote`),
    `plain` free text such as a file's problem (default: as is; HTML escapes it). The reason's
    code goes beside it, never instead. An entry of alternatives reads `any of a | b`, a forbidden
    combination `a + b` with each part's fields."""
    title = title or quote
    reason = detail.reason
    kind = reason.kind
    if kind is ReasonKind.MISSED_POINT:
        point = quote(str(reason.point_id))
        if detail.missed is None:
            return f"missed point {point}"
        closest = detail.missed.closest
        kind_name = quote(detail.missed.type)
        if closest is None:
            return f"missed point {point}: the output has no {kind_name}"
        absent = ", ".join(entry_words(check, quote) for check in closest.terms if not check.found)
        said = closest_words(closest, quote, value or quote, title, absent)
        # An item that holds every term says the point; only a value of it is wrong.
        return f"missed point {point}: " + (f"no {kind_name} states it; " if absent else "") + f"closest {said}"
    if kind is ReasonKind.FORBIDDEN_MATCH:
        return forbidden_words(detail, quote, title)
    if kind is ReasonKind.PHANTOM_OVER_BUDGET:
        named = ", ".join(f"{quote(p.name)} {title(one_line(p.title))}" for p in detail.phantoms)
        found = reason.phantoms or 0
        return (f"{plural(found, 'proposal')} match{'es' if found == 1 else ''} no point (budget {reason.budget})"
                + (f": {named}" if named else ""))
    if kind is ReasonKind.NON_EMPTY_WHERE_EMPTY:
        return f"the right answer is empty, but the output has {plural(detail.proposals, 'item')}"
    if kind is ReasonKind.FIELD_MISMATCH:
        field = detail.field
        return f"field {quote(str(reason.pointer))}" + (f": {field_line(field, value or quote)}" if field else "")
    if kind is ReasonKind.MISSING_RESULT:
        return "no result file for this fixture"
    if kind is ReasonKind.UNREADABLE_RESULT:
        return f"the result file cannot be read: {plain(reason.detail)}"
    if kind is ReasonKind.INVALID_RESULT:
        return f"the result is not a valid output: {plain(reason.detail)}"
    if kind is ReasonKind.SIDECAR_INVALID:
        return "the sidecar is invalid" + (f": {plain(reason.detail)}" if reason.detail else "")
    return plain(str(reason))  # a kind without words yet: its code says it


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
    return dump_json(text)

