"""lint's cache (issue 36): what lint reports with the cache is what it reports without it, byte for
byte, cold, warm and after any file changes; the cache lives outside every corpus, holds nothing a
finding matched, and a corrupt, foreign, concurrent or untrusted entry or folder is never trusted.

Each lint here runs in this process (tests/support/bench.run_main) from a copy of the corpus, with
the cache folder named by --cache-dir (or --no-cache), so no test shares the suite's cache.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from corpustools.lint import cache as lint_cache
from corpustools.lint.engine import Selection, build_context, corpus_config, rule_digest
from corpustools.lint.families import templates
from corpustools.lint.registry import rule_modules
from corpustools.lint.rules import term_case
from corpustools.lint.secrets import findings as secret_findings
from corpustools.lint.secrets import scan as secret_scan
from corpustools.lint.secrets.redaction import redact_secrets
from corpustools.model.corpus import load_corpus
from corpustools.model.prompt import TextSource
from tests.support.bench import run_main, tree_digest, write_generated
from tests.support.corpus import ADMIT_ID, REJECT_ID, write_corpus
from tests.support.secrets_cases import MUST_FLAG

REPO = Path(__file__).resolve().parent.parent
FORMATS = ("text", "json", "json-summary", "github", "sarif")
KEY = "AKIAZ7Q2M4XK9PLR3T8W"  # an AWS access key id's shape: CT501


def lint(*argv: str, cache: Path | None, format: str = "json") -> tuple[int, str, str]:
    """`corpustools lint --format FORMAT ARGV...` with the cache folder `cache` (None: --no-cache)."""
    chosen = ["--cache-dir", str(cache)] if cache is not None else ["--no-cache"]
    return run_main("lint", "--format", format, *chosen, *argv)


@pytest.fixture(autouse=True)
def per_file_only(monkeypatch) -> None:
    """The per-file entries alone, in every test here: the whole-run replay (tests/test_lint_replay.py)
    would answer a lint of an unchanged corpus before they are read, and a warm lint would then
    prove nothing of them. A run is still recorded (its entry is written), only never replayed."""
    from corpustools.lint import replay

    monkeypatch.setattr(replay.Recording, "replay", lambda self, out, err: None)


@pytest.fixture
def views(monkeypatch) -> list[str]:
    """The paths the secret scan views (and scans) in each lint, in order: what the cache spares."""
    seen: list[str] = []
    real = secret_scan.viewed

    def counting(file):
        seen.append(file.path)
        return real(file)

    monkeypatch.setattr(secret_findings, "viewed", counting)
    monkeypatch.setattr(secret_scan, "viewed", counting)  # without the cache, scan.scanned_files views
    return seen


def same_with_and_without(cache: Path, *argv: str, format: str = "json", views: list[str] | None = None) -> str:
    """The report of `lint ARGV...` with the cache, checked to be the one without it (and the exit
    code and standard error too). `views`: left holding what the lint with the cache viewed."""
    uncached = lint(*argv, cache=None, format=format)
    if views is not None:
        views.clear()
    cached = lint(*argv, cache=cache, format=format)
    assert cached == uncached
    return cached[1]


def _append(path: Path, line: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(line + "\n")


def _first(root: Path, pattern: str, otherwise: str) -> Path:
    """The first file `pattern` matches under `root`, else the new file `otherwise`."""
    found = sorted(root.glob(pattern))
    return found[0] if found else root / otherwise


# One edit of each kind of file: each plants something a rule reports, so a cache that skipped the
# changed file would lose a finding. A corpus without such a file gets a new one.
EDITS = {
    "session": lambda root: _append(_first(root, "sessions/*.md", "sessions/x.md"), f"USER: my key is {KEY}"),
    "sidecar": lambda root: _append(_first(root, "expected/*.yaml", "expected/x.yaml"), "# DB_PASSWORD=Tr0ub4dor3"),
    "gold": lambda root: _append(_first(root, "gold/*.json", "gold/x.json"), f'{{"note": "{KEY}"}}'),
    "corpus.yaml": lambda root: _append(root / "corpus.yaml", "# mail webteam@fernhollow.org about it"),
    "run file": lambda root: _append(_first(root, "runs/*/*.json", "runs/r1/x.json"),
                                     '{"answer": "Call +44 20 7946 0123 today"}'),
}


def check_cold_warm_and_edits(cache: Path, root: Path, views: list[str], *argv: str) -> None:
    """Cold, warm and after each edit of EDITS: the same report with the cache as without; warm, the
    secret scan views fewer files than cold (only those with a finding); after an edit, the edited
    file is scanned again."""
    cold = same_with_and_without(cache, str(root), *argv, views=views)
    every = len(views)
    assert same_with_and_without(cache, str(root), *argv, views=views) == cold
    assert len(views) < every, "the warm lint scanned every file again"
    for kind, edit in EDITS.items():
        before = tree_digest(root)
        edit(root)
        changed = {name for name, digest in tree_digest(root).items() if before.get(name) != digest}
        assert len(changed) == 1, kind
        report = same_with_and_without(cache, str(root), *argv, views=views)
        assert report != cold, f"editing a {kind} file changed nothing lint reports"
        scanned = {os.path.relpath(path, root).replace(os.sep, "/") for path in views}
        assert changed <= scanned, f"the edited {kind} file was not scanned again"
        assert len(views) < every
        cold = report


@pytest.fixture
def repository_copy(tmp_path, monkeypatch) -> Path:
    """fixtures/ and authoring/ (the provenance records the corpora name) copied; the working folder."""
    top = tmp_path / "copy"
    for folder in ("fixtures", "authoring"):
        shutil.copytree(REPO / folder, top / folder)
    monkeypatch.chdir(top)
    return top


@pytest.mark.parametrize("corpus", sorted(path.name for path in (REPO / "fixtures").iterdir()
                                          if (path / "corpus.yaml").exists()))
def test_the_shipped_corpora_lint_the_same_cold_warm_and_after_edits(corpus, repository_copy, tmp_path, views):
    check_cold_warm_and_edits(tmp_path / "cache", Path("fixtures") / corpus, views)


def test_every_format_prints_the_same_bytes_cold_and_warm(repository_copy, tmp_path):
    root = "fixtures/prompt-eval"
    _append(repository_copy / root / "sessions" / "admit-convention-01.md", f"USER: my key is {KEY}")
    for format in FORMATS:
        cache = tmp_path / f"cache-{format}"
        cold = same_with_and_without(cache, root, format=format)
        assert same_with_and_without(cache, root, format=format) == cold
        assert lint(root, cache=cache, format=format)[1] == cold


def test_a_generated_corpus_of_1000_fixtures_lints_the_same_cold_warm_and_after_edits(tmp_path, monkeypatch, views):
    out = write_generated(tmp_path / "gen", 1000, seed=0)
    monkeypatch.chdir(out)
    check_cold_warm_and_edits(tmp_path / "cache", Path("corpus"), views, "--prompt", "prompt.md", "--kb", "kb")


def test_the_planted_defect_corpus_lints_the_same_cold_warm_and_after_edits(tmp_path, monkeypatch, views):
    out = write_generated(tmp_path / "gen", 80, seed=7, defects=1)  # tests/test_golden.py's corpus
    monkeypatch.chdir(out)
    check_cold_warm_and_edits(tmp_path / "cache", Path("corpus"), views, "--prompt", "prompt.md", "--kb", "kb")


def test_the_cache_holds_no_matched_text(tmp_path, monkeypatch, views):
    """Every secret shape the scan must flag, planted in a session, a sidecar (and as its terms, which
    the term rules quote), a run file and a file name: the cache holds each finding (its fingerprint, so a warm lint scans no file again)
    but no cache file holds any planted secret, nor the part of one a finding matched beyond what
    the report itself shows."""
    lines = "\n".join(case.text for case in MUST_FLAG)
    root = write_corpus(tmp_path / "corpus", {"notes.md": lines + "\n", "runs/r1/out.json": json.dumps(lines)})
    _append(root / "sessions" / f"{ADMIT_ID}.md", lines)
    _append(root / "expected" / f"{ADMIT_ID}.yaml", "\n".join(f"# {case.text}" for case in MUST_FLAG))
    # and as the terms of a labelled point, which the term rules (of fixture scope) quote in their messages
    sidecar = root / "expected" / f"{REJECT_ID}.yaml"
    terms = "".join(f"      - {json.dumps(case.text)}\n" for case in MUST_FLAG)
    sidecar.write_text(sidecar.read_text().replace(
        "expected_points: []\n", f"expected_points:\n  - id: keys\n    type: practice\n    must_match_all:\n{terms}"))
    _append(root / "corpus.yaml", "lint:\n  max_findings_per_file: 0")  # every finding reported: none folded
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    code, report, _ = lint("corpus", cache=cache)
    found = json.loads(report)
    assert code == 1 and len({d["code"] for d in found}) >= 5
    assert any(d["code"].startswith("CT6") and d["path"].endswith(f"{REJECT_ID}.yaml") for d in found)
    views.clear()
    assert lint("corpus", cache=cache)[1] == report
    assert views == [], "a file with a finding was scanned again"
    assert (cache / "CACHEDIR.TAG").read_text() == lint_cache.TAG_TEXT  # the one other file: a constant
    assert list(cache.glob(f"{lint_cache.REPLAY_ENTRIES}/*.json")), "no replay entry: the grep below must read one"
    held = b"".join(path.read_bytes() for path in cache.rglob("*") if path.is_file() and path.name != "CACHEDIR.TAG")
    assert held
    entry = json.loads(_entry(cache).read_bytes())
    messages = [finding[3] for findings in entry["files"].values() for finding in findings]
    reported = "\n".join(diagnostic["message"] for diagnostic in found)
    # A cached message is a reported one as the finder wrote it (the report redacts it once more):
    # the file's key, an int or a fingerprint is all else an entry holds.
    assert messages and all(redact_secrets(message) in reported for message in messages)
    text = held.decode("ascii") + "\n".join(messages)
    for case in MUST_FLAG:
        for secret in (case.text, case.text[case.text.index(case.start):][:12], case.start):
            if len(secret) >= 6 and secret not in reported:
                assert secret not in text, secret
    for diagnostic in found:
        if "fingerprint " in diagnostic["message"]:
            fingerprint = diagnostic["message"].rsplit("fingerprint ", 1)[-1].strip("…")
            assert len(fingerprint) >= 8 and fingerprint.encode() in held  # the finding is cached
    assert root.exists()


def test_a_file_with_a_finding_is_not_scanned_again_and_an_edit_rescans_it(tmp_path, views):
    root, _ = _secret_corpus(tmp_path)
    cache = tmp_path / "cache"
    cold = same_with_and_without(cache, str(root), views=views)
    assert KEY[:4] in cold
    assert same_with_and_without(cache, str(root), views=views) == cold and views == []
    session = root / "sessions" / f"{ADMIT_ID}.md"
    session.write_text(session.read_text().replace(KEY, "a key I removed"))
    edited = same_with_and_without(cache, str(root), views=views)
    assert KEY[:4] not in edited and views == [str(session)]


def test_no_cache_reads_and_writes_nothing(tmp_path, monkeypatch, views):
    root = write_corpus(tmp_path / "corpus")
    cache = tmp_path / "cache"
    monkeypatch.setenv("CORPUSTOOLS_CACHE_DIR", str(cache))
    assert run_main("lint", "--no-cache", str(root))[0] == 0
    assert run_main("lint", "--no-cache", str(root))[0] == 0
    assert not cache.exists()
    assert len(views) == 2 * len(set(views)), "--no-cache scanned a file only once in two lints"
    assert run_main("lint", str(root))[0] == 0  # the environment's folder, without --cache-dir
    assert list(cache.glob(f"{lint_cache.ENTRIES}/*.json"))


def test_nothing_is_written_inside_the_corpus(tmp_path, monkeypatch):
    root = write_corpus(tmp_path / "corpus", {"notes.md": f"key {KEY}\n"})
    before = tree_digest(root)
    for _ in range(2):
        assert lint(str(root), cache=tmp_path / "cache")[0] == 1
    assert tree_digest(root) == before
    assert {p.name for p in tmp_path.iterdir()} == {"corpus", "cache"}


@pytest.mark.parametrize("inside", ["", "sessions", "runs/cache"])
def test_a_cache_folder_inside_the_corpus_is_refused(tmp_path, inside):
    root = write_corpus(tmp_path / "corpus")
    before = tree_digest(root)
    code, out, err = lint(str(root), cache=root / inside if inside else root)
    assert code == 2 and "is inside the corpus" in err and "--no-cache" in err and err.count("\n") == 1
    assert tree_digest(root) == before and not (root / "runs").exists()


def test_a_cache_folder_inside_another_corpus_is_refused(tmp_path):
    root = write_corpus(tmp_path / "corpus")
    other = write_corpus(tmp_path / "other")
    code, _, err = lint(str(root), cache=other / "notes" / "cache")
    assert code == 2 and f"is inside the corpus {other}" in err and not (other / "notes").exists()


def _entry(cache: Path) -> Path:
    entries = list(cache.glob(f"{lint_cache.ENTRIES}/*.json"))
    assert len(entries) == 1
    return entries[0]


def _secret_corpus(tmp_path: Path) -> tuple[Path, str]:
    """A corpus whose session holds a key, and that file's cache key."""
    session = f"sessions/{ADMIT_ID}.md"
    root = write_corpus(tmp_path / "corpus")
    text = (root / session).read_text() + f"USER: my key is {KEY}\n"
    (root / session).write_text(text)
    return root, lint_cache.file_key(session, text)


