"""The label rules (CT601-CT614): each has a failing sample, asserting code, line and column (the
shared valid corpus passes them all: test_lint_engine.py). Samples are the shared valid corpus
(tests/support/corpus.py) with the admit sidecar's points changed; its session says "expired
signups" and "queue worker" in user turns and "delete query" only in an agent turn."""

from __future__ import annotations

import json

import pytest

from corpustools.cli import main
from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, REJECT_ID, SPEC_TEXT, session_text, sidecar_text
from tests.support.lint import lint_run, messages, where

SIDECAR = f"expected/{ADMIT_ID}.yaml"
SHOWN = f"corpus/{SIDECAR}"  # diagnostics print paths relative to the working directory

pytestmark = pytest.mark.usefixtures("in_tmp")


def point(point_id: str, kind: str, must_match_all, must_not_match=None) -> str:
    """The YAML of one expected point, as an item of the sidecar's `expected_points` list."""
    text = f"\n  - id: {point_id}\n    type: {kind}\n    must_match_all:\n"
    text += "".join(f"      - {json.dumps(term)}\n" for term in must_match_all)
    if must_not_match is not None:
        text += "    must_not_match:\n" + "".join(f"      - {json.dumps(term)}\n" for term in must_not_match)
    return text.rstrip("\n")


def labels(*points: str) -> dict:
    """Overrides giving the admit sidecar these points (line 5 is the first point's `- id:`)."""
    return {SIDECAR: sidecar_text(points="".join(points) + "\n")}


def found(make_corpus, code, *points, spec=None):
    overrides = labels(*points)
    if spec is not None:
        overrides["corpus.yaml"] = spec
    run = lint_run(make_corpus(overrides), select=frozenset({code}))
    assert run.crashes == ()
    return run


# Line 8 is the first must_match_all term, line 8 + len(must_match_all) + 1 the first must_not_match term.
FAILING = [
    ("CT601", [point("p", "practice", ["queue worker", "cron schedule table"])], [(9, 9)]),
    ("CT602", [point("p", "practice", ["expired signups", "delete query"])], [(9, 9)]),
    ("CT603", [point("p", "practice", ["Queue Worker", "expired signups"], ["Delete Query"])], [(8, 9), (11, 9)]),
    ("CT604", [point("p", "practice", ["queue worker"])], [(5, 5)]),
    ("CT604", [point("p", "practice", ["queue", "worker", "expired", "signups", "cron"])], [(5, 5)]),
    ("CT605", [point("p", "practice", ["queue worker", "never", "db"])], [(9, 9), (10, 9)]),
    ("CT605", [point("p", "practice", ["queue worker", "expired signups"], ["module"])], [(11, 9)]),
    ("CT606", [point("p", "practice", ["queue worker", "expired signups", " -- "], ["`"])], [(10, 9), (12, 9)]),
    ("CT607", [point("p", "practice", ["queue worker", "expired signups"], ["delete query", "abbreviation"])],
     [(12, 9)]),
    ("CT608", [point("p", "practice", ["queue worker", "expired signups"], ["cron hook", "Worker!"])], [(12, 9)]),
    ("CT609", [point("same", "practice", ["queue worker", "expired signups"]),
               point("other", "map", ["queue worker", "newsletter module"]),
               point("same", "map", ["queue worker", "cron hook"])], [(5, 5), (15, 5)]),
    ("CT610", [point("p", "practice", ["expired signups go through the queue worker", "queue worker"])], [(8, 9)]),
    ("CT610", [point("p", "practice", ["expired signups go", "queue worker"])], [(8, 9)]),  # three words
    ("CT611", [point("p", "practice", ["through the queue", "queue worker"], ["a delete"])], [(8, 9), (11, 9)]),
    ("CT611", [point("p", "practice", ["expired signups", "go through"])], [(9, 9)]),
    ("CT612", [point("p", "practice", ["queue worker", "mailing vendor"], ["delete query"])], [(9, 9), (11, 9)]),
    ("CT613", [point("p", "practice", ["queue worker's", "expired signups"], ["don\u2019t delete"])],
     [(8, 9), (11, 9)]),
    ("CT614", [point("p", "practice", ["queue worker", "signups"])], [(9, 9)]),  # the agent says "signup table"
]


