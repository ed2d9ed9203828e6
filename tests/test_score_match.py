"""The scoring contract, fixture by fixture: matching, reasons and verdicts."""

import os

from corpustools.score.scoring import score_report
from tests.support.corpus import ADMIT_ID, REJECT_ID, sidecar_text
from tests.support.score import (
    EMPTY,
    GOOD_ADMIT,
    admit_sidecar,
    fixture,
    good_results,
    output,
    proposal,
    texts,
    write_results,
)


def score(corpus, results):
    return score_report(str(corpus), [str(results)])


def admit_scored(corpus, folder, admit_output):
    """The admit fixture's score when a run in `folder` gives it `admit_output` (reject: empty)."""
    return fixture(score(corpus, write_results(folder, {ADMIT_ID: admit_output, REJECT_ID: EMPTY})))


def test_faithful_results_pass_and_match_the_point(make_corpus, tmp_path):
    report = score(make_corpus(), good_results(tmp_path / "run"))
    admit = fixture(report)
    assert admit.verdict == "PASS" and texts(admit.reasons) == ()
    assert [(p.id, p.matched, p.matched_by) for p in admit.points] == [("expire-via-queue", True, ("practice[0]",))]
    assert fixture(report, REJECT_ID).verdict == "PASS"
    assert report.runs[0].aggregate.points_matched == 1


def test_matching_uses_the_shared_normalization(make_corpus, tmp_path):
    # Case, punctuation and underscores fold away: "Queue-Worker" matches the term "queue worker".
    produced = output([proposal("EXPIRED_SIGNUPS", "The Queue-Worker owns it.")])
    assert admit_scored(make_corpus(), tmp_path / "run", produced).verdict == "PASS"


def test_a_possessive_matches_the_plain_term(make_corpus, tmp_path):
    # Normalization drops a word-final 's: "the Queue's Worker" contains the term "queue worker".
    possessive = output([proposal("Expired signups", "They go through the queue\u2019s worker.")])
    assert admit_scored(make_corpus(), tmp_path / "run", possessive).verdict == "PASS"
    other_s = output([proposal("Expired signups", "They go through the queue-s worker.")])
    assert admit_scored(make_corpus(), tmp_path / "run2", other_s).verdict == "FAIL"


def test_missed_point_when_a_term_is_absent(make_corpus, tmp_path):
    produced = output([proposal("Expired signups", "Delete them in the cron hook.")])
    admit = admit_scored(make_corpus(), tmp_path / "run", produced)
    assert admit.verdict == "FAIL"
    assert texts(admit.reasons) == ("missed-point:expire-via-queue", "phantom-over-budget:1>0")
    assert admit.unexpected == ("practice[0]",)


def test_terms_are_matched_in_title_and_body_not_description_or_tags(make_corpus, tmp_path):
    produced = output([proposal("Expired signups", "", description="via the queue worker", tags=("queue worker",))])
    assert "missed-point:expire-via-queue" in texts(admit_scored(make_corpus(), tmp_path / "run", produced).reasons)


def test_a_point_is_matched_only_by_a_proposal_of_its_type(make_corpus, tmp_path):
    wrong_type = proposal("Expired signups go through the queue worker", type="map")
    admit = admit_scored(make_corpus(), tmp_path / "run", output(map=[wrong_type]))
    assert texts(admit.reasons)[0] == "missed-point:expire-via-queue"
    assert "type-mismatch:expire-via-queue:map[0]" in texts(admit.advisories)


def test_phantom_over_budget(make_corpus, tmp_path):
    extra = [proposal("Run the linter before committing"), proposal("Prefer short functions")]
    results = write_results(tmp_path / "run", {ADMIT_ID: output(GOOD_ADMIT["practice"] + extra), REJECT_ID: EMPTY})
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": admit_sidecar(
        ("expire-via-queue", "practice", ["queue worker", "expired signups"]), max_unexpected=1)})
    admit = fixture(score(corpus, results))
    assert admit.verdict == "FAIL"
    assert texts(admit.reasons) == ("phantom-over-budget:2>1",)
    assert admit.unexpected == ("practice[1]", "practice[2]")


def test_phantom_within_budget_passes_but_still_counts(make_corpus, tmp_path):
    extra = [proposal("Run the linter before committing")]
    results = write_results(tmp_path / "run", {ADMIT_ID: output(GOOD_ADMIT["practice"] + extra), REJECT_ID: EMPTY})
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": admit_sidecar(
        ("expire-via-queue", "practice", ["queue worker", "expired signups"]), max_unexpected=1)})
    report = score(corpus, results)
    assert fixture(report).verdict == "PASS"
    assert report.runs[0].aggregate.phantoms == 1