BROKEN_ENTRIES = {
    "empty": lambda entry, key: b"",
    "truncated": lambda entry, key: entry[: len(entry) // 2],
    "not JSON": lambda entry, key: b"\x00\xff garbage",
    "another format": lambda entry, key: entry.replace(b'"format":"corpustools-lint-cache"', b'"format":"other"'),
    "another code": lambda entry, key: _forged(key, code="0" * 64),
    "a bad key": lambda entry, key: _forged(key, files={key: [], "x": []}),
    "a bad finding": lambda entry, key: _forged(key, files={key: [["CT501", 1, "1", "a key", "0" * 64]]}),
    "the first layout": lambda entry, key: json.dumps(
        {"format": lint_cache.FORMAT, "code": lint_cache.code_identity(), "clean": [key]}).encode(),
    "the second layout": lambda entry, key: json.dumps(
        {"format": lint_cache.FORMAT, "code": lint_cache.code_identity(), "files": {key: []}}).encode(),
    "extra field": lambda entry, key: _forged(key, more=1),
    "deep nesting": lambda entry, key: b"[" * 100_000,
    # the fixture findings of an entry otherwise right (lint-3): each malformed part voids the entry
    "a bad rule digest": lambda entry, key: _forged(key, rules={"CT603": "x" * 64}),
    "a bad rule code": lambda entry, key: _forged(key, rules={"CT6033": "0" * 64}),
    "a fixture finding of no rule": lambda entry, key: _forged(key, fixtures={"0" * 64: {"CT603": []}}),
    "a fixture finding in a third file": lambda entry, key: _forged(
        key, rules={"CT603": "0" * 64}, fixtures={"0" * 64: {"CT603": [[2, 1, 1, "a term"]]}}),
    "a fixture finding without a message": lambda entry, key: _forged(
        key, rules={"CT603": "0" * 64}, fixtures={"0" * 64: {"CT603": [[1, 1, 1]]}}),
    "a bad fixture key": lambda entry, key: _forged(key, rules={"CT603": "0" * 64}, fixtures={"fixture": {}}),
    # and its sessions' skeletons (families/templates.session_skeletons)
    "a skeleton without its word count": lambda entry, key: _forged(
        key, skeletons={"0" * 64: [["user", [[1, 1, "a * b", 3]]]]}),
    "a skeleton of a speaker that is no name": lambda entry, key: _forged(
        key, skeletons={"0" * 64: [[1, [[1, 1, "a * b", 3, 2]]]]}),
    "a skeleton at a negative column": lambda entry, key: _forged(
        key, skeletons={"0" * 64: [["user", [[1, -1, "a * b", 3, 2]]]]}),
    "a skeleton without its key": lambda entry, key: _forged(key, skeletons=[]),
    # and CT702's near pairs (families/templates.held_near_pairs)
    "a near pair scored as text": lambda entry, key: _forged(key, near={"0" * 64: [[0, 1, "90.0"]]}),
    "a near pair of a negative index": lambda entry, key: _forged(key, near={"0" * 64: [[-1, 1, 90.0]]}),
    "a near pair without its score": lambda entry, key: _forged(key, near={"0" * 64: [[0, 1]]}),
    "near pairs without their key": lambda entry, key: _forged(key, near=[]),
    "the third layout, without near pairs": lambda entry, key: json.dumps(
        {"format": lint_cache.FORMAT, "code": lint_cache.code_identity(), "files": {key: []}, "rules": {},
         "fixtures": {}, "skeletons": {}}).encode(),
}


def _forged(key: str, **fields: object) -> bytes:
    """An entry that names the key of the file holding a secret as clean, with `fields` replaced or added."""
    entry = {"format": lint_cache.FORMAT, "code": lint_cache.code_identity(), "files": {key: []},
             "rules": {}, "fixtures": {}, "skeletons": {}, "near": {}}
    return json.dumps({**entry, **fields}).encode()


@pytest.mark.parametrize("broken", sorted(BROKEN_ENTRIES))
def test_a_broken_entry_is_ignored_and_rewritten(broken, tmp_path, views):
    """An entry that is not exactly what this code writes is never trusted, even one that names the
    key of a file holding a secret; the secret is found, and the entry rewritten."""
    root, key = _secret_corpus(tmp_path)
    cache = tmp_path / "cache"
    expected = lint(str(root), cache=None)
    every = len(views)
    assert expected[0] == 1 and KEY[:4] in expected[1]
    assert lint(str(root), cache=cache) == expected
    entry = _entry(cache)
    entry.write_bytes(BROKEN_ENTRIES[broken](entry.read_bytes(), key))
    views.clear()
    assert lint(str(root), cache=cache) == expected
    assert len(views) == every  # nothing of the entry trusted: every file scanned
    assert json.loads(entry.read_bytes())["code"] == lint_cache.code_identity()
    assert lint(str(root), cache=cache) == expected


def test_a_linked_or_foreign_entry_is_ignored(tmp_path, views):
    root, key = _secret_corpus(tmp_path)
    cache = tmp_path / "cache"
    assert lint(str(root), cache=cache)[0] == 1
    entry = _entry(cache)
    forged = tmp_path / "forged.json"
    forged.write_bytes(_forged(key))
    entry.unlink()
    entry.symlink_to(forged)
    assert lint(str(root), cache=cache)[0] == 1, "an entry read through a link was trusted"
    assert not entry.is_symlink() and forged.read_text().count(key) == 1  # replaced, the link's target untouched
    if os.getuid() == 0:  # only root can give a file to another user
        entry.write_text(forged.read_text())
        os.chown(entry, 12345, 12345)
        assert lint(str(root), cache=cache)[0] == 1, "another user's entry was trusted"


def test_an_unwritable_cache_still_lints(tmp_path):
    root = write_corpus(tmp_path / "corpus")
    cache = tmp_path / "cache"
    assert lint(str(root), cache=cache)[0] == 0
    entries = cache / lint_cache.ENTRIES
    shutil.rmtree(entries)
    entries.write_text("a file where the folder of entries was")
    assert lint(str(root), cache=cache) == lint(str(root), cache=None)


def test_concurrent_lints_never_tear_an_entry(tmp_path):
    """Several processes lint the same corpus with one cache at once, while the corpus changes
    between rounds: each prints what a lint without the cache prints, and the entry stays whole."""
    root, _ = _secret_corpus(tmp_path)
    cache = tmp_path / "cache"
    command = [sys.executable, "-m", "corpustools", "lint", "--format", "json", "--cache-dir", str(cache), str(root)]
    for round in range(3):
        _append(root / "notes.md", f"note {round}: password = hunter{round}x")
        expected = lint(str(root), cache=None)[1]
        processes = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
        for process in processes:
            out, err = process.communicate(timeout=300)
            assert (process.returncode, out.decode(), err.decode()) == (1, expected, "")
        entry = json.loads(_entry(cache).read_bytes())
        assert entry["code"] == lint_cache.code_identity()
        assert not [p for p in cache.rglob("*.tmp")]


def test_writes_are_atomic_and_private(tmp_path):
    root = write_corpus(tmp_path / "corpus")
    cache = tmp_path / "cache"
    assert lint(str(root), cache=cache)[0] == 0
    assert oct(cache.stat().st_mode & 0o777) == oct(0o700)
    for path in cache.rglob("*"):
        assert oct(path.stat().st_mode & 0o777) == oct(0o700 if path.is_dir() else 0o600), path
    assert (cache / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777])
