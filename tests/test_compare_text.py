"""`corpustools compare --format text`: the verdict and the McNemar line first, lost fixtures with
their evidence, gained fixtures and changed points, then the plain sections; no Markdown; user text
escaped; the same bytes twice."""

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
    lines = out.split("\n")
    assert lines[0] == ("REGRESSED: lost 1 fixture: reject-noise-01. Read the lost fixtures before bumping the "
                        "version (this is advice; the command still exits 0).")
    assert lines[1] == ("McNemar exact test (two-sided): b = 1 (base pass, candidate fail), c = 1 (the reverse), "
                        "p = 1.0000; a corpus of 2 fixtures cannot reach p < 0.05 however many flip.")
    assert lines[2] == "fixtures: 1 gained, 1 lost, 0 same."
    lost = lines.index("lost fixtures (1):")
    assert lines[lost + 1:lost + 7] == [
        "  reject-noise-01 (reject-noise): base PASS, candidate FAIL", "    candidate:",
        f"      run 1 ({cand}): FAIL", "        non-empty-where-empty", "        phantom-over-budget:1>0",
        '          matching no point: practice[0] "Fix the typo in the help text"']
    order = [lost, lines.index("gained fixtures (1):"), lines.index("expected points: 1 gained, 0 lost, 0 same."),
             lines.index("corpustools compare: tiny, version 1"), lines.index("metrics:"),
             lines.index("fixtures (1 gained, 1 lost, 0 same):")]
    assert order == sorted(order)
    assert f"  {ADMIT_ID} (admit-convention): base FAIL, candidate PASS" in lines
    assert "  gained: admit-convention-01 expire-via-queue: base matched 0/1, candidate 1/1" in lines
    assert f"base run 1: {base}" in lines and f"candidate run 1: {cand}" in lines
    assert "  gate accuracy: base 100.0%, candidate 0.0%, delta −100.0 pp, worsened" in lines
    assert "  lost   reject-noise-01      reject-noise: base PASS, candidate FAIL" in lines
    assert not any(mark in out for mark in ("<details>", "**", "`", "|", "#"))


def test_a_hostile_title_and_folder_name_stay_on_their_line(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base = run(tmp_path, "base", GOOD_ADMIT, EMPTY)
    cand = run(tmp_path, "cand\nrun \x1b[2J", GOOD_ADMIT, output([proposal(HOSTILE)]))
    out = compare_text(capsys, corpus, base, cand)
    assert "\x1b" not in out and "\n# not a heading" not in out
    assert '          matching no point: practice[0] "Ship `it` | **now** # not a heading \\u001b[31m"\n' in out
    assert "      run 1 (" + cand.replace("\n", "\\n").replace("\x1b", "\\x1b") + "): FAIL\n" in out


def test_improved_and_no_change_verdicts(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base = run(tmp_path, "base", MISS, EMPTY)
    cand = run(tmp_path, "cand", GOOD_ADMIT, EMPTY)
    assert compare_text(capsys, corpus, base, cand).startswith(
        f"improved: gained 1 fixture: {ADMIT_ID}.\nMcNemar exact test (two-sided): b = 0 (base pass, candidate fail), "
        "c = 1 (the reverse)")
    assert compare_text(capsys, corpus, base, base).startswith("no change beyond noise: no fixture lost or gained.\n")
    assert compare_text(capsys, corpus, cand, base).startswith(f"REGRESSED: lost 1 fixture: {ADMIT_ID}.")


def test_several_runs_speak_of_noise(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    runs = [run(tmp_path, f"r{i}", GOOD_ADMIT, EMPTY) for i in range(3)]
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", runs[0], "--base", runs[1], "--candidate", runs[2],
                           "--format", "text")
    assert code == 0
    assert out.startswith("no change beyond noise: recall and gate accuracy neither worsened nor improved beyond "
                          "noise.\n")
    assert "  recall: base 100.0%, candidate 100.0%, delta 0.0 pp, unchanged, within noise (base sd 0.0 pp)" in out
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