@pytest.mark.parametrize("code, points, expected", FAILING, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(FAILING)])
def test_failing_sample_is_reported_at_the_term(make_corpus, code, points, expected):
    run = found(make_corpus, code, *points)
    assert where(run, code) == [(SHOWN, line, col) for line, col in expected]


# The near-misses of each rule: samples that look like the failing ones but are fine.
PASSING = [
    ("CT601", [point("p", "practice", ["Queue-Worker", "expired  signups"])]),  # normalization matches
    ("CT602", [point("p", "map", ["expired signups", "delete query"])]),  # maps may come from the agent
    ("CT602", [point("p", "practice", ["expired signups", "queue worker"])]),  # the user says both
    ("CT603", [point("p", "practice", ["queue worker", "expired signups"], ["delete query"])]),
    ("CT604", [point("p", "practice", ["queue", "worker", "expired", "signups"])]),
    ("CT605", [point("p", "practice", ["queue worker", "cron"])]),  # "cron": 4 characters, not generic
    ("CT606", [point("p", "practice", ["queue worker", "expired signups"], ["delete query"])]),
    ("CT607", [point("p", "practice", ["queue worker", "expired signups"], ["Delete-Query"])]),
    ("CT608", [point("p", "practice", ["queue worker", "expired signups"], ["workers"])]),
    ("CT609", [point("one", "practice", ["queue worker", "expired signups"]),
               point("two", "map", ["queue worker", "cron hook"])]),
    ("CT610", [point("p", "practice", ["expired signups", "queue worker"])]),  # two words
    # one identifier is one word, however many parts normalization splits it into
    ("CT610", [point("p", "practice", ["expired signups", "queue_worker.expired_signups.cron"])]),
    ("CT611", [point("p", "practice", ["queue worker", "expired signups"], ["delete"])]),
    ("CT611", [point("p", "practice", ["queue", "the"])]),  # one word: CT605's business, not CT611's
    ("CT611", [point("p", "practice", ["expired signups", "queue_worker.the_signups"])]),  # identifier
    ("CT612", [point("p", "practice", ["queue worker", "expired signups"], ["mailing"])]),  # said twice; one word
    ("CT612", [point("p", "practice", ["queue worker", "cron schedule table"])]),  # never said: CT601's
    ("CT613", [point("p", "practice", ["queue worker", "expired signups"], ["'s'"])]),  # a quoted s
    ("CT614", [point("p", "practice", ["queue worker", "signup"])]),  # finds "signups" and "signup"
    ("CT614", [point("p", "practice", ["queue worker", "expired signups"])]),  # "signup table" is not "expired signup"
]


@pytest.mark.parametrize("code, points", PASSING, ids=[f"{c}-{i}" for i, (c, _) in enumerate(PASSING)])
def test_near_miss_passes(make_corpus, code, points):
    assert where(found(make_corpus, code, *points), code) == []


