"""Adversarial review of lint's caches (issue 36): cases where a cache holds what it must not.

Each test here is a bug found in review, marked xfail(strict=True) until it is fixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.bench import run_main

# A secret the scan finds only by its context (CT502: a value assigned to `password`): alone, with
# no `password =` beside it, it is a random-looking word no shape rule (and so no redaction) knows.
SECRET = "Tq7vLm2pXz9wKr4s"


def _corpus_quoting_a_context_secret(tmp_path: Path) -> Path:
    """`corpustools init`'s corpus, whose admit-map session assigns SECRET to a password and whose
    sidecar lists SECRET as a term of its point (as a label author pastes what the session says)."""
    root = tmp_path / "corpus"
    assert run_main("init", str(root))[0] == 0
    session = root / "sessions" / "admit-map-01.md"
    session.write_text(session.read_text() + f'[USER]: The staging db password = "{SECRET}" for now.\n')
    sidecar = root / "expected" / "admit-map-01.yaml"
    text = sidecar.read_text()
    assert "      - verify.py\n" in text
    sidecar.write_text(text.replace("      - verify.py\n", f"      - verify.py\n      - {SECRET}\n"))
    return root


@pytest.mark.xfail(strict=True, reason="review: a secret the scan found by its context (CT502) is quoted by a "
                                       "term rule's message (CT603) and that message is written, unredacted, "
                                       "to the lint-3 entry and the replay entry in the cache folder")
def test_no_cache_file_holds_a_secret_the_scan_found_by_its_context(tmp_path, monkeypatch):
    root = _corpus_quoting_a_context_secret(tmp_path)
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    code, out, _ = run_main("lint", "--cache-dir", str(cache), str(root.name))
    assert code == 1
    assert "CT502" in out  # the scan did find the secret (by its context), and reports its fingerprint only there
    held = [path for path in cache.rglob("*") if path.is_file() and SECRET.encode() in path.read_bytes()]
    assert held == [], f"cache files holding the secret's text: {[str(p.relative_to(cache)) for p in held]}"
