"""Adversarial review of lint's caches (issue 36): cases where a cache (or the report) held what it
must not. Each test here is a bug found in review, and now fixed: a secret value the scan found by
its context, quoted by another rule's message (lint/secrets/quoted.py)."""

from __future__ import annotations

from pathlib import Path

from tests.support.bench import run_main

# A secret the scan finds only by its context (CT502: a value assigned to `password`): alone, with
# no `password =` beside it, it is a random-looking word no shape rule (and so no redaction) knows.
SECRET = "Tq7vLm2pXz9wKr4s"


def _init(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    assert run_main("init", str(root))[0] == 0
    return root


def _quote_in_a_term(root: Path, secret: str = SECRET) -> None:
    """The admit-map sidecar lists `secret` as a term of its point (as a label author pastes what
    the session says)."""
    sidecar = root / "expected" / "admit-map-01.yaml"
    text = sidecar.read_text()
    assert "      - verify.py\n" in text
    sidecar.write_text(text.replace("      - verify.py\n", f"      - verify.py\n      - {secret}\n"))


def _say_in(root: Path, fixture_id: str, line: str) -> None:
    session = root / "sessions" / f"{fixture_id}.md"
    session.write_text(session.read_text() + f"[USER]: {line}\n")


def _cache_files_holding(cache: Path, secret: str) -> list[str]:
    return [str(path.relative_to(cache)) for path in cache.rglob("*")
            if path.is_file() and secret.encode() in path.read_bytes()]


def _lint(cache: Path | None, root: Path, fmt: str = "text") -> tuple[int, str, str]:
    where = ("--cache-dir", str(cache)) if cache is not None else ("--no-cache",)
    return run_main("lint", *where, "--format", fmt, root.name)


def test_no_cache_file_holds_a_secret_the_scan_found_by_its_context(tmp_path, monkeypatch):
    root = _init(tmp_path)
    _say_in(root, "admit-map-01", f'The staging db password = "{SECRET}" for now.')
    _quote_in_a_term(root)
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    code, out, _ = _lint(cache, root)
    assert code == 1
    assert "CT502" in out  # the scan did find the secret (by its context), and reports its fingerprint only there
    assert _cache_files_holding(cache, SECRET) == []


def test_a_value_found_by_its_context_is_masked_where_a_message_quotes_it_with_or_without_the_cache(
        tmp_path, monkeypatch):
    """CT603 quotes the term (`term '…' is not lowercase; write '…'`), as written and lowercased:
    both are cut as redaction cuts a secret, the same cold, warm and with --no-cache, in every format."""
    root = _init(tmp_path)
    _say_in(root, "admit-map-01", f'The staging db password = "{SECRET}" for now.')
    _quote_in_a_term(root)
    monkeypatch.chdir(tmp_path)
    for fmt in ("text", "json", "sarif", "github"):
        cache = tmp_path / f"cache-{fmt}"
        reports = [_lint(None, root, fmt), _lint(cache, root, fmt), _lint(cache, root, fmt)]
        assert reports[0] == reports[1] == reports[2], fmt
        code, out, err = reports[0]
        assert code == 1 and SECRET not in out + err and SECRET.lower() not in out + err, fmt
        assert _cache_files_holding(cache, SECRET) == [] and _cache_files_holding(cache, SECRET.lower()) == []
    text = _lint(None, root)[1]
    assert "must_match_all term 'Tq7v…' is not lowercase; write 'tq7v…'" in text


def test_a_held_finding_quoting_a_value_found_later_elsewhere_is_dropped(tmp_path, monkeypatch):
    """A term held in the cache before any session assigned it to a password (it was then just a
    word) is no longer held once another fixture's session does, and is masked in the report."""
    root = _init(tmp_path)
    _quote_in_a_term(root)
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    code, out, _ = _lint(cache, root)
    assert f"term '{SECRET}' is not lowercase" in out  # a word like any other, so far
    _say_in(root, "mixed-salvage-01", f"the deploy token = {SECRET}")  # another fixture: admit-map-01's key holds
    expected = _lint(None, root)
    assert "CT502" in expected[1] and SECRET not in expected[1]
    assert _lint(cache, root) == expected
    assert _cache_files_holding(cache, SECRET) == []
    assert _lint(cache, root) == expected


def test_an_allowed_finding_still_masks_its_value(tmp_path, monkeypatch):
    """`lint: secrets: allow:` silences the CT502 finding, not the value: another rule's message
    still cuts it."""
    root = _init(tmp_path)
    _say_in(root, "admit-map-01", f'The staging db password = "{SECRET}" for now.')
    _quote_in_a_term(root)
    monkeypatch.chdir(tmp_path)
    out = _lint(None, root)[1]
    fingerprint = next(line for line in out.splitlines() if "CT502" in line).rsplit("fingerprint ", 1)[1]
    spec = root / "corpus.yaml"
    spec.write_text(spec.read_text() + "lint:\n  secrets:\n    allow:\n"
                    f"      - file: sessions/admit-map-01.md\n        fingerprint: {fingerprint}\n"
                    "        reason: a made-up staging password\n")
    code, out, err = _lint(None, root)
    assert "CT502" not in out and "CT509" not in out, out
    assert "term 'Tq7v…' is not lowercase" in out and SECRET not in out + err


def test_a_password_in_a_url_is_masked_where_a_term_quotes_it(tmp_path, monkeypatch):
    password = "Hx8rQw2LmZ5v"
    root = _init(tmp_path)
    _say_in(root, "admit-map-01", f"it connects with postgres://app:{password}@db.internal.example:5432/app")
    _quote_in_a_term(root, password)
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    expected = _lint(None, root)
    assert "CT503" in expected[1] and password not in expected[1] + expected[2]
    assert "term 'Hx8r…' is not lowercase" in expected[1]
    assert _lint(cache, root) == expected == _lint(cache, root)
    assert _cache_files_holding(cache, password) == []


def test_a_value_of_one_corpus_quoted_by_another_linted_with_it_is_masked(tmp_path, monkeypatch):
    """One lint of two corpora: the password is in the first, the term quoting it in the second.
    The report and both corpora's cache entries never show it."""
    first, second = _init(tmp_path / "a"), _init(tmp_path / "b")
    _say_in(first, "admit-map-01", f'The staging db password = "{SECRET}" for now.')
    _quote_in_a_term(second)
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    paths = (str(first.relative_to(tmp_path)), str(second.relative_to(tmp_path)))
    expected = run_main("lint", "--no-cache", *paths)
    assert expected[0] == 1 and "CT502" in expected[1] and "term 'Tq7v…' is not lowercase" in expected[1]
    assert SECRET not in expected[1] + expected[2]
    assert run_main("lint", "--cache-dir", str(cache), *paths) == expected
    assert run_main("lint", "--cache-dir", str(cache), *paths) == expected
    assert _cache_files_holding(cache, SECRET) == []


def test_a_session_sentence_saying_a_passphrase_found_elsewhere_is_not_held(tmp_path, monkeypatch):
    """The sentence skeletons the template rules hold keep a session's words: a session that says a
    passphrase CT502 found in another file is held without them."""
    phrase = "purple monkey dishwasher lamp"
    root = _init(tmp_path)
    (root / "notes.md").write_text(f'The staging login: password = "{phrase}"\n')
    _say_in(root, "admit-map-01", f"remember {phrase} for the staging box login before you deploy")
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    expected = _lint(None, root)
    assert "CT502" in expected[1] and phrase not in expected[1]
    assert _lint(cache, root) == expected == _lint(cache, root)
    assert _cache_files_holding(cache, phrase) == []


def test_a_fix_note_never_shows_a_value_found_by_its_context(tmp_path, monkeypatch):
    """`lint --diff` and `--fix` say each fix on standard error (`CT603 would fix: '…' written as
    '…'`): the value is masked there as in the report. (The patch itself shows the file's own lines,
    as `git diff` does: it is the user's file, asked for.)"""
    root = _init(tmp_path)
    _say_in(root, "admit-map-01", f'The staging db password = "{SECRET}" for now.')
    _quote_in_a_term(root)
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main("lint", "--no-cache", "--diff", root.name)
    assert "CT603 would fix" in err and SECRET not in err and SECRET.lower() not in err, err


def test_a_replay_entry_recorded_before_the_value_was_found_is_removed(tmp_path, monkeypatch):
    """`lint b` records its output (b's term, a plain word then); `lint a b` finds the term is a's
    password: the earlier entry of `lint b`, which printed it, is removed from the cache folder."""
    first, second = _init(tmp_path / "a"), _init(tmp_path / "b")
    _say_in(first, "admit-map-01", f'The staging db password = "{SECRET}" for now.')
    _quote_in_a_term(second)
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    alone = run_main("lint", "--cache-dir", str(cache), str(second.relative_to(tmp_path)))
    assert f"term '{SECRET}' is not lowercase" in alone[1]
    both = run_main("lint", "--cache-dir", str(cache), str(first.relative_to(tmp_path)),
                    str(second.relative_to(tmp_path)))
    assert both[0] == 1 and SECRET not in both[1]
    assert _cache_files_holding(cache, SECRET) == []
