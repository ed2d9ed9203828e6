"""CT103 uuid-fabricated: valid v4 UUIDs that were typed or counted, not generated."""

from __future__ import annotations

import random
import uuid

import pytest

from corpustools.lint.rules.uuid_fabricated import near_ids, own_signs, shared_stems
from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, REJECT_ID, REJECT_TURNS, SPEC_TEXT, session_text
from tests.support.lint import lint_run, messages, where

pytestmark = pytest.mark.usefixtures("in_tmp")


def with_ids(make_corpus, admit_id, reject_id, spec=SPEC_TEXT):
    return make_corpus({f"sessions/{ADMIT_ID}.md": session_text(admit_id, ADMIT_TURNS),
                        f"sessions/{REJECT_ID}.md": session_text(reject_id, REJECT_TURNS), "corpus.yaml": spec})


def ct103(root):
    run = lint_run(root, select=frozenset({"CT103"}))
    assert run.crashes == ()
    return run


def test_a_counter_dressed_as_uuid_is_reported_at_each_id_with_what_gave_it_away(make_corpus):
    run = ct103(with_ids(make_corpus, "10000000-0000-4000-8000-000000000001", "10000000-0000-4000-8000-000000000002"))
    assert where(run, "CT103") == [(f"corpus/sessions/{ADMIT_ID}.md", 3, 1), (f"corpus/sessions/{REJECT_ID}.md", 3, 1)]
    assert messages(run, "CT103") == [
        "session_id 10000000-0000-4000-8000-000000000001 is not random: a run of 14 '0' digits; 120 of its "
        f"122 random bits are zero; it differs from {REJECT_ID}'s in only 1 hex digit; use uuid.uuid4()",
        "session_id 10000000-0000-4000-8000-000000000002 is not random: a run of 14 '0' digits; 120 of its "
        f"122 random bits are zero; it differs from {ADMIT_ID}'s in only 1 hex digit; use uuid.uuid4()"]


def test_ids_that_differ_only_in_their_last_digits_are_reported_though_each_looks_random(make_corpus):
    run = ct103(with_ids(make_corpus, "3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c01", "3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c02"))
    assert len(where(run, "CT103")) == 2
    assert messages(run, "CT103")[0].endswith(f"it differs from {REJECT_ID}'s in only 1 hex digit; use uuid.uuid4()")


def test_a_counter_in_the_first_group_on_a_shared_random_stem_is_a_sequence(make_corpus):
    # a counter in the first 8 digits; the last 24 digits are one random-looking stem
    run = ct103(with_ids(make_corpus, "a1000001-9a4d-4e7b-8c21-5d6f7a8b9c0d", "b7e4d2a9-9a4d-4e7b-8c21-5d6f7a8b9c0d"))
    assert messages(run, "CT103") == [
        f"session_id a1000001-9a4d-4e7b-8c21-5d6f7a8b9c0d is not random: it shares its last 10 hex digits with "
        f"{REJECT_ID}'s; use uuid.uuid4()",
        f"session_id b7e4d2a9-9a4d-4e7b-8c21-5d6f7a8b9c0d is not random: it shares its last 10 hex digits with "
        f"{ADMIT_ID}'s; use uuid.uuid4()"]


def test_mostly_zero_bits_alone_is_reported(make_corpus):
    run = ct103(with_ids(make_corpus, "00100200-0300-4040-8000-100200030001", "b7e4d2a9-1c3f-4a8e-9d5b-0e6f2c7a1b84"))
    assert messages(run, "CT103") == [
        "session_id 00100200-0300-4040-8000-100200030001 is not random: 112 of its 122 random bits are zero; "
        "use uuid.uuid4()"]


def test_valid_corpus_and_invalid_ids_are_not_its_business(make_corpus):
    assert where(ct103(make_corpus()), "CT103") == []
    # not a v4 UUID at all: CT101 reports it, CT103 does not look at it
    run = ct103(with_ids(make_corpus, "10000000-0000-1000-8000-000000000001", "10000000-0000-1000-8000-000000000002"))
    assert where(run, "CT103") == []


def test_thresholds_are_options(make_corpus):
    spec = SPEC_TEXT + ("lint:\n  rules:\n    CT103:\n      max_run: 20\n      max_zero_bits: 122\n"
                        "      max_differing_digits: 0\n      min_shared_digits: 32\n")
    run = ct103(with_ids(make_corpus, "10000000-0000-4000-8000-000000000001", "10000000-0000-4000-8000-000000000002",
                         spec))
    assert where(run, "CT103") == []


def test_never_fires_on_many_random_v4_uuids():
    rng = random.Random(20260101)
    ids = {f"f{i:05d}": str(uuid.UUID(int=rng.getrandbits(128), version=4)).replace("-", "") for i in range(20_000)}
    assert [i for i, digits in ids.items() if own_signs(digits, 7, 95)] == []
    assert list(near_ids(ids, 6)) == []
    assert list(shared_stems(ids, 10)) == []


def test_a_stem_shared_by_many_ids_names_one_and_counts_the_rest():
    ids = {f"f{i:02d}": f"{i:08x}9a4d4e7b8c215d6f7a8b9c0d" for i in range(1, 41)}
    found = {fixture: (other, count, end) for fixture, other, count, end in shared_stems(ids, 10)}
    assert found["f01"] == ("f02", 39, "last") and found["f07"] == ("f01", 39, "last")
    assert len(found) == 40


def test_near_ids_finds_a_counter_anywhere_among_random_ids():
    rng = random.Random(7)
    ids = {f"f{i:04d}": str(uuid.UUID(int=rng.getrandbits(128), version=4)).replace("-", "") for i in range(2_000)}
    stem = ids["f0000"]
    for position in range(0, 32, 5):  # the same id with one digit counted up, at several places
        digit = "0123456789abcdef"[(int(stem[position], 16) + 1) % 16]
        ids[f"g{position:02d}"] = stem[:position] + digit + stem[position + 1:]
    found = {b for a, b, differing in near_ids(ids, 6) if a == "f0000" and differing == 1}
    assert found == {f"g{p:02d}" for p in range(0, 32, 5)}
