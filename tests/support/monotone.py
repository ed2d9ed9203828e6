"""Corpora for the monotone-corpus rules (CT404 session-lengths-few, CT405 session-shape-dominant,
CT406 category-length-uniform, CT705 opening-skeleton-repeated; tests/rules/): reject-noise
fixtures whose sessions have chosen (user, agent) turn counts."""

from __future__ import annotations

from tests.support.corpus import SPEC_TEXT, session_text, sidecar_text
from tests.support.lint import lint_run

SPEC = SPEC_TEXT.replace("  max: 10", "  max: 20")
WORDS = ("anchor", "bramble", "cobalt", "dune", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
         "kelp", "lantern", "meadow", "nectar", "orchard", "pebble", "quarry", "russet", "saffron", "thistle",
         "umber", "willow", "yarrow", "zinnia", "alder", "birch", "cedar")



def turns(user: int, agent: int, opening: str | None = None, number: int = 0):
    """`user` USER and `agent` AGENT turns (USER first, alternating while both last), each
    saying something of its own; `opening` replaces the first turn's text."""
    tags: list[str] = []
    while user or agent:
        if user and (not tags or tags[-1] == "AGENT" or not agent):
            tags.append("USER")
            user -= 1
        else:
            tags.append("AGENT")
            agent -= 1
    said = [(tag, f"The {WORDS[number % len(WORDS)]} {WORDS[(number + i + 1) % len(WORDS)]} needs a look.")
            for i, tag in enumerate(tags)]
    if opening is not None:
        said[0] = (said[0][0], opening)
    return said


def corpus(make_corpus, shapes, categories=None, openings=None, spec=SPEC, name="corpus"):
    """Fixtures reject-noise-01.. with these (user, agent) shapes; the admit fixture is removed.
    Each fixture's turns say words of their own, so no two sessions open alike."""
    files = {"sessions/admit-convention-01.md": None, "expected/admit-convention-01.yaml": None,
             "corpus.yaml": spec}
    for number, (user, agent) in enumerate(shapes, 1):
        category = categories[number - 1] if categories else "reject-noise"
        fixture_id = f"{category}-{number:02d}"
        opening = openings[number - 1] if openings else None
        files[f"sessions/{fixture_id}.md"] = session_text(
            f"b7e4d2a9-1c3f-4a8e-9d5b-{number:04x}{number * 7919:08x}"[:36], turns(user, agent, opening, number))
        files[f"expected/{fixture_id}.yaml"] = sidecar_text(fixture_id, category, expect_empty=True)
    files["sessions/reject-noise-01.md"] = files.get("sessions/reject-noise-01.md")
    return make_corpus(files, name)


def run(root, code):
    """The lint run of `code` alone on `root`."""
    result = lint_run(root, select=frozenset({code}))
    assert result.crashes == ()
    return result


# 24 fixtures: a varied corpus (the shipped corpus's spread), and a monotone one like the real
# LLM-authored corpus (few lengths, most sessions strictly alternating).
VARIED = [(4, 6), (5, 9), (4, 8), (7, 11), (6, 9), (5, 12), (4, 4), (4, 5), (6, 10), (5, 6), (4, 9), (5, 7),
          (7, 12), (5, 5), (6, 8), (5, 11), (3, 6), (6, 5), (8, 12), (3, 10), (6, 11), (3, 5), (7, 8), (5, 13)]
MONOTONE = [(5, 5)] * 7 + [(6, 6)] * 6 + [(4, 4)] * 4 + [(7, 6)] * 4 + [(6, 5)] * 3
