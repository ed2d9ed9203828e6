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


def test_a_lost_fixture_that_drops_a_blocking_metric_is_regressed_exit_code_zero(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base, candidate = run(tmp_path, "b", GOOD_ADMIT, EMPTY), run(tmp_path, "c", GOOD_ADMIT, PHANTOM)
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", candidate, "--format", "markdown")
    assert code == 0  # advisory unless asked to gate
    assert out.split("\n")[0] == (f"## regressed: 0 fixtures gained, 1 lost ({REJECT_ID}); fixture pass rate dropped "
                                  "100.0% → 50.0%; gate accuracy dropped 100.0% → 0.0%")
    assert out.split("\n")[2] == ("**Blocking metrics** (must not worsen): fixture pass rate dropped 100.0% → 50.0%; "
                                  "recall unchanged at 100.0%; gate accuracy dropped 100.0% → 0.0%.")
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", candidate, "--candidate", base, "--format", "markdown")
    assert code == 0 and out.split("\n")[0] == "## improved: 1 fixture gained, 0 lost"


def test_fail_on_regression_exits_1_with_the_headline_and_still_reports(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base, candidate = run(tmp_path, "b", GOOD_ADMIT, EMPTY), run(tmp_path, "c", GOOD_ADMIT, PHANTOM)
    code, out, err = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", candidate,
                             "--fail-on-regression")
    headline = (f"regressed: 0 fixtures gained, 1 lost ({REJECT_ID}); fixture pass rate dropped 100.0% → 50.0%; "
                "gate accuracy dropped 100.0% → 0.0%")
    assert (code, err) == (1, f"corpustools compare: {headline}\n")
    assert out.splitlines()[-1] == headline
    code, out, err = run_cli(capsys, "compare", corpus, "--base", candidate, "--candidate", base,
                             "--fail-on-regression", "--format", "json")
    assert (code, err) == (0, "") and json.loads(out)["regressed"] is False
    good = [run(tmp_path, "g1", GOOD_ADMIT, EMPTY), run(tmp_path, "g2", GOOD_ADMIT, EMPTY)]
    bad = [run(tmp_path, "m1", MISS, EMPTY), run(tmp_path, "m2", MISS, EMPTY)]
    argv = ["compare", corpus, "--base", good[0], "--base", good[1], "--candidate", bad[0], "--candidate", bad[1]]
    code, _, err = run_cli(capsys, *argv, "--fail-on-regression")
    assert (code, err) == (1, f"corpustools compare: regressed: 0 fixtures gained, 1 lost ({ADMIT_ID}); fixture pass "
                              "rate dropped 100.0% → 50.0%, beyond noise; recall dropped 100.0% → 0.0%, beyond noise\n")


def test_fail_on_lost_gates_on_any_loss_whatever_the_headline(make_corpus, tmp_path, capsys):
    # Only recall blocks here: losing the reject fixture leaves it unchanged, so the headline is not
    # regressed, but --fail-on-lost still fails on the loss.
    spec = (make_corpus() / "corpus.yaml").read_text()
    corpus = make_corpus({"corpus.yaml": spec + "compare:\n  blocking: [recall]\n"}, name="recall-only")
    base, candidate = run(tmp_path, "b", GOOD_ADMIT, EMPTY), run(tmp_path, "c", GOOD_ADMIT, PHANTOM)
    argv = ["compare", corpus, "--base", base, "--candidate", candidate]
    code, out, err = run_cli(capsys, *argv, "--fail-on-regression")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == f"no change beyond noise: 0 fixtures gained, 1 lost ({REJECT_ID})"
    assert "blocking metrics (must not worsen): recall unchanged at 100.0%" in out.splitlines()
    code, _, err = run_cli(capsys, *argv, "--fail-on-lost", "--fail-on-regression")
    assert (code, err) == (1, f"corpustools compare: lost 1 fixture (--fail-on-lost): {REJECT_ID}\n")
    data = json.loads(run_cli(capsys, *argv, "--format", "json")[1])
    assert (data["blocking"], data["verdict"], data["lost"]) == (["recall"], "no change beyond noise", [REJECT_ID])
    assert [m["metric"] for m in data["metrics"] if m["blocking"]] == ["recall"]
    code, _, err = run_cli(capsys, "compare", corpus, "--base", candidate, "--candidate", base, "--fail-on-lost")
    assert (code, err) == (0, "")  # nothing lost


def test_a_candidate_that_gained_7_and_lost_1_is_improved(tmp_path, capsys):
    """The comparison that printed REGRESSED: 7 fixtures gained, 1 lost, pass rate 50% -> 75%, with
    recall and gate accuracy not dropping. Built from the shipped corpus's gold outputs: a fixture
    fails by one extra proposal that matches no point (a phantom over its budget)."""
    import shutil

    root = Path(__file__).resolve().parent.parent / "fixtures" / "prompt-eval"
    corpus = tmp_path / "prompt-eval"
    shutil.copytree(root, corpus, ignore=shutil.ignore_patterns("runs", "calibration"))
    gold = {p.stem: json.loads(p.read_text()) for p in sorted((corpus / "gold").glob("*.json"))}
    noise = [{"type": "map", "tags": ["noise"], "title": f"Unrelated note {n} on the coffee machine",
              "description": "Nothing the session taught.", "body": "The coffee machine is on floor two.",
              "kk_confidence": "low"} for n in (1, 2)]  # two: over any budget of this corpus (at most 1)

    def failing(output):
        return {**output, "map": [*output["map"], *noise]}

    ids = sorted(gold)
    gained = ["admit-convention-01", "admit-gotcha-01", "admit-gotcha-02", "admit-map-feature-01",
              "admit-prohibition-01", "reject-noise-02", "trap-phantom-02"]  # two of them gate fixtures
    base_fails = gained + ["admit-convention-02", "admit-prohibition-02", "admit-rationale-01", "mixed-salvage-01",
                           "admit-tooling-01"]  # 12 of 24 pass
    lost = "reject-noise-01"  # a gate fixture too: gate accuracy 9/11 -> 10/11
    cand_fails = [i for i in base_fails if i not in gained] + [lost]  # 18 of 24 pass
    base = write_results(tmp_path / "base", {i: failing(gold[i]) if i in base_fails else gold[i] for i in ids})
    cand = write_results(tmp_path / "cand", {i: failing(gold[i]) if i in cand_fails else gold[i] for i in ids})
    argv = ["compare", corpus, "--base", base, "--candidate", cand]
    code, text, err = run_cli(capsys, *argv, "--fail-on-regression")
    headline = "improved: 7 fixtures gained, 1 lost (reject-noise-01)"
    assert (code, err) == (0, "") and text.splitlines()[-1] == headline
    assert ("blocking metrics (must not worsen): fixture pass rate rose 50.0% → 75.0%; recall unchanged at 100.0%; "
            "gate accuracy rose 81.8% → 90.9%\n") in text
    assert text.startswith("lost fixtures (1):\n  reject-noise-01 (reject-noise): base PASS, candidate FAIL\n")
    markdown = run_cli(capsys, *argv, "--format", "markdown")[1]
    assert markdown.startswith(f"## {headline}\n") and markdown.index("## Lost fixtures") < markdown.index(
        "## Gained fixtures")
    data = json.loads(run_cli(capsys, *argv, "--format", "json")[1])
    assert (data["headline"], data["verdict"], data["regressed"], data["lost"]) == (
        headline, "improved", False, [lost])
    assert data["gained"] == gained and validate("compare-report", data) == []
    page = run_cli(capsys, *argv, "--format", "html")[1]
    assert f'<div class="banner good" id="verdict"><strong>{headline}</strong>' in page
    code, _, err = run_cli(capsys, *argv, "--fail-on-lost")
    assert (code, err) == (1, f"corpustools compare: lost 1 fixture (--fail-on-lost): {lost}\n")


def test_a_results_folder_that_does_not_exist_is_a_usage_error(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    base = run(tmp_path, "b", GOOD_ADMIT, EMPTY)
    missing = tmp_path / "typo"
    for argv in (("--base", base, "--candidate", missing), ("--base", missing, "--candidate", base)):
        code, out, err = run_cli(capsys, "compare", corpus, *argv)
        assert (code, out, err) == (2, "", f"corpustools compare: {missing}: no such results folder\n")
    (tmp_path / "empty").mkdir()
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", tmp_path / "empty")
    assert code == 0 and out.splitlines()[-1].startswith(f"regressed: 0 fixtures gained, 2 lost ({ADMIT_ID}, {REJECT_ID})")


def test_regressed_with_several_runs_only_beyond_noise(make_corpus, tmp_path):
    corpus = str(make_corpus())
    good = [run(tmp_path, "g1", GOOD_ADMIT, EMPTY), run(tmp_path, "g2", GOOD_ADMIT, EMPTY)]
    bad = [run(tmp_path, "m1", MISS, EMPTY), run(tmp_path, "m2", MISS, EMPTY)]
    worse = compare_runs(corpus, good, bad)
    recall = next(m for m in worse.metrics if m.metric.key == "recall")
    assert (recall.direction, recall.noise) == ("worsened", "beyond noise")
    assert worse.regressed and "recall dropped 100.0% → 0.0%, beyond noise" in worse.regressed_because
    noisy = [run(tmp_path, "n1", GOOD_ADMIT, EMPTY), run(tmp_path, "n2", MISS, EMPTY)]
    within = compare_runs(corpus, noisy, bad)
    recall = next(m for m in within.metrics if m.metric.key == "recall")
    # delta -0.5 against twice the base's sample std of 0.707: a lost fixture, but within noise.
    assert (recall.direction, recall.noise) == ("worsened", "within noise")
    assert not within.regressed and within.headline == "no change beyond noise"
    assert within.headline_text == f"no change beyond noise: 0 fixtures gained, 1 lost ({ADMIT_ID})"


def test_compare_blocking_is_read_from_corpus_yaml_and_checked_with_a_did_you_mean(make_corpus, tmp_path, capsys):
    spec = (make_corpus() / "corpus.yaml").read_text()
    corpus = make_corpus({"corpus.yaml": spec + "compare:\n  blocking: [phantoms, false_rejects]\n"}, name="counts")
    assert run_cli(capsys, "lint", corpus)[0] == 0
    comparison = compare_runs(str(corpus), [run(tmp_path, "b", GOOD_ADMIT, PHANTOM)],
                              [run(tmp_path, "c", GOOD_ADMIT, EMPTY)])
    assert comparison.blocking == ("phantoms", "false_rejects")
    assert comparison.headline_text == "improved: 1 fixture gained, 0 lost"
    assert comparison.improved_because == ("phantoms dropped 1 → 0",)
    for typo, says in (("compare:\n  blockng: [recall]\n", "/compare/blockng: unknown key 'blockng': did you mean 'blocking'?"),
                       ("compare:\n  blocking: [pass-rate]\n",
                        "/compare/blocking/0: 'pass-rate' is not one of ['pass_rate', 'recall', 'phantoms', "
                        "'gate_accuracy', 'false_rejects']; did you mean 'pass_rate'?"),
                       ("compare:\n  blocking: []\n", "/compare/blocking: [] should be non-empty"),
                       ("compare_with:\n  blocking: [recall]\n", "unknown key 'compare_with': did you mean 'compare'?")):
        bad = make_corpus({"corpus.yaml": spec + typo}, name="typo")
        code, out, _ = run_cli(capsys, "validate", "corpus-spec", bad / "corpus.yaml")
        assert code == 1 and says in out, out


def test_the_blocking_metrics_are_the_compared_metrics():
    from corpustools.io.schemastore import schema_text
    from corpustools.model.spec import DEFAULT_BLOCKING
    from corpustools.score.aggregate import METRICS

    schema = json.loads(schema_text("corpus-spec"))["properties"]["compare"]["properties"]["blocking"]
    assert schema["items"]["enum"] == [m.key for m in METRICS]
    assert tuple(schema["default"]) == DEFAULT_BLOCKING


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
                           "--allow-corpus-drift", "--format", "markdown")
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
                        "--candidate", run(tmp_path, "c", GOOD_ADMIT, EMPTY), "--format", "markdown")
    assert "**Fixtures:** 2 gained, 0 lost, 0 same." in out
    assert "| phantoms (lower is better) | 2 | 0 | −2 | improved |  |" in out  # one run a side: whole numbers
    assert "| admit-convention-01 | admit-convention | FAIL | PASS | **gained** |" in out


def test_markdown_ends_with_the_command_that_writes_the_html_comparison(make_corpus, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_corpus()
    run(tmp_path, "b", MISS, PHANTOM)
    run(tmp_path, "c", GOOD_ADMIT, EMPTY)
    _, out, _ = run_cli(capsys, "compare", "corpus", "--base", "b", "--candidate", "c", "--format", "markdown")
    assert out.endswith("</details>\n\nFull report: `corpustools compare corpus --base b --candidate c --format html "
                        "--output compare.html`, then open compare.html in a browser.\n")
    command = out.rsplit("`", 2)[1].split()
    assert command[:2] == ["corpustools", "compare"]
    assert run_cli(capsys, *command[1:]) == (0, "", "wrote compare.html\n")
    assert (tmp_path / "compare.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
