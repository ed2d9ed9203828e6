"""Advisory diagnostics: what they flag, and that they never change a verdict."""

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpustools.score.advisories import NEAR_MISS_SCORE, _may_be_close, identifier_tokens
from corpustools.score.scoring import score_report
from tests.support.corpus import ADMIT_ID, REJECT_ID
from tests.support.score import EMPTY, admit_sidecar, fixture, output, proposal, texts, write_results

TWO_POINTS = admit_sidecar(("expire-via-queue", "practice", ["queue worker", "expired signups"]),
                           ("cron-enqueues", "practice", ["cron hook", "enqueue"]), max_unexpected=3)


def diagnose(make_corpus, tmp_path, produced, sidecar=None):
    overrides = {f"expected/{ADMIT_ID}.yaml": sidecar} if sidecar else {}
    results = write_results(tmp_path / "run", {ADMIT_ID: produced, REJECT_ID: EMPTY})
    return fixture(score_report(str(make_corpus(overrides)), [str(results)]))


def test_near_miss_names_point_term_and_proposal(make_corpus, tmp_path):
    produced = output([proposal("Expired signups go through the queueworker")])
    admit = diagnose(make_corpus, tmp_path, produced)
    assert texts(admit.reasons)[0] == "missed-point:expire-via-queue"
    assert "near-miss:expire-via-queue:queue worker:practice[0]" in texts(admit.advisories)


def test_near_miss_catches_inflections_but_not_unrelated_text(make_corpus, tmp_path):
    produced = output([proposal("Expired signup goes through the queue workers")],
                      [proposal("The queue worker, expired signup", type="map")])
    admit = diagnose(make_corpus, tmp_path, produced)
    assert "near-miss:expire-via-queue:expired signups:practice[0]" in texts(admit.advisories)
    # map[0] is of the other type: no near-miss against it, and it does not hold every term either.
    assert not any(d.endswith(":map[0]") for d in texts(admit.advisories))
    unrelated = diagnose(make_corpus, tmp_path, output([proposal("Run the linter before committing")]))
    assert not any(d.startswith("near-miss") for d in texts(unrelated.advisories))


def test_invented_identifier_is_a_backticked_token_absent_from_the_transcript(make_corpus, tmp_path):
    produced = output([proposal("Expired signups go through the queue worker",
                                "The `newsletter` module enqueues into `signup_expiry_queue`; see "
                                "`SignupPurger::run()` and `the queue` (not one token).")])
    admit = diagnose(make_corpus, tmp_path, produced)
    assert admit.verdict == "PASS"  # diagnostics never change a verdict
    invented = [d for d in texts(admit.advisories) if d.startswith("invented-identifier")]
    assert invented == ["invented-identifier:practice[0]:signup_expiry_queue",
                        "invented-identifier:practice[0]:SignupPurger::run"]


def test_identifier_tokens_trim_calls_and_punctuation():
    assert identifier_tokens("`a.b()` and `config/sync/` and `x` and `09:30` and `two words`") == ["a.b",
                                                                                                  "config/sync"]


def test_duplicate_and_merged(make_corpus, tmp_path):
    both = proposal("The cron hook must enqueue expired signups for the queue worker")
    again = proposal("Expired signups: queue worker only")
    admit = diagnose(make_corpus, tmp_path, output([both, again]), TWO_POINTS)
    assert admit.verdict == "PASS"
    assert "duplicate:expire-via-queue" in texts(admit.advisories)
    assert "merged:practice[0]" in texts(admit.advisories)
    assert "merged:practice[1]" not in texts(admit.advisories)


def test_contract_warnings_become_diagnostics(make_corpus, tmp_path):
    loud = proposal("Expired signups go through the queue worker", tags=("Newsletter",), type="map")
    admit = diagnose(make_corpus, tmp_path, {"practice": [loud], "map": []})
    assert "contract:practice[0]:type-mismatch" in texts(admit.advisories)
    assert "contract:practice[0]:tag-case" in texts(admit.advisories)


def test_diagnostic_order_is_fixed(make_corpus, tmp_path):
    produced = output([proposal("Expired signups go through the queueworker", "see `made_up_name`")],
                      [proposal("cron hook enqueue", type="map")])
    admit = diagnose(make_corpus, tmp_path, produced, TWO_POINTS)
    kinds = [d.split(":", 1)[0] for d in texts(admit.advisories)]
    order = ["type-mismatch", "near-miss", "duplicate", "merged", "contract", "invented-identifier"]
    assert kinds == sorted(kinds, key=order.index)
    assert kinds[0] == "type-mismatch" and kinds[-1] == "invented-identifier"


# The near-miss search's character bound (advisories._may_be_close) only spares rapidfuzz: it must
# never rule out a wording rapidfuzz finds, whatever the lengths (needle shorter, equal, longer).
@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="abcde ", min_size=1, max_size=14), st.text(alphabet="abcdef ", max_size=40))
def test_near_miss_bound_never_rules_out_a_rapidfuzz_match(needle, text):
    from rapidfuzz import fuzz

    found = fuzz.partial_ratio_alignment(needle, text, score_cutoff=NEAR_MISS_SCORE)
    if found is not None:
        assert _may_be_close(needle, text)


@pytest.mark.parametrize(("needle", "text", "close"), [
    ("queue worker", "the queue workers drain it nightly", True),
    ("queue worker", "a cron job sends the reminders", False),
    ("rate limit", "ratelimit", True),
    ("exponential backoff", "retry", False),
    ("mg", "5 mg twice a day", True),
])
def test_near_miss_bound_rules_out_unrelated_text(needle, text, close):
    assert _may_be_close(needle, text) is close


def test_scoring_without_a_near_miss_does_not_import_rapidfuzz():
    # rapidfuzz is about 50 modules: score's start-up pays them only for a term the bound keeps.
    code = ("import sys\n"
            "from corpustools.score.advisories import _may_be_close\n"
            "assert not _may_be_close('exponential backoff', 'retry the call later')\n"
            "print(sorted(m for m in sys.modules if m.startswith('rapidfuzz')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
