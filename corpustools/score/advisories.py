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
from collections import Counter

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
    from rapidfuzz import fuzz  # rapidfuzz: only a missed term's close wording

    needle, match_text = item.matching.normalize(term), item.match_text
    found = fuzz.partial_ratio_alignment(needle, match_text, score_cutoff=NEAR_MISS_SCORE) if needle else None
    if found is None:
        return None
    start = max(match_text.rfind(" ", 0, found.dest_start), match_text.rfind("\n", 0, found.dest_start)) + 1
    after = _WORD_END.search(match_text, max(found.dest_end - 1, found.dest_start))
    wording = match_text[start:after.start() if after else len(match_text)].strip()
    if not wording or not set(_NUMBER.findall(needle)) <= set(_NUMBER.findall(wording)):
        return None
    return wording


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
