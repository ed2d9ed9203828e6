"""`score --append-history FILE`: create the table, append to it, refuse a foreign one."""

from pathlib import Path

from corpustools.manifest import build_manifest, manifest_yaml
from corpustools.model.hashing import corpus_sha256
from corpustools.score.history import HISTORY_COLUMNS, LEGACY_COLUMNS, appended, split_row
from tests.support.corpus import ADMIT_ID, REJECT_ID
from tests.support.score import EMPTY, GOOD_ADMIT, good_results, output, proposal, run_cli, write_results
from tests.support.work import growth, hang_guard

HEADER = "| " + " | ".join(HISTORY_COLUMNS) + " |"


def with_manifest(corpus, folder, tmp_path, model="model-x", started_at="2026-03-01T09:00:00Z"):
    prompt = tmp_path / "prompt.md"
    prompt.write_text("Version: 6\n[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n")
    manifest, _ = build_manifest(str(corpus), str(prompt), model=model, temperature="0", harness=None,
                                 operator="o", started_at=started_at)
    (Path(folder) / "run.yaml").write_text(manifest_yaml(manifest))
    return folder


def test_history_is_created_then_appended(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    history = tmp_path / "RESULTS.md"
    run1 = with_manifest(corpus, good_results(tmp_path / "run1"), tmp_path)
    code, out, err = run_cli(capsys, "score", corpus, run1, "--append-history", history, "--format", "markdown")
    assert code == 0 and out.startswith("**2/2 fixtures passed**") and "appended a row" in err
    lines = history.read_text().split("\n")
    assert lines[:3] == ["# Prompt evaluation history", "", HEADER]
    sha = corpus_sha256(str(corpus))[:12]
    assert lines[4] == (f"| 2026-03-01 | proposal-extract | 6 | model-x | 1 | {run1} | 100.0% (2/2) | "
                        "100.0% (1/1) | 0 | "
                        f"100.0% (1/1) | 1 | {sha} |")
    run2 = with_manifest(corpus, write_results(tmp_path / "run2", {ADMIT_ID: GOOD_ADMIT,
                                                                   REJECT_ID: output([proposal("x")])}), tmp_path)
    assert run_cli(capsys, "score", corpus, run1, run2, "--append-history", history)[0] == 0
    lines = history.read_text().split("\n")
    assert len([line for line in lines if line.startswith("| 2026")]) == 2
    assert lines[5].startswith(f"| 2026-03-01 | proposal-extract | 6 | model-x | 2 | {run1}, {run2} | "
                               "75.0% ± 35.4 pp | "
                               "100.0% ± 0.0 pp | 0.5 ± 0.7 | 50.0% ± 70.7 pp | 1 |")
    assert history.read_text().endswith(" |\n")


def test_the_same_run_is_not_appended_twice(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    history = tmp_path / "RESULTS.md"
    run1 = with_manifest(corpus, good_results(tmp_path / "run1"), tmp_path)
    assert run_cli(capsys, "score", corpus, run1, "--append-history", history)[0] == 0
    before = history.read_text()
    code, out, err = run_cli(capsys, "score", corpus, run1, "--append-history", history, "--format", "markdown")
    assert (code, err) == (0, "corpustools score: the history already has this row; not appended\n")
    assert out.startswith("**2/2 fixtures passed**") and history.read_text() == before
    # A row that differs in one cell (another model) is appended.
    run2 = with_manifest(corpus, good_results(tmp_path / "run2"), tmp_path, model="model-y")
    code, _, err = run_cli(capsys, "score", corpus, run2, "--append-history", history)
    assert code == 0 and "appended a row" in err
    assert len([line for line in history.read_text().split("\n") if line.startswith("| 2026")]) == 2


def test_an_identical_row_in_the_table_is_kept_once(tmp_path):
    row = ["a|b"] + ["x"] * 11  # an escaped pipe in a cell compares as the cell it is
    once = appended(None, "H.md", row)
    assert appended(once, "H.md", row) == once
    assert appended(once, "H.md", ["a|b"] + ["x"] * 10 + ["y"]) != once


def test_history_goes_into_an_existing_table_and_keeps_the_text_around_it(tmp_path):
    text = f"# Results\n\nIntro.\n\n{HEADER}\n|---|---|---|---|---|---|---|---|---|---|---|---|\n| old |\n\nOutro.\n"
    new = appended(text, "RESULTS.md", ["new"] + [""] * 11)
    assert new.split("\n")[6:10] == ["| old |", "| new |" + "  |" * 11, "", "Outro."]


def test_history_table_added_to_a_file_without_one(tmp_path):
    assert appended("Some notes.", "R.md", ["a"] * 12).startswith(f"Some notes.\n\n{HEADER}\n")
    assert appended("", "R.md", ["a"] * 12).startswith(HEADER)


def test_history_refuses_a_foreign_table(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    history = tmp_path / "RESULTS.md"
    original = "# Notes\n\n| fixture | verdict |\n|---|---|\n| a | PASS |\n"
    history.write_text(original)
    code, out, err = run_cli(capsys, "score", corpus, good_results(tmp_path / "run"), "--append-history", history)
    assert (code, out) == (2, "")
    assert f"{history}:3:1: the table here has columns (fixture, verdict)" in err and err.count("\n") == 1
    assert history.read_text() == original


def test_a_pathological_line_under_a_table_row_is_read_in_linear_time(tmp_path):
    # A separator regex with two adjacent `\s*` took minutes on `-` + 100k spaces. A regular
    # expression's steps cannot be counted: the CPU time at 100k spaces is compared with 20 times
    # the CPU time at 5k, in this run (tests/support/work.growth): about 1 when linear, about 20
    # for that regex.
    row = ["x"] * len(HISTORY_COLUMNS)

    def text(spaces: int) -> str:
        return "| notes |\n-" + " " * spaces + "x\n"

    with hang_guard("the pathological line"):
        assert growth(lambda spaces: appended(text(spaces), "H.md", row), 5_000, 20, limit=5) < 5
    result = appended(text(100_000), "H.md", row)
    assert result.startswith(text(100_000)) and HEADER in result
    aligned = HEADER + "\n|" + "|".join(" :--- " for _ in HISTORY_COLUMNS) + "|\n"
    assert appended(aligned, "H.md", row) == aligned + "| " + " | ".join(row) + " |\n"


def test_history_never_goes_into_the_corpus(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    code, _, err = run_cli(capsys, "score", corpus, good_results(tmp_path / "run"),
                           "--append-history", corpus / "corpus.yaml")
    assert code == 2 and "never writes there" in err
    # Beside the corpus's own files is fine (RESULTS.md next to corpus.yaml).
    assert run_cli(capsys, "score", corpus, good_results(tmp_path / "run"),
                   "--append-history", corpus / "RESULTS.md")[0] == 0


def test_history_without_manifest_says_unrecorded(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    history = tmp_path / "h.md"
    run_cli(capsys, "score", corpus, write_results(tmp_path / "run", {ADMIT_ID: EMPTY}), "--append-history", history)
    row = history.read_text().split("\n")[4]
    run = tmp_path / "run"
    assert row.startswith(f"| unrecorded | unrecorded | unrecorded | unrecorded | 1 | {run} | 0.0% (0/2) |")


def test_a_table_from_before_the_results_column_gets_rows_in_its_own_shape(make_corpus, tmp_path, capsys):
    # Histories written before the results column (e.g. fixtures/prompt-eval/RESULTS.md) keep working:
    # the new row omits the results cell and the old rows are left as they are.
    corpus = make_corpus()
    history = tmp_path / "RESULTS.md"
    legacy = "| " + " | ".join(LEGACY_COLUMNS) + " |"
    old = f"# History\n\n{legacy}\n|" + "---|" * len(LEGACY_COLUMNS) + "\n| " + " | ".join(["old"] * 11) + " |\n"
    history.write_text(old)
    run1 = with_manifest(corpus, good_results(tmp_path / "run1"), tmp_path)
    assert run_cli(capsys, "score", corpus, run1, "--append-history", history)[0] == 0
    lines = history.read_text().split("\n")
    assert history.read_text().startswith(old)
    assert lines[5].startswith("| 2026-03-01 | proposal-extract | 6 | model-x | 1 | 100.0% (2/2) |")
    assert len(split_row(lines[5])) == len(LEGACY_COLUMNS)
    code, _, err = run_cli(capsys, "score", corpus, run1, "--append-history", history)
    assert (code, err) == (0, "corpustools score: the history already has this row; not appended\n")
