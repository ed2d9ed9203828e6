"""`lint --staged`, the pre-commit hook's lint: exactly what the next commit holds, read from git's
index, never from the working tree.

Which corpora: every corpus holding a staged name (added, changed, deleted, renamed or with a new
mode; any file under the corpus folder, not only its own files: the secret scan reads them all),
found in the index (a folder whose staged tree holds corpus.yaml, or sessions/ and expected/:
io/layout.is_corpus_folder asked of the index); and the corpora the PATHs name, as lint resolves
them (lint/targets.py).

How: the staged tree of each such corpus is written into a private scratch folder (a "mirror"),
at `<scratch>/<its absolute path>`, so a path corpus.yaml gives relative to itself
(`lint.prompt: ../prompt.md`) reaches the mirror's copy of that file, and so are the files lint
reads outside the corpus: the output schema, `lint.prompt`, `lint.kb`, the provenance record and
the authoring prompt it names, and `--prompt`/`--kb` when they lie in the repository (a file
outside the repository is no staged file: it is read from disk). Then the mirror is linted by
the one loader and the one engine, every reported path and message naming the real file
(`shown`), and the mirror is removed. A file deleted in the index is absent; a file staged and
changed again on disk is linted as staged; each file is written by io/gitstage.write_staged, new
files only, never through a link, cut at the same size cap as every read.

Why a copy rather than a reader that asks git: the loader, the rules and the secret scan list
folders and read files in many places (os.scandir, os.walk, lstat, read_bytes); one copy makes
every one of them see the index without a second code path, and costs one write of the corpus's
files (measured in docs/performance.md).
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from types import ModuleType

from corpustools.io.errors import InputError
from corpustools.io.gitstage import LINK_MODE, StagedIndex, new_file, staged_index, write_staged
from corpustools.io.inputs import note_file
from corpustools.io.layout import SPEC_FILE, is_corpus_folder
from corpustools.io.paths import display_path
from corpustools.io.positions import Pos
from corpustools.io.textfile import read_bytes, read_text
from corpustools.io.yamlload import parse_yaml
from corpustools.lint.config import ConfigError, load_config
from corpustools.lint.engine import LintRun, Selection, lint_target, merged_runs
from corpustools.lint.targets import Target, resolve_targets
from corpustools.model.corpus import read_spec_file
from corpustools.provenance import Record, corpus_record_path, default_record_path, load_record

_UNREAD = object()  # _authoring_prompt: the record is still to be read


@dataclass(frozen=True)
class _IndexTree:
    """The index as a tree of folders: what is_corpus_folder asks of it (POSIX paths from the top)."""

    files: frozenset[str]
    folders: frozenset[str]

    @classmethod
    def of(cls, index: StagedIndex) -> _IndexTree:
        folders = {posixpath.dirname(name) for name in index.entries}
        for folder in list(folders):
            while folder:
                folder = posixpath.dirname(folder)
                folders.add(folder)
        return cls(frozenset(index.entries), frozenset(folders))

    def lexists(self, path: str) -> bool:
        path = path.replace(os.sep, "/")
        return path in self.files or path in self.folders

    def isdir(self, path: str) -> bool:
        return path.replace(os.sep, "/") in self.folders

    def corpus_of(self, name: str) -> str | None:
        """The nearest folder at or above `name`'s folder (inside the repository) that is a corpus in
        the index, or None."""
        folder = posixpath.dirname(name)
        while True:
            if is_corpus_folder(folder, lexists=self.lexists, isdir=self.isdir):
                return folder
            if not folder:
                return None
            folder = posixpath.dirname(folder)


def staged_corpora(index: StagedIndex) -> set[str]:
    """The corpora (absolute roots) holding a staged name: any file under the corpus folder, the
    corpus as the index has it (a name may no longer exist: a deletion, a rename's old name)."""
    tree = _IndexTree.of(index)
    roots = {tree.corpus_of(name) for name in index.changed}
    return {os.path.join(index.top, *root.split("/")) if root else index.top for root in roots if root is not None}


class _Mirror:
    """The scratch folder: `<scratch>/<absolute path>` holds the staged copy of that path."""

    def __init__(self, index: StagedIndex, scratch: str) -> None:
        self.index, self.scratch = index, scratch
        self.top = os.path.join(scratch, index.top.lstrip(os.sep))
        os.makedirs(self.top)
        if os.path.lexists(os.path.join(index.top, ".git")):
            # Where io/paths.enclosing_repository finds the repository's top in the copy, as on disk
            # (the default provenance record lies there); the secret scan skips `.git`.
            os.close(os.open(os.path.join(self.top, ".git"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        self.written: set[str] = set()
        # A real folder -> its realpath: the folders lint names outside the copy are the user's
        # layout, resolved once a run (the spec of every corpus names the same few).
        self.resolved: dict[str, str] = {}

    def relative(self, path: str) -> str | None:
        """`path` as a name in the index (POSIX, from the top; "" for the top itself), or None outside
        the repository. The folders above it are resolved (a link above the repository is the
        user's layout), never the name itself (a staged link is a link)."""
        absolute = os.path.abspath(path)
        folder = os.path.dirname(absolute)
        if folder not in self.resolved:
            self.resolved[folder] = os.path.realpath(folder)
        relative = os.path.relpath(os.path.join(self.resolved[folder], os.path.basename(absolute)), self.index.top)
        if relative == os.curdir:
            return ""
        if relative == os.pardir or relative.startswith(os.pardir + os.sep):
            return None
        return relative.replace(os.sep, "/")

    def of(self, path: str) -> str:
        """Where the copy holds the real `path`."""
        relative = self.relative(path)
        if relative is None:
            return os.path.join(self.scratch, os.path.abspath(path).lstrip(os.sep))
        return os.path.join(self.top, *relative.split("/")) if relative else self.top

    def real(self, path: str) -> str:
        """The real path of a path in the copy (any other path as it is)."""
        absolute = os.path.abspath(path)
        if absolute == self.scratch:
            return os.sep
        if absolute.startswith(self.scratch + os.sep):
            return absolute[len(self.scratch):]
        return path

    def copy_of(self, path: str) -> None:
        """Copy the real file a path in the copy stands for (a path elsewhere is read where it is)."""
        if os.path.abspath(path).startswith(self.scratch + os.sep):
            self.copy(self.real(path))

    def copy(self, path: str) -> bool:
        """Write the staged file or folder at the real `path` into the copy: False when nothing of it
        is staged. Outside the repository nothing is staged: see _outside."""
        relative = self.relative(path)
        if relative is None:
            return self._outside(path)
        prefix = relative + "/" if relative else ""
        names = [name for name in self.index.entries if name == relative or name.startswith(prefix)]
        self.copy_names(names)
        return bool(names)

    def copy_names(self, names: list[str]) -> None:
        """Write the staged files `names` (index names) into the copy, in one read of git's objects."""
        for name in write_staged(self.index, [n for n in names if n not in self.written], self.top):
            self.written.add(name)
            _note_input(os.path.join(self.index.top, *name.split("/")))

    def _outside(self, path: str) -> bool:
        """A path outside the repository is read where it is, as any read reads it: the copy's first
        folder outside the repository on its way is a link to the real folder. A file directly in a
        folder that holds the repository is a hard link to it (the same file: a link stays a link,
        a FIFO a FIFO), else a copy of its bytes as read (read_bytes: size cap, no link)."""
        absolute = os.path.abspath(path)
        common = os.path.commonpath([absolute, self.index.top])
        if absolute == common or not os.path.lexists(absolute):
            return False  # a folder holding the repository is never a file lint reads
        first = os.path.join(common, os.path.relpath(absolute, common).split(os.sep)[0])
        target = self.of(first)
        if os.path.lexists(target):
            return True
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if first != absolute:
            os.symlink(first, target)
            return True
        try:
            os.link(absolute, target, follow_symlinks=False)
        except OSError:  # another file system, or links refused
            try:
                data = read_bytes(absolute)
            except InputError:
                return False  # lint reads it where it is not and says so, naming the path
            with open(new_file(target), "wb") as handle:
                handle.write(data)
        return True

    def shown(self, text: str) -> str:
        """`text` (a path or a message) with every path into the copy made the real path: as given
        (absolute) or as reporters show one (relative to the working folder)."""
        if os.path.basename(self.scratch) not in text:
            return text
        if os.path.isabs(text) and (text == self.scratch or text.startswith(self.scratch + os.sep)):
            return self.real(text)
        # As reporters show a path: the copy of the top, then of each folder above it (the files
        # lint reads outside the repository), each made the real folder as shown from here.
        folder = self.index.top
        while True:
            shown = display_path(folder)
            text = text.replace(display_path(self.of(folder)) + "/", "" if shown == "." else shown.rstrip("/") + "/")
            if os.path.dirname(folder) == folder:
                break
            folder = os.path.dirname(folder)
        return text.replace(self.scratch + os.sep, os.sep)


def _note_input(path: str) -> None:
    """The real file whose staged copy lint reads is an input as well: never a report's target."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return
    note_file(path, info)


def _copy_inputs(mirror: _Mirror, root: str, rules: list[ModuleType]) -> list[str]:
    """Copy what the staged corpus.yaml at `root` (in the copy) makes lint read outside the corpus
    folder, found as the loader and the engine find it: the output schema first (the contract
    reads it), then the provenance record, lint.prompt and lint.kb, then the authoring prompt the
    record names. Returns their real paths (the record and its prompt only when the record is
    this corpus's: another corpus's record leaves CT801 inactive)."""

    read = []
    loaded = read_spec_file(root)
    output = loaded.data.get("output") if isinstance(loaded.data, dict) else None
    schema = output.get("schema") if isinstance(output, dict) else None
    if isinstance(schema, str) and schema and "\0" not in schema:
        read.append(os.path.join(root, *schema.split("/")))
        mirror.copy_of(read[-1])
        loaded = read_spec_file(root)
    spec = loaded.spec
    record = corpus_record_path(root, spec)
    mirror.copy_of(record)
    if spec is not None:
        try:
            config = load_config(spec.doc, spec.lint, rules)
        except ConfigError:
            config = None  # linting the corpus reports it
        for path in (config.prompt, config.kb) if config is not None else ():
            if path:
                read.append(path)
                mirror.copy_of(path)
    prompt = _authoring_prompt(record, root)
    if prompt is not None:
        read += [record, prompt]
        mirror.copy_of(prompt)
    return [mirror.real(path) for path in read]


def _loaded_record(record: str) -> object:
    """load_record of `record` (in the copy), or the InputError or OSError that refused it; None for
    what is no regular file (a link is never read as a record)."""
    if not os.path.isfile(record) or os.path.islink(record):
        return None
    try:
        return load_record(record)
    except (InputError, OSError, ValueError) as err:
        return err


def _authoring_prompt(record: str, root: str, loaded: object = _UNREAD) -> str | None:
    """The authoring prompt the provenance record (in the copy) names, when it is the record of
    the corpus at `root`; else None. `loaded`: the record's _loaded_record, if read already."""
    loaded = _loaded_record(record) if loaded is _UNREAD else loaded
    if not isinstance(loaded, Record):
        return None
    try:
        return loaded.prompt_path if os.path.samefile(loaded.corpus_root, root) else None
    except (OSError, ValueError):
        return None


def _reading_a_change(index: StagedIndex, mirror: _Mirror, rules: list[ModuleType], linted: set[str]) -> set[str]:
    """The corpora (absolute roots) not in `linted` whose staged corpus.yaml makes lint read a
    staged name outside their folder (a shared output schema, the prompt, the KB, their provenance
    record or its authoring prompt): a change there can break them as much as one inside. Only a
    corpus _ChangeBound cannot rule out has its spec loaded (its schema compiled, its config
    checked): a one-file change pays for a text search of each other corpus.yaml (a YAML parse of
    those it cannot clear), and git's objects are read twice in all (the specs, then the records
    they may name), not once per corpus."""
    changed = [os.path.join(index.top, *name.split("/")) for name in index.changed]
    roots = {}
    for name in index.entries:
        if posixpath.basename(name) == SPEC_FILE:
            root = os.path.join(index.top, *posixpath.dirname(name).split("/")) if "/" in name else index.top
            if root not in linted:
                roots[root] = name
    mirror.copy_names(list(roots.values()))  # one read of git's objects for every spec
    bound = _ChangeBound(index, mirror, changed)
    found = set()
    for root in bound.may_read([root for root, name in roots.items() if name in mirror.written]):
        for path in _copy_inputs(mirror, mirror.of(root), rules):
            if _is_at_or_under(changed, path):
                found.add(root)
                break
    return found


def _is_at_or_under(changed: list[str], path: str) -> bool:
    """Whether a changed path is `path` or lies under it."""
    return any(change == path or change.startswith(path.rstrip(os.sep) + os.sep) for change in changed)


def _strings(data: object) -> Iterator[str]:
    """Every string value in parsed YAML (mapping values and list items, at any depth)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


class _ChangeBound:
    """A quick, never-missing bound on what a corpus.yaml makes lint read outside its folder
    (_copy_inputs resolves exactly, at the cost of the spec's schema and contract): every path lint
    reads for a corpus is a string in its corpus.yaml resolved against the corpus folder (the
    output schema, lint.prompt, lint.kb, lint.provenance), its default provenance record, or the
    authoring prompt a record names (read by provenance.load_record, as CT801 reads it)."""

    def __init__(self, index: StagedIndex, mirror: _Mirror, changed: list[str]) -> None:
        self.mirror, self.changed = mirror, changed
        self.names = {posixpath.basename(name) for name in index.changed}
        # Every folder name on the way to a changed name: a string naming the change or a folder
        # above it ends with one of them, unless it holds `..` or is made of dots and slashes alone.
        self.parts = {part for path in changed for part in path.split(os.sep) if part}
        # A staged link can make a path named lexically reach any file: then nothing is ruled out.
        self.links = any(entry.mode == LINK_MODE for entry in index.entries.values())
        self.records: dict[str, object] = {}  # a record's copy -> its load_record, or the InputError

    def may_read(self, roots: list[str]) -> list[str]:
        """The roots of `roots` (corpora whose staged corpus.yaml is in the copy) whose lint may read
        a changed name outside their folder: only those the bound cannot rule out."""
        if self.links or not self.changed:
            return list(roots) if self.changed else []
        maybe, records = [], {}
        for root in roots:
            named = self._named(root)
            if named is None or any(_is_at_or_under(self.changed, path) for path in named[0]):
                maybe.append(root)
            else:  # its record, as provenance.corpus_record_path finds it: lint.provenance, else the default
                records[root] = named[1] or default_record_path(root)
        # The record of each, copied in one read of git's objects.
        relatives = (self.mirror.relative(record) for record in records.values())
        self.mirror.copy_names([name for name in relatives if name is not None and name in self.mirror.index.entries])
        maybe += [root for root, record in records.items() if self._names_a_changed_prompt(record, root)]
        return [root for root in roots if root in maybe]

    def _named(self, root: str) -> tuple[list[str], str | None] | None:
        """The paths the strings of the corpus.yaml at `root` name, resolved against `root`, and the
        record its `lint: provenance:` names, if any (None when it cannot be read as YAML: the exact
        check decides). Its text alone clears it when it holds no name on the way to a change, no
        `..`, no string of dots and slashes alone, no escape, and no `provenance` key: then no
        string can name a change or a folder holding one, and its record is the default one."""
        try:
            text = read_text(os.path.join(self.mirror.of(root), SPEC_FILE))
        except InputError:
            return None
        if not self._may_name_a_change(text) and "provenance" not in text:
            return [], None
        try:
            data = parse_yaml(text, SPEC_FILE).data
        except InputError:
            return None
        paths = [os.path.normpath(os.path.join(root, text)) for text in _strings(data) if text and "\0" not in text]
        lint = data.get("lint") if isinstance(data, dict) else None
        record = lint.get("provenance") if isinstance(lint, dict) else None
        return paths, (os.path.normpath(os.path.join(root, record)) if isinstance(record, str) and record
                       and "\0" not in record else None)

    def _may_name_a_change(self, text: str) -> bool:
        """Whether a YAML string in `text` may name a changed file or a folder holding one: a name is
        found as written unless YAML escapes it (a backslash, a quote doubled in single quotes) or
        folds it at a space."""
        if "\\" in text or _PARENT.search(text) or _DOTS_ALONE.search(text):
            return True  # `..` may cancel every name before it (`notes/../..`): a folder above anything
        return any(part in text or "'" in part or any(c.isspace() for c in part) for part in self.parts)

    def _names_a_changed_prompt(self, record: str, root: str) -> bool:
        """Whether `record` (a real path) may be the provenance record of the corpus at `root` and is
        changed, or names a changed authoring prompt. Its text is read only when it holds a changed
        file's name, and parsed once however many corpora may have it as their record."""
        if _is_at_or_under(self.changed, record):
            return True  # a changed record
        relative = self.mirror.relative(record)
        if relative is None:
            return os.path.lexists(record)  # read where it is, it may name a staged prompt: the exact check decides
        if relative not in self.mirror.index.entries:
            return False  # no staged file (a folder, a word of the spec, a missing file) is a record
        self.mirror.copy_names([relative])  # copied already, with every other record (may_read)
        copy = self.mirror.of(record)
        try:
            text = read_text(copy)
        except InputError:
            return False  # not a file lint can read as a record: CT801 finds no record there
        # A name is found as written unless YAML escapes it or folds it at a space.
        if not any(name in text or any(c.isspace() for c in name) for name in self.names) and "\\" not in text:
            return False
        if copy not in self.records:
            self.records[copy] = _loaded_record(copy)
        prompt = _authoring_prompt(copy, self.mirror.of(root), self.records[copy])
        return prompt is not None and _is_at_or_under(self.changed, self.mirror.real(prompt))


# A YAML string of dots and slashes alone (".", "./", "/") names a folder above any name.
_DOTS_ALONE = re.compile(r"(?:^|[\s'\"\[{,:?-])[./]+(?:$|[\s'\"\]},:#])", re.M)
# `..` as a path's component (after the start of a string or a slash, before its end or a slash).
_PARENT = re.compile(r"(?:^|[/\s'\"\[{,:?-])\.\.(?:$|[/\s'\"\]},:#])", re.M)


def _in_copy(selection: Selection, mirror: _Mirror) -> Selection:
    """--prompt and --kb, when they lie in the repository, read from the copy."""

    def moved(path: str | None) -> str | None:
        if path is None or mirror.relative(path) is None:
            return path
        mirror.copy(os.path.abspath(path))
        return mirror.of(path)

    return replace(selection, prompt=moved(selection.prompt), kb=moved(selection.kb))


_MEMORY = "/dev/shm"  # a file system in memory, on Linux


def _scratch_folder() -> str:
    """A new private folder (0700) for the copy: in memory where the system has such a file system
    and TMPDIR names no other place, so the staged files (a key among them) never reach a disk and
    writing thousands of them costs no disk I/O; else the system's temporary folder."""
    if not os.environ.get("TMPDIR") and os.path.isdir(_MEMORY) and os.access(_MEMORY, os.W_OK | os.X_OK):
        try:
            return os.path.realpath(tempfile.mkdtemp(prefix="corpustools-staged-", dir=_MEMORY))
        except OSError:
            pass
    return os.path.realpath(tempfile.mkdtemp(prefix="corpustools-staged-"))


def lint_staged(paths: list[str], rules: list[ModuleType], selection: Selection, *, skip_outside: bool = False,
                whole_corpus: bool = False, cwd: str = ".", cache_dir: str | None = None) -> LintRun:
    """`lint --staged [PATH...]`: every corpus holding a staged change, linted whole, and the
    corpora `paths` name (see resolve_targets), each as git's index holds it (module docstring).
    InputError when git is missing or `cwd` is in no repository; ConfigError for a PATH whose
    corpus is outside the repository or has no staged file (skipped with `skip_outside`)."""
    index = staged_index(cwd)
    scratch = _scratch_folder()
    try:
        mirror = _Mirror(index, scratch)
        try:
            staged = staged_corpora(index)
            staged |= _reading_a_change(index, mirror, rules, staged)
            targets = resolve_targets(paths, cwd, skip_outside=skip_outside, whole_corpus=whole_corpus, staged=staged)
            in_copy = _in_copy(selection, mirror)
            return merged_runs(_lint_copied(target, mirror, rules, in_copy, skip_outside=skip_outside,
                                            cache_dir=cache_dir) for target in targets)
        except InputError as err:
            raise type(err)(Pos(mirror.shown(err.pos.path), err.pos.line, err.pos.col), mirror.shown(err.message)) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _lint_copied(target: Target, mirror: _Mirror, rules: list[ModuleType], selection: Selection, *,
                 skip_outside: bool, cache_dir: str | None = None) -> LintRun:
    """Copy the corpus of `target` and what it reads, and lint the copy (an empty run when the
    corpus has nothing staged and `skip_outside`). `cache_dir`: lint's cache folder, keyed by file
    contents, so the copy's files hit the entries of the real corpus's (engine.lint_target)."""
    if not mirror.copy(target.root):
        if skip_outside:
            return LintRun()
        why = ("is not in the git repository at" if mirror.relative(target.root) is None
               else "has no file staged in the git repository at")
        raise ConfigError(Pos(""), f"{display_path(target.root)}: the corpus {why} {mirror.index.top}; "
                                   "--staged lints what the next commit holds")
    root = mirror.of(target.root)
    _copy_inputs(mirror, root, rules)
    only = None if target.only is None else tuple(
        os.path.join(root, os.path.relpath(path, target.root)) for path in target.only)
    return lint_target(Target(root, only), rules, selection, shown=mirror.shown, cache_dir=cache_dir)
