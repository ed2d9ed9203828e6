"""lint's cache (issue 36): what an unchanged file cost last time, kept in the user's cache folder so
the next lint (the pre-commit hook above all) does not redo it.

What is cached, per corpus:
- the secret scan's findings of each file. The scan (CT501-CT507: every file and folder under the
  corpus, in every view) is most of what lint computes per file; a file whose path and text are the
  same as last time is not viewed nor scanned again, and its findings are the ones held: rule code,
  line, column, the finder's message (which quotes no more of what matched than a vendor prefix or a
  key's name, as the report does) and the fingerprint (the sha256 the report prints) -- never the
  text matched. Its key is the sha256 of its path relative to the corpus and its text as read;
- the raw findings of each rule of fixture scope (registry.SCOPES) in each fixture: which of the
  fixture's two files (session, sidecar), line, column and message, as the rule yielded them (before
  per_point_ignores, severities, folding and redaction, which apply to them each run as to fresh
  ones). A fixture's key is the sha256 of its session's and its sidecar's file keys; a rule's digest
  (`rules`) the sha256 of its code, its options and what else it may read (corpus.yaml's text, the
  output schema's digest, the prompt's and KB's paths and texts): held findings are used only when
  both match (engine.fixture_problems). A fixture one of whose messages redaction would change (a
  message quoting a secret) is never held: it is checked again each run;
- each session's sentence skeletons (line, column, skeleton, token and word counts of each
  sentence of each turn, with the turn's speaker; never the text), keyed by the sha256 of the
  session's file key and corpus.yaml's text, for the rules that compare skeletons across fixtures
  (families/templates.session_skeletons); none of a session the secret scan found or could not
  fully read something in;
- the near-identical pairs CT702 found among all those skeletons (families/templates.held_near_pairs):
  two indexes into the sorted skeletons and the score of each pair, keyed by the sha256 of the
  threshold and every skeleton; never a skeleton's text. A one-file change that leaves every
  session's skeletons as they were (a sidecar edited) then neither searches them again nor imports
  rapidfuzz.
Every file is still read and hashed on every run, and every rule of corpus scope runs as before: a
changed byte is always re-checked, and what lint reports is the same with the cache as without it.

A whole run is cached too, by lint/replay.py: when a lint's command line and every input it reads
are as they were at the last lint of that command line, its output is the last output. Its
entries, `replay-1/<key>.json`, live in the same folder, are read with `read_entry_json` and
written with `write_private` as these are, and `cache clean` removes them.

Where: `--cache-dir DIR`, else `CORPUSTOOLS_CACHE_DIR`, else `$XDG_CACHE_HOME/corpustools`, else
`~/.cache/corpustools`; never inside a corpus it lints. One entry per corpus (named by the sha256 of
its real path), `lint-4/<64 hex>.json`: its format, the code identity it was made by (corpustools'
version, the Python version and the package's files), each file's secret findings by key (with the
key of each value found by its context: secrets/quoted.py) and each fixture's findings by key,
each session's skeletons by key and the near pairs by key, only those of the last run (an edited
file's old key is dropped; `lint-1/` held keys of clean files only, `lint-2/` the secret findings
only, `lint-3/` secret findings without their values' keys: none is read, and `cache clean`
removes them). Written atomically (a temporary file
renamed over it), 0600 in a 0700 folder; read only when it is a regular file of the user's own,
never through a link, within a size cap, strictly parsed. A corrupt, truncated, foreign or
unreadable entry is ignored (every file is then scanned) and rewritten; concurrent lints each
rename a whole entry into place, so none is ever torn. A cache folder that is not a folder of the
user's own, or that others may write to, is refused (a ConfigError: exit 2), since whoever can
write an entry can make lint skip or misreport a file's secrets (docs/performance.md, "The cache").
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii as _ascii_string  # a str as JSON, quotes included (C)
from typing import Any, Protocol

import corpustools
from corpustools.io.errors import ConfigError
from corpustools.io.positions import Pos
from corpustools.io.writing import write_private
from corpustools.lint.secrets.quoted import SecretValues, ValueKey, is_value_key
from corpustools.model.locate import corpus_root_of

ENVIRONMENT = "CORPUSTOOLS_CACHE_DIR"
FORMAT = "corpustools-lint-cache"
ENTRIES = "lint-4"  # the folder of this layout's entries: a new layout takes a new name
OLD_ENTRIES = ("lint-1", "lint-2", "lint-3")  # older layouts' folders: never read, removed by `cache clean`
REPLAY_ENTRIES = "replay-1"  # the whole-run entries of lint/replay.py (same names: <64 hex>.json)
MAX_ENTRY_BYTES = 64 * 2**20  # 10,000 clean fixtures' keys are about 1.5 MB
TAG = "CACHEDIR.TAG"  # https://bford.info/cachedir/: backup tools skip the folder
TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
            "# This file is a cache directory tag created by corpustools (lint's cache).\n"
            "# For information about cache directory tags see https://bford.info/cachedir/\n")


def default_cache_dir(environ: Mapping[str, str] | None = None) -> str:
    """The cache folder when --cache-dir is not given: CORPUSTOOLS_CACHE_DIR, else
    $XDG_CACHE_HOME/corpustools (an absolute XDG_CACHE_HOME only, as the XDG spec says), else
    ~/.cache/corpustools."""
    environ = os.environ if environ is None else environ
    if environ.get(ENVIRONMENT):
        return environ[ENVIRONMENT]
    xdg = environ.get("XDG_CACHE_HOME", "")
    base = xdg if os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "corpustools")


def _refused(folder: str, why: str) -> ConfigError:
    return ConfigError(Pos(""), f"cache folder {folder} {why}; lint never trusts such a cache "
                                "(choose another with --cache-dir, or lint with --no-cache)")


def check_folder(folder: str) -> os.stat_result:
    """The cache folder's status when it is a folder the user owns and no one else may write to;
    ConfigError otherwise. Whoever can write an entry can make lint skip a file's secret scan."""
    try:
        info = os.stat(folder)
    except OSError as err:
        raise _refused(folder, f"cannot be read ({err.strerror or err})") from None
    if not stat.S_ISDIR(info.st_mode):
        raise _refused(folder, "is not a folder")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise _refused(folder, "belongs to another user")
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise _refused(folder, f"may be written by others (mode {stat.S_IMODE(info.st_mode):o}; chmod 700 it)")
    return info


