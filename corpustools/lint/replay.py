"""lint's replay (issue 36): a lint whose command line, environment and every input are as they were
at the last lint with that command line prints what that lint printed, and exits as it did.

ruff's cache makes an unchanged file free; lint's corpus-wide rules read every fixture, so the
equivalent for lint is the whole run. `cli` asks `lookup` first, before it builds the parser of
every command and before the engine, the rules, YAML or jsonschema are imported: the key is the
sha256 of the exact arguments, the working folder, the environment variables that change output
(ENVIRONMENT), whether standard output and error are terminals, and the code identity
(lint/cache.code_identity: corpustools' files and the libraries lint uses). The entry under that key
holds the exit code, every write to standard output and error in order, and the INPUTS:

- how the PATHs resolved (lint/targets.resolve_targets is run again on the same arguments: a corpus
  added below a linted folder, or a corpus.yaml appearing above a linted file, resolves otherwise);
- each linted corpus's whole tree (`tree_digest`: every file and folder name, its kind, each
  file's sha256, each link's target; `.git` only by name, as the secret scan walks it), taken
  before the run reads anything: every file is still read and hashed, so a changed byte is a miss;
- every other path the run asked about (io/inputs: each file it read or tried to read, each probe
  such as the provenance record or a `.git` above a corpus, each folder read whole such as the KB),
  outside those trees: its digest (`path_digest`: the sha256 of whether it is absent, a file and
  its bytes, a folder and where it leads, a link and its target; a folder read whole by its tree),
  taken after the run; a run is not recorded when one of those files changed just before it
  (RACY_NS), as it may have changed while it was read.

Any difference, any unreadable or foreign entry: lint runs as usual, and `Recording.save` writes
the entry again. Only a run that lints and writes nothing is recorded: not --fix, --diff,
--unsafe-fixes, --staged, --no-cache, --output, --list-rules or --explain, not a run that exited 2,
and not one whose entry would hold a path that redaction would change (an entry never holds more
than lint printed: the printed text, already redacted, paths the report may show, digests).
--no-cache (or any abbreviation of it) neither reads nor writes entries. Entries live in the cache
folder's `replay-1/` (lint/cache.py checks and makes the folder, reads an entry strictly and
removes them with `cache clean`); the KEPT most recently used are kept. docs/performance.md,
"Replaying an unchanged lint".
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from corpustools.io.errors import CorpustoolsError
from corpustools.io.layout import VCS_FOLDERS
from corpustools.io.writing import write_private
from corpustools.lint.cache import (
    REPLAY_ENTRIES,
    check_folder,
    code_identity,
    default_cache_dir,
    prepare_folder,
    read_entry_json,
    refuse_inside_corpus,
)
from corpustools.lint.targets import resolve_targets

FORMAT = "corpustools-lint-replay"
MAX_ENTRY_BYTES = 64 * 2**20  # the stored report: 10,000 fixtures' text report is about 10 MB at most
KEPT = 64  # entries kept (the most recently used): one per command line and folder a user lints from
RACY_NS = 2_000_000_000  # an outside input changed this close to the run may have changed during it
CHUNK = 2**20

# The environment that changes what lint prints or where it looks: the reporters' colour switches,
# the terminal, the cache folder's and corpustools' own variables, the locale and Python's
# (UTF-8 mode, the module path: another corpustools), the home folder.
ENVIRONMENT = ("NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM", "COLUMNS", "LINES", "HOME",
               "XDG_CACHE_HOME", "TMPDIR", "LANG", "LANGUAGE")
ENVIRONMENT_PREFIXES = ("CORPUSTOOLS_", "LC_", "PYTHON")


class Writer(Protocol):
    """Where a replay writes: standard output or error, as cli wraps them."""

    def write(self, text: str, /) -> int: ...


def cache_folder(words: list[str], environ: Mapping[str, str]) -> str | None:
    """The cache folder of the command line `words` (its arguments, the command first), or None
    when it is no lint, when it may not read entries (--no-cache, or an abbreviation of it), lints
    git's index (--staged, or an abbreviation of it: never recorded, see Recording.prepare) or
    names its cache folder in a way only the parser takes (an abbreviated --cache-dir): such a run
    is neither replayed nor recorded."""
    if not words or words[0] != "lint":
        return None
    folder = None
    tokens = iter(words[1:])
    for token in tokens:
        if token == "--":
            break
        if token.startswith("--no"):  # --no-cache: nothing read, nothing written
            return None
        if len(token) >= 4 and "--staged".startswith(token):  # the hook is never recorded, so never replayed:
            return None  # no key to compute (it stats every file of the package), no entry to look for
        if token == "--cache-dir":
            folder = next(tokens, "")
        elif token.startswith("--cache-dir="):
            folder = token.partition("=")[2]
        elif token.startswith("--c") and "--cache-dir".startswith(token.partition("=")[0]):
            return None
        if folder == "":
            return None
    return default_cache_dir(environ) if folder is None else folder


def run_key(words: list[str], environ: Mapping[str, str], terminals: tuple[bool, bool]) -> str:
    """The key of a command line's entry: the sha256 of its exact arguments, the working folder,
    the environment that matters (ENVIRONMENT), whether standard output and error are terminals,
    and the code identity."""
    material = {
        "argv": words, "cwd": os.getcwd(), "terminals": list(terminals), "code": code_identity(),
        "environment": sorted([name, value] for name, value in environ.items()
                              if name in ENVIRONMENT or name.startswith(ENVIRONMENT_PREFIXES)),
    }
    return hashlib.sha256(json.dumps(material, ensure_ascii=True).encode("ascii")).hexdigest()


def _file_sha256(path: str) -> str:
    """"f" and the sha256 of a regular file's bytes (never through a link, never a FIFO opened);
    what it is instead, or why it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        return f"e{err.errno}"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "o"
        digest = hashlib.sha256()
        while chunk := os.read(fd, CHUNK):
            digest.update(chunk)
        return "f" + digest.hexdigest()
    except OSError as err:
        return f"e{err.errno}"
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Tree:
    """A corpus's tree as the replay sees it: its digest, and its folders reached without a link
    (relative paths): a path read below one of them is the tree's, digested with it."""

    digest: str
    folders: frozenset[str]


