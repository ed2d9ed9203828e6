"""Synthetic results: one proposal-output JSON per fixture, in a realistic mix of outcomes.

Each fixture draws one outcome — matched, missed, type-mismatch, phantom, forbidden, empty,
invalid JSON, schema-invalid or missing — and the proposals are checked with the scorer's own
matching (the default, words), so an outcome is what the scorer will see, not what the generator
hoped for.
"""

from __future__ import annotations

import hashlib
import json
import os
import random

from grammar import long_sentence
from vocabulary import NOUNS

from corpustools.model.hashing import corpus_sha256
from corpustools.model.normalize import WORDS

# (outcome, weight) for fixtures that expect output, and for those that expect none.
MIX = (("matched", 55), ("missed", 12), ("type-mismatch", 3), ("phantom", 10), ("forbidden", 2),
       ("empty", 6), ("invalid-json", 4), ("schema-invalid", 4), ("missing", 4))
MIX_EMPTY = (("empty", 70), ("phantom", 15), ("invalid-json", 4), ("schema-invalid", 4), ("missing", 7))

LINKS = ("depends on", "must agree with", "is read before", "travels with", "is rebuilt from", "guards",
         "decides", "outlives", "feeds", "is keyed by")
TAILS = ("in step", "aligned", "together", "consistent", "in that order", "side by side")


def outcome(rng: random.Random, *, expect_empty: bool) -> str:
    mix = MIX_EMPTY if expect_empty else MIX
    return rng.choices([name for name, _ in mix], weights=[weight for _, weight in mix])[0]


def _proposal_texts(proposal: dict) -> tuple[str, str]:
    """(match text, everything a must_not_match term is searched in), both normalized."""
    match = WORDS.normalize(proposal["title"] + "\n" + proposal["body"])
    parts = [proposal["title"], proposal["description"], proposal["body"]] + proposal["tags"]
    everything = WORDS.normalize("\n".join(parts))
    return match, everything


def proposal(rng: random.Random, kind: str, terms: list[str], avoid: list[str]) -> dict:
    """A proposal whose title+body contains every term in `terms` and nothing in `avoid`."""
    for _ in range(1000):
        title = terms[0].capitalize()
        if len(terms) > 1:
            title += f" {rng.choice(LINKS)} the {terms[1]}"
        body = long_sentence(rng).text
        if terms:
            body += " Keep " + ", ".join(f"the {t}" for t in terms) + f" {rng.choice(TAILS)}."
        body += " " + long_sentence(rng).text
        if rng.random() < 0.1:  # a made-up identifier, for the scorer's invented-identifier check
            body += f" See `fern_{rng.choice(NOUNS)}_{rng.randint(2, 99)}` for the details."
        tags = sorted({t.split()[-1] for t in terms[: rng.randint(1, 4)]} or {"misc"})
        candidate = {"type": kind, "tags": tags, "title": title, "description": long_sentence(rng).text,
                     "body": body, "kk_confidence": rng.choice(("low", "medium", "high", "high"))}
        match, everything = _proposal_texts(candidate)
        if all(WORDS.contains(match, t) for t in terms) and not any(WORDS.contains(everything, t) for t in avoid):
            return candidate
    raise RuntimeError(f"no proposal holds {terms} without {avoid}: the labels contradict each other")


def unrelated_terms(rng: random.Random, pool: list[str], labels: list[str]) -> list[str]:
    """Two terms (from `pool`, else any noun) that neither contain nor sit inside a label."""
    terms: list[str] = []
    for term in rng.sample(pool, min(4, len(pool))) + rng.sample(NOUNS, 8):
        if not any(a in term or term in a for a in labels + terms):
            terms.append(term)
        if len(terms) == 2:
            break
    return terms


def make_result(rng: random.Random, sidecar: dict, agent_phrases: list[str]) -> bytes | None:
    points = sidecar["expected_points"]
    kind = outcome(rng, expect_empty=not points)
    if kind == "missing":
        return None
    output: dict = {"practice": [], "map": []}
    all_terms = [t for p in points for t in p["must_match_all"]]
    forbidden_all = [t for p in points for t in p.get("must_not_match", [])]
    if kind not in ("empty", "phantom") or (kind == "phantom" and points):
        for index, point in enumerate(points):
            terms, point_type = list(point["must_match_all"]), point["type"]
            avoid = list(forbidden_all)
            if index == 0 and kind == "missed":
                avoid.append(terms.pop(rng.randrange(len(terms))))
            if index == 0 and kind == "type-mismatch":
                point_type = "map" if point_type == "practice" else "practice"
            if index == 0 and kind == "forbidden" and point.get("must_not_match"):
                terms.append(point["must_not_match"][0])
                avoid = [t for t in avoid if t != point["must_not_match"][0]]
            output[point_type].append(proposal(rng, point_type, terms, avoid))
    if kind == "phantom":
        labels = all_terms + forbidden_all
        pool = [p for p in agent_phrases if len(p.split()) <= 3] or list(NOUNS)
        for _ in range(rng.randint(1, 3)):
            phantom_type = rng.choice(("practice", "map"))
            output[phantom_type].append(proposal(rng, phantom_type, unrelated_terms(rng, pool, labels), labels))
    text = json.dumps(output, indent=2, ensure_ascii=False) + "\n"
    if kind == "invalid-json":
        return text[: rng.randint(1, max(1, len(text) - 3))].encode()
    if kind == "schema-invalid":
        return json.dumps(_break_schema(rng, output), indent=2, ensure_ascii=False).encode() + b"\n"
    return text.encode()


def _break_schema(rng: random.Random, output: dict) -> dict:
    proposals = output["practice"] + output["map"]
    variant = rng.randrange(4) if proposals else 3
    if variant == 0:
        del proposals[0]["body"]
    elif variant == 1:
        proposals[0]["kk_confidence"] = "certain"
    elif variant == 2:
        proposals[0]["tags"] = ", ".join(proposals[0]["tags"])
    else:
        output = {"practice": output["practice"], "maps": output["map"]}
    return output


def run_manifest(out: str, prompt: bytes) -> str:
    """results/run.yaml for the corpus written under `out` (its hash is taken from the files)."""
    return "\n".join((
        "prompt:",
        "  path: ../prompt.md",
        "  name: synthetic-extract",
        "  version: 1",
        f"  sha256: {hashlib.sha256(prompt).hexdigest()}",
        "model: synthetic-model",
        "temperature: 0",
        "harness: claude",
        "operator: bench",
        "started_at: '2026-01-01T00:00:00Z'",
        f"corpus_sha256: {corpus_sha256(os.path.join(out, 'corpus'))}",
        "notes: Synthetic results made by bench/make_corpus.py; outcomes are a fixed mix, not a model run.",
    )) + "\n"
