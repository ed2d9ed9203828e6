"""`lint --fix` and `--diff`: the fixes rules declare (corpustools.lint.fixes), made and written.

How a corpus is fixed:
1. Its own files (corpus.yaml, sessions/, expected/) are copied into a private scratch folder,
   keeping the bytes read from each (links are copied as links: never followed, never fixed).
2. In the copy, lint runs the rules that have usable fixes (respecting --select/--ignore, the
   corpus's `lint:` configuration and a PATH inside the corpus), plans a fix for each finding and
   makes it; then again, since one fix can uncover another (a CRLF sidecar parses only once its
   line endings are fixed), until a pass fixes nothing (at most MAX_PASSES passes).
3. What changed in the copy is the result: `--diff` prints it as a unified diff; `--fix` writes
   each changed file back atomically (corpustools.io.writing.rewrite_corpus_file and
   rename_corpus_file: only this corpus's own files, never through a link, never into another
   corpus, and only while the file still holds the bytes copied in step 1).
So the diff is exactly what --fix writes, and a failure while fixing leaves the corpus untouched.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from types import ModuleType

from corpustools.io.errors import InputError
from corpustools.io.layout import SESSION_SUFFIX, SESSIONS_DIR, SIDECARS_DIR, SPEC_FILE
from corpustools.io.paths import display_path, repository_root
from corpustools.io.positions import Pos, Problem
from corpustools.io.textfile import read_bytes, without_bom_and_cr
from corpustools.io.writing import rename_corpus_file, rewrite_corpus_file
from corpustools.io.yamledit import EditRefused, edit_yaml
from corpustools.lint.context import LintContext
from corpustools.lint.engine import Selection, active_rules, corpus_config, kept_problems
from corpustools.lint.fixes import EditYaml, NormalizeLineEnds, Planned, RenameFile, Unfixable, usable_fixes
from corpustools.lint.secrets.findings import secret_values
from corpustools.lint.secrets.quoted import NO_VALUES, SecretValues
from corpustools.lint.secrets.redaction import redact_secrets
from corpustools.lint.targets import Target, resolve_targets
from corpustools.model.corpus import load_corpus
from corpustools.model.session import FM_BOUNDARY

MAX_PASSES = 10  # a fix that uncovers another is fixed in the next pass; ruff stops at 100


@dataclass(frozen=True, order=True)
class FixNote:
    """One line of the fix report: a fix made, skipped or not written, at the finding it is for."""

    pos: Pos  # the finding's position, its path in the real corpus
    code: str
    text: str  # what was done, or why not
    safe: bool = True
    origin: str = ""  # the corpus file (relative POSIX path, as first read) the fix edits

    def line(self, kind: str) -> str:
        """`path:line:col: CODE kind: text`, placed as lint places the finding (line 1 for a whole file)."""
        where = str(Pos(display_path(self.pos.path), max(self.pos.line, 1), max(self.pos.col, 1)))
        return f"{where}: {self.code} {kind}: {self.text}"


@dataclass(frozen=True)
class FileChange:
    """A corpus file --fix changes: its path before and after (a rename), its bytes before and after."""

    path: str
    new_path: str
    before: bytes
    after: bytes


@dataclass(frozen=True)
class CorpusFixes:
    """What --fix would do to one corpus (paths relative to `root`, POSIX)."""

    root: str
    fixed: tuple[FixNote, ...] = ()  # fixes made in the copy, in the order made
    skipped: tuple[FixNote, ...] = ()  # findings whose fix cannot be made safely, with why
    changes: tuple[FileChange, ...] = ()
    unsafe_available: int = 0  # findings an unsafe fix would remove (with --unsafe-fixes)
    values: SecretValues = field(default=NO_VALUES, compare=False)  # secret values its notes must not show


@dataclass(frozen=True)
class FixResult:
    """What writing the fixes did: the fixes written, and the ones not written with why."""

    written: tuple[FixNote, ...] = ()
    failed: tuple[FixNote, ...] = ()


# --- the scratch copy ----------------------------------------------------------------------------

def _own_files(root: str) -> Iterator[str]:
    """Relative POSIX paths of what the loader reads: corpus.yaml and every entry of sessions/ and
    expected/ (the folders themselves when they are links)."""
    yield SPEC_FILE
    for folder in (SESSIONS_DIR, SIDECARS_DIR):
        path = os.path.join(root, folder)
        if os.path.islink(path):
            yield folder
            continue
        try:
            names = sorted(os.listdir(path))
        except OSError:
            continue
        for name in names:
            yield f"{folder}/{name}"


def _copy(root: str, scratch: str) -> dict[str, bytes]:
    """Copy the corpus's own files into `scratch`; relative path -> the bytes read of each regular
    file. Links stay links, folders stay (empty) folders; what cannot be read is left out (lint
    reports it; nothing in it can be fixed)."""
    read: dict[str, bytes] = {}
    for folder in (SESSIONS_DIR, SIDECARS_DIR):
        if os.path.isdir(os.path.join(root, folder)) and not os.path.islink(os.path.join(root, folder)):
            os.mkdir(os.path.join(scratch, folder))
    for relative in _own_files(root):
        source, target = os.path.join(root, *relative.split("/")), os.path.join(scratch, *relative.split("/"))
        try:
            mode = os.lstat(source).st_mode
        except OSError:
            continue
        if stat.S_ISLNK(mode):
            os.symlink(os.readlink(source), target)
        elif stat.S_ISDIR(mode):
            os.mkdir(target)
        elif stat.S_ISREG(mode):
            try:
                data = read_bytes(source)
            except InputError:
                continue
            with open(target, "wb") as handle:
                handle.write(data)
            read[relative] = data
    return read


# --- making one fix in the copy ------------------------------------------------------------------

def _frontmatter_span(text: str) -> tuple[int, int]:
    """[start, end) of a session's frontmatter text, between its two `---` lines."""
    boundaries = list(FM_BOUNDARY.finditer(text))
    if len(boundaries) < 2 or boundaries[0].start() != 0:
        raise EditRefused("the session has no frontmatter")
    return boundaries[0].end(), boundaries[1].start()