def tree_digest(root: str) -> Tree:
    """Every entry under `root`, without following links, as the secret scan walks it (a `.git`
    only by its name and kind): its relative path, its kind, a file's sha256 and a link's target."""
    digest = hashlib.sha256()
    folders: set[str] = {""}
    pending = [""]
    while pending:
        relative = pending.pop()
        folder = os.path.join(root, relative) if relative else root
        try:
            with os.scandir(folder) as listing:
                found = sorted(listing, key=lambda entry: entry.name)
        except OSError as err:
            digest.update(os.fsencode(relative) + f"\0e{err.errno}\n".encode())
            continue
        for entry in found:
            name = os.path.join(relative, entry.name) if relative else entry.name
            try:
                if entry.is_symlink():
                    kind = "l" + os.readlink(entry.path)
                elif entry.is_dir(follow_symlinks=False):
                    kind = "d"
                    if entry.name not in VCS_FOLDERS:
                        folders.add(name)
                        pending.append(name)
                elif entry.name in VCS_FOLDERS:
                    kind = "v"
                elif entry.is_file(follow_symlinks=False):
                    kind = _file_sha256(entry.path)
                else:
                    kind = "o"
            except OSError as err:
                kind = f"e{err.errno}"
            digest.update(os.fsencode(name) + b"\0" + os.fsencode(kind) + b"\n")
    return Tree(digest.hexdigest(), frozenset(folders))


def path_digest(path: str, *, whole: bool = False) -> str:
    """The sha256 of what `path` is (`_described`): an entry holds no name a link or a real path has."""
    return hashlib.sha256(_described(path, whole=whole).encode("utf-8", "surrogateescape")).hexdigest()


def _described(path: str, *, whole: bool) -> str:
    """What `path` is: "-" absent; else where it leads (its real path), a link's target, and what
    is there: a regular file's sha256, a folder (its whole tree when `whole`), anything else."""
    try:
        info = os.lstat(path)
        real = os.path.realpath(path)
    except (FileNotFoundError, NotADirectoryError):
        return "-"
    except (OSError, ValueError) as err:
        return f"e{getattr(err, 'errno', '')}"
    try:
        kind = f"l{os.readlink(path)}\0" if stat.S_ISLNK(info.st_mode) else ""
    except OSError as err:
        return f"e{err.errno}"
    try:
        target = os.stat(path) if kind else info
    except OSError:
        return kind + "-"
    if stat.S_ISDIR(target.st_mode):
        return kind + f"d{real}" + (f"\0{tree_digest(path).digest}" if whole else "")
    return kind + real + "\0" + (_file_sha256(real) if stat.S_ISREG(target.st_mode) else "o")


