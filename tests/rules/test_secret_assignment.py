"""CT502 secret-assignment: a line it flags (at its column), a near-miss it passes, and its documented
example (the rule: corpustools/lint/rules/secret_assignment.py). Its cases in the secrets test set
(tests/support/secrets_cases.py) are checked by tests/test_lint_secrets.py."""

from __future__ import annotations

from tests.support.secret_rules import ADMIT_SESSION, SAMPLE_LINE, documented_example, scanned_at

CODE = "CT502"
FAILING, COLUMN = "$settings['hash_salt'] = 'Xk9vQ2mL7pR4';", 12
PASSING = "$settings['hash_salt'] = file_get_contents('../salt.txt');"


def test_rule_flags_the_failing_sample_at_its_line_and_column(tmp_path):
    assert scanned_at(tmp_path, CODE, FAILING) == [(ADMIT_SESSION, SAMPLE_LINE, COLUMN, CODE)]


def test_rule_passes_the_passing_sample(tmp_path):
    assert scanned_at(tmp_path, CODE, PASSING) == []


def test_documented_example_is_what_the_rule_reports(tmp_path):
    expected, found = documented_example(tmp_path, CODE)
    assert expected in found
