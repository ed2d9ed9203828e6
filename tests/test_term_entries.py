"""Entries of several terms: a `must_match_all` entry of alternatives (`- [tracking sync,
trackingsync]`, one of them must occur) and a `must_not_match` combination (`- [reading list,
surviving title]`, forbidden only when all occur in one item). Scoring, evidence, reports, lint,
lint --fix, worksheets and calibrate's brittle-term cause all read them."""

from __future__ import annotations

import json

import pytest

from corpustools.io.schemastore import validate
from corpustools.score.reasons import parse_reason
from tests.support.calibrate import fill_all
from tests.support.corpus import ADMIT_ID, REJECT_ID, sidecar_text
from tests.support.lint import lint_run, messages, where
from tests.support.score import EMPTY, output, points_yaml, proposal, run_cli, write_results

SIDECAR = f"expected/{ADMIT_ID}.yaml"
SHOWN = f"corpus/{SIDECAR}"

pytestmark = pytest.mark.usefixtures("in_tmp")

# The conftest admit session says "queue worker", "expired signups", "cron hook", "delete query",
# "signup table", "newsletter module" and "mailing vendor", never "queueworker" or "job runner".
ANY_OF = ("expire-via-queue", "practice", [["queue worker", "queueworker"], "expired signups"],
          [["delete query", "signup table"]])


def corpus_with(make_corpus, *points, max_unexpected=0):
    return make_corpus({SIDECAR: sidecar_text(points=points_yaml(*points), max_unexpected=max_unexpected)})