def _resolved(arguments: Mapping[str, Any]) -> list[list[Any]]:
    """The corpora a lint of these arguments lints, as an entry holds them: [root, only or None]."""
    targets = resolve_targets(list(arguments["paths"]), skip_outside=arguments["skip_outside"],
                              whole_corpus=arguments["whole_corpus"])
    return [[target.root, None if target.only is None else list(target.only)] for target in targets]


def _is_text_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _valid(entry: object, key: str) -> bool:
    """Whether `entry` is exactly what `Recording.save` writes, under `key`, by this code."""
    if not isinstance(entry, dict) or set(entry) != {"format", "code", "key", "arguments", "targets", "trees",
                                                     "inputs", "exit", "output"}:
        return False
    arguments, targets, trees = entry["arguments"], entry["targets"], entry["trees"]
    return (entry["format"] == FORMAT and entry["code"] == code_identity() and entry["key"] == key
            and entry["exit"] in (0, 1) and type(entry["exit"]) is int
            and isinstance(arguments, dict) and set(arguments) == {"paths", "skip_outside", "whole_corpus"}
            and _is_text_list(arguments["paths"]) and type(arguments["skip_outside"]) is bool
            and type(arguments["whole_corpus"]) is bool
            and isinstance(targets, list) and all(
                isinstance(t, list) and len(t) == 2 and isinstance(t[0], str) and (t[1] is None or _is_text_list(t[1]))
                for t in targets)
            and _is_text_list(trees) and len(trees) == len(targets)
            and isinstance(entry["inputs"], list) and all(
                isinstance(i, list) and len(i) == 3 and i[0] in ("path", "tree") and isinstance(i[1], str)
                and isinstance(i[2], str) for i in entry["inputs"])
            and isinstance(entry["output"], list) and all(
                isinstance(o, list) and len(o) == 2 and o[0] in (1, 2) and isinstance(o[1], str)
                for o in entry["output"]))


@dataclass
class Recording:
    """One lint command line's replay: looked up before the run, saved after it."""

    folder: str
    key: str
    started: int = field(default_factory=time.time_ns)
    output: list[tuple[int, str]] = field(default_factory=list)  # every write, in order: (1 stdout | 2 stderr, text)
    trees: dict[str, Tree] = field(default_factory=dict)  # linted root -> its tree, before the run
    targets: list[list[Any]] | None = None  # the corpora linted, as resolved before the run
    arguments: dict[str, Any] = field(default_factory=dict)  # what resolved them: the PATHs and two options

    @property
    def path(self) -> str:
        return os.path.join(self.folder, REPLAY_ENTRIES, f"{self.key}.json")

    def _tree(self, root: str) -> Tree:
        if root not in self.trees:
            self.trees[root] = tree_digest(root)
        return self.trees[root]

    def replay(self, out: Writer, err: Writer) -> int | None:
        """Write what the entry holds and return its exit code when every input is as it was;
        None (nothing written) otherwise."""
        try:
            check_folder(self.folder)
        except CorpustoolsError:
            return None
        entry = read_entry_json(self.path, MAX_ENTRY_BYTES)
        if not _valid(entry, self.key):
            return None
        assert isinstance(entry, dict)
        try:
            refuse_inside_corpus(self.folder)
            if _resolved(entry["arguments"]) != entry["targets"]:
                return None
        except CorpustoolsError:
            return None
        if any(self._tree(root).digest != digest for (root, _), digest in zip(entry["targets"], entry["trees"],
                                                                             strict=True)):
            return None
        if any(path_digest(path, whole=kind == "tree") != digest for kind, path, digest in entry["inputs"]):
            return None
        for stream, text in entry["output"]:
            (out if stream == 1 else err).write(text)
        try:
            os.utime(self.path)  # the most recently used entries are kept
        except OSError:
            pass
        return int(entry["exit"])

    def prepare(self, args: Any) -> bool:
        """Before the run: whether it may be recorded (a lint that writes nothing), and if so the
        corpora it lints and their trees, digested before anything is read (an edit during the run
        then misses next time rather than replaying what was read before it)."""
        if (args.list_rules or args.explain or args.fix or args.diff or args.unsafe_fixes
                or args.staged or args.no_cache or args.output is not None or "-" in args.paths):
            return False
        self.arguments = {"paths": list(args.paths), "skip_outside": bool(args.skip_outside_corpora),
                          "whole_corpus": bool(args.whole_corpus)}
        try:
            self.targets = _resolved(self.arguments)
        except CorpustoolsError:
            return False
        for root, _only in self.targets:
            self._tree(root)
        return True

    def save(self, code: int, inputs: Any) -> None:
        """After the run: write the entry (atomically, 0600) when the run exited 0 or 1 and every
        path it would hold is shown as it is (redaction changes none); never an error."""
        if self.targets is None or code not in (0, 1):
            return
        from corpustools.lint.secrets.redaction import redact_secrets  # the run loaded it already

        roots = [root for root, _ in self.targets]
        in_trees = _tree_folders(roots, self.trees)
        outside = sorted({os.path.abspath(path) for path in inputs.probes
                          if not _inside(path, roots, in_trees)} - {os.path.abspath(f.path) for f in inputs.folders})
        folders = sorted({folder.path for folder in inputs.folders})
        shown = [*self.arguments["paths"], *outside, *folders,
                 *(part for root, only in self.targets for part in [root, *(only or ())])]
        if any(redact_secrets(text) != text for text in shown):
            return
        try:
            since = self.started - RACY_NS
            if (any(_changed_since(path, since) for path in outside)
                    or any(_changed_since(folder, since, whole=True) for folder in folders)):
                return
            entry = {
                "format": FORMAT, "code": code_identity(), "key": self.key, "arguments": self.arguments,
                "targets": self.targets, "trees": [self.trees[root].digest for root in roots],
                "inputs": [["path", path, path_digest(path)] for path in outside]
                + [["tree", folder, path_digest(folder, whole=True)] for folder in folders],
                "exit": code, "output": [list(chunk) for chunk in self.output],
            }
            data = json.dumps(entry, separators=(",", ":"), ensure_ascii=True).encode("ascii")
            if len(data) > MAX_ENTRY_BYTES:
                return
            if not prepare_folder(self.folder):
                return
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
            write_private(self.path, data)
            _prune(os.path.dirname(self.path))
        except (OSError, CorpustoolsError, ValueError):
            return