# Messages name the term and the point (CT601, CT608, CT609) and say what to write instead
# (CT611-CT613).
MESSAGES = [
    ("CT601", [point("branch-rule", "practice", ["queue worker", "cron schedule table"])], [
        "must_match_all term 'cron schedule table' of point 'branch-rule' never occurs in the transcript; "
        "no faithful extraction can match it"]),
    ("CT608", [point("p", "practice", ["queue worker", "expired signups"], ["worker"])], [
        "must_not_match term 'worker' occurs inside must_match_all term 'queue worker' (line 8); "
        "point 'p' can never pass"]),
    ("CT609", [point("same", "practice", ["queue worker", "expired signups"]),
               point("same", "map", ["queue worker", "cron hook"])], [
        "point id 'same' is also used by the point at line 10; point ids must be unique",
        "point id 'same' is also used by the point at line 5; point ids must be unique"]),
    ("CT611", [point("p", "practice", ["through the queue", "queue worker"])], [
        "must_match_all term 'through the queue' contains function words ('through', 'the'); "
        "a paraphrase rewrites them: keep 'queue'"]),
    ("CT612", [point("p", "practice", ["queue worker", "mailing vendor"])], [
        "must_match_all term 'mailing vendor' occurs once in the transcript, only in this wording; "
        "a paraphrase will miss it"]),
    ("CT613", [point("p", "practice", ["queue worker's", "expired signups"], ["can't"])], [
        "must_match_all term \"queue worker's\" is written with 's, which normalization drops; write 'queue worker'",
        "must_not_match term \"can't\" spells a contraction; an output that writes it out misses it "
        "(normalized: 'can t')"]),
]


@pytest.mark.parametrize("code, points, expected", MESSAGES, ids=[code for code, _, _ in MESSAGES])
def test_messages(make_corpus, code, points, expected):
    assert messages(found(make_corpus, code, *points), code) == expected


def test_a_phrase_split_across_two_turns_is_unwinnable(make_corpus):
    # "...clears expired signups." ends a user turn and "I read..." starts the next one
    run = found(make_corpus, "CT601", point("p", "practice", ["queue worker", "expired signups i read"]))
    assert where(run, "CT601") == [(SHOWN, 9, 9)]


def test_term_missing_session_is_left_to_the_pairing_rules(make_corpus):
    overrides = labels(point("p", "practice", ["queue worker", "cron schedule table"]))
    overrides[f"sessions/{ADMIT_ID}.md"] = None
    run = lint_run(make_corpus(overrides), select=frozenset({"CT601", "CT602", "CT607"}))
    assert run.diagnostics == () and run.crashes == ()


def test_options_come_from_corpus_yaml(make_corpus):
    spec = SPEC_TEXT + "lint:\n  rules:\n    CT605:\n      generic_words: [signups]\n      min_length: 5\n" \
                       "    CT604:\n      min: 1\n    CT610:\n      max_words: 1\n"
    points = [point("p", "practice", ["expired signups", "never", "cron"])]
    assert where(found(make_corpus, "CT605", *points, spec=spec), "CT605") == [(SHOWN, 10, 9)]  # cron < 5
    assert where(found(make_corpus, "CT604", point("p", "practice", ["queue worker"]), spec=spec), "CT604") == []
    assert where(found(make_corpus, "CT610", *points, spec=spec), "CT610") == [(SHOWN, 8, 9)]
    generic = SPEC_TEXT + "lint:\n  rules:\n    CT605:\n      generic_words: [Expired Signups]\n"
    assert where(found(make_corpus, "CT605", *points, spec=generic), "CT605") == [(SHOWN, 8, 9)]


def test_rare_phrase_threshold_is_an_option(make_corpus):
    spec = SPEC_TEXT + "lint:\n  rules:\n    CT612:\n      max_occurrences: 2\n"
    run = found(make_corpus, "CT612", point("p", "practice", ["queue worker", "expired signups"]), spec=spec)
    assert where(run, "CT612") == [(SHOWN, 8, 9), (SHOWN, 9, 9)]
    spec = SPEC_TEXT + "lint:\n  rules:\n    CT611:\n      function_words: [worker]\n"
    run = found(make_corpus, "CT611", point("p", "practice", ["queue worker", "the signups"]), spec=spec)
    assert where(run, "CT611") == [(SHOWN, 8, 9)]


