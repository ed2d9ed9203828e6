"""CT614 term-sibling-form (issue 30, part 3): a label word the transcript also says in another
form of the same stem (the rule: corpustools/lint/rules/term_sibling_form.py). Samples are
tests/support/labels.py's (the shared valid corpus with the admit sidecar's points changed), some
with the admit session's turns replaced; line 8 of the sidecar is the first `must_match_all` term."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpustools.cli import main
from tests.support.corpus import ADMIT_ID, SPEC_TEXT, session_text
from tests.support.labels import SHOWN, SIDECAR, at, found, labels, optional_found_at, point, single
from tests.support.lint import lint_run, messages, where

CODE = "CT614"

pytestmark = pytest.mark.usefixtures("in_tmp")

SESSION = f"sessions/{ADMIT_ID}.md"
# The issue's meeting: "the reversal is yours" and "the script that reverses".
REVERSAL = (
    ("USER", "Nadia, the reversal is yours: the duplicated refunds go back before Friday."),
    ("AGENT", "Understood. I wrote the script that reverses the duplicated refunds for Nadia."),
    ("USER", "Good. Keep the duplicated refund list in the ticket."),
    ("AGENT", "Done: the list and the script are in the ticket."),
)


FAILING = [  # (points, (line, col) of each finding)
    ([point("p", "practice", ["queue worker", "signups"])], [(9, 9)]),  # the agent says "signup table"
]

PASSING = [  # near-misses: they look like the failing ones but are fine
    [point("p", "practice", ["queue worker", "signup"])],  # finds "signups" and "signup"
    [point("p", "practice", ["queue worker", "expired signups"])],  # "signup table" is not "expired signup"
]


@pytest.mark.parametrize("points, expected", FAILING)
def test_failing_sample_is_reported_at_the_term(make_corpus, points, expected):
    assert where(found(make_corpus, CODE, *points), CODE) == at(expected)


@pytest.mark.parametrize("points", PASSING)
def test_near_miss_passes(make_corpus, points):
    assert where(found(make_corpus, CODE, *points), CODE) == []


@pytest.mark.parametrize("failing, expected", single(FAILING))
def test_an_optional_point_is_checked_like_an_expected_one(make_corpus, failing, expected):
    assert optional_found_at(make_corpus, CODE, failing) == at((line + 6, col) for line, col in expected)


def run_of(make_corpus, *points, turns=REVERSAL, spec=None, code="CT614"):
    overrides = labels(*points)
    overrides[SESSION] = session_text(turns=turns)
    if spec is not None:
        overrides["corpus.yaml"] = spec
    run = lint_run(make_corpus(overrides), select=frozenset({code}))
    assert run.crashes == ()
    return run


def test_the_issue_s_sample_is_reported_at_the_term_naming_the_forms(make_corpus):
    run = run_of(make_corpus, point("nadia-reversal", "practice", ["nadia", "reversal"]))
    assert where(run, "CT614") == [(SHOWN, 9, 9)]
    assert messages(run, "CT614") == [
        "must_match_all term 'reversal' of point 'nadia-reversal': the transcript also says 'reverses', another "
        "form the term does not match; write the shared prefix 'revers', or the entry [reversal, reverses]"]


@pytest.mark.parametrize("terms", [
    ["nadia", "revers"],  # the shared prefix finds both forms
    ["nadia", ["reversal", "reverses"]],  # an entry listing the forms
    ["nadia", ["reverses", "reversal"]],
    ["nadia", ["reversal", "reverse"]],  # an alternative that finds "reverses" as a prefix
], ids=["prefix", "entry", "entry-reordered", "entry-by-prefix"])
def test_a_term_that_already_finds_every_form_is_clean(make_corpus, terms):
    assert where(run_of(make_corpus, point("p", "practice", terms)), "CT614") == []


def test_a_form_the_term_finds_as_a_prefix_is_no_sibling(make_corpus):
    turns = (("USER", "Reverse the duplicated refunds."), ("AGENT", "I reversed them and it reverses nothing else."))
    assert where(run_of(make_corpus, point("p", "practice", ["duplicated refunds", "reverse"]), turns=turns),
                 "CT614") == []


def test_a_phrase_is_checked_at_its_last_word_in_its_own_words(make_corpus):
    # "duplicated refund list" is said; "duplicated refunds" is the term: its last word has another form there.
    run = run_of(make_corpus, point("p", "practice", ["nadia", "duplicated refunds"]))
    assert where(run, "CT614") == [(SHOWN, 9, 9)]
    assert messages(run, "CT614") == [
        "must_match_all term 'duplicated refunds' of point 'p': the transcript also says 'duplicated refund', "
        "another form the term does not match; write the shared prefix 'duplicated refund', or the entry "
        "[duplicated refunds, duplicated refund]"]
    # the phrase's other words must precede the form: "refund" alone elsewhere is not this phrase
    turns = (("USER", "Reverse the duplicated refunds for Nadia."), ("AGENT", "Done; each refund is logged."))
    assert where(run_of(make_corpus, point("p", "practice", ["nadia", "duplicated refunds"]), turns=turns),
                 "CT614") == []


def test_identifiers_numbers_and_unsaid_terms_are_not_checked(make_corpus):
    turns = (("USER", "Run refund_reversal for Nadia, then check v2s and v2 and the tier-2 forms."),
             ("AGENT", "The refund reverses in v2s; refund_reversal is done."))
    points = point("p", "practice", ["nadia", "refund_reversal", "v2s"])
    assert where(run_of(make_corpus, points, turns=turns), "CT614") == []
    # never said: CT601's finding, not this rule's
    run = run_of(make_corpus, point("p", "practice", ["nadia", "reversals"]))
    assert where(run, "CT614") == []


def test_a_term_inside_an_entry_missing_a_form_is_reported_at_that_term(make_corpus):
    run = run_of(make_corpus, point("p", "practice", ["nadia", ["refund", "reversal"]]))
    assert where(run, "CT614") == [(SHOWN, 9, 20)]
    assert messages(run, "CT614") == [
        "must_match_all term 'reversal' of point 'p': the transcript also says 'reverses', another form the term "
        "does not match; write the shared prefix 'revers', or add it to its entry: [refund, reversal, reverses]"]


def test_each_missed_form_of_an_entry_is_reported_once(make_corpus):
    turns = REVERSAL + (("USER", "Then it reversed the old ones."),)
    run = run_of(make_corpus, point("p", "practice", ["nadia", ["reversal", "reversals"]]), turns=turns)
    assert messages(run, "CT614") == [
        "must_match_all term 'reversal' of point 'p': the transcript also says 'reverses', 'reversed', other "
        "forms the term does not match; write the shared prefix 'revers', or add them to its entry: "
        "[reversal, reversals, reverses, reversed]"]


def test_no_prefix_is_suggested_when_it_is_short_or_finds_another_word(make_corpus):
    turns = (("USER", "Use the queue for Nadia."), ("AGENT", "Using it now; no user sees the queue."))
    run = run_of(make_corpus, point("p", "practice", ["nadia", "use"]), turns=turns)
    assert messages(run, "CT614") == [  # "us" is under 3 characters
        "must_match_all term 'use' of point 'p': the transcript also says 'using', another form the term does not "
        "match; write the entry [use, using]"]
    turns = (("USER", "Nadia owns the migration of the migratory records."), ("AGENT", "It migrates them."))
    run = run_of(make_corpus, point("p", "practice", ["nadia", "migration"]), turns=turns)
    assert messages(run, "CT614")[0].endswith("another form the term does not match; write the entry "
                                              "[migration, migrates]")  # `migrat` finds "migratory" too


def test_the_other_form_may_come_from_any_speaker(make_corpus):
    # A practice is taught by the user (the built-in contract); "reverses" is only the agent's word, and
    # an output's wording may still take it: reported.
    run = run_of(make_corpus, point("p", "practice", ["nadia", "reversal"]))
    assert where(run, "CT614") == [(SHOWN, 9, 9)]
    assert where(run_of(make_corpus, point("p", "practice", ["nadia", "reversal"]), code="CT602"), "CT602") == []


@pytest.mark.parametrize("lint", [
    "lint:\n  ignore: [term-sibling-form]\n",
    "lint:\n  ignore: [CT614]\n",
    f"lint:\n  per_file_ignores:\n    - files: [expected/{ADMIT_ID}.yaml]\n      codes: [CT614]\n"
    "      reason: both forms are wanted here\n",
    # the precise way the rule's doc gives for a false positive of the stemmer: that point only
    "lint:\n  per_point_ignores:\n    - {point: nadia-reversal, codes: [CT614], reason: two meanings here}\n",
], ids=["by-name", "by-code", "per-file", "per-point"])
def test_it_is_suppressed_from_corpus_yaml(make_corpus, lint):
    points = point("nadia-reversal", "practice", ["nadia", "reversal"])
    assert where(run_of(make_corpus, points), "CT614") == [(SHOWN, 9, 9)]
    assert where(run_of(make_corpus, points, spec=SPEC_TEXT + lint), "CT614") == []


def test_explain_says_what_why_and_the_fix(capsys):
    assert main(["lint", "--explain", "term-sibling-form"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("CT614 term-sibling-form [warning]")
    for part in ("What:", "Why:", "Example", "[reversal, reverses]", "unsafe"):
        assert part in out


def _fixed(make_corpus, terms, turns=REVERSAL):
    overrides = labels(point("p", "practice", terms))
    overrides[SESSION] = session_text(turns=turns)
    root = make_corpus(overrides)
    code = main(["lint", "--fix", "--unsafe-fixes", "--select", "CT614", str(root)])
    return code, (root / SIDECAR).read_text(), where(lint_run(root, select=frozenset({"CT614"})), "CT614")


def test_the_unsafe_fix_writes_the_entry_of_forms(make_corpus):
    code, text, left = _fixed(make_corpus, ["nadia", "reversal"])
    assert "      - \"nadia\"\n      - [reversal, reverses]\n" in text and left == [] and code == 0


def test_the_unsafe_fix_extends_an_entry_written_on_one_line(make_corpus):
    code, text, left = _fixed(make_corpus, ["nadia", ["refund", "reversal"]])
    assert "      - [refund, reversal, reverses]\n" in text and left == [] and code == 0


def test_explaining_the_rule_never_imports_the_stemmer(tmp_path):
    """Only running CT614 imports snowballstemmer (`--select CT1` is tests/test_rule_registry.py's)."""
    probe = ("import sys\nfrom corpustools.cli import main\nmain(['lint', '--explain', 'CT614'])\n"
             "print('snowballstemmer' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.stdout.strip().splitlines()[-1] == "False", result.stderr


def test_the_stemmer_is_english_alone_and_stems_as_snowballstemmer_does(tmp_path):
    """CT614 loads snowballstemmer's English stemmer without the package's other 34 languages (a
    tenth of the pre-commit hook's CPU), and it stems every word as `snowballstemmer.stemmer`."""
    probe = ("import sys\nfrom corpustools.lint.rules.term_sibling_form import stem\n"
             "words = open(sys.argv[1], encoding='utf-8').read().lower().split()\n"
             "stems = [stem(word) for word in words]\n"
             "loaded = sorted(m for m in sys.modules if m.endswith('_stemmer') or m in ('snowballstemmer', 'Stemmer'))\n"
             "import snowballstemmer\n"
             "english = snowballstemmer.stemmer('english')\n"
             "print(len(words), stems == [english.stemWord(word) for word in words], loaded)\n")
    words = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "engineering-sentences.txt")
    result = subprocess.run([sys.executable, "-c", probe, words], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    count, same, loaded = result.stdout.strip().split(" ", 2)
    assert int(count) > 1000 and same == "True", result.stderr
    assert loaded in ("['Stemmer']", "['corpustools._snowballstemmer.english_stemmer']"), loaded