def test_expected_empty_violated(make_corpus, tmp_path):
    results = write_results(tmp_path / "run", {
        ADMIT_ID: GOOD_ADMIT, REJECT_ID: output([proposal("Fix typos in the signup form")])})
    report = score(make_corpus(), results)
    reject = fixture(report, REJECT_ID)
    assert reject.verdict == "FAIL"
    assert texts(reject.reasons) == ("non-empty-where-empty", "phantom-over-budget:1>0")
    assert reject.unexpected == ("practice[0]",)
    assert (report.runs[0].aggregate.gate_correct, report.runs[0].aggregate.gate_total) == (0, 1)


def test_forbidden_match_fails_the_fixture_but_not_the_recall(make_corpus, tmp_path):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": admit_sidecar(
        ("expire-via-queue", "practice", ["queue worker", "expired signups"], ["ticket NL-12", "cron only"]))})
    leak = output([proposal("Expired signups go through the queue worker", "As decided for ticket nl_12.")])
    results = write_results(tmp_path / "run", {ADMIT_ID: leak, REJECT_ID: EMPTY})
    report = score(corpus, results)
    admit = fixture(report)
    assert texts(admit.reasons) == ("forbidden-match:expire-via-queue:ticket NL-12",)
    assert admit.points[0].matched and report.runs[0].aggregate.points_matched == 1


def test_forbidden_terms_are_looked_for_in_description_and_tags_too(make_corpus, tmp_path):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": admit_sidecar(
        ("expire-via-queue", "practice", ["queue worker", "expired signups"], ["nl-12"]))})
    leak = output([proposal("Expired signups go through the queue worker", tags=("nl-12",))])
    results = write_results(tmp_path / "run", {ADMIT_ID: leak, REJECT_ID: EMPTY})
    assert texts(fixture(score(corpus, results)).reasons) == ("forbidden-match:expire-via-queue:nl-12",)


def test_missing_result(make_corpus, tmp_path):
    results = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT})
    report = score(make_corpus(), results)
    reject = fixture(report, REJECT_ID)
    assert (reject.verdict, texts(reject.reasons), reject.status) == ("FAIL", ("missing-result",), "missing-result")
    aggregate = report.runs[0].aggregate
    assert aggregate.missing_results == 1
    assert (aggregate.gate_correct, aggregate.gate_total) == (0, 1)  # an expect-empty fixture: a wrong gate


def test_missing_result_counts_its_points_as_missed(make_corpus, tmp_path):
    report = score(make_corpus(), write_results(tmp_path / "run", {REJECT_ID: EMPTY}))
    admit = fixture(report)
    assert texts(admit.reasons) == ("missing-result",)
    assert [p.matched for p in admit.points] == [False]
    assert (report.runs[0].aggregate.points_matched, report.runs[0].aggregate.points_total) == (0, 1)


def test_invalid_result_names_the_first_schema_error(make_corpus, tmp_path):
    bad = output([proposal("Expired signups go through the queue worker")])
    del bad["practice"][0]["kk_confidence"]
    results = write_results(tmp_path / "run", {ADMIT_ID: bad, REJECT_ID: "{\n  \"practice\": [],\n"})
    report = score(make_corpus(), results)
    admit, reject = fixture(report), fixture(report, REJECT_ID)
    assert texts(admit.reasons) == (f"invalid-result:{results}/{ADMIT_ID}.json: /practice/0: "
                             "'kk_confidence' is a required property",)
    assert admit.points[0].matched is False  # an invalid result contributes no proposals
    assert texts(reject.reasons)[0].startswith(f"invalid-result:{results}/{REJECT_ID}.json:3:")
    assert report.runs[0].aggregate.invalid_results == 2


