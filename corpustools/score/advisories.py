"""Advisories: what a reader should look at, never a change to a verdict. Reports call them
"diagnostics" (the JSON key, the Markdown heading); in the code they are advisories, so that a
diagnostic means one thing: what lint reports (corpustools.lint.diagnostic).

They point at labels that may be too brittle (`near-miss`, `type-mismatch`), at outputs that
split or merge points (`duplicate`, `merged`), at breaches of the prompt's contract the schema
leaves out (`contract`), and at identifiers the model made up (`invented-identifier`) - kept apart
from phantoms, because a phantom may be a judgment call but an invented identifier is not.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import accumulate
from operator import sub

from corpustools.model.contract import ContractWarning, Item
from corpustools.model.sidecar import Sidecar
from corpustools.score.evidence import holds
from corpustools.score.reasons import Advisory, AdvisoryKind

# rapidfuzz partial_ratio (0-100) at or above which an absent term has a close variant: one
# edit in a ten-letter term scores about 90, so a typo or inflection is a near miss.
NEAR_MISS_SCORE = 85
# A backticked span that is one token (no whitespace) is an identifier: a name, path or key.
_CODE_SPAN = re.compile(r"`([^`\s]{2,200})`")
_TRIM = ".,;:/'\"()[]{}"
_WORD_END = re.compile(r"\s")  # what ends a word in a normalized text
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")  # a number, as words matching reads one


def type_mismatches(sidecar: Sidecar, proposals, points) -> list[Advisory]:
    out = []
    for point, score in zip(sidecar.points, points, strict=True):
        if not score.matched:
            out += [Advisory(AdvisoryKind.TYPE_MISMATCH, point_id=point.id, proposal=p.name) for p in proposals
                    if p.type != point.type and holds(p, point)]
    return out


def close_wording(term: str, item: Item) -> str | None:
    """The words of the item's match text that are a close variant of `term` (rapidfuzz's
    partial_ratio at least NEAR_MISS_SCORE, normalized by the item's matching), widened to whole
    words; None when there is none: what a near-miss flags, and the wording calibrate's
    brittle-term offers as an alternative. A different number is no close variant: `2.5 mg` is a
    wrong dose for the term `5 mg`, not a wording of it, so every number of the term must be a
    number of the wording."""
    needle, match_text = item.matching.normalize(term), item.match_text
    # once loaded, rapidfuzz's own search is cheaper than the bound
    if not needle or not ("rapidfuzz.fuzz" in sys.modules or _may_be_close(needle, match_text)):
        return None
    from rapidfuzz import fuzz  # rapidfuzz (about 50 modules): only a term the bound cannot rule out

    found = fuzz.partial_ratio_alignment(needle, match_text, score_cutoff=NEAR_MISS_SCORE)
    if found is None:
        return None
    start = max(match_text.rfind(" ", 0, found.dest_start), match_text.rfind("\n", 0, found.dest_start)) + 1
    after = _WORD_END.search(match_text, max(found.dest_end - 1, found.dest_start))
    wording = match_text[start:after.start() if after else len(match_text)].strip()
    if not wording or not set(_NUMBER.findall(needle)) <= set(_NUMBER.findall(wording)):
        return None
    return wording


def _reaches(common: int, needle: int, part: int) -> bool:
    """Whether partial_ratio can reach NEAR_MISS_SCORE on a part of the text `part` characters long
    that has `common` characters in common with a needle `needle` characters long: the score is the
    Indel similarity 200 * LCS / (needle + part), and an LCS is at most the characters in common."""
    return 200 * common >= NEAR_MISS_SCORE * (needle + part)


def _overlaps(wanted: Counter[str], chars: Iterable[str]) -> Iterator[int]:
    """The characters in common with `wanted` of each prefix of `chars`, the shortest first."""
    seen: Counter[str] = Counter()
    common = 0
    for char in chars:
        seen[char] += 1
        common += seen[char] <= wanted[char]
        yield common


def _may_hold_enough(needle: str, text: str) -> bool:
    """The count behind _may_be_close, first without multiplicity (a bound of it, found at C speed
    over running totals): some part of `text` partial_ratio compares has enough characters that
    occur in `needle`. False spares the exact count, which is about ten times dearer."""
    size, letters = len(needle), set(needle)
    totals = list(accumulate((char in letters for char in text), initial=0))
    longest = len(text)
    return (any(_reaches(totals[length], size, length) or _reaches(totals[longest] - totals[longest - length], size, length)
                for length in range(1, size))
            or _reaches(max(map(sub, totals[size:], totals)), size, size))


def _may_be_close(needle: str, text: str) -> bool:
    """False when `needle` has no close variant in `text` for certain (partial_ratio under
    NEAR_MISS_SCORE), by counting characters: the characters two strings have in common (as
    multisets) bound their LCS. Exact where it says False, so it only spares rapidfuzz's import
    and calls; True may still be no match. partial_ratio aligns the shorter string with the
    longer one's parts as long as it (each window, counted from the last: one character out and
    one in) and with its shorter prefixes and suffixes; a text no longer than the needle is
    bounded by the characters the two have in common."""
    size, wanted = len(needle), Counter(needle)
    common = sum((wanted & Counter(text)).values())
    if size >= len(text):
        return _reaches(common, len(text), common)
    if not _reaches(common, size, common) or not _may_hold_enough(needle, text):
        return False
    edges = (text[:size - 1], text[:len(text) - size:-1])  # the prefixes and (reversed) the suffixes
    if any(_reaches(overlap, size, length) for edge in edges
           for length, overlap in enumerate(_overlaps(wanted, edge), start=1)):
        return True
    window = Counter(text[:size])
    overlap = sum((wanted & window).values())
    if _reaches(overlap, size, size):
        return True
    for leaving, entering in zip(text, text[size:], strict=False):  # the window's first and next
        if leaving == entering:
            continue
        overlap -= window[leaving] <= wanted[leaving]  # a character the needle still wanted leaves
        window[leaving] -= 1
        window[entering] += 1
        overlap += window[entering] <= wanted[entering]
        if _reaches(overlap, size, size):
            return True
    return False


def near_misses(sidecar: Sidecar, proposals, evidence) -> list[Advisory]:
    """Terms of an unmatched expected point that the scorer found absent from a same-type proposal
    (the evidence says which; nothing is matched twice) but that have a close variant there; for
    an entry of alternatives, each alternative that has one."""
    by_name = {p.name: p for p in proposals}
    expected = (e for e in evidence if not e.optional)
    out = []
    for point, seen in zip(sidecar.points, expected, strict=True):
        if seen.matched:
            continue
        for i, entry in enumerate(point.must_match_all):
            for candidate in seen.proposals:
                if candidate.terms[i].found:
                    continue
                item = by_name[candidate.proposal]
                out += [Advisory(AdvisoryKind.NEAR_MISS, point_id=point.id, text=term.text, proposal=candidate.proposal)
                        for term in entry.terms if close_wording(term.text, item) is not None]
    return out


def duplicates_and_merges(proposals, points) -> list[Advisory]:
    out = [Advisory(AdvisoryKind.DUPLICATE, point_id=score.id) for score in points if len(score.matched_by) > 1]
    # how many points each proposal matches, counted once (linear: an output may hold 40,000 proposals)
    matched = Counter(name for score in points for name in set(score.matched_by))
    out += [Advisory(AdvisoryKind.MERGED, proposal=p.name) for p in proposals if matched[p.name] > 1]
    return out


def contract_advisories(warnings: list[ContractWarning]) -> list[Advisory]:
    return [Advisory(AdvisoryKind.CONTRACT, proposal=w.proposal, text=w.what) for w in warnings]


def identifier_tokens(text: str) -> list[str]:
    """Backticked one-token spans, with trailing call parentheses and punctuation trimmed."""
    tokens = []
    for span in _CODE_SPAN.findall(text):
        token = span[:-2] if span.endswith("()") else span
        token = token.strip(_TRIM)
        if len(token) >= 2 and any(ch.isalpha() for ch in token):
            tokens.append(token)
    return tokens


def invented_identifiers(proposals, transcript: str) -> list[Advisory]:
    out = []
    for proposal in proposals:
        for token in identifier_tokens("\n".join(proposal.texts)):
            if token not in transcript:
                out.append(Advisory(AdvisoryKind.INVENTED_IDENTIFIER, proposal=proposal.name, text=token))
    return out


def _unique(items: list[Advisory]) -> list[Advisory]:
    """The first of each text: two advisories that read the same are one line to a reader."""
    first: dict[str, Advisory] = {}
    for item in items:
        first.setdefault(str(item), item)
    return list(first.values())


def advisory(sidecar: Sidecar, proposals, points, evidence, warnings: list[ContractWarning],
             transcript: str | None) -> list[Advisory]:
    """Every advisory of a scored fixture, in a fixed order (docs/scoring.md rule 6); `evidence` is
    the fixture's point evidence (corpustools.score.evidence), `warnings` the output contract's
    advisory checks of its items."""
    out = type_mismatches(sidecar, proposals, points)
    out += near_misses(sidecar, proposals, evidence)
    out += duplicates_and_merges(proposals, points)
    out += contract_advisories(warnings)
    if transcript is not None:  # no transcript (unparseable session): nothing to check against
        out += invented_identifiers(proposals, transcript)
    return _unique(out)
