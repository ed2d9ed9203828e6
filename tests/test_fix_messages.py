"""Messages that say how to fix, tried as a new user meets them on a corpus made by `corpustools init`:
a misspelt key in a sidecar, corpus.yaml or a worksheet gets one line with the key it was meant
to be; an unquoted `: ` in a YAML value gets "quote the value"; a copied session's id (CT102)
says how to make a fresh one; a session copied as a template is one CT701 finding, not one per
sentence; CT611 leaves compounds such as `on call` alone (measured on a list)."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpustools.cli import main
from corpustools.lint.rules import term_function_words
from corpustools.lint.rules.uuid_duplicate import FRESH_UUID
from corpustools.model.normalize import normalize

MEASURED = Path(__file__).resolve().parent / "data" / "function-word-terms.tsv"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def corpus(tmp_path, monkeypatch, capsys) -> Path:
    """`corpustools init c` in the working folder: a corpus that lints clean."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "c"]) == 0
    capsys.readouterr()
    return tmp_path / "c"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_a_misspelt_sidecar_or_spec_key_gets_one_line_with_the_key_it_was_meant_to_be(corpus, capsys):
    sidecar = corpus / "expected" / "admit-map-01.yaml"
    edit(sidecar, "    must_match_all:", "    must_mach_all:")
    edit(sidecar, "max_unexpected_proposals:", "max_unexpected_proposal:")
    edit(sidecar, "    type: map", "    type: mapp")
    edit(corpus / "corpus.yaml", "corpus_version: 1", "corpus_verison: 1")
    code, out, _ = run(capsys, "lint", "c", "-q")
    assert code == 1
    assert out.splitlines() == [
        "c/corpus.yaml:7:1: CT003 [error] /corpus_verison: unknown key 'corpus_verison': did you mean "
        "'corpus_version'?",
        "c/expected/admit-map-01.yaml:6:5: CT005 [error] /expected_points/0/type: type 'mapp' is not an item "
        "type of the output contract (practice, map) (did you mean map?)",
        "c/expected/admit-map-01.yaml:7:5: CT005 [error] /expected_points/0/must_mach_all: unknown key "
        "'must_mach_all': did you mean 'must_match_all'?",
        "c/expected/admit-map-01.yaml:13:1: CT005 [error] /max_unexpected_proposal: unknown key "
        "'max_unexpected_proposal': did you mean 'max_unexpected_proposals'?"]
    assert "Additional properties" not in out and "required property" not in out  # one line per mistake


def test_a_key_far_from_every_known_key_lists_the_keys_allowed_there(corpus, capsys):
    edit(corpus / "expected" / "admit-map-01.yaml", "fixture_id:", "reviewer: sam\nfixture_id:")
    out = run(capsys, "lint", "c", "-q")[1]
    assert out == ("c/expected/admit-map-01.yaml:1:1: CT005 [error] /reviewer: unknown key 'reviewer' (allowed "
                   "here: category, expect_empty, expected_fields, expected_points, fixture_id, "
                   "max_unexpected_proposals, notes, optional_points)\n")


def test_a_misspelt_worksheet_key_gets_did_you_mean(corpus, capsys):
    assert run(capsys, "adjudicate", "c", "c/gold", "--out", "sheet.yaml")[0] == 0
    sheet = corpus.parent / "sheet.yaml"
    edit(sheet, "    task_detail_leak:", "    task_detail_leek:")
    code, out, _ = run(capsys, "validate", "adjudication", sheet)
    assert code == 1  # its answers are still blank: those are errors of their own
    assert [line for line in out.splitlines() if "/fixtures/0/task_detail" in line] == [
        f"{sheet}:43:5: /fixtures/0/task_detail_leek: unknown key 'task_detail_leek': did you mean "
        "'task_detail_leak'?"]


