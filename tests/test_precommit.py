"""The shipped pre-commit hook, driven by the real pre-commit tool through `git commit`, configured
with the README's snippet as printed (its two placeholder lines, `repo:` and `rev:`, filled with a
fresh repository of the package as it is now and that repository's commit SHA).

A commit touching a broken fixture is refused with the diagnostic shown, and the fixed one passes;
a staged deletion, rename or mode change lints the corpus it breaks (pre-commit itself passes only
the files that still exist); a key in any file under a corpus folder (its README, runs/) is
refused; with two corpora in one repository only the corpora holding a staged
change are linted; a corpus folder named like an option (`--output=out`) is a file, never an option.

Slow (pre-commit builds the hook's environment once for this module): deselect with
`-m "not slow"`. pre-commit installs the hook with no package index: pip builds corpustools' wheel
here and takes every dependency from a wheelhouse made of this test environment
(tests/support/wheels.py). Skipped, with the reason, when git or pre-commit is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, session_text, write_corpus
from tests.support.wheels import dependency_closure, wheelhouse

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent
SESSION = f"fixtures/tiny/sessions/{ADMIT_ID}.md"
SIDECAR = f"fixtures/tiny/expected/{ADMIT_ID}.yaml"
BROKEN_ID = ADMIT_UUID.upper()  # CT101: not lowercase
CT101 = f"{SESSION}:3:1: CT101 [error] session_id '{BROKEN_ID}' is not lowercase"
# The README snippet's two lines a user fills in (and this test fills with the fresh repository).
REPO_PLACEHOLDER = "https://github.com/OWNER/corpustools"
REV_PLACEHOLDER = "0123456789abcdef0123456789abcdef01234567"


def readme_hook_snippet() -> str:
    """The YAML block of the README's pre-commit section, exactly as printed."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Using the lint as a pre-commit hook"):]
    block = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    assert block is not None, "the README's pre-commit section has no YAML block"
    return block.group(1)


def _git(cwd: Path, *args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True, timeout=120)


@dataclass(frozen=True)
class Hook:
    config: str  # the README's snippet, its repo: and rev: filled
    env: dict


def _hook_repo(base: Path, env: dict) -> Path:
    """A git repository holding this package as it is now (uncommitted changes included)."""
    hooks = base / "corpustools"
    shutil.copytree(REPO / "corpustools", hooks / "corpustools",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", ".pre-commit-hooks.yaml", "README.md", "LICENSE"):
        if (REPO / name).is_file():
            shutil.copy2(REPO / name, hooks / name)
    _git(hooks, "init", "-q", env=env)
    _git(hooks, "add", "-A", env=env)
    _git(hooks, "commit", "-q", "-m", "corpustools as tested", env=env)
    return hooks


@pytest.fixture(scope="module")
def hook(tmp_path_factory):
    """The filled snippet and an environment with one PRE_COMMIT_HOME, so the hook installs once."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (pip install '.[test]')")
    base = tmp_path_factory.mktemp("precommit")
    wheels = wheelhouse(base / "wheels", [*dependency_closure("corpustools"), "setuptools"])
    env = {**os.environ, "PRE_COMMIT_HOME": str(base / "pre-commit-home"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "PRE_COMMIT_COLOR": "never",
           # never a package index: the wheelhouse only, and no pip configuration file
           "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels), "PIP_CONFIG_FILE": os.devnull}
    for name in ("PYTHONPATH", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CONSTRAINT", "VIRTUAL_ENV"):
        env.pop(name, None)
    # pre-commit runs from the test environment's bin/ (its own script and the Python it installs with)
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
    hooks = _hook_repo(base, env)
    sha = _git(hooks, "rev-parse", "HEAD", env=env).stdout.strip()
    snippet = readme_hook_snippet()
    assert snippet.count(REPO_PLACEHOLDER) == 1 and snippet.count(REV_PLACEHOLDER) == 1, snippet
    return Hook(snippet.replace(REPO_PLACEHOLDER, str(hooks)).replace(REV_PLACEHOLDER, sha), env)


def _work_repo(path: Path, hook: Hook) -> Path:
    """A project with the README's hook installed (`pre-commit install`), nothing committed yet."""
    path.mkdir()
    _git(path, "init", "-q", env=hook.env)
    (path / ".pre-commit-config.yaml").write_text(hook.config)
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=path, env=hook.env, check=True,
                   capture_output=True, timeout=120)
    return path


