"""Adversarial inputs: each must end within seconds with a clear message naming the file.

YAML alias bombs (in a sidecar, in corpus.yaml, in a session's frontmatter), a 50 MB result and a
50 MB session, a 1 MB single-line turn, and symbolic links inside the corpus pointing outside it
(never followed; reported). The wall-clock bound is generous (tests/support/work.hang_guard): it
only guards against a hang.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.support.bench import lint_json, run_main, tree_digest, write_generated
from tests.support.work import hang_guard

SECRET = "AKIAIOSFODNN7EXAMPLE"  # AWS's documented example key id: CT501 flags it
BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8))  # 9**9 items


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return write_generated(tmp_path_factory.mktemp("adversarial") / "base", 5, seed=2)


@pytest.fixture
def tree(base, tmp_path) -> Path:
    root = tmp_path / "t"
    shutil.copytree(base, root)
    return root


def _first(folder: Path) -> Path:
    return sorted(folder.iterdir())[0]


def _same(reported: str, path: Path) -> bool:
    return os.path.abspath(reported) == os.path.abspath(path)


def _lint(root: Path) -> list[dict]:
    """Lint within the hang guard, never an internal error, corpus untouched; the diagnostics."""
    before = tree_digest(root)
    with hang_guard("lint"):
        code, diagnostics, err = lint_json(str(root / "corpus"))
    assert code in (0, 1) and "internal error" not in err, (code, err)
    assert tree_digest(root) == before
    return [d for d in diagnostics if d["code"] != "CT801"]  # provenance drift names any edited file


def _score(root: Path) -> dict:
    before = tree_digest(root)
    with hang_guard("score"):
        code, out, err = run_main("score", str(root / "corpus"), str(root / "results"), "--format", "json")
    assert code == 0 and "internal error" not in err, (code, err)
    assert tree_digest(root) == before
    return json.loads(out)


def _verdict(report: dict, fixture_id: str) -> dict:
    return next(f for f in report["fixtures"] if f["id"] == fixture_id)


def _messages(diagnostics: list[dict], path: Path, code: str) -> list[str]:
    return [d["message"] for d in diagnostics if d["code"] == code and _same(d["path"], path)]


# -- alias bombs ----------------------------------------------------------------------------------

def test_alias_bomb_in_a_sidecar(tree):
    sidecar = _first(tree / "corpus" / "expected")
    sidecar.write_text(BOMB)
    assert any("alias bomb" in m for m in _messages(_lint(tree), sidecar, "CT002"))
    verdict = _verdict(_score(tree), sidecar.stem)
    assert verdict["verdict"] == "FAIL" and "alias bomb" in verdict["reasons"][0]
    assert verdict["reasons"][0].startswith("sidecar-invalid")


def test_alias_bomb_in_corpus_yaml(tree):
    spec = tree / "corpus" / "corpus.yaml"
    spec.write_text(BOMB)
    assert any("alias bomb" in m for m in _messages(_lint(tree), spec, "CT003"))
    assert any("alias bomb" in w and "corpus.yaml" in w for w in _score(tree)["corpus_warnings"])


def test_alias_bomb_in_session_frontmatter(tree):
    session = _first(tree / "corpus" / "sessions")
    session.write_text(f"---\n{BOMB}---\n[USER]: Hello there.\n")
    assert any("alias bomb" in m for m in _messages(_lint(tree), session, "CT001"))
    _score(tree)


# -- huge files and lines -------------------------------------------------------------------------

def test_50_mb_result_file_is_refused_unread(tree):
    result = _first(tree / "corpus" / "expected").stem
    path = tree / "results" / f"{result}.json"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write('{"practice": [], "map": [], "padding": "' + "x" * (50 * 1024 * 1024) + '"}\n')
    verdict = _verdict(_score(tree), result)
    assert verdict["verdict"] == "FAIL"
    assert any(r.startswith("invalid-result") and "byte limit" in r and path.name in r for r in verdict["reasons"])


def test_50_mb_session_is_refused_unread(tree):
    session = _first(tree / "corpus" / "sessions")
    with open(session, "a", encoding="utf-8") as handle:
        handle.write("[USER]: " + "lorem ipsum " * (50 * 1024 * 1024 // 12) + "\n")
    assert any("byte limit" in m for m in _messages(_lint(tree), session, "CT001"))
    _score(tree)


def test_1_mb_single_line_turn_is_scanned(tree):
    """A one-line 1 MB turn (prose, dots, digits, @ and backticks that tempt every pattern) still
    gets its secrets found, at the start and at the very end of the line."""
    session = _first(tree / "corpus" / "sessions")
    filler = "".join(("lorem ipsum dolor. ", "a.b.c.", "1.2.3.", "x@y ", "`a_b ", "+1 (2) 3-4 ")[i % 6]
                     for i in range(120_000))
    line = f"[USER]: {SECRET} {filler} {SECRET[:-1]}Q"
    assert len(line) > 1_000_000
    session.write_text(session.read_text() + line + "\n")
    secrets = _messages(_lint(tree), session, "CT501")
    assert len(secrets) >= 2, secrets
    _score(tree)


# -- symbolic links -------------------------------------------------------------------------------

@pytest.fixture
def outside(tmp_path, tree) -> Path:
    """A folder outside the corpus holding a session with a secret: read, it would be flagged."""
    folder = tmp_path / "outside"
    folder.mkdir()
    session = _first(tree / "corpus" / "sessions").read_text()
    (folder / "leak.md").write_text(session.replace("[USER]: ", f"[USER]: {SECRET} ", 1))
    (folder / "leak.yaml").write_text(_first(tree / "corpus" / "expected").read_text())
    return folder


def test_symlinked_session_is_reported_and_not_followed(tree, outside):
    link = tree / "corpus" / "sessions" / _first(tree / "corpus" / "sessions").name
    link.unlink()
    link.symlink_to(outside / "leak.md")
    before = tree_digest(outside)
    diagnostics = _lint(tree)
    assert any("symbolic link" in m and "not followed" in m for m in _messages(diagnostics, link, "CT001"))
    assert not [d for d in diagnostics if d["code"] == "CT501"], "the link was followed: its secret was read"
    assert tree_digest(outside) == before


def test_symlinked_sidecar_and_folder_are_reported(tree, outside):
    sidecar = _first(tree / "corpus" / "expected")
    sidecar.unlink()
    sidecar.symlink_to(outside / "leak.yaml")
    assert any("symbolic link" in m for m in _messages(_lint(tree), sidecar, "CT002"))
    shutil.rmtree(tree / "corpus" / "expected")
    (tree / "corpus" / "expected").symlink_to(outside, target_is_directory=True)
    assert any("symbolic link" in m for m in _messages(_lint(tree), tree / "corpus" / "expected", "CT002"))


def test_score_reports_a_symlinked_sidecar(tree, outside):
    sidecar = _first(tree / "corpus" / "expected")
    sidecar.unlink()
    sidecar.symlink_to(outside / "leak.yaml")
    report = _score(tree)
    verdict = _verdict(report, sidecar.stem)
    assert verdict["verdict"] == "FAIL"
    assert any(r.startswith("sidecar-invalid") and "symbolic link" in r for r in verdict["reasons"]), verdict


def test_symlinked_result_is_reported_and_not_followed(tree, outside):
    fixture_id = _first(tree / "corpus" / "expected").stem
    result = tree / "results" / f"{fixture_id}.json"
    if result.exists():
        result.unlink()
    (outside / "good.json").write_text('{"practice": [], "map": []}\n')
    result.symlink_to(outside / "good.json")
    verdict = _verdict(_score(tree), fixture_id)
    assert verdict["verdict"] == "FAIL"
    assert any(r.startswith("invalid-result") and "symbolic link" in r for r in verdict["reasons"]), verdict
