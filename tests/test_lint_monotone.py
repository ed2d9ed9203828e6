"""The monotone-corpus rules: CT404 session-lengths-few, CT405 session-shape-dominant, CT406
category-length-uniform and CT705 opening-skeleton-repeated. Each corpus here is made of
reject-noise fixtures whose sessions have chosen (user, agent) turn counts."""

from __future__ import annotations

import pytest

from tests.support.corpus import SPEC_TEXT, session_text, sidecar_text
from tests.support.lint import lint_run, messages, where

SPEC = SPEC_TEXT.replace("  max: 10", "  max: 20")
WORDS = ("anchor", "bramble", "cobalt", "dune", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
         "kelp", "lantern", "meadow", "nectar", "orchard", "pebble", "quarry", "russet", "saffron", "thistle",
         "umber", "willow", "yarrow", "zinnia", "alder", "birch", "cedar")


pytestmark = pytest.mark.usefixtures("in_tmp")


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
    result = lint_run(root, select=frozenset({code}))
    assert result.crashes == ()
    return result


# 24 fixtures: a varied corpus (the shipped corpus's spread), and a monotone one like the real
# LLM-authored corpus (few lengths, most sessions strictly alternating).
VARIED = [(4, 6), (5, 9), (4, 8), (7, 11), (6, 9), (5, 12), (4, 4), (4, 5), (6, 10), (5, 6), (4, 9), (5, 7),
          (7, 12), (5, 5), (6, 8), (5, 11), (3, 6), (6, 5), (8, 12), (3, 10), (6, 11), (3, 5), (7, 8), (5, 13)]
MONOTONE = [(5, 5)] * 7 + [(6, 6)] * 6 + [(4, 4)] * 4 + [(7, 6)] * 4 + [(6, 5)] * 3


@pytest.mark.parametrize("code", ["CT404", "CT405", "CT406", "CT705"])
def test_a_varied_corpus_is_clean(make_corpus, code):
    assert where(run(corpus(make_corpus, VARIED), code), code) == []


# CT404: few lengths, with the distribution; CT405: a dominant shape, with its fixtures.
@pytest.mark.parametrize(("code", "message"), [
    ("CT404",
     "only 5 distinct session lengths among 24 fixtures (at least 6 expected): 10 turns x7, 12 turns x6, "
     "8 turns x4, 13 turns x4, 11 turns x3; the most common, 10 turns: reject-noise-01, reject-noise-02, "
     "reject-noise-03, reject-noise-04, reject-noise-05, reject-noise-06, reject-noise-07; vary the number "
     "of turns"),
    ("CT405",
     "7 of 24 fixtures (29%, more than 25%) have 5 user + 5 agent turns: reject-noise-01, reject-noise-02, "
     "reject-noise-03, reject-noise-04, reject-noise-05, reject-noise-06, reject-noise-07; shapes: "
     "5 user + 5 agent x7, 6 user + 6 agent x6, 4 user + 4 agent x4, 7 user + 6 agent x4, "
     "6 user + 5 agent x3; vary who speaks when"),
])
def test_a_monotone_corpus_is_reported_once_at_corpus_yaml(make_corpus, code, message):
    found = run(corpus(make_corpus, MONOTONE), code)
    assert where(found, code) == [("corpus/corpus.yaml", 1, 1)]
    assert messages(found, code) == [message]


def test_the_lengths_wanted_grow_with_the_corpus_up_to_a_cap_and_the_spec_range(make_corpus):
    # 8 fixtures want 2 lengths: two are enough, one is not
    assert where(run(corpus(make_corpus, [(4, 4)] * 4 + [(5, 5)] * 4), "CT404"), "CT404") == []
    assert len(where(run(corpus(make_corpus, [(4, 4)] * 8, name="one"), "CT404"), "CT404")) == 1
    # 7 fixtures are too few to judge
    assert where(run(corpus(make_corpus, [(4, 4)] * 7, name="seven"), "CT404"), "CT404") == []
    # a spec allowing 3 lengths wants no more than 3
    narrow = SPEC.replace("  min: 2\n  max: 20", "  min: 8\n  max: 10")
    shapes = [(4, 4)] * 10 + [(5, 4)] * 10 + [(5, 5)] * 10
    assert where(run(corpus(make_corpus, shapes, spec=narrow, name="narrow"), "CT404"), "CT404") == []


def test_shape_share_is_an_option_and_exactly_the_share_passes(make_corpus):
    shapes = [(5, 5)] * 6 + [shape for shape in VARIED if shape != (5, 5)][:18]  # 6 of 24 is 25%: not more
    assert where(run(corpus(make_corpus, shapes), "CT405"), "CT405") == []
    strict = SPEC + "lint:\n  rules:\n    CT405:\n      max_share: 0.2\n"
    assert len(where(run(corpus(make_corpus, shapes, spec=strict, name="strict"), "CT405"), "CT405")) == 1


def test_a_category_whose_fixtures_share_one_length_is_reported_at_its_entry(make_corpus):
    shapes = [(5, 5), (6, 4), (4, 6)] + VARIED[:5]
    categories = ["admit-convention"] * 3 + ["reject-noise"] * 5
    found = run(corpus(make_corpus, shapes, categories), "CT406")
    assert where(found, "CT406") == [("corpus/corpus.yaml", 11, 5)]  # the `- id: admit-convention` entry
    assert messages(found, "CT406") == [
        "all 3 fixtures of category admit-convention have 10 turns: admit-convention-01, admit-convention-02, "
        "admit-convention-03; vary their lengths"]
    # two fixtures alike are chance, not a finding
    found = run(corpus(make_corpus, shapes[1:], categories[1:], name="two"), "CT406")
    assert where(found, "CT406") == []


def test_a_repeated_opening_skeleton_is_reported_once_at_the_first_session(make_corpus):
    openings = [f"I'm working on the `fern_{name}` module and need help." for name in ("events", "holds", "ils")]
    openings += ["Hello."] * 5 + [None] * 16  # a bare greeting is not an opening skeleton
    found = run(corpus(make_corpus, VARIED, openings=openings), "CT705")
    assert where(found, "CT705") == [("corpus/sessions/reject-noise-01.md", 7, 9)]
    assert messages(found, "CT705") == [
        "opening sentence skeleton 'i m working on the * module and need help' opens 3 sessions: reject-noise-01, "
        "reject-noise-02, reject-noise-03; vary how sessions start"]
    two = openings[1:] + [None]
    assert where(run(corpus(make_corpus, VARIED, openings=two, name="two"), "CT705"), "CT705") == []