def _commit(work: Path, hook: Hook, message: str = "change") -> tuple[int, str]:
    """`git commit` of what is staged, the pre-commit hook running as it does for a user: the exit
    code and everything printed (git prints the hook's output on standard error)."""
    done = subprocess.run(["git", "commit", "-q", "-m", message], cwd=work, env=hook.env, capture_output=True,
                          text=True, timeout=1200)
    output = done.stdout + done.stderr
    assert "Traceback" not in output and "An unexpected error has occurred" not in output, output
    return done.returncode, output


def _commit_unchecked(work: Path, hook: Hook, message: str) -> None:
    _git(work, "add", "-A", env=hook.env)
    _git(work, "commit", "-q", "--no-verify", "-m", message, env=hook.env)


def test_readme_snippet_refuses_a_broken_fixture_and_passes_the_fixed_one(hook, tmp_path):
    work = _work_repo(tmp_path / "work", hook)
    write_corpus(work / "fixtures" / "tiny", {f"sessions/{ADMIT_ID}.md": session_text(BROKEN_ID, ADMIT_TURNS)})
    _git(work, "add", "-A", env=hook.env)
    code, output = _commit(work, hook)
    assert code == 1 and CT101 in output, output

    (work / SESSION).write_text(session_text(ADMIT_UUID, ADMIT_TURNS))
    _git(work, "add", "-A", env=hook.env)
    code, output = _commit(work, hook)
    assert code == 0, output
    assert _git(work, "log", "--format=%s", env=hook.env).stdout == "change\n"


@pytest.mark.parametrize("change", ["delete the session", "rename the session away",
                                    "rename the sidecar", "turn the session into a link"])
def test_a_staged_deletion_rename_or_type_change_lints_the_corpus(hook, tmp_path, change):
    work = _work_repo(tmp_path / "work", hook)
    write_corpus(work / "fixtures" / "tiny")
    _commit_unchecked(work, hook, "a clean corpus")
    session, sidecar = work / SESSION, work / SIDECAR
    if change == "delete the session":
        _git(work, "rm", "-q", SESSION, env=hook.env)
        expected = f"{SIDECAR}:1:1: CT202"
    elif change == "rename the session away":
        (work / "notes").mkdir()
        _git(work, "mv", SESSION, "notes/old-session.md", env=hook.env)
        expected = f"{SIDECAR}:1:1: CT202"
    elif change == "rename the sidecar":
        _git(work, "mv", SIDECAR, "fixtures/tiny/expected-old.yaml", env=hook.env)
        expected = f"{SESSION}:1:1: CT201"
    else:
        (work / "fixtures" / "shared.md").write_text(session.read_text())
        session.unlink()
        os.symlink("../../shared.md", session)
        _git(work, "add", "-A", env=hook.env)
        expected = f"{SESSION}:1:1: CT001 [error]"
    assert sidecar.exists() or change == "rename the sidecar"
    code, output = _commit(work, hook)
    assert code == 1 and expected in output, output


def test_a_staged_mode_change_alone_lints_the_corpus(hook, tmp_path):
    work = _work_repo(tmp_path / "work", hook)
    write_corpus(work / "fixtures" / "tiny", {f"sessions/{ADMIT_ID}.md": session_text(BROKEN_ID, ADMIT_TURNS)})
    _commit_unchecked(work, hook, "a broken corpus")
    _git(work, "update-index", "--chmod=+x", SIDECAR, env=hook.env)  # nothing but the mode changes
    code, output = _commit(work, hook)
    assert code == 1 and CT101 in output, output


