"""The label rules (CT601-CT614) together: what they leave to other rules and how the CLI prints
them. Each rule's own samples (failing, at the term; near-misses; options; optional points) are in
tests/rules/test_<name>.py, on tests/support/labels.py's corpus (the shared valid corpus passes them
all: test_lint_engine.py)."""

from __future__ import annotations

import pytest

from corpustools.cli import main
from tests.support.corpus import ADMIT_ID
from tests.support.labels import labels, point
from tests.support.lint import lint_run

pytestmark = pytest.mark.usefixtures("in_tmp")


def test_term_missing_session_is_left_to_the_pairing_rules(make_corpus):
    overrides = labels(point("p", "practice", ["queue worker", "cron schedule table"]))
    overrides[f"sessions/{ADMIT_ID}.md"] = None
    run = lint_run(make_corpus(overrides), select=frozenset({"CT601", "CT602", "CT607"}))
    assert run.diagnostics == () and run.crashes == ()


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