def test_a_huge_result_file_is_invalid_unread(make_corpus, tmp_path, monkeypatch):
    # The work is counted in bytes read, not timed: the file is refused by its size before any of
    # it is read (reading it up to the cap would be 8 MiB; the rest of the corpus is kilobytes).
    results = good_results(tmp_path / "run")
    with open(results / f"{ADMIT_ID}.json", "wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: 50 MB without writing 50 MB
    real_read, sizes = os.read, []

    def counted_read(fd: int, wanted: int) -> bytes:
        data = real_read(fd, wanted)
        sizes.append(len(data))
        return data

    monkeypatch.setattr(os, "read", counted_read)
    admit = fixture(score(make_corpus(), results))
    monkeypatch.undo()
    assert sizes and sum(sizes) < 1024 * 1024, sum(sizes)
    assert admit.status == "invalid-result"
    assert "over the 8388608 byte limit" in texts(admit.reasons)[0]


def test_invalid_sidecar_fails_with_category_from_file_name(make_corpus, tmp_path):
    broken = sidecar_text(ADMIT_ID, "admit-convention").replace("max_unexpected_proposals: 0", "max_unexpected: 0")
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": broken, "expected/odd-name.yaml": "just a string\n",
                          "expected/admit-convention-001.yaml": "just a string\n"})
    report = score(corpus, good_results(tmp_path / "run"))
    admit = fixture(report)
    assert (admit.verdict, admit.category, admit.status) == ("FAIL", "admit-convention", "sidecar-invalid")
    assert texts(admit.reasons)[0].startswith(f"sidecar-invalid:{corpus}/expected/{ADMIT_ID}.yaml:")
    odd = fixture(report, "odd-name")
    assert (odd.verdict, odd.category) == ("FAIL", "unknown")
    # the number is two digits, as lint's CT204 has it: a third digit is not the category's name
    assert fixture(report, "admit-convention-001").category == "unknown"
    assert report.runs[0].aggregate.invalid_sidecars == 3


def test_unchecked_fixture_is_never_a_pass(make_corpus, tmp_path):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": admit_sidecar(max_unexpected=1)})
    report = score(corpus, good_results(tmp_path / "run"))
    admit = fixture(report)
    assert (admit.verdict, texts(admit.reasons)) == ("UNCHECKED", ())
    aggregate = report.runs[0].aggregate
    assert (aggregate.fixtures_passed, aggregate.fixtures_unchecked, aggregate.fixtures_total) == (1, 1, 2)


def test_unchecked_fixture_stays_unchecked_with_phantoms_but_a_missing_result_fails(make_corpus, tmp_path):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": admit_sidecar()})
    admit = fixture(score(corpus, good_results(tmp_path / "run")))
    assert (admit.verdict, texts(admit.reasons)) == ("UNCHECKED", ("phantom-over-budget:1>0",))
    admit = fixture(score(corpus, write_results(tmp_path / "other", {REJECT_ID: EMPTY})))
    assert (admit.verdict, texts(admit.reasons)) == ("FAIL", ("missing-result",))


def test_empty_output_where_output_is_expected_is_a_false_reject(make_corpus, tmp_path):
    report = score(make_corpus(), write_results(tmp_path / "run", {ADMIT_ID: EMPTY, REJECT_ID: EMPTY}))
    aggregate = report.runs[0].aggregate
    assert (aggregate.false_rejects, aggregate.expecting_output) == (1, 1)
    assert (aggregate.gate_correct, aggregate.gate_total) == (1, 1)


def test_proposal_that_matches_a_point_is_expected_others_unexpected(make_corpus, tmp_path):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": admit_sidecar(
        ("expire-via-queue", "practice", ["queue worker", "expired signups"]),
        ("mailing-vendor", "map", ["mailing vendor"]), max_unexpected=5)})
    produced = output([proposal("Unrelated advice"), GOOD_ADMIT["practice"][0]],
                      [proposal("The mailing vendor", "The mailing vendor needs unsubscribe calls.", type="map")])
    admit = admit_scored(corpus, tmp_path / "run", produced)
    assert admit.unexpected == ("practice[0]",)
    assert [p.matched_by for p in admit.points] == [("practice[1]",), ("map[0]",)]
    assert admit.verdict == "PASS"


def test_reasons_come_in_contract_order(make_corpus, tmp_path):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": admit_sidecar(
        ("first", "practice", ["alpha"]), ("second", "practice", ["queue worker"], ["gamma"]),
        ("third", "map", ["beta"]))})
    produced = output([proposal("queue worker gamma"), proposal("noise one"), proposal("noise two")])
    admit = admit_scored(corpus, tmp_path / "run", produced)
    assert texts(admit.reasons) == ("missed-point:first", "missed-point:third", "forbidden-match:second:gamma",
                             "phantom-over-budget:2>0")


def test_category_table_and_taxonomy(make_corpus, tmp_path):
    results = write_results(tmp_path / "run", {REJECT_ID: output([proposal("x")])})
    run = score(make_corpus(), results).runs[0]
    assert [(c.category, c.passed, c.total) for c in run.categories] == [("admit-convention", 0, 1),
                                                                         ("reject-noise", 0, 1)]
    assert run.taxonomy == (("missing-result", 1), ("non-empty-where-empty", 1), ("phantom-over-budget", 1))