def test_only_the_corpora_holding_a_staged_change_are_linted(hook, tmp_path):
    work = _work_repo(tmp_path / "work", hook)
    broken, clean = work / "fixtures" / "broken", work / "fixtures" / "clean"
    write_corpus(broken, {f"sessions/{ADMIT_ID}.md": session_text(BROKEN_ID, ADMIT_TURNS)})
    write_corpus(clean)
    _commit_unchecked(work, hook, "two corpora, one broken")

    # A commit touching only the clean corpus (and a project file that merely looks like a sidecar)
    # passes: the broken corpus is not this commit's business. So does one touching no corpus.
    touched = clean / "expected" / f"{ADMIT_ID}.yaml"
    touched.write_text(touched.read_text() + "# reviewed\n")
    (work / "tests" / "expected").mkdir(parents=True)
    (work / "tests" / "expected" / "output.yaml").write_text("a: 1\n")
    _git(work, "add", "-A", env=hook.env)
    code, output = _commit(work, hook, "clean change")
    assert code == 0, output
    (work / "README.md").write_text("# project\n")
    _git(work, "add", "-A", env=hook.env)
    assert _commit(work, hook, "no corpus")[0] == 0

    # A commit touching the broken corpus fails with its diagnostic -- found in a file the commit
    # did not change, because the corpus is linted whole.
    sidecar = broken / "expected" / f"{ADMIT_ID}.yaml"
    sidecar.write_text(sidecar.read_text() + "# touched\n")
    _git(work, "add", "-A", env=hook.env)
    code, output = _commit(work, hook)
    assert code == 1, output
    assert (f"fixtures/broken/sessions/{ADMIT_ID}.md:3:1: CT101 [error] session_id '{BROKEN_ID}' "
            "is not lowercase") in output
    assert "fixtures/clean/" not in output
    assert output.count("CT101 [error]") == 1  # the corpus is linted once


@pytest.mark.parametrize("relative", ["fixtures/tiny/README.md", "fixtures/tiny/runs/v1/notes.txt"])
def test_a_key_in_any_file_under_a_corpus_is_refused(hook, tmp_path, relative):
    # The secret scan reads every file under the corpus folder; the hook lints the corpus for any
    # staged file there, not only for its sessions, sidecars and corpus.yaml.
    work = _work_repo(tmp_path / "work", hook)
    write_corpus(work / "fixtures" / "tiny")
    _commit_unchecked(work, hook, "a clean corpus")
    (work / relative).parent.mkdir(parents=True, exist_ok=True)
    (work / relative).write_text("aws AKIAZ7Q2M4XK9PLR3T8W\n")
    _git(work, "add", "-A", env=hook.env)
    code, output = _commit(work, hook)
    assert code == 1 and f"{relative}:1:5: CT501 [error] AWS access key id" in output, output
    assert "AKIAZ7Q2M4XK9PLR3T8W" not in output


def test_the_opt_in_fix_hook_fixes_the_staged_file_and_the_commit_passes_once_restaged(hook, tmp_path):
    from tests.support.corpus import sidecar_text

    # the README's snippet with its commented corpustools-fix line taken in, as a user opts in
    opted_in = Hook(hook.config.replace("# - id: corpustools-fix", "- id: corpustools-fix"), hook.env)
    assert opted_in.config != hook.config
    work = _work_repo(tmp_path / "work", opted_in)
    write_corpus(work / "fixtures" / "tiny",
                 {f"expected/{ADMIT_ID}.yaml": sidecar_text().replace("- queue worker", "- Queue Worker  # kept")})
    _git(work, "add", "-A", env=hook.env)
    code, output = _commit(work, opted_in)
    assert code == 1, output  # pre-commit fails a hook that changed files: the person restages
    assert "CT603 fixed: 'Queue Worker' written as 'queue worker'" in output
    assert "files were modified by this hook" in output
    assert "      - queue worker  # kept\n" in (work / SIDECAR).read_text()

    _git(work, "add", "-A", env=hook.env)
    code, output = _commit(work, opted_in)
    assert code == 0, output


def test_a_corpus_folder_named_like_an_option_is_linted_as_files(hook, tmp_path):
    # pre-commit passes `--output=out/sessions/<id>.md`: after the hook's "--" it is a file name,
    # so lint neither writes a report there nor hides the corpus's findings.
    work = _work_repo(tmp_path / "work", hook)
    corpus = work / "--output=out"
    write_corpus(corpus, {f"sessions/{ADMIT_ID}.md": session_text(BROKEN_ID, ADMIT_TURNS)})
    before = {path: path.read_bytes() for path in corpus.rglob("*") if path.is_file()}
    _git(work, "add", "-A", env=hook.env)
    code, output = _commit(work, hook)
    assert code == 1, output
    assert f"--output=out/sessions/{ADMIT_ID}.md:3:1: CT101 [error]" in output
    assert not (work / "out").exists()
    assert {path: path.read_bytes() for path in corpus.rglob("*") if path.is_file()} == before