def test_a_cache_folder_others_may_write_is_refused(tmp_path, mode):
    root = write_corpus(tmp_path / "corpus")
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(mode)
    code, out, err = lint(str(root), cache=cache)
    assert code == 2 and out == "" and "may be written by others" in err and "chmod 700" in err
    assert err.count("\n") == 1 and list(cache.iterdir()) == []
    assert run_main("cache", "clean", "--cache-dir", str(cache))[0] == 2


def test_a_cache_folder_of_another_user_or_no_folder_is_refused(tmp_path):
    root = write_corpus(tmp_path / "corpus")
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    code, _, err = lint(str(root), cache=not_a_folder)
    assert code == 2 and "cache folder" in err and err.count("\n") == 1
    if os.getuid() == 0:
        theirs = tmp_path / "theirs"
        theirs.mkdir(mode=0o700)
        os.chown(theirs, 12345, 12345)
        code, _, err = lint(str(root), cache=theirs)
        assert code == 2 and "belongs to another user" in err


def test_the_default_folder(monkeypatch, tmp_path):
    home = str(tmp_path / "home")
    monkeypatch.setenv("HOME", home)
    assert lint_cache.default_cache_dir({}) == os.path.join(home, ".cache", "corpustools")
    assert lint_cache.default_cache_dir({"XDG_CACHE_HOME": "/x/cache"}) == "/x/cache/corpustools"
    assert lint_cache.default_cache_dir({"XDG_CACHE_HOME": "relative"}) == os.path.join(home, ".cache", "corpustools")
    assert lint_cache.default_cache_dir({"XDG_CACHE_HOME": "/x", "CORPUSTOOLS_CACHE_DIR": "/y"}) == "/y"


