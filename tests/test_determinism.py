"""Byte-identical output: lint and score as whole processes, under different hash seeds, locales
and file creation orders; and the corpus generator itself (same seed, same bytes).

The corpus is a generated one with one planted defect of every kind, so lint has dozens of
diagnostics to order and score a realistic mix of verdicts: identical empty outputs would prove
nothing.
"""

from __future__ import annotations

import locale
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.bench import BENCH, generate, tree_digest, write_tree

FIXTURES, SEED, DEFECTS = 64, 5, 1


def _locale_available(name: str) -> bool:
    saved = locale.setlocale(locale.LC_ALL)
    try:
        locale.setlocale(locale.LC_ALL, name)
        return True
    except locale.Error:
        return False
    finally:
        locale.setlocale(locale.LC_ALL, saved)


def _utf8_locale() -> str:
    return next((name for name in ("en_US.UTF-8", "C.UTF-8", "C.utf8") if _locale_available(name)), "C")


def _env(hash_seed: str, lc_all: str) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("LC_", "LANG", "CORPUSTOOLS"))}
    env.update(PYTHONHASHSEED=hash_seed, LC_ALL=lc_all, LANG=lc_all)
    return env


@pytest.fixture(scope="module")
def twins(tmp_path_factory) -> tuple[Path, Path]:
    """The same corpus and results written twice, under the same relative name `x`, with the files
    created in two different orders (sorted, and shuffled)."""
    files = generate(FIXTURES, SEED, DEFECTS).files
    first, second = tmp_path_factory.mktemp("first"), tmp_path_factory.mktemp("second")
    shuffled = sorted(files)
    random.Random(7).shuffle(shuffled)
    write_tree(str(first / "x"), files, sorted(files))
    write_tree(str(second / "x"), files, shuffled)
    assert tree_digest(first / "x") == tree_digest(second / "x")
    return first, second


def _run(cwd: Path, env: dict, *argv: str) -> tuple[int, bytes, bytes]:
    done = subprocess.run([sys.executable, "-m", "corpustools", *argv], cwd=cwd, env=env,
                          capture_output=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


COMMANDS = {
    "lint-text": ("lint", "x/corpus", "--statistics"),
    "lint-json": ("lint", "x/corpus", "--format", "json"),
    "lint-sarif": ("lint", "x/corpus", "--format", "sarif"),
    "score-markdown": ("score", "x/corpus", "x/results"),
    "score-json": ("score", "x/corpus", "x/results", "--format", "json"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_output_is_byte_identical_across_hash_seed_locale_and_creation_order(twins, command):
    first, second = twins
    argv = COMMANDS[command]
    one = _run(first, _env("1", "C"), *argv)
    two = _run(second, _env("4242", _utf8_locale()), *argv)
    assert one[0] == two[0] and one[0] in (0, 1), (one[0], one[2][-500:])
    assert b"internal error" not in one[2]
    assert len(one[1]) > 1000, "the output is too small to show anything about ordering"
    assert one[1] == two[1], f"{command}: stdout differs between runs"
    assert one[2] == two[2], f"{command}: stderr differs between runs"


def test_generator_same_seed_same_bytes_whatever_the_hash_seed(tmp_path):
    """make_corpus.py is deterministic: only its seeded random.Random decides anything."""
    script = str(BENCH / "make_corpus.py")
    trees = []
    for hash_seed, out in (("0", tmp_path / "a"), ("31337", tmp_path / "b")):
        done = subprocess.run([sys.executable, script, "30", str(out), "--seed", "11", "--defects", "0"],
                              env=_env(hash_seed, "C"), capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr
        trees.append(tree_digest(out))
    assert trees[0] == trees[1]
    assert len(trees[0]) > 60  # corpus.yaml, 30 sessions, 30 sidecars, results, prompt, kb, record


def test_generator_seed_changes_the_corpus():
    one, other = generate(12, seed=1).files, generate(12, seed=2).files
    assert any(one[path] != other.get(path) for path in one if path.startswith("corpus/sessions/"))
    assert generate(12, seed=1).files == one


def test_worksheet_and_calibration_are_byte_identical_across_hash_seed_locale_and_creation_order(twins):
    from tests.support.calibrate import fill_all

    outputs = []
    for root, env in ((twins[0], _env("1", "C")), (twins[1], _env("4242", _utf8_locale()))):
        code, _, err = _run(root, env, "adjudicate", "x/corpus", "x/results", "--out", "x/sheet.yaml")
        assert code == 0, err[-500:]
        sheet = root / "x" / "sheet.yaml"
        blank = sheet.read_bytes()
        # A judge who rejects every other proposal, so the report has disagreements of several kinds.
        text = fill_all(blank.decode("utf-8"))
        lines = text.split("\n")
        classes = [i for i, line in enumerate(lines) if line.lstrip().startswith("class:")]
        for i in classes[::2]:
            lines[i] = lines[i].replace('"durable-unlabeled"', '"over-extraction"')
        sheet.write_text("\n".join(lines), encoding="utf-8")
        calibrated = [_run(root, env, "calibrate", "x/corpus", "x/results", "--verdicts", "x/sheet.yaml",
                           "--format", fmt) for fmt in ("markdown", "json", "text")]
        assert all(code == 0 for code, _, _ in calibrated), calibrated[0][2][-500:]
        outputs.append((blank, calibrated))
    assert len(outputs[0][0]) > 1000 and len(outputs[0][1][0][1]) > 1000
    assert outputs[0] == outputs[1]
