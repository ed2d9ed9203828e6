"""What the interop tests share: the shipped corpora with a prompt and a committed run each, logs
in promptfoo's and inspect_ai's shapes made from a committed run, and a score report without the
one line that says how its run was made."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from corpustools.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data" / "interop"
TRIAGE = ROOT / "fixtures" / "ticket-triage"
TRIAGE_PROMPT = TRIAGE / "prompt" / "ticket-triage.v1.md"
# A committed run that answers every fixture of the corpus as it is now (v1-run1 answers the 16
# of corpus version 1: a replay of it imported today would leave the 10 added since missing)
TRIAGE_RUN = TRIAGE / "runs" / "v1-run2"
# promptfoo 0.123.1's `eval -o` of the triage run replayed (tests/data/interop/promptfoo/README.md)
PROMPTFOO_RESULTS = DATA / "promptfoo" / "ticket-triage-v1-run2.results.json"
# A prompt for a corpus that ships none (prompt-eval's lives outside this repository): any prompt
# renders its fixtures, and a run's answers import whatever prompt made them.
STAND_IN_PROMPT = "# Stand-in prompt\nVersion: 1\n\nAnswer as the corpus expects.\n\n" \
                  "[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n"


def shipped_corpora() -> list[Path]:
    """Every corpus under fixtures/ (a third is being authored: it is tested when it lands)."""
    return sorted(path.parent for path in (ROOT / "fixtures").glob("*/corpus.yaml"))


def prompt_of(corpus: Path, scratch: Path) -> Path:
    """The corpus's own prompt (its newest under prompt/), else a stand-in written to `scratch`."""
    own = sorted((corpus / "prompt").glob("*.md"))
    if own:
        return own[-1]
    stand_in = scratch / "stand-in-prompt.md"
    stand_in.write_text(STAND_IN_PROMPT, encoding="utf-8")
    return stand_in


def committed_run(corpus: Path) -> Path:
    """The corpus's first committed run (by name); its gold outputs when it has none yet."""
    runs = sorted(path.parent for path in (corpus / "runs").glob("*/run.yaml"))
    return runs[0] if runs else corpus / "gold"


def result_files(folder: Path) -> dict[str, bytes]:
    """name -> bytes of every result file (`*.json`, `*.txt`) in a run folder."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())
            if path.suffix in (".json", ".txt") and path.is_file()}


def rendered(corpus: Path, prompt: Path, scratch: Path) -> dict[str, str]:
    """fixture id -> what `corpustools render --all` writes for it."""
    out = scratch / "rendered"
    assert main(["render", str(corpus), "--all", "--out", str(out), "--prompt", str(prompt)]) == 0
    return {path.stem: path.read_text(encoding="utf-8") for path in sorted(out.glob("*.md"))}


def promptfoo_results(answers: dict[str, str], prompts: dict[str, str], *, version: int = 3,
                      provider: dict | None = None) -> dict:
    """A results file in promptfoo's version-3 shape (as promptfoo 0.123.1 writes it: the fields
    corpustools reads, results out of test order, the prompt's trailing newline stripped)."""
    provider = provider or {"id": "echo", "label": "replay"}
    results = []
    for index, (fixture_id, answer) in enumerate(sorted(answers.items(), reverse=True)):
        results.append({
            "id": f"r{index}", "testIdx": index, "promptIdx": 0, "promptId": "p", "provider": provider,
            "prompt": {"raw": prompts.get(fixture_id, "").rstrip("\n"), "label": "v1"},
            "vars": {"fixture_id": fixture_id, "rendered": prompts.get(fixture_id, "")},
            "testCase": {"description": fixture_id, "vars": {"fixture_id": fixture_id},
                         "metadata": {"fixture_id": fixture_id}, "providerOutput": json.loads(answer)
                         if answer.strip().startswith("{") else answer},
            "response": {"output": answer, "tokenUsage": {"prompt": 10, "completion": 5, "total": 15}, "cost": 0.001},
            "success": True, "score": 1, "failureReason": 0, "error": None, "latencyMs": 0,
        })
    return {"evalId": "eval-test", "results": {
        "version": version, "timestamp": "2026-12-06T05:17:40.814Z",
        "prompts": [{"id": "p", "raw": "{{rendered}}", "label": "v1", "provider": provider["label"]}],
        "results": results, "stats": {}},
        "config": {"providers": [{**provider, "config": {"temperature": 0.2}}]},
        "metadata": {"promptfooVersion": "0.123.1"}}