def test_an_unquoted_colon_in_a_value_says_quote_the_value(corpus, capsys):
    sidecar = corpus / "expected" / "admit-map-01.yaml"
    edit(sidecar, "\nnotes: The user explains", "\nnotes: says X: same. The user explains")
    out = run(capsys, "lint", "c", "-q")[1]
    assert out.startswith("c/expected/admit-map-01.yaml:14:14: CT002 [error] YAML error: mapping values are not "
                          "allowed in this context; quote the value of 'notes', which holds ': ' (notes: \"says X: "
                          "same. The user explains where webhook handlers ar...\")\n")
    # a worksheet's why:, the friction as met
    assert run(capsys, "adjudicate", "c", "c/gold", "--out", "sheet.yaml")[0] == 0
    sheet = corpus.parent / "sheet.yaml"
    edit(sheet, "    why:                    # free text, may stay empty", '    why: says X: same')
    code, out, _ = run(capsys, "validate", "adjudication", sheet)
    assert (code, out) == (1, f"{sheet}:45:16: YAML error: mapping values are not allowed in this context; "
                              "quote the value of 'why', which holds ': ' (why: \"says X: same\")\n")


def test_a_copied_session_is_one_template_finding_and_ct102_says_how_to_make_a_fresh_id(corpus, capsys):
    source = corpus / "sessions" / "admit-map-01.md"
    (corpus / "sessions" / "admit-map-02.md").write_text(source.read_text())
    (corpus / "expected" / "admit-map-02.yaml").write_text(
        (corpus / "expected" / "admit-map-01.yaml").read_text().replace("admit-map-01", "admit-map-02"))
    out = run(capsys, "lint", "c", "-q", "--select", "CT102,CT701")[1]
    session_id = "7b2d9c41-3e6a-4f58-a1c7-5d8e2b9f0a36"
    assert out.splitlines() == [
        f"c/sessions/admit-map-01.md:3:1: CT102 [error] session_id {session_id} is also used by admit-map-02; "
        f"give the copy a fresh one: {FRESH_UUID}",
        f"c/sessions/admit-map-02.md:3:1: CT102 [error] session_id {session_id} is also used by admit-map-01; "
        f"give the copy a fresh one: {FRESH_UUID}",
        "c/sessions/admit-map-02.md:7:9: CT701 [error] sentence template reused: 7 sentences share their skeleton "
        "with admit-map-01; the first is admit-map-01 line 7: 'a webhook for * is coming next sprint'"]
    assert FRESH_UUID == 'python3 -c "import uuid; print(uuid.uuid4())"'


def _measured() -> list[tuple[str, list[str]]]:
    rows = []
    for line in MEASURED.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            term, expected = line.split("\t")
            rows.append((term, [] if expected == "-" else [w.strip() for w in expected.split(",")]))
    return rows


def test_ct611_on_its_measurement_list_reports_exactly_the_listed_words():
    function_words = frozenset(normalize(w) for w in term_function_words._FUNCTION_WORDS)
    compounds = term_function_words._compound_patterns(term_function_words._COMPOUNDS)
    rows = _measured()
    wrong = [(term, term_function_words.function_words_in(term, function_words, compounds), expected)
             for term, expected in rows
             if term_function_words.function_words_in(term, function_words, compounds) != expected]
    assert len(rows) == 80 and wrong == []  # the docstring quotes these counts


def test_ct611_leaves_on_call_alone_and_its_advice_keeps_the_content_words(corpus, capsys):
    sidecar = corpus / "expected" / "admit-map-01.yaml"
    edit(sidecar, "      - registry\n", "      - on call\n      - logged in\n      - keyed by event name\n")
    out = run(capsys, "lint", "c", "-q", "--select", "CT611")[1]
    assert out == ("c/expected/admit-map-01.yaml:10:9: CT611 [warning] must_match_all term 'keyed by event name' "
                   "contains function words ('by'); a paraphrase rewrites them: keep 'keyed event name'\n")
