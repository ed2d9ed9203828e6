"""Loading a corpus folder: the spec, sessions and sidecars, with every problem kept as a value.

Loading never raises for a bad file inside the corpus: it records a Problem at that file and goes
on, so the linter can report everything at once and the scorer can FAIL just that fixture.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from corpustools.io.errors import InputError
from corpustools.io.layout import SESSION_SUFFIX, SESSIONS_DIR, SIDECAR_SUFFIX, SIDECARS_DIR, SPEC_FILE
from corpustools.io.paths import given_path
from corpustools.io.positions import Pos, Problem
from corpustools.io.textfile import decode_text, is_regular_file, read_bytes
from corpustools.io.yamlload import YamlDoc, parse_yaml
from corpustools.model.contract import DEFAULT, Contract, schema_path, session_format_of
from corpustools.model.locate import corpus_root_of
from corpustools.model.session import Session, parse_session, split_frontmatter
from corpustools.model.sidecar import Sidecar, parse_sidecar
from corpustools.model.spec import CorpusSpec, parse_spec

# Problem kinds, one per way a file can fail to load (the linter maps each to its rule).
SESSION_PARSE, SIDECAR_PARSE, SPEC_INVALID, SIDECAR_SCHEMA, STRAY_LINK, BAD_NAME, MISNAMED = (
    "session-parse", "sidecar-parse", "spec-invalid", "sidecar-schema", "stray-link", "bad-name", "misnamed")

# The digest recorded for a corpus file that is a regular file but could not be read (no
# permission, over the size limit): the corpus hash still changes when such a file appears.
UNREAD = "unread"


@dataclass(frozen=True, kw_only=True)
class CorpusFiles:
    """A corpus folder as loaded, whoever reads it: its spec, its files, its sidecars, and every
    problem as a value. What a session becomes is the reader's (Corpus, ScoringCorpus)."""

    root: str
    spec: CorpusSpec | None
    session_paths: Mapping[str, str] = field(default_factory=dict)  # fixture id -> path, every session file found
    sidecar_paths: Mapping[str, str] = field(default_factory=dict)  # fixture id -> path, every sidecar file found
    sidecar_docs: Mapping[str, YamlDoc] = field(default_factory=dict)  # the sidecars that are YAML mappings
    sidecars: Mapping[str, Sidecar] = field(default_factory=dict)  # the sidecars that are also schema-valid
    # path -> text of every readable corpus file (spec, sessions, sidecars)
    texts: Mapping[str, str] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()
    # relative POSIX path -> sha256 of the bytes read (UNREAD if unreadable), for every regular file
    # that defines the corpus: what model.hashing.corpus_sha256 hashes, without reading the files again.
    digests: Mapping[str, str] = field(default_factory=dict)
    # The output contract and session format corpus.yaml declares; None when its `output:` or
    # `session:` keys are wrong (spec problems say how), or there is no readable corpus.yaml.
    contract: Contract | None = None
    # What the sessions were read with: the contract, or while it is broken, DEFAULT with the
    # declared role tags and frontmatter keys that are well formed (model.contract.session_format_of).
    session_format: Contract = DEFAULT

    @property
    def fixture_ids(self) -> list[str]:
        """Every fixture id seen as a session or a sidecar, sorted by code point."""
        return sorted(set(self.session_paths) | set(self.sidecar_paths))

    @property
    def spec_path(self) -> str:
        return os.path.join(self.root, SPEC_FILE)


