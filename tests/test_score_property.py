"""Property test: random corpora and results keep the scorer's invariants, and a faithful gold
output always passes."""

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpustools.score.scoring import score_report

# No word is a substring of another (within or across the lists), so only intended matches happen.
TERMS = ("kiwi", "lemon", "mango", "papaya", "quince", "raisin", "tamarind", "walnut")
FORBIDDEN = ("zebra", "yak", "xerus", "vole")
SPEC = {"corpus_version": 1, "name": "prop", "prompt_under_eval": {"name": "p", "version": 1},
        "categories": [{"id": "cat", "count": 1, "expect": "subset", "tests": "anything"}]}

point = st.fixed_dictionaries({
    "type": st.sampled_from(["practice", "map"]),
    "must_match_all": st.lists(st.sampled_from(TERMS), min_size=1, max_size=3, unique=True),
    "must_not_match": st.lists(st.sampled_from(FORBIDDEN), max_size=2, unique=True),
})
sidecar = st.one_of(
    st.builds(lambda budget: {"expect_empty": True, "points": [], "budget": budget}, st.integers(0, 2)),
    st.builds(lambda points, budget: {"expect_empty": False, "points": points, "budget": budget},
              st.lists(point, max_size=3), st.integers(0, 2)),
)
text = st.lists(st.sampled_from(TERMS + FORBIDDEN + ("the", "rule")), max_size=6).map(" ".join)
proposal = st.fixed_dictionaries({"type": st.sampled_from(["practice", "map"]), "title": text, "body": text,
                                  "description": text, "tags": st.lists(text, max_size=2)})
result = st.one_of(st.none(), st.just("not json"), st.lists(proposal, max_size=4))


def candidate(item: dict) -> dict:
    return {"type": item["type"], "tags": item["tags"] or ["t"], "title": item["title"], "description":
            item["description"], "body": item["body"], "kk_confidence": "medium"}


def output_of(proposals) -> dict:
    return {"practice": [candidate(p) for p in proposals if p["type"] == "practice"],
            "map": [candidate(p) for p in proposals if p["type"] == "map"]}


def gold_of(fixture: dict) -> dict:
    """The faithful output: one proposal per point, of its type, holding exactly its terms."""
    return output_of([{"type": p["type"], "title": " ".join(p["must_match_all"]), "body": "the rule",
                       "description": "the rule", "tags": ["rule"]} for p in fixture["points"]])


def write(root: Path, fixtures: list[dict], outputs: list) -> tuple[str, str]:
    corpus, results = root / "corpus", root / "results"
    (corpus / "expected").mkdir(parents=True)
    results.mkdir()
    (corpus / "corpus.yaml").write_text(json.dumps(SPEC))
    for i, fixture in enumerate(fixtures):
        fixture_id = f"cat-{i:02d}"
        points = [{"id": f"p{j}", **p} for j, p in enumerate(fixture["points"])]
        (corpus / "expected" / f"{fixture_id}.yaml").write_text(json.dumps({
            "fixture_id": fixture_id, "category": "cat", "expect_empty": fixture["expect_empty"],
            "expected_points": points, "max_unexpected_proposals": fixture["budget"], "notes": "generated"}))
        content = outputs[i]
        if content is not None:
            (results / f"{fixture_id}.json").write_text(content if isinstance(content, str) else json.dumps(content))
    return str(corpus), str(results)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(sidecar, result), min_size=1, max_size=5))
def test_invariants_hold_for_random_corpora_and_results(cases):
    fixtures = [c[0] for c in cases]
    outputs = [c[1] if not isinstance(c[1], list) else output_of(c[1]) for c in cases]
    with tempfile.TemporaryDirectory() as tmp:
        corpus, results = write(Path(tmp), fixtures, outputs)
        run = score_report(corpus, [results]).runs[0]
    aggregate = run.aggregate
    assert 0 <= aggregate.points_matched <= aggregate.points_total
    assert aggregate.fixtures_passed + aggregate.fixtures_failed + aggregate.fixtures_unchecked == len(fixtures)
    for score in run.fixtures:
        names = {p.name for p in score.proposals}
        expected = {name for p in score.points for name in p.matched_by}
        assert expected | set(score.unexpected) == names and not expected & set(score.unexpected)
        assert (score.verdict == "PASS") <= (not score.reasons)
        assert all(p.matched == bool(p.matched_by) for p in score.points)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(sidecar, min_size=1, max_size=5))
def test_a_faithful_gold_output_passes(fixtures):
    with tempfile.TemporaryDirectory() as tmp:
        corpus, results = write(Path(tmp), fixtures, [gold_of(f) for f in fixtures])
        run = score_report(corpus, [results]).runs[0]
    for fixture, score in zip(fixtures, run.fixtures, strict=True):
        assert score.reasons == ()
        if not fixture["expect_empty"] and not fixture["points"]:
            assert score.verdict == "UNCHECKED"
        else:
            assert score.verdict == "PASS"
    assert run.aggregate.points_matched == run.aggregate.points_total
    assert run.aggregate.phantoms == 0
