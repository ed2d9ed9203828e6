"""A result's proposals as the scorer reads them: each with its name (`practice[0]`) and the
normalized text its must_match_all terms are looked for in."""

from __future__ import annotations

from dataclasses import dataclass

from corpustools.model.contract import proposals as named_proposals
from corpustools.model.normalize import normalize


@dataclass(frozen=True)
class Proposal:
    name: str  # practice[i] | map[i]
    type: str  # the array it sits in: practice | map
    title: str
    description: str
    body: str
    tags: tuple[str, ...]
    match_text: str  # normalized title + "\n" + body: what must_match_all terms are looked for in


def read_proposals(output: dict) -> tuple[Proposal, ...]:
    found = []
    for name, item in named_proposals(output):
        title, body = item["title"], item["body"]
        found.append(Proposal(name, name.split("[", 1)[0], title, item["description"], body,
                              tuple(item["tags"]), normalize(title + "\n" + body)))
    return tuple(found)