def inspect_log(answers: dict[str, str], prompts: dict[str, str], *, epochs: int = 1) -> dict:
    """An inspect_ai eval log in the shape `inspect eval --log-format json` writes (the fields
    corpustools reads; inspect_ai 0.3.285)."""
    samples = []
    for epoch in range(1, epochs + 1):
        for fixture_id, answer in sorted(answers.items()):
            samples.append({
                "id": fixture_id, "epoch": epoch,
                "input": [{"id": "m1", "role": "user", "content": prompts.get(fixture_id, "")}],
                "target": "", "messages": [],
                "output": {"model": "mockllm/model", "completion": answer,
                           "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}},
                "model_usage": {"mockllm/model": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}},
                "scores": {}, "metadata": {}, "error": None, "limit": None, "attachments": {},
            })
    return {"version": 2, "status": "success",
            "eval": {"eval_id": "E1", "run_id": "R1", "created": "2026-12-06T05:10:24+00:00", "task": "triage",
                     "model": "mockllm/model", "model_generate_config": {"temperature": 0.5},
                     "config": {"epochs": epochs}, "packages": {"inspect_ai": "0.3.285"}},
            "stats": {"model_usage": {}}, "samples": samples}


def answers_of(run: Path) -> dict[str, str]:
    """fixture id -> the saved answer's text, byte for byte."""
    return {Path(name).stem: data.decode("utf-8") for name, data in result_files(run).items()}


_LABELS_REVISED = "labels revised since this run"


def without_run_line(report: str) -> str:
    """A text score report less what it says of how, when and against which labels its run was
    made: its `run: FOLDER: prompt ...; model ...; date ...` line, and its first line when that
    is `labels revised since this run ...` (with the blank line after it). An imported run was made
    by another tool, on another day, against the corpus as it is now; every verdict, reason,
    count and interval is in the rest (a `fixtures added since this run` line too: a run that
    answers fewer fixtures than another is not scored as it)."""
    lines = report.splitlines(keepends=True)
    if lines and lines[0].startswith(_LABELS_REVISED):
        lines = lines[2:] if lines[1:2] == ["\n"] else lines[1:]
    assert not any(line.startswith(_LABELS_REVISED) for line in lines), report[:500]
    assert sum(line.startswith("run: ") for line in lines) == 1, report[:500]
    return "".join(line for line in lines if not line.startswith("run: "))


def promptfoo_command() -> list[str] | None:
    """How to run promptfoo here without installing anything: None when it cannot start."""
    found = shutil.which("promptfoo")
    for command in ([found] if found else [], ["npx", "--no-install", "promptfoo"] if shutil.which("npx") else []):
        if not command:
            continue
        try:
            started = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if started.returncode == 0:
            return command
    return None


def offline_promptfoo_env(scratch: Path) -> dict[str, str]:
    """promptfoo's environment for a run that stays on this machine: no telemetry, no update
    check, its config and home folders in `scratch`."""
    return {"PATH": os.environ.get("PATH", ""), "HOME": str(scratch / "home"), "PROMPTFOO_DISABLE_TELEMETRY": "1",
            "PROMPTFOO_DISABLE_UPDATE": "1", "PROMPTFOO_CONFIG_DIR": str(scratch / "promptfoo-config")}


def item_fields_supported() -> bool:
    """Whether sidecars take `item_fields` (issue 30) in this tree."""
    from dataclasses import fields

    from corpustools.model.sidecar import ExpectedPoint

    return "item_fields" in {field.name for field in fields(ExpectedPoint)}


def items_corpus_with_item_fields(folder: Path) -> Path:
    """`init --output items` with the owner of assign-action-01's point pinned: `item_fields: {owner: Priya}`."""
    assert main(["init", str(folder), "--output", "items"]) == 0
    sidecar = folder / "expected" / "assign-action-01.yaml"
    text = sidecar.read_text(encoding="utf-8")
    assert "      - logo fix\n" in text
    sidecar.write_text(text.replace("      - logo fix\n", "      - logo fix\n    item_fields:\n      owner: Priya\n", 1),
                       encoding="utf-8")
    return folder
