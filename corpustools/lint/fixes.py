"""Fixes as data (ruff's model): a rule declares what `lint --fix` may do about its findings in
`FIXES`, beside its OPTIONS:

    FIXES = (Fix(SAFE, "writes the term in lowercase", _lowercase),)

`Fix.plan(ctx, problem)` is called only by `--fix`/`--diff`, for a finding the rule reported; it
returns the edits that remove that finding (`Planned`), why this finding cannot be fixed
mechanically (`Unfixable`), or None when the fix is not for this finding. A plan never writes:
it describes edits as values (`EditYaml`, `NormalizeLineEnds`, `RenameFile`), all of them to the
file the finding names; corpustools.lint.fixing makes them, verifies them and writes them.

A safe fix keeps what the fixture means (the scorer reads the fixed file as it read the old one,
or the fix only makes the file readable); an unsafe one changes meaning or identity and runs only
with `--unsafe-fixes`. A rule without fixes declares `FIXES = ()` (the rule protocol,
corpustools.lint.registry.Rule; a test's stand-in rule may leave it out).

The helpers below find what a finding is about (a term, a session id, an unknown key) from the
position the rule reported, so a rule's plan is a few lines.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos, Problem
from corpustools.io.schemastore import unexpected_keys
from corpustools.io.textfile import decode_text, read_bytes, without_bom_and_cr
from corpustools.io.yamledit import YamlEdit
from corpustools.io.yamlload import YamlDoc, parse_yaml
from corpustools.lint.context import LintContext

SAFE, UNSAFE = True, False


@dataclass(frozen=True)
class EditYaml:
    """A change to a YAML document: a sidecar, corpus.yaml, or a session's frontmatter (`path`
    ending in .md: the frontmatter is edited as text in place, the body never touched)."""

    path: str
    edit: YamlEdit


@dataclass(frozen=True)
class NormalizeLineEnds:
    """Drop a leading byte-order mark and make every line ending LF, byte by byte."""

    path: str


@dataclass(frozen=True)
class RenameFile:
    path: str
    new_path: str  # never over an existing file


Edit = EditYaml | NormalizeLineEnds | RenameFile


@dataclass(frozen=True)
class Planned:
    """The edits that remove one finding, and one line saying what they do (past tense, for the
    report: "wrote 'Foo' as 'foo'")."""

    edits: tuple[Edit, ...]
    says: str


@dataclass(frozen=True)
class Unfixable:
    """Why this finding has no mechanical fix (one line, for the report)."""

    reason: str


Plan = Callable[[LintContext, Problem], "Planned | Unfixable | None"]


@dataclass(frozen=True)
class Fix:
    """One fix a rule offers. `does` documents it (`--explain`, docs/lint-rules.md)."""

    safe: bool
    does: str
    plan: Plan


def rule_fixes(rule: ModuleType) -> tuple[Fix, ...]:
    """The fixes `rule` declares (none when it declares no FIXES)."""
    return tuple(getattr(rule, "FIXES", ()))


def usable_fixes(rule: ModuleType, *, unsafe: bool) -> tuple[Fix, ...]:
    """The fixes `--fix` applies for `rule`: the safe ones, and the unsafe ones with --unsafe-fixes."""
    return tuple(fix for fix in rule_fixes(rule) if fix.safe or unsafe)


# --- what a finding is about --------------------------------------------------------------------

@dataclass(frozen=True)
class TermAt:
    """A term of a schema-valid sidecar, or an entry of one written as a list (alternatives, or a
    forbidden combination): its file, key path, text and list."""

    path: str
    keypath: tuple
    text: str  # the term; for a whole entry written as a list, TermEntry.text
    field: str  # must_match_all | must_not_match
    count: int  # entries in its list
    siblings: int = 0  # for one term of an entry written as a list: the terms of that list
    value: Any = None  # what is written at `keypath` (a string, or the entry's list)

    @property
    def entry_keypath(self) -> tuple:
        """Where the entry holding it is (the term itself, unless it is in an entry's list)."""
        return self.keypath[:-1] if self.siblings else self.keypath


def _same_place(a: Pos, b: Pos) -> bool:
    return os.path.abspath(a.path) == os.path.abspath(b.path) and (a.line, a.col) == (b.line, b.col)


def term_at(ctx: LintContext, pos: Pos) -> TermAt | None:
    """The term a finding at `pos` names (rules report a term at its own position, an entry
    written as a list at the entry's)."""
    for sidecar in ctx.corpus.sidecars.values():
        if os.path.abspath(sidecar.path) != os.path.abspath(pos.path):
            continue
        for point in sidecar.all_points:
            for field in ("must_match_all", "must_not_match"):
                entries = getattr(point, field)
                for index, entry in enumerate(entries):
                    at = point.keypath + (field, index)
                    if not entry.listed:
                        if _same_place(entry.pos, pos):
                            return TermAt(sidecar.path, at, entry.text, field, len(entries), 0, entry.text)
                        continue
                    for inner, term in enumerate(entry.terms):
                        if _same_place(term.pos, pos):
                            return TermAt(sidecar.path, at + (inner,), term.text, field, len(entries),
                                          len(entry.terms), term.text)
                    if _same_place(entry.pos, pos):
                        return TermAt(sidecar.path, at, entry.text, field, len(entries), 0, list(entry.texts))
    return None


def set_term(term: TermAt, text: str, says: str) -> Planned | Unfixable:
    if not isinstance(term.value, str):
        return Unfixable(f"{term.text!r} is a list of terms; fix each term of it")
    return Planned((EditYaml(term.path, YamlEdit("set", term.keypath, term.value, text)),), says)


def drop_term(term: TermAt) -> Planned | Unfixable:
    """Drop the term from its entry's list when it has others there, else its entry from its term
    list; never the last `must_match_all` entry of a point."""
    if term.siblings > 1:
        return Planned((EditYaml(term.path, YamlEdit("drop", term.keypath, term.value)),),
                       f"{term.field} term {term.text!r} dropped from its list")
    old = [term.value] if term.siblings else term.value
    what = "entry" if isinstance(old, list) else "term"
    if term.field == "must_match_all" and term.count == 1:
        return Unfixable(f"{term.text!r} is its point's only must_match_all {what}; rewrite the point by hand")
    return Planned((EditYaml(term.path, YamlEdit("drop", term.entry_keypath, old)),),
                   f"{term.field} {what} {term.text!r} dropped")


def session_at(ctx: LintContext, pos: Pos) -> str | None:
    """The fixture id of the session whose file `pos` is in."""
    return next((fixture_id for fixture_id, session in ctx.corpus.sessions.items()
                 if os.path.abspath(session.path) == os.path.abspath(pos.path)), None)


def fresh_session_id(ctx: LintContext, fixture_id: str, why: str) -> Planned:
    """A new random UUID v4 for the session's id (unsafe: the session's identity changes)."""
    import uuid  # uuid: only CT uuid fixes; every rule imports this module

    session = ctx.corpus.sessions[fixture_id]
    old = session.frontmatter.data["session_id"]
    new = str(uuid.uuid4())
    return Planned((EditYaml(session.path, YamlEdit("set", ("session_id",), old, new)),),
                   f"session_id {old} ({why}) replaced by the new random UUID {new}: the session's identity "
                   "changed, so results and run manifests naming the old id no longer match it, and the "
                   "provenance record drifts (CT801): review, bump corpus_version and re-record")


# --- unknown keys: did you mean -----------------------------------------------------------------

def did_you_mean(key: str, allowed: Collection[str], present: Collection[str],
                 required: Collection[str] = ()) -> str | None:
    """The one key `key` was evidently meant as, or None: the close spellings (difflib, ignoring
    case) among the allowed keys the mapping does not have yet; when there are several, the
    required ones among them. None unless exactly one is left."""
    import difflib  # difflib: only an unknown key; every rule imports this module

    free = sorted(k for k in allowed if k not in present)
    by_lower = {k.lower(): k for k in free}
    close = [by_lower[k] for k in difflib.get_close_matches(key.lower(), list(by_lower), n=len(by_lower) or 1,
                                                            cutoff=0.6)]
    if len(close) > 1:
        close = [k for k in close if k in required]
    return close[0] if len(close) == 1 else None


def key_at(doc: YamlDoc, pos: Pos) -> tuple | None:
    """The key path of the mapping key written at `pos` in `doc`."""
    for keypath, (line, col) in doc.positions.items():
        if keypath and isinstance(keypath[-1], str) and (line, col) == (pos.line, pos.col):
            parent = doc.data
            for part in keypath[:-1]:
                parent = parent[part]
            if isinstance(parent, dict):
                return keypath
    return None


def rename_key(path: str, doc: YamlDoc, keypath: tuple, allowed: Collection[str],
               required: Collection[str] = ()) -> Planned | Unfixable | None:
    """Rename the unknown key at `keypath` to its did-you-mean (unsafe: the value starts to count)."""
    parent: Any = doc.data
    for part in keypath[:-1]:
        parent = parent[part]
    key = keypath[-1]
    meant = did_you_mean(key, allowed, parent, required)
    if meant is None:
        return Unfixable(f"no single key {key!r} was meant as (allowed: {', '.join(sorted(allowed))})")
    return Planned((EditYaml(path, YamlEdit("rename", keypath, key, meant)),), f"key {key!r} renamed to {meant!r}")


def unknown_key_fix(kind: str, example: str, preferred: Collection[str] = ()) -> Fix:
    """The did-you-mean fix of a key the shipped `kind` schema does not allow where it stands,
    generic over whatever keys the schema declares there (unsafe: the value starts to count);
    `example` shows one rename in the docs; `preferred` keys win a tie as required ones do (a key
    the schema cannot require, such as a sidecar point's must_match_all, which item_fields may
    replace)."""
    def plan(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
        doc = document_at(ctx, problem.pos.path)
        keypath = key_at(doc, problem.pos) if doc is not None else None
        if doc is None or keypath is None:
            return None
        unknown = next((u for u in unexpected_keys(kind, doc.data) if u.keypath == keypath), None)
        return None if unknown is None else rename_key(doc.path, doc, keypath, unknown.allowed,
                                                       unknown.required | frozenset(preferred))

    return Fix(UNSAFE, "renames a key the schema does not know to the one it was evidently meant as: exactly one "
               "close spelling (difflib, ignoring case) among the keys the schema declares there that the mapping "
               f"lacks, the required ones first ({example})", plan)


def document_at(ctx: LintContext, path: str) -> YamlDoc | None:
    """The YAML document of a corpus file lint read (a sidecar that is a mapping, or corpus.yaml,
    which is kept as text when it is invalid), or None."""
    wanted = os.path.abspath(path)
    for doc in ctx.corpus.sidecar_docs.values():
        if os.path.abspath(doc.path) == wanted:
            return doc
    for known, text in ctx.corpus.texts.items():
        if os.path.abspath(known) == wanted and wanted == os.path.abspath(ctx.corpus.spec_path):
            try:
                return parse_yaml(text, known)
            except InputError:
                return None
    return None


# --- line endings and byte-order mark -----------------------------------------------------------

def normalize_line_ends(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    """For a file that cannot be read because of a byte-order mark or CR line endings (the loader's
    message is the finding's): drop the mark and make every line ending LF, nothing else."""
    path = problem.pos.path
    try:
        data = read_bytes(path)
    except InputError:
        return None
    try:
        decode_text(data, path)
        return None
    except InputError as err:
        if err.message != problem.message:
            return None
    fixed = without_bom_and_cr(data)
    if fixed == data:
        return None
    try:
        fixed.decode("utf-8")
    except UnicodeDecodeError:
        return Unfixable("the file is not valid UTF-8 either; save it as UTF-8 (no BOM, LF line endings)")
    done = (["byte-order mark removed"] if data.startswith(b"\xef\xbb\xbf") else []) + (
        ["line endings made LF"] if b"\r" in data else [])
    return Planned((NormalizeLineEnds(path),), " and ".join(done))


LINE_ENDS_FIX = Fix(SAFE, "removes a UTF-8 byte-order mark and makes CRLF and CR line endings LF, byte by "
                    "byte, nothing else changed", normalize_line_ends)
