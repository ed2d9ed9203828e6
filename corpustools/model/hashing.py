"""The hashes that name a corpus's state: the corpus hash (corpus.yaml, sessions, sidecars: what
run.yaml's corpus_sha256 and the provenance record are about), and the two a run is checked
against (docs/scoring.md, "Drift"): the inputs the model saw (the prompt and each session as
rendered) and the labels it is scored under (corpus.yaml, the sidecars, the output contract).
A loaded corpus is hashed from the digests recorded while it was read: nothing is read twice."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping

from corpustools.io.errors import InputError
from corpustools.io.layout import SESSION_SUFFIX, SESSIONS_DIR, SIDECARS_DIR, SPEC_FILE
from corpustools.io.textfile import read_bytes
from corpustools.model.corpus import UNREAD, CorpusFiles, ScoringCorpus, corpus_files, disk_name
from corpustools.model.session import split_frontmatter


def file_sha256(path: str) -> str:
    """sha256 of a regular file's bytes (read like any input: no links, no FIFOs, size-capped);
    InputError when it cannot be read."""
    return hashlib.sha256(read_bytes(path)).hexdigest()


def file_digest(path: str, *, strict: bool = False) -> str:
    """sha256 of a file, or UNREAD when it cannot be read (so it shows as changed); when `strict`,
    the InputError naming it instead."""
    try:
        return file_sha256(path)
    except InputError:
        if strict:
            raise
        return UNREAD


def file_digests(root: str, relatives: list[str], *, strict: bool = False,
                 known: Mapping[str, str] | None = None) -> dict[str, str]:
    """relative path (POSIX, as listed) -> file_digest of each file under `root`. `known`: the
    digests of files already read this run (a loaded corpus's `digests`, taken of the bytes its
    rules read): those files are not read again (an UNREAD one is)."""
    known = known or {}
    return {relative: digest if (digest := known.get(relative)) not in (None, UNREAD)
            else file_digest(os.path.join(root, *disk_name(relative).split("/")), strict=strict)
            for relative in relatives}


def corpus_digests(root: str) -> dict[str, str]:
    """relative path -> sha256 (or UNREAD) of each corpus file, as load_corpus records them."""
    return file_digests(root, corpus_files(root))


def corpus_sha256(root: str | CorpusFiles) -> str:
    """sha256 over `<relative path>\\0<sha256 of its bytes>\\n` for each corpus file, sorted by path.

    Hashing the file list with the contents means a renamed, added or removed fixture changes the
    hash as surely as an edited one; gold outputs and runs are not part of the corpus identity.
    Paths are hashed as UTF-8, whatever the locale. A loaded Corpus is hashed from the digests
    recorded while loading it (same value, no second read).
    """
    return digests_sha256(root.digests if isinstance(root, CorpusFiles) else corpus_digests(root))


def digests_sha256(digests: Mapping[str, str]) -> str:
    """The corpus hash of relative path -> sha256 of each corpus file (corpus_sha256)."""
    digest = hashlib.sha256()
    for relative in sorted(digests):
        digest.update(f"{relative}\0{digests[relative]}\n".encode())
    return digest.hexdigest()


# --- inputs and labels: what a run's outputs answer, and what scores them -----------------------

def session_input_digests(corpus: CorpusFiles) -> dict[str, str]:
    """fixture id -> sha256 of each session's body as `render` substitutes it into the prompt
    (frontmatter dropped, leading and trailing newlines stripped): what the model saw of it. A
    session that cannot be read is UNREAD; one with no frontmatter to split off is hashed whole.
    Frontmatter is not an input: the model never sees it."""
    digests = {}
    for fixture_id, path in corpus.session_paths.items():
        text = corpus.texts.get(path)
        if text is None:
            digests[fixture_id] = UNREAD
            continue
        body = corpus.transcripts.get(fixture_id) if isinstance(corpus, ScoringCorpus) else None  # split already
        if body is None:
            try:
                body = split_frontmatter(text, path)[1]
            except InputError:
                body = text
        digests[fixture_id] = hashlib.sha256(body.strip("\n").encode("utf-8", "surrogateescape")).hexdigest()
    return digests


def inputs_sha256(prompt_sha256: str, sessions: Mapping[str, str]) -> str:
    """sha256 over `prompt\\0<prompt sha256>\\n`, then `sessions/<id>.md\\0<input digest>\\n` for
    each session by fixture id: the inputs a run's outputs answer (docs/scoring.md, "Drift")."""
    digest = hashlib.sha256(f"prompt\0{prompt_sha256}\n".encode())
    for fixture_id in sorted(sessions):
        digest.update(f"{SESSIONS_DIR}/{fixture_id}{SESSION_SUFFIX}\0{sessions[fixture_id]}\n".encode())
    return digest.hexdigest()


def labels_sha256(corpus: CorpusFiles) -> str:
    """sha256 over `<relative path>\\0<sha256>\\n` for corpus.yaml and every sidecar, sorted by path,
    then `contract\\0<the output contract's sha256>\\n`: what a run's outputs are scored under. A
    label revision, a corpus_version bump or a prompt_under_eval change moves it; a session does not."""
    digest = hashlib.sha256()
    for relative in sorted(corpus.digests):
        if relative == SPEC_FILE or relative.startswith(f"{SIDECARS_DIR}/"):
            digest.update(f"{relative}\0{corpus.digests[relative]}\n".encode())
    digest.update(f"contract\0{corpus.contract.sha256 if corpus.contract is not None else 'invalid'}\n".encode())
    return digest.hexdigest()