def refuse_inside_corpus(folder: str) -> None:
    """ConfigError when the cache folder is a corpus or inside one (the one linted, or any other):
    lint writes nothing into a corpus, and its secret scan reads every file there."""
    corpus = corpus_root_of(os.path.realpath(folder))
    if corpus is not None:
        raise ConfigError(Pos(""), f"cache folder {folder} is inside the corpus {corpus}; lint never writes into "
                                   "a corpus (choose another with --cache-dir, or lint with --no-cache)")


# What lint's results depend on besides corpustools itself: the libraries it reads, parses and
# matches with. Each is found, never imported (a replayed lint loads none of them).
DEPENDENCIES = ("yaml", "jsonschema", "re2", "rapidfuzz", "numpy", "snowballstemmer")


def _files_identity(top: str) -> str:
    """The name, size and modification time of every file under `top` (compiled files apart)."""
    found = []
    for folder, folders, names in os.walk(top):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(names):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(folder, name)
            try:
                info = os.stat(path)
            except OSError:
                continue
            found.append(f"{os.path.relpath(path, top)}\0{info.st_size}\0{info.st_mtime_ns}\n")
    return "".join(found)


def _dependency_identity(name: str) -> str:
    """Where the library `name` is installed and its module file's size and modification time
    (a reinstall or an upgrade rewrites it), found without importing it; "-" when it is not."""
    import importlib.util  # importlib.util: only to find the libraries, never to import them

    try:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        info = os.stat(origin) if origin else None
    except (ImportError, ValueError, OSError):
        return f"{name}\0-"
    return f"{name}\0{origin}\0{info.st_size}\0{info.st_mtime_ns}" if info else f"{name}\0-"


