"""The benchmark's corpus generator (bench/corpusgen.py) and in-process CLI runs, for the tests.

The generator lives in bench/ because bench/make_corpus.py and bench/run.py are its first users;
the robustness tests import the same code, so the corpus they mutate is the one the benchmark
measures, not a second hand-written copy that could drift from it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from corpusgen import generate, write_tree  # bench/ is on pytest's pythonpath (pyproject.toml)

BENCH = Path(__file__).resolve().parents[2] / "bench"


def write_generated(out: Path, n: int, seed: int = 0, defects: int = 0, order=None) -> Path:
    """Generate a corpus of `n` fixtures under `out` (out/corpus, out/results, ...); returns `out`."""
    write_tree(str(out), generate(n, seed, defects).files, order)
    return out


def unreported(root: Path, planted) -> tuple[int, list[tuple[str, str]]]:
    """`lint root/corpus`'s exit code, and the planted (code, path) pairs under `root` it does not
    report at their file."""
    exit_code, diagnostics, _ = lint_json(str(root / "corpus"))
    found = {(d["code"], os.path.normpath(os.path.abspath(d["path"]))) for d in diagnostics}
    return exit_code, [(code, path) for code, path in planted
                       if (code, os.path.normpath(os.path.abspath(root / path))) not in found]


def planted_but_not_reported(code: str, out: Path, n: int = 80, seed: int = 7) -> list[tuple[str, str]]:
    """A rule's own planter exercised: one defect of `code` alone planted by bench/defects.py in a
    generated corpus under `out`, linted; returns what lint did not report (nothing, when planter and
    rule agree). A planter outside defects.FROZEN_PLANTERS is exercised only this way, from the rule's
    tests/rules/test_<name>.py (tests/test_fuzz.py checks that it is)."""
    generated = generate(n, seed, 1, (code,))
    assert [c for c, _ in generated.planted] == [code], f"bench/defects.py planted {generated.planted}, not one {code}"
    write_tree(str(out), generated.files)
    return unreported(out, generated.planted)[1]


def tree_digest(folder: Path) -> dict[str, str]:
    """relative path -> sha256 of every file under `folder` (symbolic links by their target text)."""
    digest = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]):
            path = os.path.join(dirpath, name)
            relative = os.path.relpath(path, folder).replace(os.sep, "/")
            if os.path.islink(path):
                digest[relative] = "link:" + os.readlink(path)
            else:
                with open(path, "rb") as handle:
                    digest[relative] = hashlib.sha256(handle.read()).hexdigest()
    return digest


def run_main(*argv: str) -> tuple[int, str, str]:
    """corpustools.cli.main(argv) in this process: (exit code, stdout, stderr)."""
    from corpustools.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def lint_json(*argv: str) -> tuple[int, list[dict], str]:
    code, out, err = run_main("lint", "--format", "json", *argv)
    return code, (json.loads(out) if out.strip() else []), err
