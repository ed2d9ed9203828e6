"""What the label rules (CT6xx) share: each session's normalized turns, and the labels.

(A "transcript" is the session body as written, what render and score read; the label rules read
its turns only.) Each turn is normalized by the corpus's matching (corpus.yaml's output.matching:
the scorer's own, corpustools.model.normalize) and the turns are joined by newlines, which no
normalization leaves inside a term, so a term is found only if one turn says it: a phrase cannot
match across two turns.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from corpustools.lint.context import CacheKey, LintContext
from corpustools.lint.diagnostic import Problem
from corpustools.model.contract import AGENT, USER
from corpustools.model.normalize import Matching, normalize
from corpustools.model.session import Session
from corpustools.model.sidecar import ITEM_FIELDS, TERM_LISTS, ExpectedPoint, ItemField, Sidecar, Term, TermEntry


@dataclass(frozen=True)
class NormalizedTurns:
    """A session's turns, normalized: all of them, the user's, the agent's (by the speaker each
    role tag stands for, corpus.yaml's session.roles)."""

    everything: str  # every turn normalized, in order, joined by newlines (no normalization keeps one)
    speakers: tuple[str | None, ...]  # who said each of those turns

    # The user's and the agent's turns are cut from `everything` when asked for (one rule does,
    # once a session), not kept: at 10,000 fixtures they were a second copy of every turn (31 MB).
    @property
    def user(self) -> str:
        return self._said_by(USER)

    @property
    def agent(self) -> str:
        return self._said_by(AGENT)

    def _said_by(self, speaker: str) -> str:
        if not self.speakers:
            return ""
        turns = self.everything.split("\n")
        return "\n".join(text for said_by, text in zip(self.speakers, turns, strict=True) if said_by == speaker)


def matching(ctx: LintContext) -> Matching:
    """What a term matches in this corpus (output.matching; read even while the rest of the
    contract is broken): the rule every label rule looks for terms with, as the scorer does."""
    return ctx.corpus.session_format.matching


def normalize_turns(session: Session, by: Matching) -> NormalizedTurns:
    turns = session.turns
    return NormalizedTurns("\n".join(by.normalize(t.text) for t in turns), tuple(t.speaker for t in turns))


NORMALIZED_TURNS: CacheKey[dict[str, NormalizedTurns]] = CacheKey("labels.normalized_turns")


def normalized_turns(ctx: LintContext) -> Mapping[str, NormalizedTurns]:
    """fixture id -> its normalized turns, for every session that parsed (computed once a run)."""
    return ctx.cached(NORMALIZED_TURNS, lambda c: {
        fixture_id: normalize_turns(session, matching(c)) for fixture_id, session in sorted(c.corpus.sessions.items())})


def normalized(term: Term) -> str:
    """The term normalized as the similarity rules read text: empty exactly when it is under any
    matching (no letter or digit), and the words a rule about a term's wording counts."""
    return normalize(term.text)


def labelled_points(ctx: LintContext) -> Iterator[tuple[str, Sidecar, ExpectedPoint]]:
    """(fixture id, sidecar, point) for every expected and optional point of every schema-valid
    sidecar, by fixture id, then expected points before optional ones, each in sidecar order
    (`point.list_key` says which list). The fixture id is the file's basename, which pairs it
    with its session."""
    for fixture_id, sidecar in sorted(ctx.corpus.sidecars.items()):
        for point in sidecar.all_points:
            yield fixture_id, sidecar, point


def points_with_turns(ctx: LintContext) -> Iterator[tuple[ExpectedPoint, NormalizedTurns]]:
    """(point, its session's normalized turns) for every labelled point whose session parsed."""
    known = normalized_turns(ctx)
    for fixture_id, _, point in labelled_points(ctx):
        if fixture_id in known:
            yield point, known[fixture_id]


def point_name(point: ExpectedPoint) -> str:
    """`point 'x'` or `optional point 'x'`, for a message."""
    return f"{'optional point' if point.optional else 'point'} {point.id!r}"


def all_entries(point: ExpectedPoint) -> Iterator[tuple[str, TermEntry]]:
    """(list name, entry) for both of a point's term lists, `must_match_all` first."""
    for field in TERM_LISTS:
        for entry in getattr(point, field):
            yield field, entry


def all_terms(point: ExpectedPoint) -> Iterator[tuple[str, Term]]:
    """(list name, term) for every term of both of a point's lists, `must_match_all` first: each
    alternative of an entry of alternatives, each part of a forbidden combination, on its own."""
    for field, entry in all_entries(point):
        for term in entry.terms:
            yield field, term


