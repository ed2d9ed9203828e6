"""The round trip through the real inspect_ai, offline (issue 34): `export inspect --replay` of a
committed run, the task run by inspect_ai with its mock model, the log imported, and the imported
run scored exactly as the committed one; also through `inspect log convert --to json`, and through
the plain task (its `generate()` solver) with the mock model answering.

No network: every socket connection outside this machine fails the test (the mock model's default
usage would fetch a tokenizer; the replay and the outputs here set their usage). Skipped, with the
reason, where inspect_ai is not installed (`pip install '.[interop]'`; .ci/run installs it)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from corpustools.cli import main
from tests.support.interop import TRIAGE, TRIAGE_PROMPT, TRIAGE_RUN, answers_of, result_files, without_run_line

try:
    import inspect_ai
except ImportError:
    if os.environ.get("CI") and sys.version_info >= (3, 11):
        raise  # .ci/run installs the interop extra: CI must not go green without these tests
    pytest.skip("inspect_ai is not installed: pip install '.[interop]'", allow_module_level=True)


@pytest.fixture
def offline(monkeypatch, tmp_path):
    """No connection leaves this machine; inspect_ai keeps its own files in the test's folder."""
    real_connect = socket.socket.connect

    def connect(self, address):
        host = address[0] if isinstance(address, tuple) else None
        if self.family in (socket.AF_INET, socket.AF_INET6) and host not in ("127.0.0.1", "::1", "localhost"):
            raise AssertionError(f"a network connection to {address} during an offline test")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("INSPECT_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.delenv("INSPECT_EVAL_MODEL", raising=False)


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.err


def score_text(capsys, folder: Path) -> str:
    assert main(["score", str(TRIAGE), str(folder)]) == 0
    return capsys.readouterr().out


def exported_task(tmp_path, capsys, *replay: str) -> Path:
    code, err = run(capsys, "export", "inspect", TRIAGE, "--prompt", TRIAGE_PROMPT, "--out", tmp_path / "task", *replay)
    assert code == 0, err
    return tmp_path / "task" / "task.py"


def evaluate(task: Path, log_dir: Path, log_format: str, **options) -> Path:
    """Run the task with inspect_ai in this process; the log file written."""
    from inspect_ai import eval as inspect_eval

    here = os.getcwd()
    os.chdir(task.parent)  # inspect_ai finds a task file by a path relative to the working folder
    try:
        logs = inspect_eval(task.name, log_dir=str(log_dir), log_format=log_format, display="none", **options)
    finally:
        os.chdir(here)
    assert [log.status for log in logs] == ["success"], [log.error for log in logs]
    (written,) = sorted(log_dir.glob(f"*.{log_format}"))
    return written


def imported_equals_the_committed_run(capsys, log: Path, folder: Path) -> str:
    code, err = run(capsys, "import", "inspect", log, "--corpus", TRIAGE, "--run", folder, "--prompt", TRIAGE_PROMPT)
    assert code == 0, err
    assert "warning" not in err  # every input the model was given is `corpustools render`'s
    assert result_files(folder) == result_files(TRIAGE_RUN)
    assert without_run_line(score_text(capsys, folder)) == without_run_line(score_text(capsys, TRIAGE_RUN))
    return (folder / "run.yaml").read_text(encoding="utf-8")


def test_the_replayed_run_round_trips_through_inspect_ai(tmp_path, capsys, offline):
    task = exported_task(tmp_path, capsys, "--replay", str(TRIAGE_RUN))
    log = evaluate(task, tmp_path / "logs", "json", model="mockllm/model")
    manifest = imported_equals_the_committed_run(capsys, log, tmp_path / "imported")
    assert 'model: "mockllm/model"' in manifest
    assert f'harness: "inspect_ai {inspect_ai.__version__}"' in manifest


def test_an_eval_log_round_trips_directly_and_through_log_convert(tmp_path, capsys, offline):
    task = exported_task(tmp_path, capsys, "--replay", str(TRIAGE_RUN))
    eval_log = evaluate(task, tmp_path / "logs", "eval", model="mockllm/model")
    imported_equals_the_committed_run(capsys, eval_log, tmp_path / "from-eval")
    cli = shutil.which("inspect", path=os.path.dirname(sys.executable)) or shutil.which("inspect")
    assert cli is not None, "inspect_ai's command line is not installed beside it"
    converted = tmp_path / "converted"
    subprocess.run([cli, "log", "convert", "--to", "json", "--output-dir", str(converted), str(eval_log)],
                   check=True, capture_output=True, timeout=300)
    (json_log,) = sorted(converted.glob("*.json"))
    imported_equals_the_committed_run(capsys, json_log, tmp_path / "from-json")


def test_the_plain_task_runs_with_the_mock_model_answering(tmp_path, capsys, offline):
    """The task without --replay: inspect_ai's generate() asks the mock model, which answers each
    prompt with the committed run's answer to it and reports its usage (so nothing fetches a
    tokenizer); the tokens reach run.yaml's cost."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    answers = answers_of(TRIAGE_RUN)
    rows = [json.loads(line) for line in (exported_task(tmp_path, capsys).parent / "dataset.jsonl").read_text(
        encoding="utf-8").splitlines()]
    by_prompt = {row["input"][0]["content"]: answers[row["id"]] for row in rows}

    def answer(messages, tools, tool_choice, config):
        output = ModelOutput.from_content(model="mockllm/model", content=by_prompt[messages[-1].text])
        output.usage = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)
        return output

    model = get_model("mockllm/model", custom_outputs=answer)
    log = evaluate(tmp_path / "task" / "task.py", tmp_path / "logs", "json", model=model)
    manifest = imported_equals_the_committed_run(capsys, log, tmp_path / "imported")
    assert "cost:\n  input_tokens: 2600\n  output_tokens: 260\n" in manifest  # 26 answers of 100 and 10


def test_a_fixture_the_replayed_run_lacks_is_an_errored_sample_and_missing_once_imported(tmp_path, capsys, offline):
    partial = tmp_path / "partial-run"
    shutil.copytree(TRIAGE_RUN, partial)
    (partial / "trap-angry-01.json").unlink()
    task = exported_task(tmp_path, capsys, "--replay", str(partial))
    log = evaluate(task, tmp_path / "logs", "json", model="mockllm/model")
    code, err = run(capsys, "import", "inspect", log, "--corpus", TRIAGE, "--run", tmp_path / "imported",
                    "--prompt", TRIAGE_PROMPT)
    assert code == 0, err
    assert "trap-angry-01: no answer in the log (error: RuntimeError('trap-angry-01: the replayed run has no output" in err
    assert result_files(tmp_path / "imported") == result_files(partial)
