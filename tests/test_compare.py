"""`corpustools compare`: transitions, metrics, the paired test, noise, drift and `regressed`."""

import json
from pathlib import Path

from corpustools.io.schemastore import validate
from corpustools.manifest import build_manifest, manifest_yaml
from corpustools.score.compare import compare_runs
from tests.support.corpus import ADMIT_ID, REJECT_ID, VALID_FILES
from tests.support.score import EMPTY, GOOD_ADMIT, output, proposal, run_cli, write_results

MISS = output([proposal("Delete expired signups in cron")])
PHANTOM = output([proposal("Fix the typo in the help text")])


def run(tmp_path, name, admit, reject):
    return str(write_results(tmp_path / name, {ADMIT_ID: admit, REJECT_ID: reject}))


def by_id(comparison):
    return {f.id: f for f in comparison.fixtures}


def test_every_transition_kind_and_point_changes(make_corpus, tmp_path):
    corpus = str(make_corpus())
    base = run(tmp_path, "base", MISS, EMPTY)
    candidate = run(tmp_path, "cand", GOOD_ADMIT, PHANTOM)
    comparison = compare_runs(corpus, [base], [candidate])
    fixtures = by_id(comparison)
    assert (fixtures[ADMIT_ID].base, fixtures[ADMIT_ID].candidate, fixtures[ADMIT_ID].transition) == (
        ("FAIL",), ("PASS",), "gained")
    assert fixtures[REJECT_ID].transition == "lost"
    same = compare_runs(corpus, [base], [base])
    assert {f.transition for f in same.fixtures} == {"same"}
    assert [(p.point_id, p.transition) for p in comparison.points] == [("expire-via-queue", "gained")]
    back = compare_runs(corpus, [candidate], [base])
    assert [(p.point_id, p.transition) for p in back.points] == [("expire-via-queue", "lost")]


def test_pass_shares_with_several_runs_a_side(make_corpus, tmp_path):
    corpus = str(make_corpus())
    base = [run(tmp_path, "b1", GOOD_ADMIT, EMPTY), run(tmp_path, "b2", MISS, EMPTY)]
    candidate = [run(tmp_path, "c1", GOOD_ADMIT, EMPTY), run(tmp_path, "c2", GOOD_ADMIT, PHANTOM)]
    fixtures = by_id(compare_runs(corpus, base, candidate))
    assert (fixtures[ADMIT_ID].base_share, fixtures[ADMIT_ID].candidate_share) == (0.5, 1)
    assert fixtures[ADMIT_ID].transition == "gained"
    assert fixtures[REJECT_ID].transition == "lost"


def test_metrics_direction_delta_and_lower_is_better(make_corpus, tmp_path):
    corpus = str(make_corpus())
    comparison = compare_runs(corpus, [run(tmp_path, "b", GOOD_ADMIT, PHANTOM)],
                              [run(tmp_path, "c", GOOD_ADMIT, EMPTY)])
    metrics = {m.metric.key: m for m in comparison.metrics}
    assert (metrics["phantoms"].base, metrics["phantoms"].candidate, metrics["phantoms"].delta) == (1.0, 0.0, -1.0)
    assert metrics["phantoms"].direction == "improved"
    assert metrics["gate_accuracy"].direction == "improved" and metrics["gate_accuracy"].delta == 1.0
    assert metrics["recall"].direction == "unchanged"
    assert metrics["false_rejects"].direction == "unchanged"
    assert all(m.noise is None for m in comparison.metrics)  # single runs: no noise verdict
    assert not comparison.regressed


def test_mcnemar_counts_discordant_fixtures(make_corpus, tmp_path):
    corpus = str(make_corpus())
    comparison = compare_runs(corpus, [run(tmp_path, "b", MISS, EMPTY)], [run(tmp_path, "c", GOOD_ADMIT, PHANTOM)])
    paired = comparison.paired
    assert (paired.b, paired.c, paired.fixtures, paired.p_value) == (1, 1, 2, 1.0)
    assert paired.flips_needed is None  # two fixtures can never reach p < 0.05