@dataclass(frozen=True, kw_only=True)
class Corpus(CorpusFiles):
    """The corpus as lint reads it: every session parsed into its frontmatter and turns."""

    sessions: Mapping[str, Session] = field(default_factory=dict)  # the ones that parsed

    def fixture_files(self, fixture_id: str) -> tuple[str | None, str | None]:
        """(session path, sidecar path) of a fixture, None for a file it does not have."""
        return self.session_paths.get(fixture_id), self.sidecar_paths.get(fixture_id)

    def restricted_to(self, fixture_ids: Collection[str]) -> Corpus:
        """This corpus as if it held only the fixtures `fixture_ids` (their sessions, sidecars,
        texts, digests and the loader's problems in their files), with everything else as loaded:
        corpus.yaml, its contract, its problems and those of no fixture's file. What a rule of
        fixture scope is run on for the fixtures lint's cache does not hold (lint/engine.py)."""
        kept = set(fixture_ids)
        mine = {path for fixture_id in kept for path in self.fixture_files(fixture_id) if path is not None}
        others = {path for fixture_id in self.fixture_ids if fixture_id not in kept
                  for path in self.fixture_files(fixture_id) if path is not None}
        names = {f"{folder}/{fixture_id}{suffix}" for fixture_id in self.fixture_ids if fixture_id not in kept
                 for folder, suffix in ((SESSIONS_DIR, SESSION_SUFFIX), (SIDECARS_DIR, SIDECAR_SUFFIX))}
        return replace(
            self,
            session_paths={k: v for k, v in self.session_paths.items() if k in kept},
            sidecar_paths={k: v for k, v in self.sidecar_paths.items() if k in kept},
            sidecar_docs={k: v for k, v in self.sidecar_docs.items() if k in kept},
            sidecars={k: v for k, v in self.sidecars.items() if k in kept},
            sessions={k: v for k, v in self.sessions.items() if k in kept},
            texts={path: text for path, text in self.texts.items() if path in mine or path not in others},
            problems=tuple(p for p in self.problems if p.pos.path in mine or p.pos.path not in others),
            digests={name: digest for name, digest in self.digests.items() if name not in names},
        )


@dataclass(frozen=True, kw_only=True)
class ScoringCorpus(CorpusFiles):
    """The corpus as the scorer reads it, and no more: each session only split into frontmatter and
    the body a model is shown (never parsed or segmented)."""

    transcripts: Mapping[str, str] = field(default_factory=dict)  # fixture id -> session body


def require_corpus(root: str) -> None:
    """InputError unless `root` is a corpus folder (a folder that holds corpus.yaml); a folder
    inside a corpus is told which folder to give instead."""
    if not os.path.isdir(root):
        raise InputError(Pos(root), "is not a folder; not a corpus" if os.path.exists(root) else "no such corpus folder")
    spec = os.path.join(root, SPEC_FILE)
    if not os.path.isfile(spec):
        if os.path.lexists(spec):
            read_bytes(spec)  # says what it is instead (a link to nowhere, a FIFO, ...)
        enclosing = corpus_root_of(root)
        hint = ""
        if enclosing is not None and os.path.isfile(os.path.join(enclosing, SPEC_FILE)):
            shown = given_path(os.path.join(root, os.path.relpath(enclosing, root)))  # in the terms of `root`
            hint = f" (it is inside the corpus {shown}: give that folder)"
        raise InputError(Pos(root), f"not a corpus folder: no {SPEC_FILE}{hint}")


def utf8_name(name: str) -> str | None:
    """A file name as listed, decoded as UTF-8 whatever the locale; None when it is not UTF-8."""
    try:
        return os.fsencode(name).decode("utf-8")
    except UnicodeDecodeError:
        return None


def disk_name(name: str) -> str:
    """The str that names, under this locale, the file whose name is `name` in UTF-8."""
    return os.fsdecode(name.encode("utf-8", "surrogateescape"))