def _edited(data: bytes, edit: EditYaml) -> bytes:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise EditRefused("the file is not UTF-8") from None
    if edit.path.endswith(SESSION_SUFFIX):
        start, end = _frontmatter_span(text)
        return (text[:start] + edit_yaml(text[start:end], edit.edit) + text[end:]).encode("utf-8")
    return edit_yaml(text, edit.edit).encode("utf-8")


def _inside(path: str, root: str) -> bool:
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    return relative != os.pardir and not relative.startswith(os.pardir + os.sep)


def _make(plan: Planned, problem: Problem, scratch: str) -> str | None:
    """Make `plan`'s edits in the scratch copy; why not (nothing changed) or None when made."""
    path = os.path.abspath(problem.pos.path)
    for edit in plan.edits:
        if os.path.abspath(edit.path) != path or not _inside(edit.path, scratch):
            return "the fix would edit another file than the one reported; not made"
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        return f"cannot read the file: {err.strerror or err}"
    new_data, rename = data, None
    try:
        for edit in plan.edits:
            if isinstance(edit, EditYaml):
                new_data = _edited(new_data, edit)
            elif isinstance(edit, NormalizeLineEnds):
                new_data = without_bom_and_cr(new_data)
            elif isinstance(edit, RenameFile):
                if os.path.lexists(edit.new_path) or not _inside(edit.new_path, scratch):
                    return f"{os.path.basename(edit.new_path)} exists"
                rename = edit.new_path
    except EditRefused as err:
        return str(err)
    if new_data == data and rename is None:
        return "the fix would change nothing"
    if new_data != data:
        with open(path, "wb") as handle:
            handle.write(new_data)
    if rename is not None:
        os.rename(path, rename)
    return None


# --- the passes ----------------------------------------------------------------------------------

@dataclass
class _Pass:
    made: list[tuple[Problem, str, Planned, bool]] = field(default_factory=list)  # problem, code, plan, safe
    skipped: list[tuple[Problem, str, str]] = field(default_factory=list)  # problem, code, why
    unsafe_available: int = 0
    values: SecretValues = NO_VALUES  # the secret values the corpus holds, when asked for (fix_notes masks them)


