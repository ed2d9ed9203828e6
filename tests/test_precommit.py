"""The shipped pre-commit hook, driven by the real pre-commit tool: a commit touching a broken fixture
is refused with the diagnostic shown, and the fixed one passes; with two corpora in one repository,
only the corpora holding a staged file are linted, so a broken corpus does not block a commit to a
clean one, and a matching file outside any corpus passes.

Slow (pre-commit installs the package and its dependencies into a fresh environment, once for this
module): deselect with `-m "not slow"`. Skipped, with the reason, when git or pre-commit is missing
or the package index cannot be reached.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, session_text, write_corpus

REPO = Path(__file__).resolve().parent.parent
SESSION = f"fixtures/tiny/sessions/{ADMIT_ID}.md"
BROKEN_ID = ADMIT_UUID.upper()  # CT101: not lowercase
# Signs that pip could not reach a package index: the test cannot say anything about the hook then.
OFFLINE_SIGNS = ("NewConnectionError", "Temporary failure in name resolution", "Network is unreachable",
                 "No matching distribution found", "Could not find a version that satisfies",
                 "ConnectTimeoutError", "ProxyError")


def _git(cwd: Path, *args: str, env: dict) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, timeout=120)


def _hook_repo(base: Path, env: dict) -> Path:
    """A git repository holding this package as it is now (try-repo needs a repository to clone)."""
    hooks = base / "hook-repo"
    shutil.copytree(REPO / "corpustools", hooks / "corpustools",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", ".pre-commit-hooks.yaml", "README.md", "LICENSE"):
        if (REPO / name).is_file():
            shutil.copy2(REPO / name, hooks / name)
    if not (hooks / "README.md").exists():  # pyproject names it; the package cannot build without it
        (hooks / "README.md").write_text("corpustools\n")
    _git(hooks, "init", "-q", env=env)
    _git(hooks, "add", "-A", env=env)
    _git(hooks, "commit", "-q", "-m", "hook repo", env=env)
    return hooks


def _try_repo(work: Path, hooks: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(hooks), "corpustools-lint",
                           "--verbose"], cwd=work, env=env, capture_output=True, text=True, timeout=1200)


@pytest.fixture(scope="module")
def hook(tmp_path_factory):
    """(hook repository, environment): one PRE_COMMIT_HOME, so the hook is installed once."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (pip install '.[test]')")
    base = tmp_path_factory.mktemp("precommit")
    env = {**os.environ, "PRE_COMMIT_HOME": str(base / "pre-commit-home"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "PRE_COMMIT_COLOR": "never"}
    env.pop("PYTHONPATH", None)
    return _hook_repo(base, env), env


def _refused_or_skip(result: subprocess.CompletedProcess, code: str) -> str:
    output = result.stdout + result.stderr
    if result.returncode != 0 and code not in output and any(sign in output for sign in OFFLINE_SIGNS):
        pytest.skip("pre-commit could not install the hook environment (no package index?): "
                    + output.strip().splitlines()[-1][:200])
    return output


def _work_repo(path: Path, env: dict) -> Path:
    path.mkdir()
    _git(path, "init", "-q", env=env)
    return path


@pytest.mark.slow
def test_precommit_refuses_a_broken_fixture_and_passes_the_fixed_one(hook, tmp_path):
    hooks, env = hook
    work = _work_repo(tmp_path / "work", env)
    write_corpus(work / "fixtures" / "tiny", {f"sessions/{ADMIT_ID}.md": session_text(BROKEN_ID, ADMIT_TURNS)})
    _git(work, "add", "-A", env=env)

    refused = _try_repo(work, hooks, env)
    output = _refused_or_skip(refused, "CT101")
    assert refused.returncode == 1, output
    assert f"{SESSION}:3:1: CT101 [error] session_id '{BROKEN_ID}' is not lowercase" in output

    (work / SESSION).write_text(session_text(ADMIT_UUID, ADMIT_TURNS))
    _git(work, "add", "-A", env=env)
    fixed = _try_repo(work, hooks, env)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "corpustools lint" in fixed.stdout and "Passed" in fixed.stdout


@pytest.mark.slow
def test_precommit_lints_only_the_corpora_holding_a_staged_file(hook, tmp_path):
    hooks, env = hook
    work = _work_repo(tmp_path / "work", env)
    broken, clean = work / "fixtures" / "broken", work / "fixtures" / "clean"
    write_corpus(broken, {f"sessions/{ADMIT_ID}.md": session_text(BROKEN_ID, ADMIT_TURNS)})
    write_corpus(clean)
    _git(work, "add", "-A", env=env)
    _git(work, "commit", "-q", "--no-verify", "-m", "two corpora, one broken", env=env)

    # A commit touching only the clean corpus (and a project file that merely looks like a sidecar)
    # passes: the broken corpus is not this commit's business.
    touched = clean / "expected" / f"{ADMIT_ID}.yaml"
    touched.write_text(touched.read_text() + "# reviewed\n")
    (work / "tests" / "expected").mkdir(parents=True)
    (work / "tests" / "expected" / "output.yaml").write_text("a: 1\n")
    _git(work, "add", "-A", env=env)
    passed = _try_repo(work, hooks, env)
    output = _refused_or_skip(passed, "CT101")
    assert passed.returncode == 0, output
    assert "Passed" in passed.stdout and "CT101" not in output
    _git(work, "commit", "-q", "--no-verify", "-m", "clean change", env=env)

    # A commit touching the broken corpus fails with its diagnostic -- found in a file the commit
    # did not change, because the corpus is linted whole.
    sidecar = broken / "expected" / f"{ADMIT_ID}.yaml"
    sidecar.write_text(sidecar.read_text() + "# touched\n")
    _git(work, "add", "-A", env=env)
    refused = _try_repo(work, hooks, env)
    output = refused.stdout + refused.stderr
    assert refused.returncode == 1, output
    assert (f"fixtures/broken/sessions/{ADMIT_ID}.md:3:1: CT101 [error] session_id '{BROKEN_ID}' "
            "is not lowercase") in output
    assert "fixtures/clean/" not in output
    assert output.count("CT101 [error]") == 1  # the corpus is linted once


@pytest.mark.slow
def test_the_opt_in_fix_hook_fixes_the_staged_file_and_the_commit_passes_once_restaged(hook, tmp_path):
    from tests.support.corpus import sidecar_text

    hooks, env = hook
    work = _work_repo(tmp_path / "work", env)
    sidecar = work / "fixtures" / "tiny" / "expected" / f"{ADMIT_ID}.yaml"
    write_corpus(work / "fixtures" / "tiny",
                 {f"expected/{ADMIT_ID}.yaml": sidecar_text().replace("- queue worker", "- Queue Worker  # kept")})
    _git(work, "add", "-A", env=env)

    def try_fix() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(hooks), "corpustools-fix",
                               "--verbose"], cwd=work, env=env, capture_output=True, text=True, timeout=1200)

    fixed = try_fix()
    output = _refused_or_skip(fixed, "CT603")
    assert fixed.returncode == 1, output  # pre-commit fails a hook that changed files: restage
    assert "CT603 fixed: 'Queue Worker' written as 'queue worker'" in output
    assert "files were modified by this hook" in output
    assert "      - queue worker  # kept\n" in sidecar.read_text()

    _git(work, "add", "-A", env=env)
    again = try_fix()
    assert again.returncode == 0, again.stdout + again.stderr