def list_files(folder: str, suffix: str) -> tuple[dict[str, str], list[Problem]]:
    """fixture id -> path for `folder/*suffix`, sorted. Links are listed, never followed: reading
    one is refused. A linked or unlistable folder is a STRAY_LINK problem; a file name that is not
    UTF-8 a BAD_NAME problem (fixture ids are the names decoded as UTF-8, whatever the locale)."""
    found: dict[str, str] = {}
    problems: list[Problem] = []
    if os.path.islink(folder):
        return found, [Problem(Pos(folder), "is a symbolic link; links are not followed", STRAY_LINK)]
    try:
        names = sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return found, problems
    except OSError as err:
        return found, [Problem(Pos(folder), f"cannot list folder: {err.strerror or err}", STRAY_LINK)]
    for listed in names:
        path = os.path.join(folder, listed)
        raw = os.fsencode(listed)
        if not raw.endswith(suffix.encode()) or raw.startswith(b"."):
            continue  # not a fixture file, whatever its name
        name = utf8_name(listed)
        if name is None:
            problems.append(Problem(Pos(path), "file name is not valid UTF-8; rename it", BAD_NAME))
            continue
        # A link is listed like any file, so its fixture is paired and scored; reading it is what
        # refuses it (textfile.read_bytes: "is a symbolic link ...; links are not followed").
        found[name[: -len(suffix)]] = path
    return dict(sorted(found.items())), problems


# Extensions (compared case-insensitively) that mean "a session" or "a sidecar", and names with no
# extension: a file under sessions/ or expected/ named so, but not exactly <id>.md or <id>.yaml,
# is one the author meant as a fixture file and the loader never reads.
_MEANT_AS = {SESSIONS_DIR: (".md", ".markdown", ".mdown", ".mkd"), SIDECARS_DIR: (".yaml", ".yml")}
_SUFFIX = {SESSIONS_DIR: SESSION_SUFFIX, SIDECARS_DIR: SIDECAR_SUFFIX}
_KIND = {SESSIONS_DIR: "session", SIDECARS_DIR: "sidecar"}


def misnamed_target(folder: str, name: str) -> tuple[str, str, str] | None:
    """For `folder/name` (folder: sessions or expected) named like a fixture file the loader never
    reads: (the folder it belongs in, the name it should have there, why it is not read); None
    when it is not such a file."""
    stem, extension = os.path.splitext(name)
    if name.startswith(".") or extension == _SUFFIX[folder]:
        return None
    other = SIDECARS_DIR if folder == SESSIONS_DIR else SESSIONS_DIR
    if extension.lower() in _MEANT_AS[other]:
        where, why = other, f"not read: a {_KIND[other]} belongs in {other}/"
    elif extension and extension.lower() not in _MEANT_AS[folder]:
        return None
    else:
        where, why = folder, f"not read as a {_KIND[folder]}: {_KIND[folder]}s are named <fixture id>{_SUFFIX[folder]}"
    return where, stem + _SUFFIX[where], why


def misnamed_message(folder: str, name: str, listed: Mapping[str, set[str]]) -> str | None:
    """Why `folder/name` (folder: sessions or expected; `listed`: the names in each of the two
    folders) is a fixture file the loader never reads, and what to do; None when it is not one."""
    found = misnamed_target(folder, name)
    if found is None:
        return None
    where, target, why = found
    shown = target if where == folder else f"{where}/{target}"
    if target in listed[where]:
        return f"{why} and {shown} is the one read; merge the two and delete this file"
    return f"{why}; {'rename' if where == folder else 'move'} it to {shown}"


def misnamed_files(root: str) -> list[Problem]:
    """A MISNAMED problem for each file under sessions/ or expected/ named like a fixture file but
    never read as one (`expected/x.yml`, `sessions/x.MD`, `expected/x`, `sessions/x.yaml`, ...).
    Folders, and names that are not UTF-8, are skipped."""
    on_disk: dict[str, dict[str, str]] = {}  # folder -> UTF-8 name -> name as listed
    for folder in (SESSIONS_DIR, SIDECARS_DIR):
        path = os.path.join(root, folder)
        try:
            names = [] if os.path.islink(path) else os.listdir(path)
        except OSError:
            names = []
        on_disk[folder] = {utf8: n for n in names if (utf8 := utf8_name(n)) is not None}
    listed = {folder: set(names) for folder, names in on_disk.items()}
    problems = []
    for folder, by_name in on_disk.items():
        for name in sorted(by_name):
            message = misnamed_message(folder, name, listed)
            full = os.path.join(root, folder, by_name[name])
            if message is not None and not (os.path.isdir(full) and not os.path.islink(full)):
                problems.append(Problem(Pos(full), message, MISNAMED))
    return problems