def _tree_folders(roots: list[str], trees: Mapping[str, Tree]) -> frozenset[str]:
    """The absolute paths of the linted trees' folders reached without a link (Tree.folders)."""
    found: set[str] = set()
    for root in roots:
        top = root.rstrip(os.sep) + os.sep
        found.update(top + folder if folder else os.path.dirname(top + "x") for folder in trees[root].folders)
    return frozenset(found)


def _inside(path: str, roots: list[str], folders: frozenset[str]) -> bool:
    """Whether `path` is in one of the linted trees, reached from its root without a link and not
    inside a `.git` (its folder is one of `folders`, _tree_folders): its state is then in that
    tree's digest. One set lookup a path: a lint of 10,000 fixtures reads 20,000 files."""
    if ".." in path.replace(os.sep, "/").split("/"):
        return False
    absolute = os.path.abspath(path)
    return absolute in roots or os.path.dirname(absolute) in folders


def _changed_since(path: str, since: int, *, whole: bool = False) -> bool:
    """Whether the file at `path` (every file and folder under it, for a folder read `whole`) was
    modified at `since` or later (nanoseconds): then it may have changed while the run read it, and
    nothing is recorded. A folder only probed is digested by its kind alone: its dates do not matter
    (a repository's `.git` changes all the time)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return False
    if not whole:
        return stat.S_ISREG(info.st_mode) and info.st_mtime_ns >= since
    if info.st_mtime_ns >= since:
        return True
    for folder, folders, names in os.walk(path):
        for name in folders + names:
            try:
                if os.lstat(os.path.join(folder, name)).st_mtime_ns >= since:
                    return True
            except OSError:
                continue
    return False


def _prune(entries: str) -> None:
    """Keep the KEPT most recently used entries of the folder `entries`."""
    found = []
    with os.scandir(entries) as listing:
        for entry in listing:
            if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False):
                try:
                    found.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path))
                except OSError:
                    continue
    for _, path in sorted(found, reverse=True)[KEPT:]:
        try:
            os.unlink(path)
        except OSError:
            pass


def lookup(words: list[str]) -> Recording | None:
    """The replay of the command line `words`, or None when it is not one lint replays (see
    cache_folder)."""
    folder = cache_folder(words, os.environ)
    if folder is None:
        return None
    terminals = tuple(bool(getattr(stream, "isatty", None) and stream.isatty()) for stream in (sys.stdout, sys.stderr))
    return Recording(folder, run_key(words, os.environ, (terminals[0], terminals[1])))
