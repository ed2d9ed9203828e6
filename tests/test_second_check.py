"""A small corpus authored by a fresh model context from the authoring prompt, never edited by
hand (tests/data/second-check/LESSONS.md): the rules run on text nobody tuned them for."""

from __future__ import annotations

import json
from pathlib import Path

from corpustools.cli import main

CORPUS = Path(__file__).resolve().parent / "data" / "second-check"


def test_the_second_check_corpus_lints_clean_under_strict(capsys):
    code = main(["lint", str(CORPUS), "--strict", "--statistics"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.endswith("0 error(s), 0 warning(s)\nAll checks passed.\n")


def test_its_gold_outputs_pass_every_fixture(capsys):
    assert main(["score", str(CORPUS), str(CORPUS / "gold"), "--format", "json"]) == 0
    aggregate = json.loads(capsys.readouterr().out)["aggregate"]
    assert (aggregate["fixtures_passed"], aggregate["fixtures_total"], aggregate["phantoms"]) == (6, 6, 0)
