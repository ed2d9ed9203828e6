"""Golden regression: every lint finding and every score report on a generated corpus is unchanged.

The bench generator writes a small corpus with planted defects (fixed seed; the kinds of
bench/defects.py's FROZEN_PLANTERS, which never grows, so adding a rule changes nothing here) and a
run of outputs for it; lint (JSON) and score (JSON and Markdown) must print exactly the committed files under
tests/golden/. A change meant to be invisible (a faster parser, a leaner import) must leave them
byte for byte as they are; a change meant to alter findings or reports regenerates them:

    CORPUSTOOLS_REGENERATE_GOLDEN=1 python -m pytest -q -p no:cacheprovider tests/test_golden.py

and the diff of tests/golden/ is then reviewed like any other change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from corpustools.cli import main
from tests.support.bench import write_generated
from tests.support.recipes import RULE

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("CORPUSTOOLS_REGENERATE_GOLDEN") == "1"
FIXTURES, SEED, DEFECTS = 80, 7, 1  # 80 is the smallest corpus that takes one defect of every kind

# golden file -> the command that prints it, run from the generated folder (relative paths only,
# so the output does not depend on where the temporary folder is).
COMMANDS = {
    "lint.json": ["lint", "corpus", "--format", "json", "--prompt", "prompt.md", "--kb", "kb"],
    "score.json": ["score", "corpus", "results", "--format", "json"],
    "score.md": ["score", "corpus", "results", "--format", "markdown"],
}


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return write_generated(tmp_path_factory.mktemp("golden"), FIXTURES, SEED, DEFECTS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_output_matches_the_golden_file(name, generated, monkeypatch, capsys):
    monkeypatch.chdir(generated)
    main(COMMANDS[name])
    out, err = capsys.readouterr()
    assert err == ""
    golden = GOLDEN / name
    if REGENERATE:
        golden.parent.mkdir(exist_ok=True)
        golden.write_bytes(out.encode())
    assert golden.exists(), f"{golden} is missing; regenerate it (see this module's docstring)"
    assert out == golden.read_text(encoding="utf-8"), (
        f"{name} differs from {golden}. A new rule never changes it (the generated corpus plants "
        "bench/defects.py's FROZEN_PLANTERS only: never add to it). If a change to findings or reports is intended, "
        "regenerate: "
        "CORPUSTOOLS_REGENERATE_GOLDEN=1 python -m pytest -q -p no:cacheprovider tests/test_golden.py\n" + RULE)


def test_the_lint_golden_holds_planted_findings():
    # A golden file of an empty or failing run would guard nothing.
    text = (GOLDEN / "lint.json").read_text(encoding="utf-8")
    assert text.count('"code": "CT') >= 30


def test_lint_on_the_array_search_matches_the_golden_file(generated, monkeypatch, capsys):
    # The golden corpus has fewer sentence skeletons than nearmatch.ARRAYS_FROM, so the test above
    # lints it with NearIndex's dicts; lint.json was written before the array search existed, so
    # this holds the array search (CT702 on a large corpus) to the findings of before.
    from corpustools.lint.families import nearmatch

    monkeypatch.setattr(nearmatch, "ARRAYS_FROM", 0)
    monkeypatch.chdir(generated)
    main(COMMANDS["lint.json"])
    out, err = capsys.readouterr()
    assert err == "" and '"code": "CT702"' in out
    assert out == (GOLDEN / "lint.json").read_text(encoding="utf-8")


LARGE = "lint-10000.sha256"  # sha256, the number of findings, how it was made


@pytest.mark.heavy
def test_lint_at_10000_fixtures_prints_the_findings_of_before(tmp_path, monkeypatch, capsys):
    """The generated 10,000-fixture corpus with 5 defects of each kind: lint's JSON report is byte
    for byte the one of before the speed work of issue 26 (its sha256 is committed, not its 0.5 MB).
    Heavy: about a minute and 800 MB; `python -m pytest -m heavy` beside a benchmark run."""
    import hashlib

    monkeypatch.chdir(write_generated(tmp_path, 10_000, 0, 5))
    main(COMMANDS["lint.json"])
    out = capsys.readouterr().out
    digest, findings = hashlib.sha256(out.encode()).hexdigest(), out.count('"code": "CT')
    if REGENERATE:
        (GOLDEN / LARGE).write_text(f"{digest}  {findings} findings: lint corpus --format json --prompt prompt.md "
                                    "--kb kb, on bench/make_corpus.py 10000 OUT --seed 0 --defects 5\n", encoding="utf-8")
    expected_digest, expected_findings = (GOLDEN / LARGE).read_text(encoding="utf-8").split()[:2]
    assert (digest, findings) == (expected_digest, int(expected_findings)), (
        "lint's findings at 10,000 fixtures changed; if that is intended, regenerate with -m heavy "
        "(this module's docstring)")
