"""The evidence behind a verdict (score/evidence.py) and Matching.spans, the characters a term matched."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpustools.io.yamlload import parse_yaml
from corpustools.model.contract import DEFAULT
from corpustools.model.normalize import SUBSTRING, WORDS
from corpustools.model.sidecar import parse_sidecar
from corpustools.score.evidence import ForbiddenHit, TermCheck, forbidden_hits, point_evidence
from corpustools.score.match import forbidden_matches
from corpustools.score.reasons import forbidden_match
from tests.support.score import output, points_yaml, proposal

TEXT = ("fixture_id: admit-convention-01\ncategory: admit-convention\nexpect_empty: false\n"
        "expected_points:{points}optional_points:{optional}max_unexpected_proposals: 3\nnotes: n\n")


def sidecar(*points, optional=()):
    text = TEXT.format(points=points_yaml(*points), optional=points_yaml(*optional))
    parsed, errors = parse_sidecar(parse_yaml(text, "expected/admit-convention-01.yaml"))
    assert not errors, errors
    return parsed


QUEUE = ("expire-via-queue", "practice", ["queue worker", "expired signups", "cron hook"])


def test_each_proposal_of_the_point_type_is_checked_term_by_term():
    proposals = items_of(output(
        [proposal("Expired signups", "the cron hook"), proposal("The queue worker")],
        [proposal("queue worker, expired signups, cron hook", type="map")]))
    [point] = point_evidence(sidecar(QUEUE), proposals)
    assert (point.point_id, point.type, point.optional, point.matched) == ("expire-via-queue", "practice", False, False)
    assert [p.proposal for p in point.proposals] == ["practice[0]", "practice[1]"]  # not map[0]
    assert point.proposals[0].terms == (TermCheck("queue worker", False), TermCheck("expired signups", True),
                                        TermCheck("cron hook", True))
    assert point.proposals[0].absent == ("queue worker",)
    assert point.proposals[1].absent == ("expired signups", "cron hook")
    assert point.closest.proposal == "practice[0]"  # two terms found beats one


def test_closest_tie_goes_to_the_first_in_output_order():
    proposals = items_of(output([proposal("Expired signups"), proposal("the cron hook"),
                                       proposal("queue worker")]))
    [point] = point_evidence(sidecar(QUEUE), proposals)
    assert point.closest.proposal == "practice[0]" and point.closest.title == "Expired signups"


def test_no_proposal_of_the_type_has_no_closest():
    [point] = point_evidence(sidecar(QUEUE), items_of(output(map=[proposal("queue worker", type="map")])))
    assert point.proposals == () and point.closest is None and not point.matched


def test_matched_point_and_optional_points_follow_expected_ones():
    proposals = items_of(output([proposal("Expired signups", "queue worker cron hook")]))
    points = point_evidence(sidecar(QUEUE, optional=[("nice", "practice", ["cron"])]), proposals)
    assert [(p.point_id, p.optional, p.matched) for p in points] == [("expire-via-queue", False, True),
                                                                     ("nice", True, True)]
    assert points[0].closest.matched and points[0].closest.absent == ()


def test_forbidden_hits_name_proposal_and_field_in_nesting_order():
    points = sidecar(("a", "practice", ["x"], ["direct delete", "cron"]), optional=[("b", "map", ["y"], ["ftp"])])
    proposals = items_of(output(
        [proposal("Use cron", "never a direct delete", tags=("ops", "direct-delete")),
         proposal("Other", description="cron job")],
        [proposal("Upload", type="map", tags=("ftp",))]))
    assert forbidden_hits(points, proposals) == (
        ForbiddenHit("a", "direct delete", "practice[0]", "Use cron", "body"),
        ForbiddenHit("a", "direct delete", "practice[0]", "Use cron", "tags[1]"),
        ForbiddenHit("a", "cron", "practice[0]", "Use cron", "title"),
        ForbiddenHit("a", "cron", "practice[1]", "Other", "description"),
        ForbiddenHit("b", "ftp", "map[0]", "Upload", "tags[0]"),
    )
    assert forbidden_matches(points, forbidden_hits(points, proposals)) == [
        forbidden_match("a", "direct delete"), forbidden_match("a", "cron"), forbidden_match("b", "ftp")]


def test_a_forbidden_term_across_a_field_boundary_is_no_hit():
    points = sidecar(("a", "practice", ["x"], ["cron hook"]))
    proposals = items_of(output([proposal("Use the cron", "hook it up", tags=("cron", "hook"))]))
    assert forbidden_hits(points, proposals) == () and forbidden_matches(points, ()) == []


BOTH = pytest.mark.parametrize("matching", [WORDS, SUBSTRING], ids=lambda m: m.name)


@BOTH
def test_spans_mark_the_original_characters(matching):
    text = "The Queue-Worker's job; \ufb01le via queue_worker, caf\u0065\u0301 QUEUE\nWORKER"
    assert [text[a:b] for a, b in matching.spans(text, "queue worker")] == ["Queue-Worker", "queue_worker",
                                                                             "QUEUE\nWORKER"]
    assert [text[a:b] for a, b in matching.spans(text, "worker job")] == ["Worker's job"]  # the dropped 's inside
    assert [text[a:b] for a, b in matching.spans(text, "fi")] == ["\ufb01"]  # a ligature is one character
    assert [text[a:b] for a, b in matching.spans(text, "caf\u00e9")] == ["cafe\u0301"]
    assert matching.spans(text, "queue workers") == () and matching.spans(text, "--") == ()


def test_spans_overlap_and_follow_each_rule():
    assert SUBSTRING.spans("aaa", "aa") == ((0, 2), (1, 3))  # every place, overlapping too
    assert WORDS.spans("a a a", "a a") == ((0, 3), (2, 5))
    assert WORDS.spans("aaa", "aa") == ((0, 2),)  # only at a word start
    text = "2.5 mg or 5mg, not 25 MG"
    assert [text[a:b] for a, b in WORDS.spans(text, "5 mg")] == ["5mg"]  # the inserted space maps inside
    assert [text[a:b] for a, b in SUBSTRING.spans(text, "5 mg")] == ["5 mg", "5 MG"]  # in 2.5 and 25
    assert [text[a:b] for a, b in WORDS.spans(text, "mg")] == ["mg", "mg", "MG"]


_TRICKY = st.sampled_from(["\ufb01", "e\u0301", "\u00df", "'s", "\u2019s", "_", "-", " ", "\n", "\u1100\u1161",
                           "\uff21", "\u0345", "\u0130", "q", "u", "e", "a", "s", "1", "2", ".", ",", "m",
                           "\u6771", "\uff11"])
_TEXT = st.one_of(st.text(max_size=30), st.lists(_TRICKY, max_size=12).map("".join))
_TERM = st.one_of(st.text(max_size=6), st.lists(_TRICKY, max_size=3).map("".join))


@BOTH
@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(text=_TEXT, term=_TERM)
def test_spans_agree_with_contains(matching, text, term):
    spans = matching.spans(text, term)
    assert bool(spans) == matching.contains(matching.normalize(text), term)
    assert list(spans) == sorted(spans)
    for start, end in spans:
        assert 0 <= start < end <= len(text)
        # A span holds the term on its own, unless an 's outside it was what normalization dropped.
        if "'" not in text and "\u2019" not in text:
            assert matching.contains(matching.normalize(text[start:end]), term)


def items_of(result: dict):
    """The items the built-in contract reads from a proposal output."""
    return DEFAULT.read_json(result).items