def test_lint_uses_the_default_folder_without_options(tmp_path, monkeypatch):
    root = write_corpus(tmp_path / "corpus")
    monkeypatch.delenv("CORPUSTOOLS_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert run_main("lint", str(root))[0] == 0
    assert list((tmp_path / "xdg" / "corpustools" / lint_cache.ENTRIES).glob("*.json"))


def test_cache_clean_removes_only_what_lint_wrote(tmp_path):
    root = write_corpus(tmp_path / "corpus")
    cache = tmp_path / "cache"
    assert lint(str(root), cache=cache)[0] == 0
    keep = [cache / "mine.txt", cache / lint_cache.ENTRIES / "notes.json"]
    for path in keep:
        path.write_text("keep")
    assert run_main("cache", "clean", "--cache-dir", str(cache)) == (  # the corpus's entry and the run's replay
        0, f"Removed 2 cache entries from {cache}.\n", "")
    assert sorted(cache.rglob("*")) == sorted([*keep, cache / lint_cache.ENTRIES, cache / "CACHEDIR.TAG"])
    for path in keep:
        path.unlink()
    assert run_main("cache", "clean", "--cache-dir", str(cache))[1] == f"Removed 0 cache entries from {cache}.\n"
    assert not cache.exists()  # only lint's own names were left: the folder is gone
    assert run_main("cache", "clean", "--cache-dir", str(cache))[0] == 0  # nothing to clean


def test_the_hook_lints_the_index_through_the_cache(tmp_path, monkeypatch, views):
    """lint --staged keys files by their staged text: the second hook run scans only the staged
    change, and reports what a hook run without the cache reports."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from tests.test_lint_staged import GIT_ENV, git

    top = tmp_path / "work"
    write_corpus(top / "corpus")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "clean")
    monkeypatch.chdir(top)
    cache = tmp_path / "cache"
    hook = ("--whole-corpus", "--skip-outside-corpora", "--staged", "--")
    session = f"corpus/sessions/{ADMIT_ID}.md"
    _append(top / session, f"USER: my key is {KEY}")
    git(top, "add", session)
    first = same_with_and_without(cache, *hook, session)
    assert KEY[:4] in first
    assert same_with_and_without(cache, *hook, session, views=views) == first
    assert views == []  # the file with a finding too: its findings are cached
    (top / session).write_text("changed on disk, not staged\n")  # the index is what is linted
    assert lint(*hook, session, cache=cache)[1] == first


def test_the_api_uses_a_cache_only_when_asked(tmp_path, views):
    from corpustools import api

    root = write_corpus(tmp_path / "corpus")
    cache = tmp_path / "cache"
    assert api.lint(root).exit_code == 0
    assert not cache.exists()
    first = api.lint(root, cache_dir=cache)
    views.clear()
    assert api.lint(root, cache_dir=cache) == first
    assert views == [] and list(cache.glob(f"{lint_cache.ENTRIES}/*.json"))


def test_a_well_formed_entry_is_trusted(tmp_path, views):
    """The control of BROKEN_ENTRIES: the entry each of them breaks one part of is trusted as it
    is (here, to the point of hiding the session's key: whoever can write the cache can hide a
    finding, which is why the folder must be the user's own; docs/performance.md)."""
    root, key = _secret_corpus(tmp_path)
    cache = tmp_path / "cache"
    assert lint(str(root), cache=cache)[0] == 1
    _entry(cache).write_bytes(_forged(key))
    views.clear()
    code, report, _ = lint(str(root), cache=cache)
    assert KEY[:4] not in report and str(root / "sessions" / f"{ADMIT_ID}.md") not in views


# -- the findings of rules of fixture scope (lint/registry.SCOPES), held per fixture ------------------

@pytest.fixture
def term_case_runs(monkeypatch) -> list[list[str]]:
    """The fixtures CT603 (term-case, a rule of fixture scope) was run on, one list per run of its
    check: what the cache spares is what it is not run on."""
    runs: list[list[str]] = []
    real = term_case.check

    def counting(ctx, options):
        runs.append(ctx.corpus.fixture_ids)
        return real(ctx, options)

    monkeypatch.setattr(term_case, "check", counting)
    return runs


def _lint_checks(cache: Path, runs: list[list[str]], *argv: str) -> list[list[str]]:
    """The fixtures CT603 was run on by `lint ARGV...` with the cache, whose report is checked to
    be the one without it (same_with_and_without)."""
    runs.clear()
    same_with_and_without(cache, *argv)
    return runs[1:]  # the first run of CT603 is the lint without the cache


def test_a_fixture_is_checked_again_only_when_its_files_change(tmp_path, monkeypatch, term_case_runs):
    out = write_generated(tmp_path / "gen", 30, seed=5)
    monkeypatch.chdir(out)
    argv = ("corpus", "--prompt", "prompt.md", "--kb", "kb")
    every = load_ids(out / "corpus")
    cache = tmp_path / "cache"
    assert _lint_checks(cache, term_case_runs, *argv) == [every]  # cold: every fixture
    assert _lint_checks(cache, term_case_runs, *argv) == []  # warm: none
    sidecar = sorted((out / "corpus" / "expected").glob("*.yaml"))[3]
    _append(sidecar, "# reviewed")
    assert _lint_checks(cache, term_case_runs, *argv) == [[sidecar.stem]]  # one sidecar edited: its fixture
    session = sorted((out / "corpus" / "sessions").glob("*.md"))[7]
    _append(session, "[USER]: One more thing about the queue.")
    assert _lint_checks(cache, term_case_runs, *argv) == [[session.stem]]
    session.unlink()  # a fixture that lost its session is another fixture
    assert _lint_checks(cache, term_case_runs, *argv) == [[session.stem]]
    assert _lint_checks(cache, term_case_runs, *argv) == []
    # what every fixture's findings depend on besides its files: corpus.yaml (a rule's options
    # are set there), the prompt, the KB, and the rule's options
    for edit in (lambda: _append(out / "corpus" / "corpus.yaml", "# reviewed"),
                 lambda: _append(out / "prompt.md", "One more sentence of the prompt for the tests here."),
                 lambda: _append(sorted((out / "kb").glob("*.md"))[0], "One more sentence of the KB for the tests.")):
        edit()
        assert _lint_checks(cache, term_case_runs, *argv) == [load_ids(out / "corpus")]
        assert _lint_checks(cache, term_case_runs, *argv) == []
    _append(out / "corpus" / "corpus.yaml", "  rules:\n    CT610:\n      max_words: 2")
    assert "lint:\n" in (out / "corpus" / "corpus.yaml").read_text()
    assert _lint_checks(cache, term_case_runs, *argv) == [load_ids(out / "corpus")]


def load_ids(root: Path) -> list[str]:
    return load_corpus(str(root)).fixture_ids


def test_a_rule_digest_moves_with_its_options_and_what_it_reads(tmp_path):
    root = write_corpus(tmp_path / "corpus")
    rules = rule_modules()
    corpus = load_corpus(str(root))
    ctx = build_context(corpus, corpus_config(corpus, rules), Selection())
    brittle = next(rule for rule in rules if rule.CODE == "CT610")
    options = brittle.Options(max_words=4)
    digest = rule_digest(ctx, brittle, options)
    assert rule_digest(ctx, brittle, options) == digest
    assert rule_digest(ctx, brittle, brittle.Options(max_words=5)) != digest
    assert rule_digest(ctx, next(rule for rule in rules if rule.CODE == "CT603"), options) != digest
    assert rule_digest(replace(ctx, prompt=TextSource("p.md", "A prompt.")), brittle, options) != digest
    assert rule_digest(replace(ctx, kb=(TextSource("kb/a.md", "A KB."),)), brittle, options) != digest
    edited = load_corpus(str(write_corpus(tmp_path / "other", {"corpus.yaml": (root / "corpus.yaml").read_text()
                                                                + "# a comment\n"})))
    assert rule_digest(replace(ctx, corpus=edited), brittle, options) != digest


POINT_IGNORES = """\
lint:
  per_point_ignores:
    - point: expire-via-queue
      codes: [CT603, CT605]
      reason: tests
"""


def test_per_point_ignores_and_ct615_see_the_held_findings(tmp_path, term_case_runs):
    """A held CT603 finding is switched off at its point as a fresh one is, and CT615 still sees
    the entry used for CT603 (and not for CT605) when CT603 did not run on that fixture."""
    root = write_corpus(tmp_path / "corpus")
    sidecar = root / "expected" / f"{ADMIT_ID}.yaml"
    sidecar.write_text(sidecar.read_text().replace("- queue worker", "- Queue worker"))
    (root / "corpus.yaml").write_text((root / "corpus.yaml").read_text() + POINT_IGNORES)
    cache = tmp_path / "cache"
    cold = same_with_and_without(cache, str(root))
    found = [(d["code"], d["message"]) for d in json.loads(cold)]
    assert not any(code == "CT603" for code, _ in found)
    assert [message for code, message in found if code == "CT615"] == [
        "lint.per_point_ignores: CT605 finds nothing at point 'expire-via-queue'; remove CT605 from this entry"]
    term_case_runs.clear()
    assert same_with_and_without(cache, str(root)) == cold
    assert term_case_runs == [[ADMIT_ID, REJECT_ID]]  # only the lint without the cache ran CT603
    _append(root / "expected" / f"{REJECT_ID}.yaml", "# reviewed")
    term_case_runs.clear()
    assert same_with_and_without(cache, str(root)) == cold
    assert term_case_runs == [[ADMIT_ID, REJECT_ID], [REJECT_ID]]
    # without the ignore, the held finding is reported
    (root / "corpus.yaml").write_text((root / "corpus.yaml").read_text().replace(POINT_IGNORES, ""))
    assert any(d["code"] == "CT603" for d in json.loads(same_with_and_without(cache, str(root))))


def test_a_fixture_whose_message_quotes_a_secret_is_never_held(tmp_path, term_case_runs):
    """CT603's message quotes its term; a term that is a key makes a message redaction changes: that
    fixture's findings are not written to the cache (it is checked again every run), the others are."""
    root = write_corpus(tmp_path / "corpus")
    sidecar = root / "expected" / f"{ADMIT_ID}.yaml"
    sidecar.write_text(sidecar.read_text().replace("- queue worker", f"- {KEY}"))
    cache = tmp_path / "cache"
    cold = same_with_and_without(cache, str(root))
    assert any(d["code"] == "CT603" for d in json.loads(cold)) and KEY not in cold
    held = b"".join(path.read_bytes() for path in cache.rglob("*.json"))
    assert KEY.encode() not in held and KEY[4:].encode() not in held
    entry = json.loads(_entry(cache).read_bytes())
    assert "CT603" in entry["rules"] and len(entry["fixtures"]) == 1  # the other fixture's
    term_case_runs.clear()
    assert same_with_and_without(cache, str(root)) == cold
    assert term_case_runs == [[ADMIT_ID, REJECT_ID], [ADMIT_ID]]


@pytest.fixture
def splits(monkeypatch) -> list[str]:
    """The sessions split into sentences (families/templates.split_session), by file name, in each lint."""
    seen: list[str] = []
    real = templates.split_session

    def counting(session):
        seen.append(os.path.basename(session.path))
        return real(session)

    monkeypatch.setattr(templates, "split_session", counting)
    return seen


def test_session_skeletons_are_held_except_a_file_with_a_secret(tmp_path, monkeypatch, splits):
    """CT701, CT702 and CT705 compare the skeletons of every session: a warm lint splits no session
    again, an edited session alone is split again, and a session in which the secret scan found
    something is split every run, none of its skeletons held (they keep the sentence's words)."""
    out = write_generated(tmp_path / "gen", 30, seed=5)
    monkeypatch.chdir(out)
    cache = tmp_path / "cache"
    same_with_and_without(cache, "corpus")
    splits.clear()
    same_with_and_without(cache, "corpus")
    every = sorted((out / "corpus" / "sessions").glob("*.md"))
    assert set(splits) == {path.name for path in every}  # the lint without the cache
    assert len(splits) == len(every)  # the lint with it split none
    session = every[4]
    _append(session, "[USER]: One more thing about the queue worker and the expired signups.")
    splits.clear()
    same_with_and_without(cache, "corpus")
    assert len(splits) > len(every) and set(splits[len(every):]) == {session.name}
    _append(session, f"[USER]: my key is {KEY}")
    same_with_and_without(cache, "corpus")
    held = b"".join(path.read_bytes() for path in cache.rglob("*.json"))
    assert KEY.encode() not in held
    splits.clear()
    same_with_and_without(cache, "corpus")
    assert len(splits) > len(every) and set(splits[len(every):]) == {session.name}


def test_an_entry_over_the_size_cap_drops_the_skeletons_then_the_fixtures_never_the_secret_scan(
        tmp_path, monkeypatch, views):
    root, key = _secret_corpus(tmp_path)
    cache = tmp_path / "cache"
    full = lint(str(root), cache=cache)
    entry = json.loads(_entry(cache).read_bytes())
    assert entry["skeletons"] and entry["fixtures"] and key in entry["files"]
    size = _entry(cache).stat().st_size
    without_skeletons = len(json.dumps({**entry, "skeletons": {}}, separators=(",", ":")))
    for cap, kept in ((without_skeletons, {"fixtures"}), (without_skeletons - 1, set())):
        shutil.rmtree(cache)
        monkeypatch.setattr(lint_cache, "MAX_ENTRY_BYTES", cap)
        assert lint(str(root), cache=cache) == full
        entry = json.loads(_entry(cache).read_bytes())
        assert _entry(cache).stat().st_size <= cap < size and key in entry["files"]
        assert {part for part in ("skeletons", "fixtures") if entry[part]} == kept
        views.clear()
        assert lint(str(root), cache=cache) == full and views == []  # read back: no file scanned again


def test_split_skeletons_are_held_by_reference_and_written_without_their_text(tmp_path):
    """A session split this run is noted as the template rules hold it (no second copy of every
    sentence for the entry) and written as the held form: each sentence's position, skeleton and
    counts, never its words; one held from the last run is written back as it was."""
    from corpustools.lint.families.skeleton import Sentence

    split = (("user", (Sentence(3, 9, "my * id is *", 4, 2, "my user id is 42"),
                       Sentence(3, 27, "it is wrong", 3, 3, "It is wrong."))), (None, ()))
    held = (("assistant", ((7, 1, "the * is ready", 4, 3),)),)
    path = tmp_path / "cache" / lint_cache.ENTRIES / f"{'e' * 64}.json"
    cache = lint_cache.CorpusCache(str(path), skeletons_known={"b" * 64: held})
    assert cache.skeletons("b" * 64) == held
    cache.note_skeletons("a" * 64, split)
    assert cache.skeletons_seen["a" * 64] is split
    cache.save()
    text = path.read_text()
    assert "my user id is 42" not in text and "It is wrong." not in text
    assert lint_cache._read_entry(str(path))[2] == {
        "a" * 64: (("user", ((3, 9, "my * id is *", 4, 2), (3, 27, "it is wrong", 3, 3))), (None, ())),
        "b" * 64: held}


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc: a folder nobody (not even root) can make")
def test_a_default_cache_folder_that_cannot_be_made_changes_no_lint(tmp_path, monkeypatch):
    """A home lint cannot write (HOME=/ in a container, a read-only home): lint runs without a cache,
    as with --no-cache (found in review: it exited 2). A folder that exists but is not to be trusted
    is still refused (the tests of check_folder above)."""
    assert run_main("init", str(tmp_path / "corpus"))[0] == 0
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CORPUSTOOLS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/proc/corpustools-review-no-such-home/.cache")  # mkdir: ENOENT, even as root
    without = run_main("lint", "--no-cache", "corpus")
    assert without[0] == 0
    assert run_main("lint", "corpus") == without


# -- CT702's near pairs (families/templates.held_near_pairs) -----------------------------------------

@pytest.fixture
def searches(monkeypatch) -> list[int]:
    """How many skeletons CT702's near-pair search was given, search by search, in each lint."""
    seen: list[int] = []
    real = templates.near_pairs

    def counting(texts, threshold):
        seen.append(len(texts))
        return real(texts, threshold)

    monkeypatch.setattr(templates, "near_pairs", counting)
    return seen


def test_near_pairs_are_searched_again_only_when_a_skeleton_changes(tmp_path, monkeypatch, searches):
    """The hook's case: an edited sidecar leaves every session's skeletons as they were, so CT702's
    search is not run again (nor rapidfuzz imported), and what lint reports is what it reports
    without the cache; an edited session, or another threshold, searches again."""
    out = write_generated(tmp_path / "gen", 80, seed=7, defects=1)  # near-identical templates planted
    monkeypatch.chdir(out)
    cache = tmp_path / "cache"
    report = same_with_and_without(cache, "corpus")
    assert '"code": "CT702"' in report
    assert len(searches) == 2  # the lint without the cache and the cold one
    searches.clear()
    _append(_first(Path("corpus"), "expected/*.yaml", ""), "# a one-line change, as in a commit")
    same_with_and_without(cache, "corpus")
    assert len(searches) == 1  # without the cache only
    held = json.loads(_entry(cache).read_bytes())["near"]
    assert len(held) == 1 and all(isinstance(n, (int, float)) for pairs in held.values() for pair in pairs for n in pair)

    session = sorted(Path("corpus/sessions").glob("*.md"))[3]
    _append(session, "[USER]: Every branch id is the ILS location code, lowercased, and nothing else at all.")
    searches.clear()
    same_with_and_without(cache, "corpus")
    assert len(searches) == 2
    spec = Path("corpus/corpus.yaml")
    spec.write_text(spec.read_text().replace("lint:\n", "lint:\n  rules:\n    template-near: {threshold: 95}\n"))
    searches.clear()
    same_with_and_without(cache, "corpus")
    assert len(searches) == 2


def test_held_near_pairs_out_of_range_are_searched_again(tmp_path, monkeypatch, searches):
    """A held pair naming a skeleton the run does not have (a forged entry) is never used: the
    search runs again, and CT702 never crashes on it."""
    out = write_generated(tmp_path / "gen", 80, seed=7, defects=1)
    monkeypatch.chdir(out)
    cache = tmp_path / "cache"
    report = same_with_and_without(cache, "corpus")
    entry = json.loads(_entry(cache).read_bytes())
    (key, pairs), = entry["near"].items()
    entry["near"] = {key: [*pairs, [0, 10**6, 99.0]]}
    _entry(cache).write_text(json.dumps(entry))
    searches.clear()
    assert same_with_and_without(cache, "corpus") == report
    assert len(searches) == 2
