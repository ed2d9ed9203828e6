"""The words a fixture's score is told in, as values: its verdict, its status, the reasons it fails
and the advisories beside them (docs/scoring.md rules 1-6).

Reasons and advisories are frozen values with typed fields; their text (`missed-point:<id>`,
`near-miss:<id>:<term>:<proposal>`, ...) is a contract that exists only at the report edge, made
by `str()` and read back by `parse_reason` / `parse_advisory`. Nothing inside corpustools splits a
reason string to learn what it says.
"""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.model.status import TextEnum


class Verdict(TextEnum):
    PASS = "PASS"
    FAIL = "FAIL"
    UNCHECKED = "UNCHECKED"  # expects output but names no point: never a pass


class ReasonKind(TextEnum):
    MISSED_POINT = "missed-point"
    FORBIDDEN_MATCH = "forbidden-match"
    FIELD_MISMATCH = "field-mismatch"
    NON_EMPTY_WHERE_EMPTY = "non-empty-where-empty"
    PHANTOM_OVER_BUDGET = "phantom-over-budget"
    SIDECAR_INVALID = "sidecar-invalid"
    MISSING_RESULT = "missing-result"
    UNREADABLE_RESULT = "unreadable-result"
    INVALID_RESULT = "invalid-result"


@dataclass(frozen=True)
class Reason:
    """Why a fixture fails. Which fields a kind fills: missed-point `point_id`; forbidden-match
    `point_id`, `term`; field-mismatch `pointer`; phantom-over-budget `phantoms`, `budget`;
    sidecar-invalid `detail` (may be None); unreadable-result and invalid-result `detail`; the
    others none."""

    kind: ReasonKind
    point_id: str | None = None
    term: str | None = None  # the must_not_match term, as written in the sidecar
    phantoms: int | None = None  # unexpected proposals found
    budget: int | None = None  # max_unexpected_proposals
    detail: str | None = None  # the one line naming the file (and line) that is invalid
    pointer: str | None = None  # the pinned field (a JSON pointer) whose value is not the expected one

    def __str__(self) -> str:
        kind = self.kind.value
        if self.kind is ReasonKind.MISSED_POINT:
            return f"{kind}:{self.point_id}"
        if self.kind is ReasonKind.FIELD_MISMATCH:
            return f"{kind}:{self.pointer}"
        if self.kind is ReasonKind.FORBIDDEN_MATCH:
            return f"{kind}:{self.point_id}:{self.term}"
        if self.kind is ReasonKind.PHANTOM_OVER_BUDGET:
            return f"{kind}:{self.phantoms}>{self.budget}"
        if self.detail is not None:  # sidecar-invalid[:detail], unreadable-result:detail, invalid-result:detail
            return f"{kind}:{self.detail}"
        return kind


def missed_point(point_id: str) -> Reason:
    return Reason(ReasonKind.MISSED_POINT, point_id=point_id)


def forbidden_match(point_id: str, term: str) -> Reason:
    return Reason(ReasonKind.FORBIDDEN_MATCH, point_id=point_id, term=term)


def field_mismatch(pointer: str) -> Reason:
    return Reason(ReasonKind.FIELD_MISMATCH, pointer=pointer)


def phantom_over_budget(phantoms: int, budget: int) -> Reason:
    return Reason(ReasonKind.PHANTOM_OVER_BUDGET, phantoms=phantoms, budget=budget)


