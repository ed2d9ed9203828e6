"""CT507 phone: a line it flags (at its column), a near-miss it passes, and its documented
example (the rule: corpustools/lint/rules/phone.py). Its cases in the secrets test set
(tests/support/secrets_cases.py) are checked by tests/test_lint_secrets.py."""

from __future__ import annotations

from tests.support.secret_rules import ADMIT_SESSION, SAMPLE_LINE, documented_example, scanned_at

CODE = "CT507"
FAILING, COLUMN = "Call the desk on 020 7946 0958 after nine.", 18
PASSING = "See FERN-312, opened 2026-02-17 at 09:30, fixed in 10.3.1 on port 8080."


def test_rule_flags_the_failing_sample_at_its_line_and_column(tmp_path):
    assert scanned_at(tmp_path, CODE, FAILING) == [(ADMIT_SESSION, SAMPLE_LINE, COLUMN, CODE)]


def test_rule_passes_the_passing_sample(tmp_path):
    assert scanned_at(tmp_path, CODE, PASSING) == []


def test_documented_example_is_what_the_rule_reports(tmp_path):
    expected, found = documented_example(tmp_path, CODE)
    assert expected in found