@functools.cache
def code_identity() -> str:
    """What made an entry: corpustools' version, the Python version (its `re` and `unicodedata`),
    every file of the package (its name, size and modification time), so that a changed finder,
    even in an editable install whose version did not move, never trusts an entry an older one
    made, and where each library lint uses is installed, and in which version (DEPENDENCIES)."""
    package = os.path.dirname(os.path.abspath(corpustools.__file__))
    digest = hashlib.sha256(f"{corpustools.__version__}\0{sys.version}\0".encode())
    digest.update("\n".join(_dependency_identity(name) for name in DEPENDENCIES).encode("utf-8", "surrogatepass"))
    digest.update(_files_identity(package).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def file_key(relative: str, text: str) -> str:
    """A file's key: the sha256 of its path relative to the corpus (POSIX) and its text as read
    (the finders read the name and the extension too)."""
    return hashlib.sha256(relative.encode("utf-8", "surrogatepass") + b"\0"
                          + text.encode("utf-8", "surrogatepass")).hexdigest()


def _is_key(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _is_code(value: object) -> bool:
    return isinstance(value, str) and len(value) == 5 and value.startswith("CT") and value[2:].isdigit()


# One secret finding of a file as the cache holds it: (rule code, line, column, message,
# fingerprint, the keys of its secret value). The message is the finding's own, which shows no more
# of what matched than the report does (a vendor prefix at most); a key shows no more of the value
# than the message (secrets/quoted.py); the text matched is never held.
CachedFinding = tuple[str, int, int, str, str, tuple[ValueKey, ...]]


def _is_finding(value: object) -> bool:
    return (isinstance(value, list) and len(value) == 6 and _is_code(value[0])
            and all(type(n) is int and n >= 0 for n in value[1:3])
            and isinstance(value[3], str) and _is_key(value[4])
            and isinstance(value[5], list)
            and all(isinstance(key, list) and len(key) == 3 and is_value_key(*key) for key in value[5]))


def _cached_finding(found: list) -> CachedFinding:
    return (found[0], found[1], found[2], found[3], found[4], tuple(ValueKey(*key) for key in found[5]))


# One raw finding of a rule of fixture scope in a fixture: (which file: 0 its session, 1 its
# sidecar; line; column; message as the rule yielded it). Never held for a message that redaction
# would change.
FixtureFinding = tuple[int, int, int, str]
FixtureFindings = tuple[FixtureFinding, ...]


def _is_fixture_finding(value: object) -> bool:
    return (isinstance(value, list) and len(value) == 4 and value[0] in (0, 1) and type(value[0]) is int
            and all(type(n) is int and n >= 0 for n in value[1:3]) and isinstance(value[3], str))


# A session's sentence skeletons as the cache holds them (families/templates.session_skeletons):
# (speaker, ((line, column, skeleton, tokens, words), ...)) of each turn. The text is not held.
HeldSkeletons = tuple[tuple[str | None, tuple[tuple[int, int, str, int, int], ...]], ...]


class SplitSentence(Protocol):
    """A sentence as the template rules split it (families/skeleton.Skeleton or Sentence): the
    fields of it an entry holds (never its text)."""

    @property
    def line(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def skeleton(self) -> str: ...
    @property
    def tokens(self) -> int: ...
    @property
    def words(self) -> int: ...


# A session's skeletons as split this run, (speaker, sentences) of each turn: noted by reference to
# what the template rules hold for the run anyway, and turned into HeldSkeletons only as the entry
# is written (a second copy of every sentence's fields cost ~42 MiB at 10,000 fixtures).
SplitSkeletons = Sequence[tuple[str | None, Sequence[SplitSentence]]]


def _skeletons_json(turns: HeldSkeletons | SplitSkeletons) -> str:
    """A session's skeletons as an entry holds them (HeldSkeletons), whether held (already that)
    or split this run, as compact ASCII JSON: the text `json.dumps` gives the held form, written
    straight from the sentences (no tuple of each sentence's fields made first: 10,000 fixtures
    hold about 900,000 sentences)."""
    return "[" + ",".join(
        "[" + ("null" if speaker is None else _ascii_string(speaker)) + ",[" + ",".join(
            f"[{s[0]},{s[1]},{_ascii_string(s[2])},{s[3]},{s[4]}]" if isinstance(s, tuple)
            else f"[{s.line},{s.col},{_ascii_string(s.skeleton)},{s.tokens},{s.words}]" for s in sentences) + "]]"
        for speaker, sentences in turns) + "]"


# The near-identical pairs among a run's sorted skeletons (families/nearmatch.NearPair): (index of
# the one, index of the other, score). Indexes and scores only: no text is held.
HeldNearPairs = tuple[tuple[int, int, float], ...]


def _is_near_pairs(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(pair, list) and len(pair) == 3 and all(type(n) is int and n >= 0 for n in pair[:2])
        and type(pair[2]) is float for pair in value)


def _is_skeletons(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(turn, list) and len(turn) == 2 and (turn[0] is None or isinstance(turn[0], str))
        and isinstance(turn[1], list) and all(
            isinstance(s, list) and len(s) == 5 and isinstance(s[2], str)
            and all(type(n) is int and n >= 0 for n in (s[0], s[1], s[3], s[4])) for s in turn[1])
        for turn in value)


@dataclass
class Fixtures:
    """The raw findings of the rules of fixture scope: each rule's digest (code -> sha256 of what
    its findings depend on besides the fixture) and each fixture's findings (fixture key -> code ->
    its findings there; a code it does not name found nothing). A fixture key held means: every
    rule of `rules` was run on that fixture with that digest."""

    rules: dict[str, str] = field(default_factory=dict)
    found: dict[str, dict[str, FixtureFindings]] = field(default_factory=dict)


@dataclass
class CorpusCache:
    """One corpus's entry for one run: the secret scan's findings of each file, by file key, and
    the raw findings of each rule of fixture scope in each fixture, by fixture key, as last time
    (`known`, `fixtures_known`), and as found or confirmed this run (`seen`, `fixtures_seen`), which
    `save` writes when they differ (an edited file's old key is dropped)."""

    path: str
    known: dict[str, tuple[CachedFinding, ...]] = field(default_factory=dict)
    fixtures_known: Fixtures = field(default_factory=Fixtures)
    seen: dict[str, tuple[CachedFinding, ...]] = field(default_factory=dict)
    fixtures_seen: Fixtures = field(default_factory=Fixtures)
    fixtures_dropped: set[str] = field(default_factory=set)  # keys of fixtures never to hold this run
    skeletons_known: dict[str, HeldSkeletons] = field(default_factory=dict)
    skeletons_seen: dict[str, HeldSkeletons | SplitSkeletons] = field(default_factory=dict)
    near_known: dict[str, HeldNearPairs] = field(default_factory=dict)
    near_seen: dict[str, HeldNearPairs] = field(default_factory=dict)
    # code -> the keys of the fixtures that rule was noted in this run, in batches (`fixtures_seen.found`
    # holds only what was found: a clean fixture costs a list item, not a dict of its own per rule).
    fixtures_checked: dict[str, list[Iterable[str]]] = field(default_factory=dict)
    file_keys: dict[str, str] = field(default_factory=dict)  # path -> its file key, computed once a run

    def findings(self, key: str) -> tuple[CachedFinding, ...] | None:
        """What the secret scan found in the file of `key` last time (noted as used), or None when
        the cache does not know that file."""
        found = self.known.get(key)
        if found is not None:
            self.seen[key] = found
        return found

    def note(self, key: str, found: tuple[CachedFinding, ...]) -> None:
        """What the secret scan found in the file of `key` this run (empty: nothing)."""
        self.seen[key] = found

    def key_of(self, root: str, path: str, text: str) -> str:
        """The file key (file_key) of the corpus file at `path` under the corpus root `root`, whose
        text is `text`: computed once a run for each path (the fixtures' keys and the sessions'
        skeleton keys share it), as the corpus's texts do not change during a run."""
        key = self.file_keys.get(path)
        if key is None:
            relative = os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")
            key = self.file_keys[path] = file_key(relative, text)
        return key

    def holds_rule(self, code: str, digest: str) -> bool:
        """Whether the entry holds findings of the rule `code` made with `digest` (else every
        fixture is checked: fixture_findings would find none)."""
        return self.fixtures_known.rules.get(code) == digest

    def fixture_findings(self, code: str, digest: str, key: str) -> FixtureFindings | None:
        """What the rule `code` found last time in the fixture of `key` when it ran with `digest`
        (noted as used), or None when the cache does not hold that."""
        known = self.fixtures_known
        if known.rules.get(code) != digest or key not in known.found:
            return None
        found = known.found[key].get(code, ())
        self.note_fixture(code, key, found)
        return found

    def note_fixture(self, code: str, key: str, found: FixtureFindings) -> None:
        """What the rule `code` found in the fixture of `key` this run (empty: nothing)."""
        self.fixtures_checked.setdefault(code, []).append((key,))
        if found:
            self.fixtures_seen.found.setdefault(key, {})[code] = found

    def note_clean_fixtures(self, code: str, keys: Iterable[str]) -> None:
        """The rule `code` found nothing this run in the fixtures of `keys` (note_fixture of each,
        with nothing found, at the cost of a set update)."""
        self.fixtures_checked.setdefault(code, []).append(tuple(keys))

    def drop_fixture(self, key: str) -> None:
        """Hold nothing of the fixture of `key` (a message of it that redaction changes)."""
        self.fixtures_dropped.add(key)

    def skeletons(self, key: str) -> HeldSkeletons | None:
        """The sentence skeletons held for the session of `key` (noted as used), or None."""
        found = self.skeletons_known.get(key)
        if found is not None:
            self.skeletons_seen[key] = found
        return found

    def note_skeletons(self, key: str, skeletons: SplitSkeletons) -> None:
        """The sentence skeletons of the session of `key`, split this run (held by reference: the
        caller keeps them for the run, and they must not change)."""
        self.skeletons_seen[key] = skeletons

    def near_pairs(self, key: str) -> HeldNearPairs | None:
        """The near pairs held for the skeletons of `key` (noted as used), or None."""
        found = self.near_known.get(key)
        if found is not None:
            self.near_seen[key] = found
        return found

    def note_near_pairs(self, key: str, pairs: HeldNearPairs) -> None:
        """The near pairs found this run among the skeletons of `key`."""
        self.near_seen[key] = pairs

    def rule_done(self, code: str, digest: str) -> None:
        """The rule `code` ran to its end with `digest` and noted every fixture: its findings may be held."""
        self.fixtures_seen.rules[code] = digest

    def _fixtures_to_hold(self) -> Fixtures:
        """This run's fixtures whose findings every rule that ran to its end noted, none dropped."""
        rules = self.fixtures_seen.rules
        held: set[str] | None = None
        for code in rules or self.fixtures_checked:  # every rule's, or (none ran to its end) any rule's
            checked = {key for keys in self.fixtures_checked.get(code, ()) for key in keys}
            held = checked if held is None else (held & checked if rules else held | checked)
        held = held or set()
        found, nothing = self.fixtures_seen.found, dict[str, FixtureFindings]()
        codes = sorted(rules)
        by_key = {key: {code: by_code[code] for code in codes if code in by_code}
                  for key in sorted(held - self.fixtures_dropped) for by_code in (found.get(key, nothing),)}
        return Fixtures(dict(sorted(rules.items())), by_key)

    def _forget_quoting(self, values: SecretValues) -> None:
        """Hold no fixture finding and no session skeleton that quotes a secret value of `values`
        (secrets/quoted.py): a value found this run in another file, or another corpus linted with
        this one, after the finding or skeleton was made."""
        for key, by_code in self.fixtures_seen.found.items():
            if any(values.mask(f[3]) != f[3] for found in by_code.values() for f in found):
                self.fixtures_dropped.add(key)
        for key, turns in list(self.skeletons_seen.items()):
            skeletons = (s[2] if isinstance(s, tuple) else s.skeleton for _, sentences in turns for s in sentences)
            if any(values.mask(skeleton) != skeleton for skeleton in skeletons):
                del self.skeletons_seen[key]

    def save(self, values: SecretValues | None = None) -> None:
        """Write this run's findings when they changed, none quoting a secret value of `values`
        (every corpus's of the run); a cache that cannot be written is no error (the next lint
        scans again)."""
        if values:
            self._forget_quoting(values)
            forget_replays_quoting(os.path.dirname(os.path.dirname(self.path)), values)
        fixtures = self._fixtures_to_hold()
        if (self.seen == self.known and fixtures == self.fixtures_known and self.skeletons_seen == self.skeletons_known
                and self.near_seen == self.near_known):
            return
        entry: dict[str, object] = {
            "format": FORMAT, "code": code_identity(), "files": dict(sorted(self.seen.items())),
            "rules": fixtures.rules, "fixtures": fixtures.found, "skeletons": dict(sorted(self.skeletons_seen.items())),
            "near": dict(sorted(self.near_seen.items()))}
        # An entry over the size cap would never be read back: the skeletons go first (the largest
        # part: about 4 MB a thousand fixtures), then the fixtures' findings and the near pairs;
        # the secret scan's stay.
        for drop, limit in (((), MAX_ENTRY_BYTES), (("skeletons",), MAX_ENTRY_BYTES),
                            (("skeletons", "fixtures", "near"), None)):
            for part in drop:
                entry[part] = {}
                if part == "fixtures":
                    entry["rules"] = {}
            try:
                os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
                write_private(self.path, _entry_chunks(entry, limit, {"skeletons": _skeletons_json}))
            except _TooLarge:
                continue
            except OSError:
                pass
            return


def read_entry_json(path: str, limit: int) -> object:
    """The JSON value of the entry at `path`, or None when it is missing, unreadable, not the
    user's own regular file (a link is never followed), over `limit` bytes or not ASCII JSON:
    how every entry of the cache folder is read, before its fields are checked."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (not stat.S_ISREG(info.st_mode) or info.st_size > limit
                or (hasattr(os, "getuid") and info.st_uid != os.getuid())):
            return None
        with open(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) > limit:
        return None
    try:
        return json.loads(data.decode("ascii"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)


def forget_replays_quoting(folder: str, values: SecretValues) -> None:
    """Remove every replay entry (lint/replay.py) whose stored output quotes a secret value of
    `values`: one recorded before the value was found (by another command line, or before another
    corpus linted with this one held the password) printed it as a plain term. Only the names lint
    writes there are read; what cannot be read or removed is left (it is never replayed unless its
    inputs are unchanged, and the next lint of that command line rewrites it)."""
    entries = os.path.join(folder, REPLAY_ENTRIES)
    try:
        names = os.listdir(entries) if os.path.isdir(entries) and not os.path.islink(entries) else []
    except OSError:
        return
    for name in names:
        stem, dot, suffix = name.partition(".")
        if not (_is_key(stem) and dot and suffix == "json"):
            continue
        path = os.path.join(entries, name)
        if any(values.mask(text) != text for text in _strings(read_entry_json(path, MAX_ENTRY_BYTES))):
            try:
                os.unlink(path)
            except OSError:
                pass


class _TooLarge(Exception):
    """An entry being written grew past the size cap (its temporary file is removed)."""


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True)
_CHUNK_CHARACTERS = 2**20


def _entry_chunks(entry: dict[str, object], limit: int | None,
                  forms: Mapping[str, Callable[[Any], str]] | None = None) -> Iterator[bytes]:
    """The entry as JSON (compact, ASCII: the bytes `json.dumps` would give), in chunks of about a
    MiB: each value of a part that is an object is encoded on its own (by `forms[part]`, when
    given: a function from the value to its JSON text), so the whole text (40 MB at 10,000 fixtures) is never in
    memory, nor its bytes beside it. _TooLarge once past `limit` bytes."""
    forms = forms or {}

    def pieces() -> Iterator[str]:
        yield "{"
        for n, (name, value) in enumerate(entry.items()):
            yield ("," if n else "") + _ENCODER.encode(name) + ":"
            if not isinstance(value, dict):
                yield _ENCODER.encode(value)
                continue
            yield "{"
            form = forms.get(name)
            for i, (key, item) in enumerate(value.items()):
                yield ("," if i else "") + _ENCODER.encode(key) + ":" + (form(item) if form else _ENCODER.encode(item))
            yield "}"
        yield "}"

    written, pending, size = 0, [], 0
    for piece in pieces():
        pending.append(piece)
        size += len(piece)
        if size >= _CHUNK_CHARACTERS:
            written += size
            if limit is not None and written > limit:
                raise _TooLarge
            yield "".join(pending).encode("ascii")
            pending, size = [], 0
    if limit is not None and written + size > limit:
        raise _TooLarge
    yield "".join(pending).encode("ascii")


Entry = tuple[dict[str, tuple[CachedFinding, ...]], Fixtures, dict[str, HeldSkeletons], dict[str, HeldNearPairs]]


def _read_entry(path: str) -> Entry:
    """The findings an entry holds, or none when it is missing, unreadable, not the user's own
    regular file, too large, not strictly what this code writes or made by other code."""
    nothing: Entry = ({}, Fixtures(), {}, {})
    entry = read_entry_json(path, MAX_ENTRY_BYTES)
    if (not isinstance(entry, dict) or set(entry) != {"format", "code", "files", "rules", "fixtures", "skeletons", "near"}
            or entry["format"] != FORMAT or entry["code"] != code_identity()
            or not all(isinstance(entry[part], dict) for part in ("files", "rules", "fixtures", "skeletons", "near"))):
        return nothing
    files, rules, fixtures, skeletons = entry["files"], entry["rules"], entry["fixtures"], entry["skeletons"]
    near = entry["near"]
    if not all(_is_key(key) and isinstance(found, list) and all(_is_finding(f) for f in found)
               for key, found in files.items()):
        return nothing
    if not all(_is_code(code) and _is_key(digest) for code, digest in rules.items()):
        return nothing
    if not all(_is_key(key) and isinstance(by_code, dict)
               and all(code in rules and isinstance(found, list) and all(_is_fixture_finding(f) for f in found)
                       for code, found in by_code.items())
               for key, by_code in fixtures.items()):
        return nothing
    if not all(_is_key(key) and _is_skeletons(held) for key, held in skeletons.items()):
        return nothing
    if not all(_is_key(key) and _is_near_pairs(pairs) for key, pairs in near.items()):
        return nothing
    return ({key: tuple(_cached_finding(f) for f in found) for key, found in files.items()},
            Fixtures(rules, {key: {code: tuple((f[0], f[1], f[2], f[3]) for f in found)
                                   for code, found in by_code.items()}
                             for key, by_code in fixtures.items()}),
            {key: tuple((turn[0], tuple((s[0], s[1], s[2], s[3], s[4]) for s in turn[1])) for turn in held)
             for key, held in skeletons.items()},
            {key: tuple((pair[0], pair[1], pair[2]) for pair in pairs) for key, pairs in near.items()})


def prepare_folder(folder: str) -> bool:
    """Make the cache folder (0700) and its tag when missing, then check it (check_folder); False
    when it cannot be made (a missing or read-only home, a container's HOME=/): lint then runs
    without a cache, as a cache that cannot be written is no error. A folder that exists but lint
    must not trust is refused (ConfigError), never silently passed over."""
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        if not os.path.lexists(folder):  # something that is there but no folder is refused below
            return False
    check_folder(folder)
    tag = os.path.join(folder, TAG)
    if not os.path.lexists(tag):
        try:
            write_private(tag, TAG_TEXT.encode("ascii"))
        except OSError:
            pass
    return True


def open_corpus_cache(folder: str, root: str) -> CorpusCache | None:
    """The cache of the corpus whose real root is `root`, in the cache folder `folder` (made when
    missing); None when that folder cannot be made (lint runs without a cache). ConfigError for a
    folder lint must not trust or one inside the corpus."""
    refuse_inside_corpus(folder)
    if not prepare_folder(folder):
        return None
    name = hashlib.sha256(os.path.abspath(root).encode("utf-8", "surrogatepass")).hexdigest()
    path = os.path.join(folder, ENTRIES, f"{name}.json")
    files, fixtures, skeletons, near = _read_entry(path)
    return CorpusCache(path, files, fixtures, skeletons_known=skeletons, near_known=near)


def clean_cache(folder: str) -> int:
    """`corpustools cache clean`: remove every entry lint wrote in the cache folder, in this layout
    and older ones (and their folders and the tag, when nothing else is there); the number of
    entries removed. Only names lint writes are removed, so a --cache-dir naming another folder
    loses nothing else."""
    if not os.path.lexists(folder):
        return 0
    check_folder(folder)
    removed = 0
    for layout in (ENTRIES, REPLAY_ENTRIES, *OLD_ENTRIES):
        entries = os.path.join(folder, layout)
        try:
            names = os.listdir(entries) if os.path.isdir(entries) and not os.path.islink(entries) else []
        except OSError as err:
            raise _refused(entries, f"cannot be listed ({err.strerror or err})") from None
        for name in names:
            stem, dot, suffix = name.partition(".")
            ours = (_is_key(stem) and dot and suffix == "json") or (name.startswith(".") and name.endswith(".tmp"))
            if ours:
                try:
                    os.unlink(os.path.join(entries, name))
                    removed += name.endswith(".json")
                except FileNotFoundError:
                    pass
                except OSError as err:
                    raise _refused(entries, f"cannot be cleaned ({err.strerror or err})") from None
        try:
            os.rmdir(entries)
        except OSError:
            pass
    try:
        if os.listdir(folder) == [TAG]:
            os.unlink(os.path.join(folder, TAG))
        os.rmdir(folder)
    except OSError:
        pass
    return removed