def parse_reason(text: str) -> Reason:
    """The inverse of `str(reason)`; ValueError for text no reason prints. The text cannot say
    where a point id holding a colon ends (the schema allows one); the first colon ends it here."""
    name, _, rest = text.partition(":")
    kind = ReasonKind(name)  # ValueError for an unknown kind
    if kind is ReasonKind.MISSED_POINT and rest:
        return missed_point(rest)
    if kind is ReasonKind.FIELD_MISMATCH and rest.startswith("/"):
        return field_mismatch(rest)
    if kind is ReasonKind.FORBIDDEN_MATCH and ":" in rest:
        point_id, _, term = rest.partition(":")
        return forbidden_match(point_id, term)
    if kind is ReasonKind.PHANTOM_OVER_BUDGET:
        found, _, budget = rest.partition(">")
        if found.isdigit() and budget.isdigit():
            return phantom_over_budget(int(found), int(budget))
    if kind in (ReasonKind.SIDECAR_INVALID, ReasonKind.UNREADABLE_RESULT, ReasonKind.INVALID_RESULT) and (
            rest or kind is ReasonKind.SIDECAR_INVALID):
        return Reason(kind, detail=rest or None)
    if kind in (ReasonKind.NON_EMPTY_WHERE_EMPTY, ReasonKind.MISSING_RESULT) and text == kind.value:
        return Reason(kind)
    raise ValueError(f"not a {kind.value} reason: {text!r}")


class AdvisoryKind(TextEnum):
    TYPE_MISMATCH = "type-mismatch"
    NEAR_MISS = "near-miss"
    DUPLICATE = "duplicate"
    MERGED = "merged"
    CONTRACT = "contract"
    INVENTED_IDENTIFIER = "invented-identifier"
    INVALID_FORMAT = "invalid-format"  # an invalid result whose content, fence or extra keys aside, is valid


@dataclass(frozen=True)
class Advisory:
    """What a reader should look at, never a change to a verdict (corpustools.score.advisories).
    Which fields a kind fills: type-mismatch `point_id`, `proposal`; near-miss `point_id`, `text`
    (the term), `proposal`; duplicate `point_id`; merged `proposal`; contract `proposal`, `text`
    (what is wrong); invented-identifier `proposal`, `text` (the token); invalid-format `text` (what
    the content would have scored: `content inside the fence would pass`)."""

    kind: AdvisoryKind
    point_id: str | None = None
    proposal: str | None = None  # practice[0] | map[1]
    text: str | None = None

    def __str__(self) -> str:
        fields: tuple[str | None, ...]
        if self.kind is AdvisoryKind.NEAR_MISS:
            fields = (self.point_id, self.text, self.proposal)
        elif self.kind is AdvisoryKind.TYPE_MISMATCH:
            fields = (self.point_id, self.proposal)
        elif self.kind is AdvisoryKind.DUPLICATE:
            fields = (self.point_id,)
        elif self.kind is AdvisoryKind.MERGED:
            fields = (self.proposal,)
        elif self.kind is AdvisoryKind.INVALID_FORMAT:
            fields = (self.text,)
        else:  # contract, invented-identifier
            fields = (self.proposal, self.text)
        return ":".join((self.kind.value, *(str(f) for f in fields)))


def parse_advisory(text: str) -> Advisory:
    """The inverse of `str(advisory)`; ValueError for text no advisory prints. Proposal names
    (`practice[i]`, `map[i]`) hold no colon; a term, token or contract warning may, and a point id
    may too, where the text cannot say where it ends: the first colon ends it here."""
    name, _, rest = text.partition(":")
    kind = AdvisoryKind(name)  # ValueError for an unknown kind
    first, colon, last = rest.partition(":")
    if kind is AdvisoryKind.NEAR_MISS and ":" in last:
        term, _, proposal = last.rpartition(":")
        return Advisory(kind, point_id=first, text=term, proposal=proposal)
    if kind is AdvisoryKind.TYPE_MISMATCH and colon and ":" not in last:
        return Advisory(kind, point_id=first, proposal=last)
    if kind is AdvisoryKind.DUPLICATE and rest and not colon:
        return Advisory(kind, point_id=rest)
    if kind is AdvisoryKind.MERGED and rest and not colon:
        return Advisory(kind, proposal=rest)
    if kind is AdvisoryKind.INVALID_FORMAT and rest:
        return Advisory(kind, text=rest)
    if kind in (AdvisoryKind.CONTRACT, AdvisoryKind.INVENTED_IDENTIFIER) and colon:
        return Advisory(kind, proposal=first, text=last)
    raise ValueError(f"not a {kind.value} advisory: {text!r}")
