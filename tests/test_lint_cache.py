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
from pathlib import Path

import pytest

from corpustools.lint import cache as lint_cache
from corpustools.lint.secrets import findings as secret_findings
from corpustools.lint.secrets import scan as secret_scan
from corpustools.lint.secrets.redaction import redact_secrets
from tests.support.bench import run_main, tree_digest, write_generated
from tests.support.corpus import ADMIT_ID, write_corpus
from tests.support.secrets_cases import MUST_FLAG

REPO = Path(__file__).resolve().parent.parent
FORMATS = ("text", "json", "json-summary", "github", "sarif")
KEY = "AKIAZ7Q2M4XK9PLR3T8W"  # an AWS access key id's shape: CT501


def lint(*argv: str, cache: Path | None, format: str = "json") -> tuple[int, str, str]:
    """`corpustools lint --format FORMAT ARGV...` with the cache folder `cache` (None: --no-cache)."""
    chosen = ["--cache-dir", str(cache)] if cache is not None else ["--no-cache"]
    return run_main("lint", "--format", format, *chosen, *argv)


@pytest.fixture
def per_file_only(monkeypatch) -> None:
    """The per-file entries alone: the whole-run replay (tests/test_lint_replay.py) would answer a
    lint of an unchanged corpus before they are read."""
    from corpustools.lint import replay

    monkeypatch.setattr(replay, "lookup", lambda words: None)


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
    """Every secret shape the scan must flag, planted in a session, a sidecar, a run file and a
    file name: the cache holds each finding (its fingerprint, so a warm lint scans no file again)
    but no cache file holds any planted secret, nor the part of one a finding matched beyond what
    the report itself shows."""
    lines = "\n".join(case.text for case in MUST_FLAG)
    root = write_corpus(tmp_path / "corpus", {"notes.md": lines + "\n", "runs/r1/out.json": json.dumps(lines)})
    _append(root / "sessions" / f"{ADMIT_ID}.md", lines)
    _append(root / "expected" / f"{ADMIT_ID}.yaml", "\n".join(f"# {case.text}" for case in MUST_FLAG))
    _append(root / "corpus.yaml", "lint:\n  max_findings_per_file: 0")  # every finding reported: none folded
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    code, report, _ = lint("corpus", cache=cache)
    found = json.loads(report)
    assert code == 1 and len({d["code"] for d in found}) >= 5
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
    "another code": lambda entry, key: json.dumps(
        {"format": lint_cache.FORMAT, "code": "0" * 64, "files": {key: []}}).encode(),
    "a bad key": lambda entry, key: json.dumps(
        {"format": lint_cache.FORMAT, "code": lint_cache.code_identity(), "files": {key: [], "x": []}}).encode(),
    "a bad finding": lambda entry, key: json.dumps(
        {"format": lint_cache.FORMAT, "code": lint_cache.code_identity(),
         "files": {key: [["CT501", 1, "1", "a key", "0" * 64]]}}).encode(),
    "the old layout": lambda entry, key: json.dumps(
        {"format": lint_cache.FORMAT, "code": lint_cache.code_identity(), "clean": [key]}).encode(),
    "extra field": lambda entry, key: json.dumps(
        {"format": lint_cache.FORMAT, "code": lint_cache.code_identity(), "files": {key: []}, "more": 1}).encode(),
    "deep nesting": lambda entry, key: b"[" * 100_000,
}


@pytest.mark.parametrize("broken", sorted(BROKEN_ENTRIES))
def test_a_broken_entry_is_ignored_and_rewritten(broken, tmp_path, views, per_file_only):
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


def test_a_linked_or_foreign_entry_is_ignored(tmp_path, views, per_file_only):
    root, key = _secret_corpus(tmp_path)
    cache = tmp_path / "cache"
    assert lint(str(root), cache=cache)[0] == 1
    entry = _entry(cache)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({"format": lint_cache.FORMAT, "code": lint_cache.code_identity(), "files": {key: []}}))
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
