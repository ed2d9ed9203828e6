"""`corpustools import promptfoo|inspect` and `export jsonl|inspect|promptfoo` (issue 34), without
running either tool: the real promptfoo's results of a committed run (tests/data/interop), logs
in each tool's shape made from a committed run, and every refusal. The runs through the real
inspect_ai are tests/test_interop_inspect.py; through the real promptfoo, test_interop_promptfoo.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from corpustools.cli import main
from corpustools.io.yamlload import parse_yaml
from tests.support.interop import (
    PROMPTFOO_RESULTS,
    STAND_IN_PROMPT,
    TRIAGE,
    TRIAGE_PROMPT,
    TRIAGE_RUN,
    answers_of,
    committed_run,
    inspect_log,
    item_fields_supported,
    items_corpus_with_item_fields,
    prompt_of,
    promptfoo_results,
    rendered,
    result_files,
    shipped_corpora,
    without_run_line,
)

SHIPPED = shipped_corpora()


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def score_text(capsys, corpus: Path, folder: Path) -> str:
    code, out, err = run(capsys, "score", corpus, folder)
    assert code == 0, err
    return out


def write_json(path: Path, document) -> Path:
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def triage(tmp_path):
    """A copy of the triage corpus (its committed run and prompt inside), and its answers and
    rendered prompts."""
    corpus = tmp_path / "ticket-triage"
    shutil.copytree(TRIAGE, corpus)
    prompt = corpus / "prompt" / TRIAGE_PROMPT.name
    return corpus, prompt, answers_of(TRIAGE_RUN), rendered(corpus, prompt, tmp_path)


# --- promptfoo: the real tool's results ----------------------------------------------------------

def test_the_real_promptfoo_results_import_as_the_committed_run_byte_for_byte(tmp_path, capsys):
    out = tmp_path / "imported"
    code, _, err = run(capsys, "import", "promptfoo", PROMPTFOO_RESULTS, "--corpus", TRIAGE, "--run", out,
                       "--prompt", TRIAGE_PROMPT)
    assert code == 0, err
    assert "warning" not in err  # every prompt promptfoo sent is `corpustools render`'s
    assert err.rstrip().endswith("(26 results and run.yaml)")
    assert result_files(out) == result_files(TRIAGE_RUN)
    manifest = parse_yaml((out / "run.yaml").read_text(encoding="utf-8"), "run.yaml").data
    document = json.loads(PROMPTFOO_RESULTS.read_text(encoding="utf-8"))
    assert manifest["harness"] == f"promptfoo {document['metadata']['promptfooVersion']}"
    assert manifest["started_at"] == document["results"]["timestamp"]
    assert manifest["model"] == document["results"]["results"][0]["provider"]["label"]
    assert manifest["cost"] == {"input_tokens": 0, "output_tokens": 0, "usd": 0}  # replayed: no request made
    assert document["evalId"] in manifest["notes"]
    # scored exactly as the committed run is: every line but the one saying how the run was made
    assert without_run_line(score_text(capsys, TRIAGE, out)) == without_run_line(score_text(capsys, TRIAGE, TRIAGE_RUN))


def test_import_writes_run_yaml_as_run_init_does(tmp_path, capsys):
    imported, initialized = tmp_path / "imported", tmp_path / "initialized"
    assert run(capsys, "import", "promptfoo", PROMPTFOO_RESULTS, "--corpus", TRIAGE, "--run", imported,
               "--prompt", TRIAGE_PROMPT, "--operator", "me")[0] == 0
    manifest = parse_yaml((imported / "run.yaml").read_text(encoding="utf-8"), "run.yaml").data
    code, _, err = run(capsys, "run", "init", initialized, "--corpus", TRIAGE, "--prompt", TRIAGE_PROMPT,
                       "--model", manifest["model"], "--temperature", manifest["temperature"],
                       "--harness", manifest["harness"], "--operator", "me", "--started-at", manifest["started_at"],
                       "--notes", manifest["notes"])
    assert code == 0, err
    written = (imported / "run.yaml").read_text(encoding="utf-8")
    # the same writer: the same bytes, but for the cost run init has no option for
    cost = "cost:\n  input_tokens: 0\n  output_tokens: 0\n  usd: 0\n"
    assert cost in written
    assert written.replace(cost, "") == (initialized / "run.yaml").read_text(encoding="utf-8")
    assert run(capsys, "validate", "run-manifest", imported / "run.yaml")[0] == 0


# --- promptfoo: each field and each refusal --------------------------------------------------------

def test_promptfoo_fields_map_to_the_run(triage, tmp_path, capsys):
    corpus, prompt, answers, prompts = triage
    results = write_json(tmp_path / "results.json", promptfoo_results(answers, prompts))
    code, _, err = run(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "r",
                       "--prompt", prompt)
    assert code == 0, err
    assert result_files(tmp_path / "r") == result_files(TRIAGE_RUN)
    manifest = parse_yaml((tmp_path / "r" / "run.yaml").read_text(encoding="utf-8"), "run.yaml").data
    assert (manifest["model"], manifest["temperature"], manifest["harness"]) == ("replay", 0.2, "promptfoo 0.123.1")
    assert manifest["cost"] == {"input_tokens": 260, "output_tokens": 130, "usd": 0.026}  # 26 answers of 10, 5 and 0.001


@pytest.mark.parametrize("where", ["metadata", "vars", "description"])
def test_the_fixture_id_comes_from_metadata_then_vars_then_description_never_position(triage, tmp_path, capsys, where):
    corpus, prompt, answers, prompts = triage
    document = promptfoo_results(answers, prompts)
    for result in document["results"]["results"]:
        case, fixture_id = result["testCase"], result["testCase"]["metadata"]["fixture_id"]
        del case["metadata"]["fixture_id"], case["vars"]["fixture_id"], result["vars"]["fixture_id"]
        case["description"] = "test"
        if where == "metadata":
            case["metadata"]["fixture_id"], case["vars"]["fixture_id"] = fixture_id, "wrong"
        elif where == "vars":
            case["vars"]["fixture_id"] = fixture_id
        else:
            case["description"] = fixture_id
    document["results"]["results"].reverse()
    results = write_json(tmp_path / "results.json", document)
    assert run(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "r")[0] == 0
    assert result_files(tmp_path / "r") == result_files(TRIAGE_RUN)


def test_an_errored_test_writes_no_file_and_is_noted(triage, tmp_path, capsys):
    corpus, prompt, answers, prompts = triage
    document = promptfoo_results(answers, prompts)
    failed = next(r for r in document["results"]["results"] if r["testCase"]["metadata"]["fixture_id"] == "route-payments-01")
    failed.update(failureReason=2, error="API error: 429 Too Many Requests", response={})
    results = write_json(tmp_path / "results.json", document)
    code, _, err = run(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "r",
                       "--prompt", prompt)
    assert code == 0
    assert "route-payments-01: no answer in the log (API error: 429 Too Many Requests)" in err
    assert not (tmp_path / "r" / "route-payments-01.json").exists()
    assert "route-payments-01 (API error: 429 Too Many Requests)" in (tmp_path / "r" / "run.yaml").read_text()
    code, out, _ = run(capsys, "score", corpus, tmp_path / "r", "--format", "json")  # the scorer's missing path
    fixture = next(f for f in json.loads(out)["fixtures"] if f["id"] == "route-payments-01")
    assert (fixture["status"], fixture["verdict"]) == ("missing-result", "FAIL")


def test_an_object_output_is_written_as_json_and_noted(triage, tmp_path, capsys):
    corpus, prompt, answers, prompts = triage
    document = promptfoo_results(answers, prompts)
    result = next(r for r in document["results"]["results"] if r["testCase"]["metadata"]["fixture_id"] == "route-billing-01")
    result["response"]["output"] = json.loads(answers["route-billing-01"])
    results = write_json(tmp_path / "results.json", document)
    assert run(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "r")[0] == 0
    written = (tmp_path / "r" / "route-billing-01.json").read_text(encoding="utf-8")
    assert json.loads(written) == json.loads(answers["route-billing-01"])
    assert "written as JSON: route-billing-01" in (tmp_path / "r" / "run.yaml").read_text()


def test_input_drift_is_warned_per_fixture(triage, tmp_path, capsys):
    corpus, prompt, answers, prompts = triage
    document = promptfoo_results(answers, prompts)
    result = next(r for r in document["results"]["results"] if r["testCase"]["metadata"]["fixture_id"] == "trap-angry-01")
    result["prompt"]["raw"] = result["prompt"]["raw"].replace("[CUSTOMER]:", "[CUSTOMER]: (edited)", 1)
    results = write_json(tmp_path / "results.json", document)
    code, _, err = run(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "r",
                       "--prompt", prompt)
    assert code == 0
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and warnings[0].startswith("corpustools import promptfoo: warning: trap-angry-01: the "
                                                         "prompt in ")
    assert "differs from `corpustools render` of this fixture" in warnings[0]


def test_columns_are_listed_and_picked(triage, tmp_path, capsys):
    corpus, prompt, answers, prompts = triage
    document = promptfoo_results(answers, prompts)
    second = [dict(r, promptIdx=1, provider={"id": "openai:gpt-x", "label": "big"}, response={"output": "{}"})
              for r in document["results"]["results"]]
    document["results"]["results"] += second
    document["results"]["prompts"].append({"id": "p", "raw": "{{rendered}}", "label": "v1", "provider": "big"})
    results = write_json(tmp_path / "results.json", document)
    code, _, err = run(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "r")
    assert code == 2
    assert err == (f"corpustools import promptfoo: {results}: 2 columns (prompt x provider): pick one with --column "
                   "LABEL: [replay] v1; [big] v1\n")
    assert run(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "r",
               "--column", "big")[0] == 0
    assert (tmp_path / "r" / "route-billing-01.json").read_text() == "{}"
    assert run(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "s",
               "--column", "[replay] v1")[0] == 0
    assert result_files(tmp_path / "s") == result_files(TRIAGE_RUN)
    code, _, err = run(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "t",
                       "--column", "v1")
    assert code == 2 and "--column 'v1' names 2 columns" in err


def refusal(capsys, *argv) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_bad_promptfoo_files_are_one_line_each(triage, tmp_path, capsys):
    corpus, _, answers, prompts = triage
    common = ("--corpus", corpus, "--run", tmp_path / "r")
    (tmp_path / "broken.json").write_text('{"results": [1,}', encoding="utf-8")
    assert "broken.json:1:16: invalid JSON" in refusal(capsys, "import", "promptfoo", tmp_path / "broken.json", *common)
    other = write_json(tmp_path / "other.json", {"version": 2, "eval": {}})
    assert "not a promptfoo results file" in refusal(capsys, "import", "promptfoo", other, *common)
    old = promptfoo_results(answers, prompts, version=2)
    old["metadata"]["promptfooVersion"] = "0.60.0"
    err = refusal(capsys, "import", "promptfoo", write_json(tmp_path / "old.json", old), *common)
    assert "promptfoo results version 2, made by promptfoo 0.60.0; corpustools reads version 3" in err
    del old["metadata"]["promptfooVersion"]
    err = refusal(capsys, "import", "promptfoo", write_json(tmp_path / "older.json", old), *common)
    assert "made by an older promptfoo (its version is not recorded)" in err
    assert not (tmp_path / "r").exists()


def test_unknown_fixture_ids_are_listed_with_did_you_mean(triage, tmp_path, capsys):
    corpus, _, answers, prompts = triage
    answers = {("route-payment-01" if k == "route-payments-01" else k): v for k, v in answers.items()}
    answers["zzz"] = "{}"
    results = write_json(tmp_path / "results.json", promptfoo_results(answers, prompts))
    err = refusal(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "r")
    assert (f"{results}: 2 fixture ids the corpus {corpus} does not have: route-payment-01 (did you mean "
            "route-payments-01?), zzz; nothing written") in err
    assert not (tmp_path / "r").exists()


def test_two_answers_for_one_fixture_are_refused(triage, tmp_path, capsys):
    corpus, _, answers, prompts = triage
    document = promptfoo_results(answers, prompts)
    document["results"]["results"].append(dict(document["results"]["results"][0]))
    results = write_json(tmp_path / "results.json", document)
    err = refusal(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "r")
    assert "results.results[0] and results.results[26] both answer fixture urgent-unfixed-01" in err


def test_the_run_folder_must_be_new_empty_or_replaced_with_force(triage, tmp_path, capsys):
    corpus, prompt, answers, prompts = triage
    results = write_json(tmp_path / "results.json", promptfoo_results(answers, prompts))
    folder = tmp_path / "r"
    folder.mkdir()
    (folder / "run.yaml").write_text("# from run init\n")  # an empty run folder: imported into
    assert run(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", folder)[0] == 0
    assert "# from run init" not in (folder / "run.yaml").read_text()
    (folder / "salvage-buried-01.json").write_text("{}")
    err = refusal(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", folder)
    assert "is not an empty run folder (it holds claim-corrected-01.json," in err and "pass --force" in err
    # --force replaces the run: a fixture this log does not answer loses the old run's result
    fewer = write_json(tmp_path / "fewer.json", promptfoo_results(
        {k: v for k, v in answers.items() if k != "trap-angry-01"}, prompts))
    code, _, err = run(capsys, "import", "promptfoo", fewer, "--corpus", corpus, "--run", folder, "--force")
    assert code == 0, err
    assert not (folder / "trap-angry-01.json").exists()
    assert "removed" in err and "trap-angry-01.json" in err
    assert ("note: 1 fixture of the corpus is not in the log (trap-angry-01): no result file, scored as missing; "
            "if the corpus gained it after the export, import with --corpus as the corpus was then") in err


def test_never_into_a_corpus_nor_over_an_input(triage, tmp_path, capsys):
    corpus, prompt, answers, prompts = triage
    (tmp_path / "logs").mkdir()
    results = write_json(tmp_path / "logs" / "results.json", promptfoo_results(answers, prompts))
    err = refusal(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", corpus / "expected", "--force")
    assert "is inside the corpus's own files (expected); corpustools never writes there" in err
    err = refusal(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", tmp_path / "logs", "--force")
    assert "one of this command's own inputs" in err
    err = refusal(capsys, "import", "promptfoo", results, "--corpus", corpus, "--run", prompt.parent, "--force",
                  "--prompt", prompt)
    assert "one of this command's own inputs" in err
    assert {p.name: p.read_bytes() for p in (corpus / "expected").iterdir()} == {
        p.name: p.read_bytes() for p in (TRIAGE / "expected").iterdir()}
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == ["results.json"]


# --- inspect: a JSON log ---------------------------------------------------------------------------

def test_an_inspect_json_log_imports_without_inspect_ai(triage, tmp_path, capsys):
    corpus, prompt, answers, prompts = triage
    log = write_json(tmp_path / "log.json", inspect_log(answers, prompts))
    code, _, err = run(capsys, "import", "inspect", log, "--corpus", corpus, "--run", tmp_path / "r", "--prompt", prompt)
    assert code == 0, err
    assert "warning" not in err
    assert result_files(tmp_path / "r") == result_files(TRIAGE_RUN)
    manifest = parse_yaml((tmp_path / "r" / "run.yaml").read_text(encoding="utf-8"), "run.yaml").data
    assert (manifest["model"], manifest["temperature"], manifest["harness"], manifest["started_at"]) == (
        "mockllm/model", 0.5, "inspect_ai 0.3.285", "2026-12-06T05:10:24+00:00")
    assert manifest["cost"] == {"input_tokens": 260, "output_tokens": 130}
    assert without_run_line(score_text(capsys, corpus, tmp_path / "r")) == without_run_line(
        score_text(capsys, corpus, corpus / "runs" / TRIAGE_RUN.name))


def test_epochs_one_picked_or_one_run_each(triage, tmp_path, capsys):
    corpus, prompt, answers, prompts = triage
    document = inspect_log(answers, prompts, epochs=3)
    second = [s for s in document["samples"] if s["epoch"] == 2]
    second[0]["output"]["completion"] = "{}"
    log = write_json(tmp_path / "log.json", document)
    err = refusal(capsys, "import", "inspect", log, "--corpus", corpus, "--run", tmp_path / "r")
    assert ("the log holds 3 epochs (1, 2, 3): pick one with --epoch N, or put {epoch} in --run DIR to write one run "
            "per epoch") in err
    assert run(capsys, "import", "inspect", log, "--corpus", corpus, "--run", tmp_path / "two", "--epoch", "2")[0] == 0
    assert (tmp_path / "two" / f"{second[0]['id']}.json").read_text() == "{}"
    assert "--epoch 4: the log holds epochs 1, 2, 3" in refusal(
        capsys, "import", "inspect", log, "--corpus", corpus, "--run", tmp_path / "r", "--epoch", "4")
    code, _, err = run(capsys, "import", "inspect", log, "--corpus", corpus, "--run", tmp_path / "runs" / "e{epoch}")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["e1", "e2", "e3"]
    assert result_files(tmp_path / "runs" / "e3") == result_files(TRIAGE_RUN)
    assert "epoch 2 of 3" in (tmp_path / "runs" / "e2" / "run.yaml").read_text()
    # repeated runs of one prompt: scored together, with the noise floor
    code, out, err = run(capsys, "score", corpus, *(tmp_path / "runs" / f"e{n}" for n in (1, 2, 3)))
    assert code == 0 and "noise" in out.lower(), err


def test_errored_and_limited_samples_write_no_file(triage, tmp_path, capsys):
    corpus, prompt, answers, prompts = triage
    document = inspect_log(answers, prompts)
    document["samples"][0]["error"] = {"message": "RuntimeError: boom", "traceback": "..."}
    document["samples"][1]["limit"] = {"type": "token", "limit": 100}
    log = write_json(tmp_path / "log.json", document)
    code, _, err = run(capsys, "import", "inspect", log, "--corpus", corpus, "--run", tmp_path / "r")
    assert code == 0
    first, second = document["samples"][0]["id"], document["samples"][1]["id"]
    assert f"{first}: no answer in the log (error: RuntimeError: boom)" in err
    assert f"{second}: no answer in the log (token limit reached)" in err
    assert not (tmp_path / "r" / f"{first}.json").exists() and not (tmp_path / "r" / f"{second}.json").exists()


def test_an_empty_or_binary_log_is_named_in_good_english(triage, tmp_path, capsys):
    corpus = triage[0]
    common = ("--corpus", corpus, "--run", tmp_path / "r")
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "binary.json").write_bytes(b"\x00\xff\xfe")
    for log, said in (("empty.json", "file is empty; not an inspect_ai log JSON file"),
                      ("binary.json", "not an inspect_ai log JSON file: not valid UTF-8 (offset 1)")):
        assert said in refusal(capsys, "import", "inspect", tmp_path / log, *common)
    assert "file is empty; not a promptfoo JSON file" in refusal(capsys, "import", "promptfoo", tmp_path / "empty.json",
                                                                 *common)


def test_bad_inspect_logs_are_one_line_each(triage, tmp_path, capsys, monkeypatch):
    corpus, _, answers, prompts = triage
    common = ("--corpus", corpus, "--run", tmp_path / "r")
    assert "not an inspect_ai log" in refusal(capsys, "import", "inspect", write_json(tmp_path / "x.json", [1]), *common)
    assert "holds no samples" in refusal(capsys, "import", "inspect", write_json(
        tmp_path / "y.json", {"eval": {}, "status": "started"}), *common)
    document = inspect_log(answers, prompts)
    document["samples"][1]["id"] = document["samples"][0]["id"]
    err = refusal(capsys, "import", "inspect", write_json(tmp_path / "twice.json", document), *common)
    assert "samples[0] and samples[1] both answer fixture" in err
    document["samples"][1]["id"] = "route-paymnts-01"
    err = refusal(capsys, "import", "inspect", write_json(tmp_path / "typo.json", document), *common)
    assert "route-paymnts-01 (did you mean route-payments-01?)" in err
    # an .eval log (a zip) needs inspect_ai: without it, the one line says what to do
    monkeypatch.setitem(__import__("sys").modules, "inspect_ai.log", None)
    (tmp_path / "log.eval").write_bytes(b"PK\x03\x04" + b"\0" * 40)
    err = refusal(capsys, "import", "inspect", tmp_path / "log.eval", *common)
    assert "run `inspect log convert --to json" in err and "pip install 'corpustools[interop]'" in err


def test_without_a_prompt_the_log_s_prompts_are_recorded(triage, tmp_path, capsys):
    corpus, _, answers, prompts = triage
    log = write_json(tmp_path / "log.json", inspect_log(answers, prompts))
    code, _, err = run(capsys, "import", "inspect", log, "--corpus", corpus, "--run", tmp_path / "r")
    assert code == 0
    assert "no --prompt given: inputs not compared with `corpustools render`" in err
    manifest = parse_yaml((tmp_path / "r" / "run.yaml").read_text(encoding="utf-8"), "run.yaml").data
    assert manifest["prompt"]["path"] == "" and len(manifest["prompt"]["sha256"]) == 64
    verdict = score_text(capsys, corpus, tmp_path / "r").rstrip().splitlines()[-1]
    assert verdict.startswith("25/26 fixtures passed")
    assert verdict == score_text(capsys, corpus, corpus / "runs" / TRIAGE_RUN.name).rstrip().splitlines()[-1]


def test_a_log_of_the_corpus_before_fixtures_were_added(tmp_path, capsys):
    """A run made with the corpus as it was when exported (the 16 fixtures of version 1), imported
    after ten were added: against today's corpus the ten are missing, and the note says how to
    import it as made; against the corpus as exported, today's score says they were added since
    and scores the sixteen it was made against, as the committed run made by hand is scored."""
    from corpustools.manifest import read_manifest

    made_by_hand = TRIAGE / "runs" / "v1-run1"
    then = read_manifest(str(made_by_hand)).manifest
    assert then is not None and len(then["session_sha256"]) == 16
    exported = tmp_path / "as-exported"
    shutil.copytree(TRIAGE, exported)
    for sub in ("sessions", "expected", "gold"):
        for path in (exported / sub).iterdir():
            if path.stem not in then["session_sha256"]:
                path.unlink()
    prompt = exported / "prompt" / TRIAGE_PROMPT.name
    log = write_json(tmp_path / "log.json", inspect_log(answers_of(made_by_hand), rendered(exported, prompt, tmp_path)))
    code, _, err = run(capsys, "import", "inspect", log, "--corpus", TRIAGE, "--run", tmp_path / "today",
                       "--prompt", TRIAGE_PROMPT)
    assert code == 0, err
    assert ("note: 10 fixtures of the corpus are not in the log (claim-corrected-01, claim-uncorrected-01, "
            "escalate-declined-01, escalate-declined-02, escalate-sum-01, multi-issue-01, multi-issue-02, "
            "priority-ended-01 and 2 more): no result file, scored as missing; if the corpus gained them after the "
            "export, import with --corpus as the corpus was then (docs/interop.md)\n") in err
    assert "Not in the log (scored as missing): claim-corrected-01, " in (tmp_path / "today" / "run.yaml").read_text()
    today = score_text(capsys, TRIAGE, tmp_path / "today")
    assert today.count("no result file for this fixture") == 10
    assert today.rstrip().splitlines()[-1].startswith("16/26 fixtures passed")
    code, _, err = run(capsys, "import", "inspect", log, "--corpus", exported, "--run", tmp_path / "as-made",
                       "--prompt", prompt)
    assert code == 0 and "not in the log" not in err, err
    as_made = score_text(capsys, TRIAGE, tmp_path / "as-made")
    assert "10 fixtures added since this run (sessions/claim-corrected-01.md, " in as_made
    assert "CORPUS DRIFT" not in as_made and "no result file" not in as_made
    assert as_made.rstrip().splitlines()[-1] == score_text(capsys, TRIAGE, made_by_hand).rstrip().splitlines()[-1]


# --- export ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("corpus", SHIPPED, ids=lambda path: path.name)
def test_jsonl_rows_are_render_all_s_prompts(corpus, tmp_path, capsys):
    prompt = prompt_of(corpus, tmp_path)
    code, _, err = run(capsys, "export", "jsonl", corpus, "--prompt", prompt, "--out", tmp_path / "rows.jsonl")
    assert code == 0, err
    lines = (tmp_path / "rows.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    assert [json.dumps(row, ensure_ascii=False) for row in rows] == lines  # one JSON object a line, round trip
    expected = rendered(corpus, prompt, tmp_path)
    assert [row["id"] for row in rows] == list(expected)
    assert [row["input"] for row in rows] == [[{"role": "user", "content": text}] for text in expected.values()]
    for row in rows:
        gold = next((corpus / "gold").glob(f"{row['id']}.*"), None)
        assert row["ideal"] == (gold.read_text(encoding="utf-8") if gold else None)
        assert set(row["metadata"]) >= {"category", "expect_empty", "expected_fields", "expected_points",
                                        "corpus_sha256", "prompt_sha256"}
        sidecar = parse_yaml((corpus / "expected" / f"{row['id']}.yaml").read_text(encoding="utf-8"), "s").data
        assert [p["id"] for p in row["metadata"]["expected_points"]] == [p["id"] for p in sidecar["expected_points"]]
        assert [p["notes"] for p in row["metadata"]["expected_points"]] == [
            p.get("notes") for p in sidecar["expected_points"]]
        assert row["metadata"]["category"] == sidecar["category"]


@pytest.mark.parametrize("corpus", SHIPPED, ids=lambda path: path.name)
def test_every_shipped_corpus_exports_and_imports_its_committed_run(corpus, tmp_path, capsys):
    prompt, replayed = prompt_of(corpus, tmp_path), committed_run(corpus)
    for kind, out in (("jsonl", "rows.jsonl"), ("inspect", "inspect"), ("promptfoo", "promptfooconfig.yaml")):
        code, _, err = run(capsys, "export", kind, corpus, "--prompt", prompt, "--out", tmp_path / out,
                           *(("--replay", replayed) if kind != "jsonl" else ()))
        assert code == 0, err
    text = (tmp_path / "promptfooconfig.yaml").read_text(encoding="utf-8")
    assert '"$ref"' not in text and '"$schema"' not in text  # promptfoo resolves a $ref against the whole file
    config = parse_yaml(text, "c").data
    answers = answers_of(replayed)
    assert {test["metadata"]["fixture_id"]: test["providerOutput"] for test in config["tests"]} == answers
    assert json.loads((tmp_path / "inspect" / "replay.json").read_text(encoding="utf-8")) == answers
    compile((tmp_path / "inspect" / "task.py").read_text(encoding="utf-8"), "task.py", "exec")
    prompts = {test["metadata"]["fixture_id"]: test["vars"]["rendered"] for test in config["tests"]}
    for kind, document in (("promptfoo", promptfoo_results(answers, prompts)), ("inspect", inspect_log(answers, prompts))):
        log = write_json(tmp_path / f"{kind}.json", document)
        code, _, err = run(capsys, "import", kind, log, "--corpus", corpus, "--run", tmp_path / kind / "run",
                           "--prompt", prompt)
        assert code == 0, err
        assert "warning" not in err
        assert result_files(tmp_path / kind / "run") == result_files(replayed)


def test_the_promptfoo_config_approximates_the_labels(tmp_path, capsys):
    assert run(capsys, "export", "promptfoo", TRIAGE, "--prompt", TRIAGE_PROMPT, "--out", tmp_path)[0] == 0
    text = (tmp_path / "promptfooconfig.yaml").read_text(encoding="utf-8")
    for lost in ("phantom budget", "optional points", "word-start matching", "item_fields"):
        assert lost in text.split("\ndescription:")[0]  # said in the header comment
    config = parse_yaml(text, "c").data
    assert config["providers"] == ["SET-YOUR-PROVIDER"]  # promptfoo refuses it until the user names a model
    assert config["prompts"] == [{"id": "ticket-triage-v1", "label": "ticket-triage-v1", "raw": "{{rendered}}"}]
    schema = config["defaultTest"]["assert"][0]
    assert schema["type"] == "is-json" and "$schema" not in schema["value"] and schema["value"]["type"] == "object"
    test = next(t for t in config["tests"] if t["description"] == "route-payments-01")
    assert "providerOutput" not in test
    assert test["vars"]["fixture_id"] == test["metadata"]["fixture_id"] == "route-payments-01"
    metrics = {a["metric"]: a for a in test["assert"]}
    assert set(metrics) == {"field:/queue", "field:/priority", "field:/escalate", "point:payout-cutoff-1700",
                            "forbidden:payout-cutoff-1700"}
    assert metrics["point:payout-cutoff-1700"] == {"type": "icontains-all", "value": ["17:00", "day"],
                                                   "metric": "point:payout-cutoff-1700"}
    assert metrics["forbidden:payout-cutoff-1700"]["type"] == "not-icontains-any"
    assert metrics["field:/queue"]["type"] == "javascript" and '["payments"]' in metrics["field:/queue"]["value"]
    empty = next(t for t in config["tests"] if t["description"] == "route-billing-01")
    assert "empty" in {a["metric"] for a in empty["assert"]}


@pytest.mark.skipif(not item_fields_supported(), reason="sidecars take no item_fields in this tree (issue 30)")
def test_a_point_with_item_fields_is_asserted_on_one_item(tmp_path, capsys):
    corpus = items_corpus_with_item_fields(tmp_path / "items")
    (tmp_path / "prompt.md").write_text(STAND_IN_PROMPT, encoding="utf-8")
    assert run(capsys, "export", "promptfoo", corpus, "--prompt", tmp_path / "prompt.md", "--out", tmp_path)[0] == 0
    config = parse_yaml((tmp_path / "promptfooconfig.yaml").read_text(encoding="utf-8"), "c").data
    test = next(t for t in config["tests"] if t["description"] == "assign-action-01")
    (point,) = [a for a in test["assert"] if a["metric"] == "point:priya-owns-logo-fix"]
    assert point["type"] == "javascript"
    assert 'const fields = {"owner": ["Priya"]};' in point["value"]
    assert 'const entries = [["priya"], ["logo fix"]];' in point["value"]
    assert 'at(["actions"])' in point["value"]


def test_export_refusals(tmp_path, capsys):
    err = refusal(capsys, "export", "jsonl", TRIAGE, "--prompt", TRIAGE_PROMPT, "--out", tmp_path / "x.jsonl",
                  "--replay", TRIAGE_RUN)
    assert "--replay goes with `export inspect` or `export promptfoo`" in err
    err = refusal(capsys, "export", "jsonl", TRIAGE, "--prompt", TRIAGE_PROMPT, "--out", TRIAGE / "gold" / "x.jsonl")
    assert "corpustools never writes there" in err
    err = refusal(capsys, "export", "inspect", TRIAGE, "--prompt", TRIAGE_PROMPT, "--out", TRIAGE_RUN, "--replay",
                  TRIAGE_RUN)
    assert "one of this command's own inputs" in err
    (tmp_path / "no-placeholder.md").write_text("Version: 1\nno placeholder\n")
    err = refusal(capsys, "export", "jsonl", TRIAGE, "--prompt", tmp_path / "no-placeholder.md", "--out",
                  tmp_path / "x.jsonl")
    assert "TRANSCRIPT PLACEHOLDER" in err
    assert not (tmp_path / "x.jsonl").exists()