def _plan(rule: ModuleType, ctx: LintContext, problem: Problem, *, unsafe: bool) -> tuple[object, bool]:
    """(the first plan a usable fix of `rule` has for `problem`, whether it is safe), or (None, True)."""
    for fix in usable_fixes(rule, unsafe=unsafe):
        try:
            planned = fix.plan(ctx, problem)
        except Exception as exc:  # a fix bug must not stop the others; the finding stays
            planned = Unfixable(f"internal error in the fix: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
        if planned is not None:
            return planned, fix.safe
    return None, True


def _one_pass(scratch: str, rules: list[ModuleType], selection: Selection, only: tuple[str, ...] | None,
              *, unsafe: bool, values: bool = False) -> _Pass:
    corpus = load_corpus(scratch)
    config = corpus_config(corpus, rules)
    ctx = LintContext(corpus, point_ignores=config.per_point_ignores)
    result = _Pass()
    planned: list[tuple[Problem, str, Planned, bool]] = []
    for rule in active_rules(rules, config, selection):
        if not usable_fixes(rule, unsafe=True):
            continue
        try:
            problems = list(kept_problems(rule.check(ctx, config.options_of(rule)), rule, config, ctx, only))
        except Exception:  # a crashing rule is reported by the lint that follows; nothing to fix here
            continue
        for problem in problems:
            plan, safe = _plan(rule, ctx, problem, unsafe=unsafe)
            if isinstance(plan, Planned):
                planned.append((problem, rule.CODE, plan, safe))
            elif isinstance(plan, Unfixable):
                result.skipped.append((problem, rule.CODE, plan.reason))
            elif not unsafe and isinstance(_plan(rule, ctx, problem, unsafe=True)[0], Planned):
                result.unsafe_available += 1
    # Later positions first, so that dropping an item never moves one still to be edited; a fix
    # whose value another fix of this pass changed is planned again in the next pass.
    planned.sort(key=lambda item: (item[0].pos.path, item[0].pos.line, item[0].pos.col), reverse=True)
    if values and (planned or result.skipped):  # a note may quote a term that is a password found elsewhere
        result.values = secret_values(ctx)
    renames = [item for item in planned if any(isinstance(e, RenameFile) for e in item[2].edits)]
    for item in [item for item in planned if item not in renames] + renames:
        problem, code, plan, safe = item
        why = _make(plan, problem, scratch)
        if why is None:
            result.made.append(item)
        else:
            result.skipped.append((problem, code, why))
    return result


def plan_corpus(target: Target, rules: list[ModuleType], selection: Selection, *, unsafe: bool) -> CorpusFixes:
    """Fix the corpus of `target` in a scratch copy (module docstring); nothing is written to it."""
    root = os.path.abspath(target.root)
    scratch_parent = tempfile.mkdtemp(prefix="corpustools-fix-")
    scratch = os.path.join(scratch_parent, os.path.basename(root) or "corpus")
    try:
        try:
            os.mkdir(scratch)
            originals = _copy(root, scratch)
        except OSError as err:
            raise InputError(Pos(root), f"cannot copy the corpus to fix it in a scratch folder: "
                                        f"{err.strerror or err}; nothing fixed") from None
        only = None if target.only is None else tuple(
            os.path.join(scratch, os.path.relpath(path, root)) for path in target.only)
        origin = {relative: relative for relative in originals}  # path now in the copy -> path first read
        fixed: list[FixNote] = []
        last = _Pass()
        values = NO_VALUES
        for n in range(MAX_PASSES):
            last = _one_pass(scratch, rules, selection, only, unsafe=unsafe, values=n == 0)
            values = values or last.values
            for problem, code, plan, safe in last.made:
                relative = _relative(problem.pos.path, scratch)
                fixed.append(FixNote(_real(problem.pos, scratch, root), code, plan.says, safe,
                                     origin.get(relative, relative)))
                for edit in plan.edits:
                    if isinstance(edit, RenameFile):
                        origin[_relative(edit.new_path, scratch)] = origin.pop(relative, relative)
            if not last.made:
                break
        changes = _changes(root, scratch, originals, origin)
        skipped = tuple(FixNote(_real(problem.pos, scratch, root), code, why) for problem, code, why in last.skipped)
        return CorpusFixes(root, tuple(sorted(fixed)), tuple(sorted(skipped)), changes, last.unsafe_available,
                           values)
    finally:
        shutil.rmtree(scratch_parent, ignore_errors=True)


def _relative(path: str, root: str) -> str:
    return os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")


def _real(pos: Pos, scratch: str, root: str) -> Pos:
    return replace(pos, path=os.path.join(root, *_relative(pos.path, scratch).split("/")))


def _changes(root: str, scratch: str, originals: dict[str, bytes], origin: dict[str, str]) -> tuple[FileChange, ...]:
    changes = []
    for now, first in sorted(origin.items(), key=lambda item: item[1]):
        path = os.path.join(scratch, *now.split("/"))
        if first not in originals or not os.path.isfile(path) or os.path.islink(path):
            continue
        with open(path, "rb") as handle:
            after = handle.read()
        if after != originals[first] or now != first:
            changes.append(FileChange(os.path.join(root, *first.split("/")), os.path.join(root, *now.split("/")),
                                      originals[first], after))
    return tuple(changes)


def note_shown(planned: list[CorpusFixes]) -> Callable[[str], str]:
    """How a note of `planned` is shown (api.fix_notes): redacted as a diagnostic is, and every
    secret value its corpora hold masked (a note quotes a term: secrets/quoted.py)."""
    values = SecretValues.union(corpus.values for corpus in planned)
    return lambda line: values.mask(redact_secrets(line))


def plan_paths(paths: list[str], rules: list[ModuleType], selection: Selection, *, unsafe: bool = False,
               skip_outside: bool = False, whole_corpus: bool = False) -> list[CorpusFixes]:
    """What --fix would do to each corpus `paths` name (as lint_paths resolves them)."""
    return [plan_corpus(target, rules, selection, unsafe=unsafe)
            for target in resolve_targets(paths, skip_outside=skip_outside, whole_corpus=whole_corpus)]


# --- writing -------------------------------------------------------------------------------------

def write_fixes(planned: list[CorpusFixes]) -> FixResult:
    """Write every change back to its corpus; a change that cannot be written leaves its file as
    it was and turns each fix in it into a failed note with why."""
    written: list[FixNote] = []
    failed: list[FixNote] = []
    for corpus in planned:
        refused: dict[str, str] = {}  # relative path first read -> why not written
        for change in corpus.changes:
            first = _relative(change.path, corpus.root)
            try:
                if change.new_path != change.path:
                    rename_corpus_file(change.path, change.new_path, corpus.root, change.before)
                if change.after != change.before:
                    rewrite_corpus_file(change.new_path, corpus.root, change.before, change.after)
            except InputError as err:
                refused[first] = err.message
        for note in corpus.fixed:
            if note.origin in refused:
                failed.append(replace(note, text=refused[note.origin]))
            else:
                written.append(note)
    return FixResult(tuple(written), tuple(failed))


# --- the diff ------------------------------------------------------------------------------------

def _lines(data: bytes) -> list[str]:
    """The lines of `data`, each with its own `\\n` (the last may have none); only LF splits lines,
    as for patch: a CR stays part of its line."""
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    ends = [line + "\n" for line in lines[:-1]]
    return ends + ([lines[-1]] if lines[-1] else [])


def _hunks(before: bytes, after: bytes, old: str, new: str) -> list[str]:
    import difflib  # difflib: only --diff; --fix alone never loads it

    out = []
    for line in list(difflib.unified_diff(_lines(before), _lines(after), f"a/{old}", f"b/{new}", n=3))[2:]:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return out


def format_diff(planned: list[CorpusFixes], cwd: str | None = None) -> str:
    """Every change as one git-style unified diff; paths are relative to the repository root (the
    nearest folder at or above the working folder holding .git, else the working folder) with `a/`
    and `b/` prefixes, so `patch -p1` applies it from that folder and `git apply` from anywhere in
    the repository. A rename is written as git writes one (`rename from`/`rename to`)."""
    cwd = os.path.abspath(cwd or os.getcwd())
    root = repository_root(cwd)
    parts = []
    for corpus in planned:
        for change in corpus.changes:
            old = os.path.relpath(change.path, root).replace(os.sep, "/")
            new = os.path.relpath(change.new_path, root).replace(os.sep, "/")
            parts.append(f"diff --git a/{old} b/{new}\n")
            if old != new:
                similarity = "similarity index 100%\n" if change.before == change.after else ""
                parts.append(f"{similarity}rename from {old}\nrename to {new}\n")
            if change.before != change.after:
                parts.append(f"--- a/{old}\n+++ b/{new}\n")
                parts += _hunks(change.before, change.after, old, new)
    return "".join(parts)