def score_json(capsys, corpus, admit, tmp_path, name="run"):
    run = write_results(tmp_path / name, {ADMIT_ID: admit, REJECT_ID: EMPTY})
    code, out, err = run_cli(capsys, "score", corpus, run, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert validate("score-report", data) == []
    return next(f for f in data["fixtures"] if f["id"] == ADMIT_ID)


# --- scoring ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("body", ["the QueueWorker handles expired signups", "the queue worker handles expired signups"])
def test_one_alternative_of_an_entry_is_enough(make_corpus, tmp_path, capsys, body):
    corpus = corpus_with(make_corpus, ANY_OF)
    admit = score_json(capsys, corpus, output([proposal("Expiry", body)]), tmp_path)
    assert (admit["verdict"], admit["reasons"]) == ("PASS", [])


def test_an_entry_none_of_whose_alternatives_occurs_is_absent_as_one_line(make_corpus, tmp_path, capsys):
    corpus = corpus_with(make_corpus, ANY_OF)
    admit = score_json(capsys, corpus, output([proposal("Expiry", "a job runner handles expired signups")]), tmp_path)
    assert admit["reasons"][0] == "missed-point:expire-via-queue"
    assert admit["missed"][0]["closest"]["absent"] == ["queue worker | queueworker"]
    code, out, _ = run_cli(capsys, "score", corpus, tmp_path / "run", "--format", "markdown")
    assert "absent: `queue worker | queueworker`" in out
    # in words (text, the default, and HTML): each alternative apart, so "queue worker" is one term
    code, out, _ = run_cli(capsys, "score", corpus, tmp_path / "run")
    assert ('  missed point expire-via-queue: no practice states it; closest practice[0] "Expiry" (body "a job runner '
            'handles expired signups") lacks any of "queue worker" | queueworker  [missed-point:expire-via-queue]\n'
            ) in out
    code, page, _ = run_cli(capsys, "score", corpus, tmp_path / "run", "--format", "html")
    assert ("lacks any of <code>queue worker</code> | <code>queueworker</code></span> "
            '<code class="code">missed-point:expire-via-queue</code>') in page


def test_a_combination_fires_only_when_every_part_is_in_one_proposal(make_corpus, tmp_path, capsys):
    corpus = corpus_with(make_corpus, ANY_OF, max_unexpected=1)
    apart = output([proposal("Expired signups go through the queue worker", "no delete query"),
                    proposal("The signup table", "holds signups")])
    assert score_json(capsys, corpus, apart, tmp_path, "apart")["reasons"] == []
    together = output([proposal("Expired signups go through the queue worker", "no delete query on the signup table",
                                tags=["signup table"])])
    admit = score_json(capsys, corpus, together, tmp_path, "together")
    assert admit["reasons"] == ["forbidden-match:expire-via-queue:delete query + signup table"]
    assert parse_reason(admit["reasons"][0]).term == "delete query + signup table"
    assert admit["forbidden"] == [
        {"point": "expire-via-queue", "term": "delete query + signup table", "part": "delete query",
         "proposal": "practice[0]", "field": "body"},
        {"point": "expire-via-queue", "term": "delete query + signup table", "part": "signup table",
         "proposal": "practice[0]", "field": "body"},
        {"point": "expire-via-queue", "term": "delete query + signup table", "part": "signup table",
         "proposal": "practice[0]", "field": "tags[0]"}]
    code, out, _ = run_cli(capsys, "score", corpus, tmp_path / "together", "--format", "markdown")
    assert ("in `practice[0]` `Expired signups go through the queue worker`: `delete query` in `body`; "
            "`signup table` in `body`, `tags[0]`") in out
    # in words: a combination, its parts apart, each with the fields holding it
    code, out, _ = run_cli(capsys, "score", corpus, tmp_path / "together", "--format", "text")
    assert ('  forbidden combination "delete query" + "signup table" (point expire-via-queue) in practice[0] '
            '"Expired signups go through the queue worker": "delete query" in body and "signup table" in body, '
            "tags[0]  [forbidden-match:expire-via-queue:delete query + signup table]\n") in out
    code, page, _ = run_cli(capsys, "score", corpus, tmp_path / "together", "--format", "html")
    assert ("forbidden combination <code>delete query</code> + <code>signup table</code> (point "
            "<code>expire-via-queue</code>) in <code>practice[0]</code> <q>Expired signups go through the queue "
            "worker</q>: <code>delete query</code> in <code>body</code> and <code>signup table</code> in "
            "<code>body</code>, <code>tags[0]</code>") in page


def test_html_marks_the_alternative_found_and_each_part_where_it_was_found(make_corpus, tmp_path, capsys):
    corpus = corpus_with(make_corpus, ANY_OF)
    run = write_results(tmp_path / "run", {ADMIT_ID: output([proposal(
        "Expired signups go through the queueworker", "no delete query on the signup table")]), REJECT_ID: EMPTY})
    code, page, _ = run_cli(capsys, "score", corpus, run, "--format", "html")
    assert code == 0
    assert ('<span class="term found" data-term="queue worker | queueworker">queue worker | '
            "<strong>queueworker</strong></span>") in page
    assert '<mark class="forbidden" data-term="delete query" data-point="expire-via-queue" ' \
           'title="forbidden by expire-via-queue: delete query + signup table">delete query</mark>' in page
    assert '<mark class="forbidden" data-term="signup table"' in page
    assert 'signup table <span class="muted">(part of delete query + signup table)</span>' in page


def test_near_miss_names_the_close_alternative(make_corpus, tmp_path, capsys):
    corpus = corpus_with(make_corpus, ("expire-via-queue", "practice", [["queue worker", "job runner"],
                                                                        "expired signups"]))
    admit = score_json(capsys, corpus, output([proposal("Expired signups", "the queue workers run it")]), tmp_path)
    assert admit["reasons"] == []  # "queue workers" contains "queue worker"
    admit = score_json(capsys, corpus, output([proposal("Expired signups", "the queueing worker and a jobrunner")]),
                       tmp_path, "near")
    assert admit["diagnostics"] == ["near-miss:expire-via-queue:job runner:practice[0]"]


# --- bad input ---------------------------------------------------------------------------------------

def test_a_list_nested_deeper_or_an_empty_list_is_a_schema_error_at_the_entry(make_corpus, capsys):
    corpus = corpus_with(make_corpus, ("p", "practice", [["queue worker", ["queueworker"]], [], "expired signups"],
                                       [[]]))
    run = lint_run(corpus, select=frozenset({"CT005"}))
    assert where(run, "CT005") == [(SHOWN, 8, 9), (SHOWN, 9, 9), (SHOWN, 12, 9)]
    assert messages(run, "CT005") == [
        "/expected_points/0/must_match_all/0: a term list nested deeper than one level: an entry is a term or one "
        "list of alternatives",
        "/expected_points/0/must_match_all/1: an empty list of alternatives: give at least one term, or remove "
        "the entry",
        "/expected_points/0/must_not_match/0: an empty list of terms forbidden together: give at least one term, "
        "or remove the entry"]
    code, out, err = run_cli(capsys, "lint", corpus)
    assert code == 1 and "Traceback" not in out + err


def test_an_alternative_that_normalizes_to_nothing_is_term_empty(make_corpus):
    corpus = corpus_with(make_corpus, ("p", "practice", [["queue worker", "--"], "expired signups"]))
    run = lint_run(corpus, select=frozenset({"CT606"}))
    assert where(run, "CT606") == [(SHOWN, 8, 26)]
    assert messages(run, "CT606") == ["must_match_all term '--' of point 'p' is empty after normalization; it can "
                                      "never match"]


# --- lint ---------------------------------------------------------------------------------------------

def test_unwinnable_only_when_no_alternative_is_said(make_corpus):
    said = lint_run(corpus_with(make_corpus, ("p", "practice", [["queueworker", "queue worker"], "expired signups"])),
                    select=frozenset({"CT601"}))
    assert where(said, "CT601") == []
    never = lint_run(corpus_with(make_corpus, ("p", "practice", [["queueworker", "job runner"], "expired signups"])),
                     select=frozenset({"CT601"}))
    assert where(never, "CT601") == [(SHOWN, 8, 9)]
    assert messages(never, "CT601") == ["must_match_all entry ['queueworker', 'job runner'] of point 'p': no term of "
                                        "it occurs in the transcript; no faithful extraction can match it"]


def test_term_rules_check_each_alternative_and_part(make_corpus):
    corpus = corpus_with(make_corpus, ("p", "practice", [["Queue Worker", "queue worker's"], "expired signups"],
                                       [["cron hook", "db"]]))
    run = lint_run(corpus, select=frozenset({"CT603", "CT605", "CT613", "CT604"}))
    assert where(run, "CT603") == [(SHOWN, 8, 10)]
    assert where(run, "CT613") == [(SHOWN, 8, 26)]
    assert where(run, "CT605") == [(SHOWN, 11, 23)]  # the part "db": too short
    assert where(run, "CT604") == []  # two entries: an entry of alternatives counts once


def test_forbidden_conflict_of_a_combination_every_part_of_which_is_required(make_corpus):
    corpus = corpus_with(make_corpus, ("p", "practice", ["queue worker", ["expired signups", "expired signup"]],
                                       [["worker", "expired signup"], ["worker", "expired signups"]]))
    run = lint_run(corpus, select=frozenset({"CT608"}))
    assert where(run, "CT608") == [(SHOWN, 11, 9)]  # "expired signups" is one alternative only: no conflict
    assert messages(run, "CT608") == [
        "must_not_match combination ['worker', 'expired signup']: each of its terms occurs inside must_match_all "
        "term 'queue worker' (line 8) and entry ['expired signups', 'expired signup'] (line 9); point 'p' can "
        "never pass"]


def test_fixes_edit_one_alternative_in_place(make_corpus, capsys):
    corpus = corpus_with(make_corpus, ("p", "practice", [["Queue Worker", "--"], "expired signups"], [["--"], "cron hook"]))
    code, _, err = run_cli(capsys, "lint", corpus, "--fix", "--unsafe-fixes", "--select", "CT603,CT606")
    assert code == 0, err
    text = (corpus / SIDECAR).read_text(encoding="utf-8")
    assert '      - ["queue worker"]\n      - "expired signups"\n    must_not_match:\n      - "cron hook"\n' in text


# --- worksheets and calibration ------------------------------------------------------------------------

def test_show_terms_writes_entries_as_nested_lists(make_corpus, tmp_path, capsys):
    corpus = corpus_with(make_corpus, ANY_OF)
    run = write_results(tmp_path / "run", {ADMIT_ID: output([proposal("Expired signups", "the queue worker")]),
                                           REJECT_ID: EMPTY})
    sheet = tmp_path / "sheet.yaml"
    assert run_cli(capsys, "adjudicate", corpus, run, "--out", sheet, "--show-terms")[0] == 0
    text = sheet.read_text(encoding="utf-8")
    assert 'must_match_all: [["queue worker", "queueworker"], "expired signups"]' in text
    assert 'must_not_match: [["delete query", "signup table"]]' in text
    sheet.write_text(fill_all(text), encoding="utf-8")
    assert run_cli(capsys, "validate", "adjudication", sheet)[0] == 0


def test_brittle_term_suggests_the_proposal_wording_as_an_alternative(make_corpus, tmp_path, capsys):
    corpus = corpus_with(make_corpus, ("expire-via-queue", "practice", ["queue worker", "expired signups"]))
    run = write_results(tmp_path / "run", {ADMIT_ID: output([proposal(
        "Expired signups go through the QueueWorker", "the cron hook enqueues them")]), REJECT_ID: EMPTY})
    sheet = tmp_path / "sheet.yaml"
    assert run_cli(capsys, "adjudicate", corpus, run, "--out", sheet)[0] == 0
    sheet.write_text(fill_all(sheet.read_text(encoding="utf-8"), {
        (ADMIT_ID, "expire-via-queue", "captured"): "yes", (ADMIT_ID, "practice[0]", "class"): "point:expire-via-queue"},
        verdict="PASS"), encoding="utf-8")
    code, out, err = run_cli(capsys, "calibrate", corpus, run, "--verdicts", sheet, "--format", "json")
    assert code == 0, err
    [entry] = next(f for f in json.loads(out)["runs"][0]["fixtures"] if f["id"] == ADMIT_ID)["disagreements"]
    assert (entry["cause"], entry["detail"]) == ("brittle-term", (
        "terms absent from practice[0]: 'queue worker'; practice[0] says 'queueworker': write the entry as "
        "[queue worker, queueworker]"))