def test_cli_reports_label_rules_in_text_format(make_corpus, capsys):
    root = make_corpus(labels(point("p", "practice", ["Queue Worker"])))
    code = main(["lint", "--select", "CT603,CT604", str(root.name)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.splitlines() == [
        "corpus/expected/admit-convention-01.yaml:5:5: CT604 [warning] point 'p' has 1 must_match_all term; "
        "use at least 2 (2-4)",
        "corpus/expected/admit-convention-01.yaml:8:9: CT603 [error] must_match_all term 'Queue Worker' is not "
        "lowercase; write 'queue worker'",
        "Found 1 error and 1 warning in 2 fixtures.",
    ]


# --- optional points: every label rule checks them too ------------------------------------------

GOOD = point("good", "practice", ["queue worker", "expired signups"])  # lines 5-9; optional_points: line 10


def with_optional(*points: str) -> dict:
    """The admit sidecar with the GOOD expected point and these optional points (first `- id:` on line 11)."""
    return {SIDECAR: sidecar_text(points=GOOD + "\n", optional="".join(points) + "\n")}


SINGLE = [(code, points[0], expected) for code, points, expected in FAILING if len(points) == 1]


@pytest.mark.parametrize("code, failing, expected", SINGLE, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(SINGLE)])
def test_an_optional_point_is_checked_like_an_expected_one(make_corpus, code, failing, expected):
    run = lint_run(make_corpus(with_optional(failing)), select=frozenset({code}))
    assert run.crashes == ()
    assert where(run, code) == [(SHOWN, line + 6, col) for line, col in expected]


def test_messages_say_optional_point_and_ids_are_unique_across_both_lists(make_corpus):
    run = lint_run(make_corpus(with_optional(point("o", "map", ["queue worker", "cron schedule table"]))),
                   select=frozenset({"CT601"}))
    assert messages(run, "CT601") == [
        "must_match_all term 'cron schedule table' of optional point 'o' never occurs in the transcript; "
        "no faithful extraction can match it"]
    run = lint_run(make_corpus(with_optional(point("good", "map", ["queue worker", "cron hook"]))),
                   select=frozenset({"CT609"}))
    assert where(run, "CT609") == [(SHOWN, 5, 5), (SHOWN, 11, 5)]
    assert messages(run, "CT609") == [
        "point id 'good' is also used by the point at line 11; point ids must be unique",
        "point id 'good' is also used by the point at line 5; point ids must be unique"]


def test_optional_points_on_an_expect_empty_fixture_are_a_category_shape_error(make_corpus):
    reject = f"expected/{REJECT_ID}.yaml"
    text = sidecar_text(REJECT_ID, "reject-noise", expect_empty=True,
                        optional=point("o", "map", ["queue worker", "cron hook"]) + "\n")
    run = lint_run(make_corpus({reject: text}), select=frozenset({"CT303"}))
    assert where(run, "CT303") == [(f"corpus/{reject}", 5, 1)]
    assert messages(run, "CT303") == [
        "expect_empty is true but there are optional points; every proposal of an expect-empty fixture is a "
        "phantom, so remove them"]


def test_a_possessive_in_the_transcript_matches_the_plain_term(make_corpus):
    # "...the mailing vendor's unsubscribe call": normalization drops the 's, so the plain
    # phrase `vendor unsubscribe call` occurs and is winnable
    turns = ADMIT_TURNS[:2] + (("USER", "Never delete rows directly here. Expired signups go through the "
                                        "queue worker, because of the mailing vendor's unsubscribe call."),) + ADMIT_TURNS[3:]
    overrides = labels(point("p", "practice", ["queue worker", "vendor unsubscribe call"]))
    overrides[f"sessions/{ADMIT_ID}.md"] = session_text(ADMIT_UUID, turns)
    run = lint_run(make_corpus(overrides), select=frozenset({"CT601"}))
    assert where(run, "CT601") == [] and run.crashes == ()
    overrides = labels(point("p", "practice", ["queue worker", "vendor unsubscribe calls"]))
    overrides[f"sessions/{ADMIT_ID}.md"] = session_text(ADMIT_UUID, turns)
    assert where(lint_run(make_corpus(overrides, "other"), select=frozenset({"CT601"})), "CT601") == [
        ("other/" + SIDECAR, 9, 9)]
