"""A rule or command module that is missing is an internal error (exit 2), never silently skipped:
deleting rules/secret_token.py once let an AWS key pass with exit 0."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import corpustools
from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, session_text

PACKAGE = Path(corpustools.__file__).resolve().parent
AWS_ID = "AKIA" + "IOSFODNN7EXAMPLE"


def run_without(tmp_path: Path, missing: str, *argv: str) -> subprocess.CompletedProcess:
    """`python -m corpustools ARGV` from a copy of the package with `missing` deleted."""
    copy = tmp_path / "site" / "corpustools"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / missing).unlink()
    env = {**os.environ, "PYTHONPATH": str(copy.parent)}
    env.pop("CORPUSTOOLS_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "corpustools", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_missing_rule_module_is_an_internal_error_not_a_pass(make_corpus, tmp_path):
    body = f"[USER]: {ADMIT_TURNS[0][1]} The key is {AWS_ID}.\n" + "".join(
        f"[{tag}]: {text}\n" for tag, text in ADMIT_TURNS[1:])
    root = make_corpus({f"sessions/{ADMIT_ID}.md": session_text(ADMIT_UUID, body=body)})
    result = run_without(tmp_path, "lint/rules/secret_token.py", "lint", str(root))
    assert result.returncode == 2, result
    assert "internal error" in result.stderr and "secret_token" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_missing_command_module_is_an_internal_error_not_a_missing_command(tmp_path):
    result = run_without(tmp_path, "commands/render.py", "--help")
    assert result.returncode == 2, result
    assert "internal error" in result.stderr and "render" in result.stderr
    assert "Traceback" not in result.stderr
