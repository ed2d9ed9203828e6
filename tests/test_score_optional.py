"""Optional points: a proposal matching one is no phantom, an unmatched one is no miss, never in
recall; their forbidden terms fail like an expected point's; reports count them apart."""

from __future__ import annotations

import json

from corpustools.io.schemastore import validate
from corpustools.score.scoring import score_report
from tests.support.corpus import ADMIT_ID, REJECT_ID, sidecar_text
from tests.support.score import EMPTY, GOOD_ADMIT, fixture, output, points_yaml, proposal, run_cli, texts, write_results

EXPIRE = ("expire-via-queue", "practice", ["queue worker", "expired signups"])
MODULE_MAP = ("newsletter-module", "map", ["newsletter module"], ["vendor api key"])
CRON_RULE = ("cron-hooks-stay-thin", "practice", ["cron hook", "thin"])
MAP = proposal("The newsletter module", "The newsletter module holds signups and the cron hook.", type="map")


def _corpus(make_corpus, max_unexpected=0):
    text = sidecar_text(points=points_yaml(EXPIRE), optional=points_yaml(MODULE_MAP, CRON_RULE),
                        max_unexpected=max_unexpected)
    return make_corpus({f"expected/{ADMIT_ID}.yaml": text})


def _score(corpus, tmp_path, admit):
    run = write_results(tmp_path / "run", {ADMIT_ID: admit, REJECT_ID: EMPTY})
    return score_report(str(corpus), [str(run)])


def test_a_proposal_matching_an_optional_point_is_not_a_phantom(make_corpus, tmp_path):
    report = _score(_corpus(make_corpus), tmp_path, output(GOOD_ADMIT["practice"], [MAP]))
    admit = fixture(report)
    assert (admit.verdict, texts(admit.reasons), admit.unexpected) == ("PASS", (), ())
    assert [(p.id, p.matched, p.matched_by) for p in admit.optional_points] == [
        ("newsletter-module", True, ("map[0]",)), ("cron-hooks-stay-thin", False, ())]
    aggregate = report.runs[0].aggregate
    assert (aggregate.points_matched, aggregate.points_total) == (1, 1)  # optional points never in recall
    assert (aggregate.optional_points_matched, aggregate.optional_points_total) == (1, 2)
    assert aggregate.phantoms == 0


def test_without_the_optional_point_the_same_map_is_a_phantom(make_corpus, tmp_path):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": sidecar_text(points=points_yaml(EXPIRE))})
    admit = fixture(_score(corpus, tmp_path, output(GOOD_ADMIT["practice"], [MAP])))
    assert texts(admit.reasons) == ("phantom-over-budget:1>0",) and admit.unexpected == ("map[0]",)


def test_an_optional_point_is_matched_by_its_type_only_and_its_forbidden_terms_fail(make_corpus, tmp_path):
    wrong_type = proposal("The newsletter module", "It owns signups.")  # a practice, not a map
    leak = proposal("The newsletter module", "Its vendor API key is in settings.php.", type="map")
    admit = fixture(_score(_corpus(make_corpus, max_unexpected=1), tmp_path,
                           output(GOOD_ADMIT["practice"] + [wrong_type], [leak])))
    assert admit.unexpected == ("practice[1]",)
    assert texts(admit.reasons) == ("forbidden-match:newsletter-module:vendor api key",)
    assert admit.verdict == "FAIL"


def test_missing_results_list_optional_points_unmatched_and_expect_empty_ignores_them(make_corpus, tmp_path):
    corpus = _corpus(make_corpus)
    report = score_report(str(corpus), [str(write_results(tmp_path / "run", {REJECT_ID: EMPTY}))])
    assert [p.matched for p in fixture(report).optional_points] == [False, False]
    assert texts(fixture(report).reasons) == ("missing-result",)
    # An expect-empty fixture with optional points (a lint error) still counts every proposal as unexpected.
    empty = sidecar_text(REJECT_ID, "reject-noise", expect_empty=True, optional=points_yaml(MODULE_MAP))
    corpus = make_corpus({f"expected/{REJECT_ID}.yaml": empty})
    run = write_results(tmp_path / "run2", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: output(map=[MAP])})
    reject = fixture(score_report(str(corpus), [str(run)]), REJECT_ID)
    assert reject.unexpected == ("map[0]",) and "non-empty-where-empty" in texts(reject.reasons)


def test_reports_show_optional_points_apart_from_recall(make_corpus, tmp_path, capsys):
    corpus = _corpus(make_corpus)
    run = write_results(tmp_path / "run", {ADMIT_ID: output(GOOD_ADMIT["practice"], [MAP]), REJECT_ID: EMPTY})
    code, out, _ = run_cli(capsys, "score", corpus, run, "--format", "json")
    data = json.loads(out)
    assert code == 0 and validate("score-report", data) == []
    admit = data["fixtures"][0]
    assert admit["optional_points"] == [
        {"id": "newsletter-module", "type": "map", "matched": True, "matched_by": ["map[0]"], "item_fields": []},
        {"id": "cron-hooks-stay-thin", "type": "practice", "matched": False, "matched_by": [], "item_fields": []}]
    assert (data["aggregate"]["optional_points_matched"], data["aggregate"]["optional_points_total"]) == (1, 2)
    assert data["aggregate"]["recall"]["total"] == 1
    markdown = run_cli(capsys, "score", corpus, run, "--format", "markdown")[1]
    assert "; optional points matched 1/2." in markdown
    assert "| optional points matched (never in recall) | 1/2 | 50.0% |  |" in markdown
    text = run_cli(capsys, "score", corpus, run, "--format", "text")[1]
    assert text.splitlines()[-1].endswith("; optional points matched 1/2.")
    two_runs = json.loads(run_cli(capsys, "score", corpus, run, run, "--format", "json")[1])
    assert validate("score-report", two_runs) == []
    assert [r["aggregate"]["optional_points_total"] for r in two_runs["runs"]] == [2, 2]


def test_a_corpus_without_optional_points_reports_as_before(make_corpus, tmp_path, capsys):
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    corpus = make_corpus()
    markdown = run_cli(capsys, "score", corpus, run, "--format", "markdown")[1]
    assert "optional points" not in markdown
    data = json.loads(run_cli(capsys, "score", corpus, run, "--format", "json")[1])
    assert data["fixtures"][0]["optional_points"] == [] and data["aggregate"]["optional_points_total"] == 0
