"""Loading a corpus folder: the spec, sessions and sidecars, with every problem kept as a value.

Loading never raises for a bad file inside the corpus: it records a Problem at that file and goes
on, so the linter can report everything at once and the scorer can FAIL just that fixture.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from typing import Mapping

from corpustools.gcpause import gc_paused
from corpustools.positions import InputError, Pos
from corpustools.session import Session, parse_session
from corpustools.sidecar import Sidecar, parse_sidecar
from corpustools.spec import SPEC_FILE, CorpusSpec, parse_spec
from corpustools.textfile import read_text
from corpustools.yamlload import YamlDoc, parse_yaml

SESSIONS_DIR, SIDECARS_DIR, GOLD_DIR = "sessions", "expected", "gold"
SESSION_SUFFIX, SIDECAR_SUFFIX = ".md", ".yaml"

# Problem kinds, one per way a file can fail to load (the linter maps each to its rule).
SESSION_PARSE, SIDECAR_PARSE, SPEC_INVALID, SIDECAR_SCHEMA, STRAY_LINK = (
    "session-parse", "sidecar-parse", "spec-invalid", "sidecar-schema", "stray-link")


@dataclass(frozen=True, order=True)
class Problem:
    pos: Pos
    kind: str
    message: str


@dataclass(frozen=True)
class Corpus:
    root: str
    spec: CorpusSpec | None
    session_paths: Mapping[str, str]  # fixture id -> path, every session file found
    sidecar_paths: Mapping[str, str]  # fixture id -> path, every sidecar file found
    sessions: Mapping[str, Session]  # the ones that parsed
    sidecar_docs: Mapping[str, YamlDoc]  # the sidecars that are YAML mappings
    sidecars: Mapping[str, Sidecar]  # the sidecars that are also schema-valid
    texts: Mapping[str, str]  # path -> text of every readable corpus file (spec, sessions, sidecars)
    problems: tuple[Problem, ...] = field(default_factory=tuple)

    @property
    def fixture_ids(self) -> list[str]:
        """Every fixture id seen as a session or a sidecar, sorted by code point."""
        return sorted(set(self.session_paths) | set(self.sidecar_paths))

    @property
    def spec_path(self) -> str:
        return os.path.join(self.root, SPEC_FILE)


def is_corpus(root: str) -> bool:
    return os.path.isfile(os.path.join(root, SPEC_FILE))


def require_corpus(root: str) -> None:
    """InputError unless `root` is a corpus folder (a folder that holds corpus.yaml)."""
    if not os.path.isdir(root):
        raise InputError(Pos(root), "is not a folder; not a corpus" if os.path.exists(root) else "no such corpus folder")
    if not is_corpus(root):
        raise InputError(Pos(root), f"not a corpus folder: no {SPEC_FILE}")


def list_files(folder: str, suffix: str) -> tuple[dict[str, str], list[Problem]]:
    """fixture id -> path for `folder/*suffix`, sorted. Links are listed, never followed: reading
    one is refused. A linked or unlistable folder is a STRAY_LINK problem."""
    found: dict[str, str] = {}
    problems: list[Problem] = []
    if os.path.islink(folder):
        return found, [Problem(Pos(folder), STRAY_LINK, "is a symbolic link; links are not followed")]
    try:
        names = sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return found, problems
    except OSError as err:
        return found, [Problem(Pos(folder), STRAY_LINK, f"cannot list folder: {err.strerror or err}")]
    for name in names:
        path = os.path.join(folder, name)
        if not name.endswith(suffix) or name.startswith("."):
            continue
        # A link is listed like any file, so its fixture is paired and scored; reading it is what
        # refuses it (textfile.read_bytes: "is a symbolic link ...; links are not followed").
        found[name[: -len(suffix)]] = path
    return found, problems


def load_spec_file(root: str) -> tuple[CorpusSpec | None, str | None, list[Problem]]:
    path = os.path.join(root, SPEC_FILE)
    if not os.path.lexists(path):
        return None, None, [Problem(Pos(path), SPEC_INVALID, "corpus.yaml is missing")]
    try:
        text = read_text(path)
        doc = parse_yaml(text, path)
    except InputError as err:
        return None, None, [Problem(err.pos, SPEC_INVALID, err.message)]
    if not isinstance(doc.data, dict):
        return None, text, [Problem(doc.pos(), SPEC_INVALID, "corpus.yaml is not a YAML mapping")]
    spec, errors = parse_spec(doc)
    return spec, text, [Problem(pos, SPEC_INVALID, message) for pos, message in errors]


def load_sidecar_file(path: str) -> tuple[YamlDoc | None, Sidecar | None, str | None, list[Problem]]:
    """-> (YAML document if it is a mapping, sidecar if schema-valid, text if readable, problems)."""
    try:
        text = read_text(path)
        doc = parse_yaml(text, path)
    except InputError as err:
        return None, None, None, [Problem(err.pos, SIDECAR_PARSE, err.message)]
    if not isinstance(doc.data, dict):
        return None, None, text, [Problem(doc.pos(), SIDECAR_PARSE, "sidecar is not a YAML mapping")]
    sidecar, errors = parse_sidecar(doc)
    return doc, sidecar, text, [Problem(pos, SIDECAR_SCHEMA, message) for pos, message in errors]


def load_corpus(root: str) -> Corpus:
    """Load every file of the corpus at `root`. Raises InputError only if `root` is not a folder."""
    with gc_paused():
        return _load_corpus(root)


def _load_corpus(root: str) -> Corpus:
    if not os.path.isdir(root):
        raise InputError(Pos(root), "no such corpus folder")
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    spec, spec_text, spec_problems = load_spec_file(root)
    problems += spec_problems
    if spec_text is not None:
        texts[os.path.join(root, SPEC_FILE)] = spec_text

    session_paths, listed = list_files(os.path.join(root, SESSIONS_DIR), SESSION_SUFFIX)
    problems += listed
    sidecar_paths, listed = list_files(os.path.join(root, SIDECARS_DIR), SIDECAR_SUFFIX)
    problems += listed

    sessions: dict[str, Session] = {}
    for fixture_id, path in session_paths.items():
        try:
            text = read_text(path)
            texts[path] = text
            sessions[fixture_id] = parse_session(text, path, fixture_id)
        except InputError as err:
            problems.append(Problem(err.pos, SESSION_PARSE, err.message))

    sidecar_docs: dict[str, YamlDoc] = {}
    sidecars: dict[str, Sidecar] = {}
    for fixture_id, path in sidecar_paths.items():
        doc, sidecar, text, sidecar_problems = load_sidecar_file(path)
        problems += sidecar_problems
        if text is not None:
            texts[path] = text
        if doc is not None:
            sidecar_docs[fixture_id] = doc
        if sidecar is not None:
            sidecars[fixture_id] = sidecar

    return Corpus(root, spec, session_paths, sidecar_paths, sessions, sidecar_docs, sidecars, texts,
                  tuple(sorted(problems)))


def corpus_files(root: str) -> list[str]:
    """Relative POSIX paths of the files that define the corpus: corpus.yaml, sessions, sidecars."""
    spec_path = os.path.join(root, SPEC_FILE)
    files = [SPEC_FILE] if os.path.isfile(spec_path) and not os.path.islink(spec_path) else []  # links: never followed
    for folder, suffix in ((SESSIONS_DIR, SESSION_SUFFIX), (SIDECARS_DIR, SIDECAR_SUFFIX)):
        found, _ = list_files(os.path.join(root, folder), suffix)
        # A folder named like a session or sidecar is a load problem (CT001), not a file to hash.
        files += [f"{folder}/{fixture_id}{suffix}" for fixture_id, path in found.items()
                  if os.path.isfile(path) and not os.path.islink(path)]
    return sorted(files)


def file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def corpus_sha256(root: str) -> str:
    """sha256 over `<relative path>\\0<sha256 of its bytes>\\n` for each corpus file, sorted by path.

    Hashing the file list with the contents means a renamed, added or removed fixture changes the
    hash as surely as an edited one; gold outputs and runs are not part of the corpus identity.
    """
    digest = hashlib.sha256()
    for relative in corpus_files(root):
        digest.update(f"{relative}\0{file_sha256(os.path.join(root, relative))}\n".encode())
    return digest.hexdigest()
