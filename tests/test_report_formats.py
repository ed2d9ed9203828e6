"""Every report family's FORMATTERS table: each format runs through its command on the shipped
corpus, prints the same bytes twice, and is named where the docs list the family's formats (the
command's row of README.md's Commands table: the one listing; `--help` prints the table's keys).
A format added to a table is a `--format` choice at once (commands/options.add_report_options);
these tests hold the rest of docs/architecture.md's recipe ("A report format")."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from corpustools.calibrate.report import FORMATTERS as CALIBRATE
from corpustools.calibrate.report.agree import FORMATTERS as AGREE
from corpustools.cli import main
from corpustools.lint.report import FORMATTERS as LINT
from corpustools.provenance.report import FORMATTERS as PROVENANCE
from corpustools.score.report import FORMATTERS as SCORE
from corpustools.score.report.compare import FORMATTERS as COMPARE
from corpustools.validation.report import FORMATTERS as VALIDATE
from tests.support.raters import second_rater
from tests.support.recipes import FORMAT

ROOT = Path(__file__).resolve().parent.parent
CORPUS = "fixtures/prompt-eval"
RUNS = f"{CORPUS}/runs"

# family -> (its table, the command that prints its report, to which --format KEY is added)
FAMILIES: dict[str, tuple[Mapping[str, Callable[[Any], str]], list[str]]] = {
    "lint": (LINT, ["lint", CORPUS]),
    "score": (SCORE, ["score", CORPUS, f"{RUNS}/v5-run6"]),
    "compare": (COMPARE, ["compare", CORPUS, "--base", f"{RUNS}/v5-run6", "--candidate", f"{RUNS}/v8-run5"]),
    "calibrate": (CALIBRATE, ["calibrate", CORPUS, f"{RUNS}/v5-run6", "--verdicts",
                              f"{CORPUS}/calibration/held-out-corpus-v4/v5-run6.yaml"]),
    # a synthetic second rater (tests/support/raters.py) beside the committed worksheet; BOB is made per test
    "agree": (AGREE, ["agree", CORPUS, f"{CORPUS}/calibration/held-out-corpus-v5/v5-run8.yaml", "BOB"]),
    "validate": (VALIDATE, ["validate", "sidecar", f"{CORPUS}/expected/admit-convention-01.yaml"]),
    "provenance": (PROVENANCE, ["provenance", "verify", "--corpus", CORPUS]),
}

# family -> (file, the text the listing follows): the first `--format a|b|c` after it (`\|` in a
# Markdown table) must name exactly the table's keys. The other pages write `--format FORMAT`.
# validate and provenance list none (text, or `--format json` described on its own).
LISTINGS = {
    "lint": [("README.md", "| `corpustools lint ")],
    "score": [("README.md", "| `corpustools score ")],
    "compare": [("README.md", "| `corpustools compare ")],
    "calibrate": [("README.md", "| `corpustools calibrate ")],
    "agree": [("README.md", "| `corpustools agree ")],
}


@pytest.fixture(autouse=True)
def _at_repository_root(monkeypatch):
    monkeypatch.chdir(ROOT)


CASES = [(family, fmt) for family, (table, _) in FAMILIES.items() for fmt in table]


@pytest.mark.parametrize(("family", "fmt"), CASES, ids=[f"{family}-{fmt}" for family, fmt in CASES])
def test_every_format_of_every_family_prints_the_same_report_twice(family, fmt, tmp_path, capsys):
    table, argv = FAMILIES[family]
    if "BOB" in argv:
        bob = second_rater(ROOT / argv[2], tmp_path / "bob.yaml")
        argv = [str(bob) if arg == "BOB" else arg for arg in argv]
    assert len(inspect.signature(table[fmt]).parameters) == 1, f"{family} {fmt}: a formatter takes the report only"
    printed = []
    for attempt in ("first", "second"):
        output = tmp_path / f"{attempt}.out"
        code = main([*argv, "--format", fmt, "--output", str(output)])
        err = capsys.readouterr().err
        assert code in (0, 1), f"corpustools {' '.join(argv)} --format {fmt}: exit {code}: {err}\n{FORMAT}"
        printed.append(output.read_bytes())
    assert printed[0] == printed[1], f"{family} --format {fmt} printed other bytes the second time"


def listed_formats(text: str, anchor: str) -> list[str] | None:
    """The names of the first `--format a|b|c` (or `a\\|b\\|c`) after `anchor` in `text`; None when the
    anchor or a listing after it is missing."""
    start = text.find(anchor)
    if start < 0:
        return None
    found = re.compile(r"--format (?:\{)?([a-z-]+(?:\\?\|[a-z-]+)+)").search(text, start)
    return None if found is None else found.group(1).replace("\\|", "|").split("|")


def listing_gaps(family: str, keys: list[str], documents: dict[str, str]) -> list[str]:
    """Where the docs' listing of `family`'s formats differs from its FORMATTERS keys."""
    gaps = []
    for file, anchor in LISTINGS.get(family, ()):
        listed = listed_formats(documents[file], anchor)
        if listed is None:
            gaps.append(f"{file}: no `--format a|b|...` listing after {anchor.strip()!r}")
        elif sorted(listed) != sorted(keys):
            missing, extra = sorted(set(keys) - set(listed)), sorted(set(listed) - set(keys))
            gaps.append(f"{file}: {family}'s --format listing after {anchor.strip()!r} lacks {missing}"
                        + (f" and names {extra}, which {family}'s FORMATTERS has not" if extra else ""))
    return gaps


def _documents() -> dict[str, str]:
    return {file: (ROOT / file).read_text(encoding="utf-8") for listing in LISTINGS.values() for file, _ in listing}


@pytest.mark.parametrize("family", sorted(LISTINGS))
def test_the_docs_list_every_format_of_the_family(family):
    gaps = listing_gaps(family, list(FAMILIES[family][0]), _documents())
    assert gaps == [], "\n".join(gaps + [FORMAT])


def test_a_format_the_docs_do_not_list_is_named_with_the_recipe():
    documents = {"README.md": "| `corpustools score CORPUS` | ... `--format text\\|json\\|html` ... |\n"}
    assert listing_gaps("score", ["text", "json", "tsv"], documents) == [
        "README.md: score's --format listing after '| `corpustools score' lacks ['tsv'] and names ['html'], which "
        "score's FORMATTERS has not"]
    assert listing_gaps("score", ["text", "json"], {"README.md": "| `corpustools score CORPUS` | no listing |"}) == [
        "README.md: no `--format a|b|...` listing after '| `corpustools score'"]
    assert "FORMATTERS" in FORMAT and "README.md" in FORMAT and "render(report)" in FORMAT