def labelled_terms(ctx: LintContext) -> Iterator[tuple[ExpectedPoint, str, Term]]:
    """(point, list name, term) for every term of every labelled point: points in
    labelled_points order, each point's terms in all_terms order."""
    for _, _, point in labelled_points(ctx):
        for field, term in all_terms(point):
            yield point, field, term


def terms_never_said(ctx: LintContext, field: str, consequence: str) -> Iterator[Problem]:
    """A problem at every term of a point's `field` list (`must_match_all` or `must_not_match`;
    each alternative or part of an entry on its own) that is not empty after normalization and
    that no turn of the point's session says; `consequence` ends the message."""
    by = matching(ctx)
    for point, turns in points_with_turns(ctx):
        for entry in getattr(point, field):
            for term in entry.terms:
                if normalized(term) and not by.contains(turns.everything, term.text):
                    yield Problem(term.pos, f"{field} term {quoted(term.text)} of {point_name(point)} never "
                                            f"occurs in the transcript; {consequence}")


def entries_never_said(ctx: LintContext, field: str, consequence: str) -> Iterator[Problem]:
    """A problem at every entry of a point's `field` list none of whose terms the point's session
    says (terms empty after normalization aside; an entry of only such terms is CT606's): one
    alternative said is enough for an entry of alternatives."""
    by = matching(ctx)
    for point, turns in points_with_turns(ctx):
        for entry in getattr(point, field):
            said = [t for t in entry.terms if normalized(t)]
            if not said or any(by.contains(turns.everything, t.text) for t in said):
                continue
            never = ": no term of it occurs" if entry.listed else " never occurs"
            yield Problem(entry.pos, f"{field} {entry_named(entry)} of {point_name(point)}{never} in the transcript; "
                                     f"{consequence}")


def item_values_never_said(ctx: LintContext, consequence: str) -> Iterator[Problem]:
    """A problem at every item_fields entry of a point that gives string values only, none of
    which the point's session says as a term would be found (not empty after normalization; one
    value of a list said is enough). A number, boolean or null value is compared as JSON, never
    looked for in words, so an entry holding one is never reported."""
    by = matching(ctx)
    for point, turns in points_with_turns(ctx):
        for item_field in point.item_fields:
            values = item_field.values
            if not all(isinstance(v, str) and normalize(v) for v in values):
                continue
            if not any(by.contains(turns.everything, v) for v in values):
                yield Problem(item_field.pos, f"{ITEM_FIELDS} {item_field_named(item_field)} of {point_name(point)} "
                                              f"never occurs in the transcript; {consequence}")


def item_field_named(item_field: ItemField) -> str:
    """`dose '5 mg'`, or `dose ['5 mg', '5mg']` for values written as a list: an item_fields entry
    for a message."""
    if not item_field.listed:
        return f"{item_field.name} {quoted(str(item_field.values[0]))}"
    return f"{item_field.name} [" + ", ".join(quoted(str(v)) for v in item_field.values) + "]"


def entry_shown(entry: TermEntry) -> str:
    """An entry of several terms for a message, as YAML writes it: `['tracking sync', 'trackingsync']`."""
    return "[" + ", ".join(quoted(t) for t in entry.texts) + "]"


def entry_named(entry: TermEntry) -> str:
    """An entry for a message: `term 'cache'`, or `entry ['tracking sync', 'trackingsync']` for one
    written as a list."""
    return f"entry {entry_shown(entry)}" if entry.listed else f"term {quoted(entry.text)}"


def term_words(text: str) -> list[str]:
    """A term's words as written: what whitespace separates, punctuation-only pieces dropped. An
    identifier (`views.view.branch_events`) is one word however many parts normalization makes."""
    return [word for word in text.split() if normalize(word)]


def is_identifier(word: str) -> bool:
    """A written word that normalization splits into parts (`branch_events`, `a.b`); a word
    with an apostrophe (`don't`) is a contraction, not an identifier."""
    return len(normalize(word).split()) > 1 and "'" not in word and "\u2019" not in word


def quoted(text: str, limit: int = 80) -> str:
    """A term or sentence for a one-line message: repr-quoted, shortened, never multi-line."""
    one_line = " ".join(text.split())
    if len(one_line) > limit:
        one_line = one_line[: limit - 3] + "..."
    return repr(one_line)
