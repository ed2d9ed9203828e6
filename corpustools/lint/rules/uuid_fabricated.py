"""A session_id is a valid UUID v4 but not a random one: it was typed or counted, not generated.

What: each session_id that CT101 accepts is checked for what a generator never produces, and
reported at the id with every sign found:
- a run of more than `max_run` (default 7) equal hex digits (`0000000000`);
- more than `max_zero_bits` (default 95) of its 122 random bits zero (a version 4 UUID fixes 6
  of its 128 bits; the other 122 are random, about 61 of them zero);
- another session_id it differs from in at most `max_differing_digits` (default 6) of the 32
  hex digits: ids that differ only in their last few digits, or a counter anywhere in the id;
- another session_id it shares its first or last `min_shared_digits` (default 10) hex digits
  with: a sequence built on one fixed stem.

Why: a real corpus of 24 LLM-authored sessions numbered its ids
`10000000-0000-4000-8000-0000000000NN`: valid v4 UUIDs, so CT101 passed them, but a counter
dressed as a UUID. Such ids say the sessions were not captured but written in one go, and they
collide the moment two corpora are merged. For 10,000 random ids the chance that any of these
signs appears by accident is below one in a thousand (each bound is at least 6 standard
deviations or a 16^-10 coincidence away).

Example (flagged, with the next fixture's id ending in 02):

    session_id: 10000000-0000-4000-8000-000000000001

    sessions/admit-convention-01.md:3:1: CT103 [warning] session_id 10000000-0000-4000-8000-000000000001
    is not random: a run of 14 '0' digits; 120 of its 122 random bits are zero; it differs from
    admit-convention-02's in only 1 hex digit; use uuid.uuid4()
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import pairwise
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.fixes import UNSAFE, Fix, Planned, Unfixable, fresh_session_id, session_at
from corpustools.lint.options import Option
from corpustools.lint.rules.uuid_invalid import uuid_problem


def _renew(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    fixture_id = session_at(ctx, problem.pos)
    return fresh_session_id(ctx, fixture_id, "not random") if fixture_id is not None else None


CODE = "CT103"
NAME = "uuid-fabricated"
SEVERITY = Severity.WARNING
OPTIONS = (
    Option("max_run", int, 7, "a run of more equal hex digits is a sign", min=0),
    Option("max_zero_bits", int, 95, "more zero bits of the 122 random ones is a sign", min=0),
    Option("max_differing_digits", int, 6, "ids differing in at most this many hex digits are related "
           "(over 16 counts as 16)", min=0),
    Option("min_shared_digits", int, 10, "ids sharing their first or last this many hex digits are related "
           "(under 1 counts as 1)", min=0),
)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    max_run: int
    max_zero_bits: int
    max_differing_digits: int
    min_shared_digits: int


SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = (Fix(UNSAFE, "gives the session a new random UUID v4; the session's identity changes, and the "
                     "provenance record drifts", _renew),)

_RUN = re.compile(r"([0-9a-f])\1*")
# The 122 random bits of a v4 UUID as a 128-bit integer: all but the version nibble (bits
# 76-79) and the variant's two high bits (bits 62-63).
RANDOM_BITS = ((1 << 128) - 1) ^ (0xF << 76) ^ (0x3 << 62)


def own_signs(digits: str, max_run: int, max_zero_bits: int) -> list[str]:
    """What about one id (its 32 hex digits) alone says it is not random."""
    signs = []
    if re.search(rf"([0-9a-f])\1{{{max_run}}}", digits):
        run = max((m.group() for m in _RUN.finditer(digits)), key=len)
        signs.append(f"a run of {len(run)} {run[0]!r} digits")
    zeros = 122 - bin(int(digits, 16) & RANDOM_BITS).count("1")
    if zeros > max_zero_bits:
        signs.append(f"{zeros} of its 122 random bits are zero")
    return signs


def _segments(size: int, parts: int) -> list[tuple[int, int]]:
    bounds = [size * i // parts for i in range(parts + 1)]
    return list(pairwise(bounds))


def near_ids(ids: dict[str, str], max_differing: int) -> Iterator[tuple[str, str, int]]:
    """(fixture, other fixture, differing digits) for ids differing in at most `max_differing`
    digits. Two such ids agree on at least one of `max_differing + 1` segments (pigeonhole), so
    only ids sharing a segment are compared: linear for random ids."""
    blocks: dict[tuple[int, str], list[str]] = {}
    for index, (start, end) in enumerate(_segments(32, max_differing + 1)):
        for fixture_id, digits in ids.items():
            blocks.setdefault((index, digits[start:end]), []).append(fixture_id)
    seen = set()
    for members in blocks.values():
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                pair = (a, b) if a < b else (b, a)
                if pair in seen or ids[a] == ids[b]:  # an equal id is CT102's
                    continue
                seen.add(pair)
                differing = sum(x != y for x, y in zip(ids[a], ids[b], strict=True))
                if differing <= max_differing:
                    yield pair[0], pair[1], differing


def shared_stems(ids: dict[str, str], min_shared: int) -> Iterator[tuple[str, str, int, str]]:
    """(fixture, the first other fixture, how many others, 'first'|'last') for each id that shares
    its first or last `min_shared` digits with other ids (equal ids are CT102's). Linear: ids are
    grouped by stem, and a group is never expanded into pairs."""
    takes: tuple[tuple[str, Callable[[str], str]], ...] = (("first", lambda d: d[:min_shared]),
                                                          ("last", lambda d: d[-min_shared:]))
    for end, take in takes:
        stems: dict[str, list[str]] = {}
        for fixture_id, digits in ids.items():
            stems.setdefault(take(digits), []).append(fixture_id)
        for members in stems.values():
            if len(members) < 2 or len({ids[m] for m in members}) < 2:
                continue
            first, second = sorted(members)[:2]
            same = Counter(ids[m] for m in members)
            for fixture_id in members:
                others = len(members) - same[ids[fixture_id]]
                if others:
                    yield fixture_id, second if fixture_id == first else first, others, end


def _more(count: int) -> str:
    return f" (and {count} more id{'s' if count != 1 else ''} like it)" if count else ""


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    max_run, max_zero_bits = options.max_run, options.max_zero_bits
    # bounded so that a wide setting cannot turn the blocked search into comparing every pair
    max_differing = min(16, options.max_differing_digits)
    min_shared = max(1, options.min_shared_digits)
    values: dict[str, str] = {}
    ids: dict[str, str] = {}  # fixture -> its 32 hex digits
    for fixture_id in sorted(ctx.corpus.sessions):
        value = ctx.corpus.sessions[fixture_id].frontmatter.data.get("session_id")
        if isinstance(value, str) and uuid_problem(value) is None:
            values[fixture_id], ids[fixture_id] = value, value.replace("-", "")
    related: dict[str, dict[str, str]] = {}  # fixture -> other fixture -> how they are related
    for a, b, differing in near_ids(ids, max_differing):
        how = f"in only {differing} hex digit{'s' if differing != 1 else ''}"
        related.setdefault(a, {})[b] = f"it differs from {b}'s {how}"
        related.setdefault(b, {})[a] = f"it differs from {a}'s {how}"
    stems: dict[str, tuple[str, int, str]] = {}  # fixture -> (first other, how many, 'first'|'last')
    for fixture_id, other, count, end in shared_stems(ids, min_shared):
        stems.setdefault(fixture_id, (other, count, end))
    for fixture_id, digits in ids.items():
        signs = own_signs(digits, max_run, max_zero_bits)
        others = related.get(fixture_id, {})
        if others:
            first = sorted(others)[0]
            signs.append(others[first] + _more(len(others) - 1))
        elif fixture_id in stems:
            other, count, end = stems[fixture_id]
            signs.append(f"it shares its {end} {min_shared} hex digits with {other}'s" + _more(count - 1))
        if signs:
            session = ctx.corpus.sessions[fixture_id]
            yield Problem(session.frontmatter.pos(("session_id",)),
                          f"session_id {values[fixture_id]} is not random: {'; '.join(signs)}; use uuid.uuid4()")