def bad_names(problems) -> list[Problem]:
    return [p for p in problems if p.kind == BAD_NAME]


def _counted(path: str, relative: str, digests: dict[str, str]) -> str:
    """read_text that records the sha256 of the bytes read (or UNREAD for a regular file that
    cannot be read) under `relative`: hashing what was read, never reading twice."""
    try:
        data = read_bytes(path)
    except InputError:
        if is_regular_file(path):
            digests[relative] = UNREAD
        raise
    digests[relative] = hashlib.sha256(data).hexdigest()
    return decode_text(data, path)


@dataclass(frozen=True)
class SpecFile:
    """corpus.yaml as loaded: the spec (None when invalid), its text (None when unreadable), its
    problems, the contract it declares (see Corpus.contract) and the document (None when it is no
    YAML mapping)."""

    spec: CorpusSpec | None
    text: str | None
    problems: list[Problem]
    contract: Contract | None = None
    data: dict | None = None


def load_spec_file(root: str, digests: dict[str, str] | None = None
                   ) -> tuple[CorpusSpec | None, str | None, list[Problem]]:
    loaded = read_spec_file(root, digests)
    return loaded.spec, loaded.text, loaded.problems


def read_spec_file(root: str, digests: dict[str, str] | None = None) -> SpecFile:
    path = os.path.join(root, SPEC_FILE)
    if not os.path.lexists(path):
        return SpecFile(None, None, [Problem(Pos(path), "corpus.yaml is missing", SPEC_INVALID)])
    try:
        text = _counted(path, SPEC_FILE, {} if digests is None else digests)
        doc = parse_yaml(text, path)
    except InputError as err:
        return SpecFile(None, None, [Problem(err.pos, err.message, SPEC_INVALID)])
    if not isinstance(doc.data, dict):
        return SpecFile(None, text, [Problem(doc.pos(), "corpus.yaml is not a YAML mapping", SPEC_INVALID)])
    spec, errors, contract = parse_spec(doc, root)
    return SpecFile(spec, text, [Problem(pos, message, SPEC_INVALID) for pos, message in errors], contract, doc.data)


def load_sidecar_file(path: str, relative: str = "", digests: dict[str, str] | None = None,
                      contract: Contract | None = DEFAULT
                      ) -> tuple[YamlDoc | None, Sidecar | None, str | None, list[Problem]]:
    """-> (YAML document if it is a mapping, sidecar if schema-valid, text if readable, problems)."""
    try:
        text = _counted(path, relative, {} if digests is None else digests)
        doc = parse_yaml(text, path)
    except InputError as err:
        return None, None, None, [Problem(err.pos, err.message, SIDECAR_PARSE)]
    if not isinstance(doc.data, dict):
        return None, None, text, [Problem(doc.pos(), "sidecar is not a YAML mapping", SIDECAR_PARSE)]
    sidecar, errors = parse_sidecar(doc, contract)
    return doc, sidecar, text, [Problem(pos, message, SIDECAR_SCHEMA) for pos, message in errors]


def load_corpus(root: str) -> Corpus:
    """Load every file of the corpus at `root`, each session parsed into turns (what lint reads).
    Raises InputError only if `root` is not a folder."""
    sessions: dict[str, Session] = {}

    def parse(fixture_id: str, path: str, text: str, session_format: Contract) -> None:
        sessions[fixture_id] = parse_session(text, path, fixture_id, session_format)

    return Corpus(**_load_files(root, parse), sessions=sessions)


def load_scoring_corpus(root: str) -> ScoringCorpus:
    """Load what the scorer reads of the corpus at `root` and no more: each session only split into
    frontmatter and body. Raises InputError only if `root` is not a folder."""
    transcripts: dict[str, str] = {}

    def split(fixture_id: str, path: str, text: str, _session_format: Contract) -> None:
        transcripts[fixture_id] = split_frontmatter(text, path)[1]

    return ScoringCorpus(**_load_files(root, split), transcripts=transcripts)


