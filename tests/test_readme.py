"""The README's Commands table: every example runs as printed, from the top of a copy of this
repository (the shipped corpora, the authoring record and the interop test data), and exits 0. `my-prompt.md`, which the
README says stands for the user's prompt, is the one file the test writes first. The README's
other snippets are run by tests/test_shipped_corpus.py (the first two commands), the test below
(the "Your own prompt" commands) and
tests/test_precommit.py (the pre-commit hook)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from corpustools.cli import main
from tests.support.recipes import COMMAND

ROOT = Path(__file__).resolve().parent.parent
PROMPT = "# My prompt\nVersion: 1\n\nExtract what the user taught.\n\n[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n"


def table_examples() -> list[str]:
    """The example column of the README's Commands table, in order."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Commands"):]
    rows = re.findall(r"^\| `corpustools .*$", section, re.MULTILINE)
    examples = [re.fullmatch(r".*\| `(corpustools [^`]+)` \|", row) for row in rows]
    assert all(examples), [row for row, found in zip(rows, examples, strict=True) if not found]
    return [found.group(1) for found in examples if found]


def table_gaps(examples: list[str], commands: tuple[str, ...]) -> list[str]:
    """Commands without an example row in the README's Commands table, and rows of no command."""
    shown = [example.split()[1] for example in examples]
    return ([f"{name}: no row in README.md's Commands table (`corpustools {name} ...` | what it does | a one-line "
             "example that runs as printed)" for name in commands if name not in shown]
            + [f"{name}: README.md's Commands table has a row, but COMMANDS has no such command"
               for name in dict.fromkeys(shown) if name not in commands]
            + [f"{name}: more than one row in README.md's Commands table" for name in dict.fromkeys(shown)
               if shown.count(name) > 1])


def test_the_table_has_one_example_per_command():
    from corpustools.commands import COMMANDS

    gaps = table_gaps(table_examples(), COMMANDS)
    assert gaps == [], "\n".join(gaps + [COMMAND])


def test_a_command_without_a_row_is_named_with_the_recipe():
    assert table_gaps(["corpustools lint x", "corpustools gone y"], ("lint", "stats")) == [
        "stats: no row in README.md's Commands table (`corpustools stats ...` | what it does | a one-line example "
        "that runs as printed)",
        "gone: README.md's Commands table has a row, but COMMANDS has no such command"]
    assert "COMMANDS" in COMMAND and "README.md" in COMMAND


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """The shipped corpus and authoring/ in a fresh folder that is a repository (`.git`)."""
    top = tmp_path_factory.mktemp("clone")
    shutil.copytree(ROOT / "fixtures" / "prompt-eval", top / "fixtures" / "prompt-eval")
    shutil.copytree(ROOT / "fixtures" / "ticket-triage", top / "fixtures" / "ticket-triage")
    shutil.copytree(ROOT / "authoring", top / "authoring")
    shutil.copytree(ROOT / "tests" / "data" / "interop", top / "tests" / "data" / "interop")
    (top / ".git").mkdir()
    (top / "my-prompt.md").write_text(PROMPT)
    return top


@pytest.mark.parametrize("example", table_examples(), ids=lambda e: " ".join(e.split()[1:3]))
def test_every_commands_table_example_runs_as_printed(example, clone, monkeypatch, capsys):
    monkeypatch.chdir(clone)
    code = main(shlex.split(example)[1:])
    captured = capsys.readouterr()
    assert code == 0, captured.out[-2000:] + captured.err
    assert captured.out or captured.err.splitlines()[-1].startswith("wrote ")  # it printed or wrote something


def test_the_own_prompt_snippet_runs_as_printed(tmp_path, monkeypatch, capsys):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Your own prompt"):]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None
    shutil.copytree(ROOT / "fixtures" / "ticket-triage", tmp_path / "fixtures" / "ticket-triage")
    monkeypatch.chdir(tmp_path)
    for line in block.group(1).splitlines():
        assert main(shlex.split(line)[1:]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith("25/26 fixtures passed")  # the triage run's verdict, last
    assert main(["lint", "--strict", "my-triage"]) == 0  # the scaffold lints clean


def test_the_interop_snippet_runs_as_printed(tmp_path, monkeypatch, capsys):
    """Each `corpustools` line as printed; `promptfoo eval` where promptfoo starts (else its
    committed output, made by promptfoo 0.123.1 the same way: tests/data/interop/promptfoo);
    `inspect eval` where inspect_ai is installed (else the inspect half is skipped, saying why)."""
    import glob
    import importlib.util
    import subprocess

    from tests.support.interop import PROMPTFOO_RESULTS, offline_promptfoo_env, promptfoo_command

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Runs made with promptfoo or inspect_ai"):]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None
    shutil.copytree(ROOT / "fixtures" / "ticket-triage", tmp_path / "fixtures" / "ticket-triage")
    monkeypatch.chdir(tmp_path)
    promptfoo = promptfoo_command()
    has_inspect = importlib.util.find_spec("inspect_ai") is not None
    verdicts = []
    for line in block.group(1).splitlines():
        argv = [found for word in shlex.split(line) for found in (sorted(glob.glob(word)) or [word])]
        if argv[0] == "promptfoo":
            if promptfoo is None:
                shutil.copyfile(PROMPTFOO_RESULTS, argv[argv.index("-o") + 1])
            else:
                subprocess.run([*promptfoo, *argv[1:], "--no-cache", "--no-write"], check=True, capture_output=True,
                               env=offline_promptfoo_env(tmp_path), timeout=600)
            continue
        if argv[0] == "inspect":
            if not has_inspect:
                break
            cli = shutil.which("inspect", path=os.path.dirname(sys.executable)) or "inspect"
            subprocess.run([cli, *argv[1:]], check=True, capture_output=True, timeout=600,
                           env={**os.environ, "HOME": str(tmp_path / "home")})
            continue
        assert argv[0] == "corpustools", line
        assert main(argv[1:]) == 0, capsys.readouterr()
        if argv[1] == "score":
            verdicts.append(capsys.readouterr().out.rstrip().splitlines()[-1])
    assert len(verdicts) == (2 if has_inspect else 1)
    assert verdicts[0].startswith("25/26 fixtures passed") and set(verdicts) == {verdicts[0]}  # as the committed run
    if not has_inspect:
        pytest.skip("the inspect_ai half: inspect_ai is not installed (pip install '.[interop]')")


CONCEPTS = ("fixture", "session", "sidecar", "expected point", "optional point", "phantom", "gate accuracy", "run",
            "practice", "map")


def test_the_words_of_the_first_screen_are_defined_before_the_commands(capsys, monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    defined = re.findall(r"^- \*\*([a-z ]+)\*\*", readme[:readme.index("## Commands")], re.MULTILINE)
    assert tuple(defined) == CONCEPTS
    # the README's first command: each concept word the screen it leaves in the terminal (its last
    # 40 lines, the verdict line last) uses is one of them
    monkeypatch.chdir(ROOT)
    assert main(["score", "fixtures/prompt-eval", "fixtures/prompt-eval/runs/v5-run6"]) == 0
    first_screen = "\n".join(capsys.readouterr().out.splitlines()[-40:]).lower()
    used = [word for word in ("phantom", "gate accuracy", "practice", "map", "fixture", "optional point")
            if word in first_screen]
    assert {"phantom", "gate accuracy", "practice", "map"} <= set(used) <= set(CONCEPTS)
