"""`corpustools score` end to end: formats, header, warnings, determinism and exit codes."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from corpustools.io.schemastore import validate
from corpustools.manifest import build_manifest, manifest_yaml
from corpustools.score.report import FORMATTERS
from tests.support.corpus import ADMIT_ID, REJECT_ID, VALID_FILES, write_corpus
from tests.support.score import EMPTY, GOOD_ADMIT, good_results, output, proposal, run_cli, write_results


def mixed_results(folder):
    """One passing fixture, one failing one, a stray result and an unrelated file."""
    write_results(folder, {ADMIT_ID: GOOD_ADMIT, REJECT_ID: output([proposal("Fix the typo")]),
                           "not-a-fixture": EMPTY})
    (Path(folder) / "notes.txt").write_text("free notes\n")
    return folder


def write_manifest(corpus, results, prompt, **overrides):
    fields = dict(model="model-x", temperature="0.2", harness=None, operator="tester",
                  started_at="2026-03-01T09:00:00Z")
    fields.update(overrides)
    manifest, _ = build_manifest(str(corpus), str(prompt), **fields)
    (Path(results) / "run.yaml").write_text(manifest_yaml(manifest))
    return manifest


def test_json_report_has_the_contract_keys_and_validates(make_corpus, tmp_path, capsys):
    corpus, results = make_corpus(), mixed_results(tmp_path / "run")
    code, out, _ = run_cli(capsys, "score", corpus, results, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert validate("score-report", data) == []
    assert {"corpus", "run", "fixtures", "categories", "aggregate"} <= set(data)
    assert set(data["corpus"]) >= {"name", "version", "sha256"} and data["corpus"]["name"] == "tiny"
    assert data["run"] is None
    admit = data["fixtures"][0]
    assert set(admit) >= {"id", "category", "verdict", "reasons", "diagnostics", "points", "proposals", "unexpected"}
    assert admit["points"] == [{"id": "expire-via-queue", "type": "practice", "matched": True,
                                "matched_by": ["practice[0]"], "item_fields": []}]
    aggregate = data["aggregate"]
    for key in ("fixtures_passed", "fixtures_failed", "fixtures_unchecked", "fixtures_total", "points_matched",
                "points_total", "phantoms", "gate_correct", "gate_total", "false_rejects", "missing_results",
                "invalid_results"):
        assert key in aggregate
    assert (aggregate["fixtures_passed"], aggregate["fixtures_total"], aggregate["phantoms"]) == (1, 2, 1)
    assert aggregate["pass_rate"] == {"successes": 1, "total": 2, "rate": 0.5, "low": 0.0945, "high": 0.9055}
    assert data["categories"] == [{"category": "admit-convention", "passed": 1, "total": 1},
                                  {"category": "reject-noise", "passed": 0, "total": 1}]
    assert any("not-a-fixture.json: names no fixture" in w for w in data["warnings"])
    assert not any("notes.txt" in w for w in data["warnings"])


def test_markdown_report_sections_and_unrecorded_manifest_warning(make_corpus, tmp_path, capsys):
    code, out, _ = run_cli(capsys, "score", make_corpus(), mixed_results(tmp_path / "run"), "--format", "markdown")
    assert code == 0
    for summary in ("All fixtures (1 of 2 passed)", "Categories", "Aggregate", "Failure taxonomy",
                    "Advisory diagnostics (1; they never change a verdict)"):
        assert f"<details><summary>{summary}</summary>" in out
    assert "model and temperature unrecorded" in out
    assert "| reject-noise-01 | reject-noise | **FAIL** | `non-empty-where-empty`, `phantom-over-budget:1>0` |" in out
    assert "| fixtures passed | 1/2 | 50.0% | 9.5%–90.5% |" in out
    assert "CORPUS DRIFT" not in out


def test_header_prints_the_manifest_and_warns_loudly_on_corpus_drift(make_corpus, tmp_path, capsys):
    corpus, results = make_corpus(), good_results(tmp_path / "run")
    prompt = tmp_path / "prompt.md"
    prompt.write_text("<!--\n  Version: 7\n-->\n[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n")
    write_manifest(corpus, results, prompt)
    _, out, _ = run_cli(capsys, "score", corpus, results, "--format", "markdown")
    assert "| model | model-x |" in out and "| temperature | 0.2 |" in out and "| date | 2026-03-01T09:00:00Z |" in out
    assert "proposal-extract, version 7" in out
    assert "unrecorded" not in out and "DRIFT" not in out
    # A revised label is no drift: one line says the run is scored under the current labels.
    (corpus / "expected" / f"{ADMIT_ID}.yaml").write_text(VALID_FILES[f"expected/{ADMIT_ID}.yaml"] + "# edited\n")
    code, out, _ = run_cli(capsys, "score", corpus, results, "--format", "markdown")
    assert code == 0 and "DRIFT" not in out
    assert out.split("\n")[:3] == [
        "labels revised since this run (corpus version 1 → 1): scored under the current labels", "",
        "**2/2 fixtures passed** (100.0%, 95% CI 34.2%–100.0%); recall 1/1 (100.0%, 95% CI 20.7%–100.0%); 0 "
        "phantoms; gate accuracy 1/1 (100.0%, 95% CI 20.7%–100.0%); false rejects 0/1."]
    # A changed session is: the outputs answer another question.
    session = corpus / "sessions" / f"{ADMIT_ID}.md"
    session.write_text(session.read_text() + "[USER]: One more thing.\n")
    code, out, _ = run_cli(capsys, "score", corpus, results, "--format", "markdown")
    assert code == 0
    assert out.split("\n")[0].startswith(  # above the verdict line, never folded
        f"> **WARNING: CORPUS DRIFT.** {results}/run.yaml was produced against other inputs: "
        f"sessions/{ADMIT_ID}.md changed since the run (inputs sha256 ")
    assert out.split("\n")[2].startswith("labels revised since this run")
    assert out.split("\n")[4].startswith("**2/2 fixtures passed**")


def test_text_format(make_corpus, tmp_path, capsys):
    code, out, _ = run_cli(capsys, "score", make_corpus(), mixed_results(tmp_path / "run"), "--format", "text")
    assert code == 0
    # ruff's and pytest's order: what failed first, each reason in words with its code, the verdict line last
    assert out.startswith("FAIL reject-noise-01 (reject-noise)\n"
                          "  the right answer is empty, but the output has 1 item  [non-empty-where-empty]\n"
                          "  1 proposal matches no point (budget 0): practice[0] \"Fix the typo\"  "
                          "[phantom-over-budget:1>0]\n")
    assert "admit-convention-01" not in out.split("\n\n")[0]  # a passing fixture is not listed
    assert "categories passed: admit-convention 1/1, reject-noise 0/1\n" in out
    assert "failure taxonomy: non-empty-where-empty 1, phantom-over-budget 1\n" in out
    assert out.splitlines()[-1].startswith("1/2 fixtures passed (50.0%, 95% CI 9.5%–90.5%); recall 1/1")


def test_no_text_line_is_wrapped_by_the_program(make_corpus, tmp_path, capsys):
    # A terminal wraps a long line itself; a line cut by the program would cut a title mid-word.
    title = "Fix " + " ".join(f"word{i}" for i in range(80))  # about 600 characters
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: output([proposal(title)])})
    out = run_cli(capsys, "score", make_corpus(), run)[1]
    line = next(line for line in out.splitlines() if "match no point" in line or "matches no point" in line)
    assert f'"{title}"' in line and line.endswith("[phantom-over-budget:1>0]")


def test_output_file_and_never_into_the_corpus(make_corpus, tmp_path, capsys):
    corpus, results = make_corpus(), good_results(tmp_path / "run")
    code, out, _ = run_cli(capsys, "score", corpus, results, "--format", "markdown", "--output", tmp_path / "report.md")
    assert (code, out) == (0, "")
    assert (tmp_path / "report.md").read_text().startswith("**2/2 fixtures passed**")
    code, _, err = run_cli(capsys, "score", corpus, results, "--output", corpus / "expected" / "report.md")
    assert code == 2 and "corpustools never writes there" in err
    assert not (corpus / "expected" / "report.md").exists()


def test_an_output_that_cannot_be_encoded_leaves_the_old_file_alone(make_corpus, tmp_path, capsys):
    # A results folder whose name is not UTF-8 arrives as a surrogate escape; the report names it.
    corpus = make_corpus()
    results = good_results(tmp_path / "run-\udcff")
    report = tmp_path / "report.md"
    report.write_text("previous report\n")
    code, out, err = run_cli(capsys, "score", corpus, results, "--format", "json", "--output", report)
    assert (code, out) == (2, "") and "not valid Unicode" in err and err.count("\n") == 1
    assert "internal error" not in err and report.read_text() == "previous report\n"
    # The Markdown report shows the undecodable byte escaped, so it can be written.
    code, out, err = run_cli(capsys, "score", corpus, results, "--output", report)
    assert (code, out, err) == (0, "", f"wrote {report}\n") and "run-\\xff" in report.read_text()


def test_exit_codes(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    assert run_cli(capsys, "score", corpus, good_results(tmp_path / "good"))[0] == 0
    assert run_cli(capsys, "score", corpus, write_results(tmp_path / "bad", {ADMIT_ID: "nope"}))[0] == 0
    # A results folder that does not exist is a mistyped path: a usage error naming it, no report.
    code, out, err = run_cli(capsys, "score", corpus, tmp_path / "good", tmp_path / "absent")
    assert (code, out, err) == (2, "", f"corpustools score: {tmp_path / 'absent'}: no such results folder\n")
    # An existing empty folder is a run whose every result is missing.
    (tmp_path / "empty").mkdir()
    code, out, err = run_cli(capsys, "score", corpus, tmp_path / "empty", "--format", "json")
    assert (code, err) == (0, "") and json.loads(out)["aggregate"]["missing_results"] == 2
    code, out, err = run_cli(capsys, "score", tmp_path / "nowhere", tmp_path / "good")
    assert (code, out) == (2, "") and "no such corpus folder" in err and "\n" == err[-1] and err.count("\n") == 1
    (tmp_path / "plain").mkdir()
    code, _, err = run_cli(capsys, "score", tmp_path / "plain", tmp_path / "good")
    assert code == 2 and "not a corpus folder" in err
    (tmp_path / "afile").write_text("x\n")
    code, _, err = run_cli(capsys, "score", tmp_path / "afile", tmp_path / "good")
    assert code == 2 and "afile: is not a folder; not a corpus" in err


def test_fail_under_exits_1_per_breached_threshold_and_still_reports(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    # One run passes both fixtures, the other fails the reject fixture with a phantom.
    phantom = {ADMIT_ID: GOOD_ADMIT, REJECT_ID: output([proposal("x")])}
    runs = [good_results(tmp_path / "r1"), write_results(tmp_path / "r2", phantom)]
    code, out, err = run_cli(capsys, "score", corpus, runs[1], "--format", "markdown",
                             "--fail-under", "pass_rate=0.8,recall=0.95,gate_accuracy=1")
    assert out.startswith("**1/2 fixtures passed**")
    assert (code, err) == (1, "corpustools score: pass_rate 0.5000 is under 0.8\n"
                              "corpustools score: gate_accuracy 0.0000 is under 1\n")
    # With several runs, the mean over runs: pass rate 0.75.
    code, out, err = run_cli(capsys, "score", corpus, *runs, "--format", "json", "--fail-under", "pass_rate=0.8")
    assert (code, err) == (1, "corpustools score: pass_rate 0.7500 is under 0.8\n") and json.loads(out)["runs"]
    assert run_cli(capsys, "score", corpus, *runs, "--fail-under", "pass_rate=0.75,recall=1")[::2] == (0, "")
    # Without the option, a failing run is still advisory.
    assert run_cli(capsys, "score", corpus, runs[1])[::2] == (0, "")


def test_fail_under_bad_syntax_is_a_usage_error(make_corpus, tmp_path, capsys):
    corpus, results = make_corpus(), good_results(tmp_path / "run")
    for value, says in (("precision=1", "'precision' is not one of pass_rate, recall, gate_accuracy, phantoms"),
                        ("phantoms=-1", "phantoms: '-1' is not a number of 0 or more (at most N)"),
                        ("phantoms=many", "phantoms: 'many' is not a number of 0 or more (at most N)"),
                        ("recall=high", "recall: 'high' is not a number from 0 to 1"),
                        ("recall=1.5", "recall: '1.5' is not a number from 0 to 1"),
                        ("recall", "recall: '' is not a number from 0 to 1"),
                        ("recall=0.5,recall=0.6", "recall is given twice")):
        code, out, err = run_cli(capsys, "score", corpus, results, "--fail-under", value)
        assert (code, out) == (2, "") and says in err and err.count("\n") == 1, value


def build_tree(base: Path, seed: int) -> None:
    """The shared valid corpus (tests.support.corpus) plus a results folder, files created in a seeded random order."""
    files = {f"corpus/{k}": v for k, v in VALID_FILES.items()}
    files["corpus/sessions/zeta-01.md"] = VALID_FILES[f"sessions/{REJECT_ID}.md"]
    files["run/" + ADMIT_ID + ".json"] = json.dumps(GOOD_ADMIT)
    files["run/" + REJECT_ID + ".json"] = json.dumps(output([proposal("Fix the typo `Subscirbe`")]))
    files["run/stray-b.json"] = "{}"
    files["run/stray-a.json"] = "{}"
    order = sorted(files)
    random.Random(seed).shuffle(order)
    for relative in order:
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[relative])


def test_byte_identical_across_runs_creation_order_and_location(tmp_path, capsys, monkeypatch):
    outputs = {}
    for seed in (1, 2):
        base = tmp_path / f"tree-{seed}" / ("deeper" * seed)
        build_tree(base, seed)
        monkeypatch.chdir(base)
        for fmt in ("markdown", "json", "text"):
            for _ in range(2):
                code, out, _ = run_cli(capsys, "score", "corpus", "run", "--format", fmt)
                assert code == 0
                outputs.setdefault(fmt, set()).add(out)
    assert all(len(texts) == 1 for texts in outputs.values())
    assert str(tmp_path) not in "".join(outputs["json"])


def test_byte_identical_across_hash_seeds_and_locales(tmp_path):
    build_tree(tmp_path, 3)
    texts = set()
    for seed, locale in (("1", "C"), ("4242", "C.UTF-8")):
        env = dict(os.environ, PYTHONHASHSEED=seed, LC_ALL=locale)
        done = subprocess.run([sys.executable, "-m", "corpustools", "score", "corpus", "run", "--format", "json"],
                              cwd=tmp_path, env=env, capture_output=True, check=False)
        assert done.returncode == 0, done.stderr
        texts.add(done.stdout)
    assert len(texts) == 1


def test_session_without_sidecar_is_a_warning_not_a_fixture(tmp_path, capsys):
    corpus = write_corpus(tmp_path / "corpus", {"sessions/zeta-01.md": VALID_FILES[f"sessions/{REJECT_ID}.md"]})
    _, out, _ = run_cli(capsys, "score", corpus, good_results(tmp_path / "run"), "--format", "json")
    data = json.loads(out)
    assert [f["id"] for f in data["fixtures"]] == [ADMIT_ID, REJECT_ID]
    assert any("zeta-01.md: no sidecar" in w for w in data["corpus_warnings"])


def test_reports_name_the_prompt_but_never_a_path_outside_the_tree(make_corpus, tmp_path, capsys, monkeypatch):
    from corpustools.reporting.formatting import shown_path

    corpus, results = make_corpus(), good_results(tmp_path / "run")
    (tmp_path / "work" / "prompts").mkdir(parents=True)
    for where in (tmp_path / "prompt.md", tmp_path / "work" / "prompts" / "p.md"):
        where.write_text("Version: 7\n[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n")
    monkeypatch.chdir(tmp_path / "work")
    for recorded, shown in ((str(tmp_path / "prompt.md"), None), ("../prompt.md", None),
                            ("prompts/p.md", "prompts/p.md")):
        write_manifest(corpus, results, recorded)
        reports = [run_cli(capsys, "score", corpus, results, "--format", fmt)[1] for fmt in ("markdown", "text", "json")]
        reports += [run_cli(capsys, "compare", corpus, "--base", results, "--candidate", results, "--format", fmt)[1]
                    for fmt in ("json", "markdown", "text")]
        for report in reports:
            assert "proposal-extract, version 7" in report or '"name": "proposal-extract"' in report
            assert (recorded in report) == (shown is not None), (recorded, report[:400])
        assert json.loads(reports[2])["run"]["prompt"]["path"] == shown
        assert json.loads(reports[3])["base"][0]["run"]["prompt"]["path"] == shown
    assert "| prompt | proposal-extract, version 7 (prompts/p.md, sha256 " in reports[0]
    assert [shown_path(p) for p in ("a/../b", "a/../../b", "C:\\p.md", "~/p.md", "\\\\host\\p.md", "..")] == [
        "a/../b", None, None, None, None, None]


def test_a_misnamed_sidecar_is_a_warning_with_lints_message(tmp_path, capsys):
    sidecar = VALID_FILES[f"expected/{REJECT_ID}.yaml"]
    corpus = write_corpus(tmp_path / "corpus",
                          {f"expected/{REJECT_ID}.yaml": None, f"expected/{REJECT_ID}.yml": sidecar})
    _, out, _ = run_cli(capsys, "score", corpus, good_results(tmp_path / "run"), "--format", "json")
    assert f"{corpus}/expected/{REJECT_ID}.yml: not read as a sidecar: sidecars are named <fixture id>.yaml; " \
        f"rename it to {REJECT_ID}.yaml" in json.loads(out)["corpus_warnings"]
    _, text, _ = run_cli(capsys, "score", corpus, tmp_path / "run", "--format", "text")
    assert text.count(f"warning: {corpus}/expected/{REJECT_ID}.yml: not read as a sidecar") == 1


def test_score_loads_only_what_it_runs():
    """`score` (text) imports neither compare nor the other report formats; --format still offers them;
    nor any other command's module (the command line builds only the parser of the command it runs)."""
    shipped = Path(__file__).resolve().parent.parent / "fixtures" / "prompt-eval"
    argv = ["score", str(shipped), str(shipped / "runs" / "v5-run8")]
    script = ("import contextlib, io, json, sys; from corpustools.cli import main\n"
              f"with contextlib.redirect_stdout(io.StringIO()): code = main({argv!r})\n"
              "from corpustools.score.report import FORMATTERS\n"
              "print(json.dumps([code, list(FORMATTERS), sorted(m for m in sys.modules if m.startswith('corpustools'))]))")
    code, formats, loaded = json.loads(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                                      check=True).stdout)
    assert (code, formats) == (0, list(FORMATTERS))
    assert "corpustools.score.report.text" in loaded
    others = [f"corpustools.score.report.{fmt.replace('-', '_')}" for fmt in FORMATTERS if fmt != "text"]
    from corpustools.commands import COMMANDS

    commands = [f"corpustools.commands.{name}" for name in COMMANDS if name != "score"]
    for unused in ("corpustools.score.compare", "corpustools.score.report.compare", *others, "corpustools.lint",
                   *commands):
        assert unused not in loaded, unused
