"""`corpustools compare --format text` (the default): lost fixtures first with their reasons in words,
gained fixtures and changed points, the metrics, McNemar and the blocking metrics, and the headline
last; no Markdown; user text escaped; the same bytes twice."""

from __future__ import annotations

from tests.support.corpus import ADMIT_ID, REJECT_ID
from tests.support.score import EMPTY, GOOD_ADMIT, output, proposal, run_cli, write_results

MISS = output([proposal("Delete expired signups in cron")])
HOSTILE = "Ship `it` | **now**\n# not a heading \x1b[31m"


def run(tmp_path, name, admit, reject):
    return str(write_results(tmp_path / name, {ADMIT_ID: admit, REJECT_ID: reject}))


def compare_text(capsys, corpus, base, candidate):
    code, out, err = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", candidate, "--format", "text")
    assert (code, err) == (0, "")
    return out


def test_every_part_in_order_without_markdown(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base = run(tmp_path, "base", MISS, EMPTY)
    cand = run(tmp_path, "cand", GOOD_ADMIT, output([proposal("Fix the typo in the help text")]))
    out = compare_text(capsys, corpus, base, cand)
    lines = out.splitlines()
    # the lost fixtures first, with the candidate's reasons in words and their codes
    assert lines[:6] == [
        "lost fixtures (1):", "  reject-noise-01 (reject-noise): base PASS, candidate FAIL", "    candidate:",
        f"      run 1 ({cand}): FAIL",
        "        the right answer is empty, but the output has 1 item  [non-empty-where-empty]",
        '        1 proposal matches no point (budget 0): practice[0] "Fix the typo in the help text"  '
        "[phantom-over-budget:1>0]"]
    order = [lines.index("gained fixtures (1):"), lines.index("expected points: 1 gained, 0 lost, 0 same"),
             next(i for i, line in enumerate(lines) if line.startswith("corpus: tiny, version 1 (")),
             lines.index("metrics:"), next(i for i, line in enumerate(lines) if line.startswith("McNemar")),
             next(i for i, line in enumerate(lines) if line.startswith("blocking metrics"))]
    assert order == sorted(order)
    assert f"  {ADMIT_ID} (admit-convention): base FAIL, candidate PASS" in lines
    assert "  gained: admit-convention-01 expire-via-queue: base matched 0/1, candidate 1/1" in lines
    assert any(line.startswith(f"base: {base}: prompt unrecorded") for line in lines)
    assert any(line.startswith(f"candidate: {cand}: prompt unrecorded") for line in lines)
    assert "  gate accuracy (blocking): base 100.0%, candidate 0.0%, delta −100.0 pp, worsened" in lines
    assert "  phantoms (lower is better): base 1, candidate 1, delta 0, unchanged" in lines  # one run: whole numbers
    assert lines[-2].startswith("more: add --format markdown") and lines[-3].startswith("warning: ")
    assert lines[-5] == ("blocking metrics (must not worsen): fixture pass rate unchanged at 50.0%; recall rose "
                         "0.0% → 100.0%; gate accuracy dropped 100.0% → 0.0%")
    # the headline last: pytest's closing-line habit
    assert lines[-1] == "regressed: 1 fixture gained, 1 lost (reject-noise-01); gate accuracy dropped 100.0% → 0.0%"
    assert not any(mark in out for mark in ("<details>", "**", "`", "|", "#"))


def test_a_hostile_title_and_folder_name_stay_on_their_line(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base = run(tmp_path, "base", GOOD_ADMIT, EMPTY)
    cand = run(tmp_path, "cand\nrun \x1b[2J", GOOD_ADMIT, output([proposal(HOSTILE)]))
    out = compare_text(capsys, corpus, base, cand)
    assert "\x1b" not in out and "\n# not a heading" not in out
    assert ('        1 proposal matches no point (budget 0): practice[0] "Ship `it` | **now** # not a heading '
            '\\u001b[31m"  [phantom-over-budget:1>0]\n') in out
    assert "      run 1 (" + cand.replace("\n", "\\n").replace("\x1b", "\\x1b") + "): FAIL\n" in out


def test_improved_and_no_change_verdicts(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base = run(tmp_path, "base", MISS, EMPTY)
    cand = run(tmp_path, "cand", GOOD_ADMIT, EMPTY)
    assert compare_text(capsys, corpus, base, cand).splitlines()[-1] == "improved: 1 fixture gained, 0 lost"
    assert compare_text(capsys, corpus, base, base).splitlines()[-1] == "no change beyond noise: 0 fixtures gained, 0 lost"
    assert compare_text(capsys, corpus, cand, base).splitlines()[-1] == (
        f"regressed: 0 fixtures gained, 1 lost ({ADMIT_ID}); fixture pass rate dropped 100.0% → 50.0%; "
        "recall dropped 100.0% → 0.0%")


def test_several_runs_speak_of_noise(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    runs = [run(tmp_path, f"r{i}", GOOD_ADMIT, EMPTY) for i in range(3)]
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", runs[0], "--base", runs[1], "--candidate", runs[2],
                           "--format", "text")
    assert code == 0
    assert out.splitlines()[-1] == "no change beyond noise: 0 fixtures gained, 0 lost"
    assert "  recall (blocking): base 100.0%, candidate 100.0%, delta 0.0 pp, unchanged, within noise (base sd 0.0 pp)" \
        in out
    assert "blocking metrics (must not worsen beyond noise): fixture pass rate unchanged at 100.0%; " in out
    assert "  a delta is beyond noise when it exceeds twice the larger side's run-to-run sample standard deviation." \
        in out


def test_byte_identical_twice_and_to_output_file(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    args = ["compare", corpus, "--base", run(tmp_path, "b", MISS, EMPTY), "--candidate",
            run(tmp_path, "c", GOOD_ADMIT, output([proposal("Noise")])), "--format", "text"]
    first, second = run_cli(capsys, *args), run_cli(capsys, *args)
    assert first == second and first[0] == 0
    target = tmp_path / "compare.txt"
    assert run_cli(capsys, *args, "--output", target)[0] == 0
    assert target.read_text(encoding="utf-8") == first[1]