def _load_files(root: str, read_session: Callable[[str, str, str, Contract], None]) -> dict[str, Any]:
    """The CorpusFiles fields of the corpus at `root`; each readable session's text is given to
    `read_session(fixture id, path, text, session format)`, whose InputError is a SESSION_PARSE problem."""
    if not os.path.isdir(root):
        raise InputError(Pos(root), "no such corpus folder")
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    digests: dict[str, str] = {}
    loaded = read_spec_file(root, digests)
    spec, contract = loaded.spec, loaded.contract
    problems += loaded.problems
    if loaded.text is not None:
        texts[os.path.join(root, SPEC_FILE)] = loaded.text
    # Turns are read with the declared role tags even when the contract is broken elsewhere.
    session_format = contract if contract is not None else session_format_of(loaded.data)
    schema_file = schema_path(contract, root) if contract is not None else None
    if contract is not None and schema_file is not None and contract.schema_text is not None:
        texts[schema_file] = contract.schema_text  # a corpus file like any other for the secret scan
    # Sidecar point types are checked against the declared item types; not at all while a declared
    # output is broken (its problems are the spec's).
    point_types = contract if contract is not None else (None if "output" in (loaded.data or {}) else DEFAULT)

    session_paths, listed = list_files(os.path.join(root, SESSIONS_DIR), SESSION_SUFFIX)
    problems += listed
    sidecar_paths, listed = list_files(os.path.join(root, SIDECARS_DIR), SIDECAR_SUFFIX)
    problems += listed
    problems += misnamed_files(root)

    for fixture_id, path in session_paths.items():
        try:
            text = _counted(path, f"{SESSIONS_DIR}/{fixture_id}{SESSION_SUFFIX}", digests)
            texts[path] = text
            read_session(fixture_id, path, text, session_format)
        except InputError as err:
            problems.append(Problem(err.pos, err.message, SESSION_PARSE))

    sidecar_docs: dict[str, YamlDoc] = {}
    sidecars: dict[str, Sidecar] = {}
    for fixture_id, path in sidecar_paths.items():
        doc, sidecar, sidecar_text, sidecar_problems = load_sidecar_file(
            path, f"{SIDECARS_DIR}/{fixture_id}{SIDECAR_SUFFIX}", digests, point_types)
        problems += sidecar_problems
        if sidecar_text is not None:
            texts[path] = sidecar_text
        if doc is not None:
            sidecar_docs[fixture_id] = doc
        if sidecar is not None:
            sidecars[fixture_id] = sidecar

    return {"root": root, "spec": spec, "session_paths": session_paths, "sidecar_paths": sidecar_paths,
            "sidecar_docs": sidecar_docs, "sidecars": sidecars, "texts": texts,
            "problems": tuple(sorted(problems, key=Problem.sort_key)), "digests": digests, "contract": contract,
            "session_format": session_format}


def corpus_files(root: str) -> list[str]:
    """Relative POSIX paths of the files that define the corpus: corpus.yaml, sessions, sidecars
    (regular files only: links are never followed, and a folder or FIFO named like a fixture is a
    load problem, not a file to hash). InputError for a file name that is not UTF-8: the hash
    could not name it the same way on every machine."""
    files = [SPEC_FILE] if is_regular_file(os.path.join(root, SPEC_FILE)) else []
    for folder, suffix in ((SESSIONS_DIR, SESSION_SUFFIX), (SIDECARS_DIR, SIDECAR_SUFFIX)):
        found, problems = list_files(os.path.join(root, folder), suffix)
        for problem in bad_names(problems):
            raise InputError(problem.pos, problem.message)
        files += [f"{folder}/{fixture_id}{suffix}" for fixture_id, path in found.items() if is_regular_file(path)]
    return sorted(files)