def test_regressed_with_single_runs_when_a_fixture_is_lost_exit_code_zero(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base, candidate = run(tmp_path, "b", GOOD_ADMIT, EMPTY), run(tmp_path, "c", GOOD_ADMIT, PHANTOM)
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", candidate)
    assert code == 0
    assert "> ## REGRESSED" in out.split("\n")[:4]
    assert f"lost 1 fixture: {REJECT_ID}" in out
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", candidate, "--candidate", base)
    assert code == 0 and "REGRESSED" not in out and "**Not regressed**" in out


def test_fail_on_regression_exits_1_with_the_reason_and_still_reports(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base, candidate = run(tmp_path, "b", GOOD_ADMIT, EMPTY), run(tmp_path, "c", GOOD_ADMIT, PHANTOM)
    code, out, err = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", candidate,
                             "--fail-on-regression")
    assert (code, err) == (1, f"corpustools compare: REGRESSED: lost 1 fixture: {REJECT_ID}\n")
    assert "> ## REGRESSED" in out.split("\n")[:4]
    code, out, err = run_cli(capsys, "compare", corpus, "--base", candidate, "--candidate", base,
                             "--fail-on-regression", "--format", "json")
    assert (code, err) == (0, "") and json.loads(out)["regressed"] is False
    good = [run(tmp_path, "g1", GOOD_ADMIT, EMPTY), run(tmp_path, "g2", GOOD_ADMIT, EMPTY)]
    bad = [run(tmp_path, "m1", MISS, EMPTY), run(tmp_path, "m2", MISS, EMPTY)]
    argv = ["compare", corpus, "--base", good[0], "--base", good[1], "--candidate", bad[0], "--candidate", bad[1]]
    code, _, err = run_cli(capsys, *argv, "--fail-on-regression")
    assert (code, err) == (1, "corpustools compare: REGRESSED: recall worsened beyond noise\n")


def test_a_results_folder_that_does_not_exist_is_a_usage_error(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base = run(tmp_path, "b", GOOD_ADMIT, EMPTY)
    missing = tmp_path / "typo"
    for argv in (("--base", base, "--candidate", missing), ("--base", missing, "--candidate", base)):
        code, out, err = run_cli(capsys, "compare", corpus, *argv)
        assert (code, out, err) == (2, "", f"corpustools compare: {missing}: no such results folder\n")
    (tmp_path / "empty").mkdir()
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", tmp_path / "empty")
    assert code == 0 and "> ## REGRESSED" in out.split("\n")[:4]


def test_regressed_with_several_runs_only_beyond_noise(make_corpus, tmp_path):
    corpus = str(make_corpus())
    good = [run(tmp_path, "g1", GOOD_ADMIT, EMPTY), run(tmp_path, "g2", GOOD_ADMIT, EMPTY)]
    bad = [run(tmp_path, "m1", MISS, EMPTY), run(tmp_path, "m2", MISS, EMPTY)]
    worse = compare_runs(corpus, good, bad)
    recall = next(m for m in worse.metrics if m.metric.key == "recall")
    assert (recall.direction, recall.noise) == ("worsened", "beyond noise")
    assert worse.regressed and "recall worsened beyond noise" in worse.regressed_because
    noisy = [run(tmp_path, "n1", GOOD_ADMIT, EMPTY), run(tmp_path, "n2", MISS, EMPTY)]
    within = compare_runs(corpus, noisy, bad)
    recall = next(m for m in within.metrics if m.metric.key == "recall")
    # delta -0.5 against twice the base's sample std of 0.707: a lost fixture, but within noise.
    assert (recall.direction, recall.noise) == ("worsened", "within noise")
    assert not within.regressed


def write_drifted_manifest(corpus, folder, tmp_path):
    """A run.yaml for `folder`, then a session of `corpus` changed: the run's inputs drifted."""
    prompt = tmp_path / "prompt.md"
    prompt.write_text("Version: 6\n[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n")
    manifest, _ = build_manifest(str(corpus), str(prompt), model="m", temperature="0", harness=None,
                                 operator="o", started_at="2026-03-02")
    (Path(folder) / "run.yaml").write_text(manifest_yaml(manifest))
    session = Path(corpus) / "sessions" / f"{REJECT_ID}.md"
    session.write_text(session.read_text() + "[USER]: And the footer too.\n")


def test_corpus_drift_is_refused_unless_allowed(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base, candidate = run(tmp_path, "b", GOOD_ADMIT, EMPTY), run(tmp_path, "c", GOOD_ADMIT, EMPTY)
    write_drifted_manifest(corpus, candidate, tmp_path)
    code, out, err = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", candidate)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and f"sessions/{REJECT_ID}.md changed since the run" in err
    assert "--allow-corpus-drift" in err
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", candidate,
                           "--allow-corpus-drift")
    assert code == 0 and out.startswith("> **CORPUS DRIFT ALLOWED")
    assert "--allow-corpus-drift --format html --output compare.html`" in out.splitlines()[-1]  # the HTML too
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", candidate,
                           "--allow-corpus-drift", "--format", "json")
    assert code == 0 and json.loads(out)["corpus_drift_allowed"][0].startswith(f"{candidate}/run.yaml")


def test_json_validates_and_both_formats_are_byte_identical(make_corpus, tmp_path, capsys):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": VALID_FILES[f"expected/{ADMIT_ID}.yaml"]})
    args = ["compare", corpus, "--base", run(tmp_path, "b1", MISS, EMPTY), "--base", run(tmp_path, "b2", GOOD_ADMIT,
            EMPTY), "--candidate", run(tmp_path, "c1", GOOD_ADMIT, PHANTOM)]
    for fmt in ("markdown", "json"):
        first = run_cli(capsys, *args, "--format", fmt)
        second = run_cli(capsys, *args, "--format", fmt)
        assert first == second and first[0] == 0
    data = json.loads(run_cli(capsys, *args, "--format", "json")[1])
    assert validate("compare-report", data) == []
    # admit passes in 1 of 2 base runs (not a majority) and in the candidate: c; reject is lost: b.
    assert data["mcnemar"] == {"b": 1, "c": 1, "fixtures": 2, "p_value": 1.0, "flips_needed": None}
    assert [m["noise"] for m in data["metrics"]][0] in ("beyond noise", "within noise")


def test_compare_markdown_worked_example_lines(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    _, out, _ = run_cli(capsys, "compare", corpus, "--base", run(tmp_path, "b", MISS, PHANTOM),
                        "--candidate", run(tmp_path, "c", GOOD_ADMIT, EMPTY))
    assert "**Fixtures:** 2 gained, 0 lost, 0 same." in out
    assert "| phantoms (lower is better) | 2.0 | 0.0 | −2.0 | improved |  |" in out
    assert "| admit-convention-01 | admit-convention | FAIL | PASS | **gained** |" in out


def test_markdown_ends_with_the_command_that_writes_the_html_comparison(make_corpus, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_corpus()
    run(tmp_path, "b", MISS, PHANTOM)
    run(tmp_path, "c", GOOD_ADMIT, EMPTY)
    _, out, _ = run_cli(capsys, "compare", "corpus", "--base", "b", "--candidate", "c")
    assert out.endswith("</details>\n\nFull report: `corpustools compare corpus --base b --candidate c --format html "
                        "--output compare.html`, then open compare.html in a browser.\n")
    command = out.rsplit("`", 2)[1].split()
    assert command[:2] == ["corpustools", "compare"]
    assert run_cli(capsys, *command[1:]) == (0, "", "wrote compare.html\n")
    assert (tmp_path / "compare.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
