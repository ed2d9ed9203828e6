"""`corpustools init DIR`: a new corpus to start from, which lints clean and scores its own gold.

Four fixtures, one per kind of expectation (corpus.yaml's `expect`): `admit-convention-01`
(practice: a practice point with a forbidden term), `admit-map-01` (map: a map point),
`mixed-salvage-01` (subset: a durable rule inside task narration that must not survive) and
`reject-noise-01` (empty: expect_empty). Each has a session, a sidecar and a gold
output; corpus.yaml explains every key in comments. The files are fixed text, kept as files in
corpustools/new_corpus/ (package data): a folder per fixture holding its `session.md`,
`sidecar.yaml` and `gold.json`, and two templates given the corpus name and path,
`corpus.yaml.in` and `README.md.in`; so the same DIR name always gives the same bytes. That
layout is not a corpus's own (no corpus.yaml, no sessions/ beside expected/), so `lint` never
takes the package's folder for a corpus.
"""

from __future__ import annotations

import os

from corpustools.io.positions import InputError, Pos
from corpustools.io.writing import write_text
from corpustools.io.yamlwrite import flow_scalar

ADMIT_ID, MAP_ID, SUBSET_ID, REJECT_ID = "admit-convention-01", "admit-map-01", "mixed-salvage-01", "reject-noise-01"
TEMPLATES = "new_corpus"  # the folder beside this module


def _template(relative: str) -> str:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), TEMPLATES, *relative.split("/"))
    with open(path, encoding="utf-8") as handle:  # universal newlines: a CRLF checkout still writes LF
        return handle.read()


def scaffold_files(name: str, shown_path: str) -> dict[str, str]:
    """relative POSIX path -> text of every file `init` writes, corpus.yaml last (a folder holding
    it, or sessions/ and expected/, is a corpus, whose own files only `init` writes, into the
    folder it creates)."""
    files = {"README.md": _template("README.md.in").format(
        name=name, admit=ADMIT_ID, map=MAP_ID, subset=SUBSET_ID, reject=REJECT_ID, path=shown_path)}
    # (the template's file in a fixture's folder, where init writes it)
    for template, folder, suffix in (("session.md", "sessions", ".md"), ("sidecar.yaml", "expected", ".yaml"),
                                     ("gold.json", "gold", ".json")):
        for fixture_id in (ADMIT_ID, MAP_ID, SUBSET_ID, REJECT_ID):
            files[f"{folder}/{fixture_id}{suffix}"] = _template(f"{fixture_id}/{template}")
    files["corpus.yaml"] = _template("corpus.yaml.in").format(name=flow_scalar(name))
    return files


def refuse_folder(folder: str) -> None:
    """InputError unless `folder` is absent or an empty folder (never a link, never a file)."""
    if os.path.islink(folder):
        raise InputError(Pos(folder), "is a symbolic link; corpustools never writes through a link")
    if not os.path.lexists(folder):
        return
    if not os.path.isdir(folder):
        raise InputError(Pos(folder), "exists and is not a folder; not scaffolded")
    try:
        entries = os.listdir(folder)
    except OSError as err:
        raise InputError(Pos(folder), f"cannot list folder: {err.strerror or err}") from None
    if entries:
        raise InputError(Pos(folder), "is not empty; init writes only into a new or empty folder")


def scaffold(folder: str, shown_path: str) -> list[str]:
    """Write a new corpus into `folder` (absent or empty); the paths written, in order."""
    refuse_folder(folder)
    name = os.path.basename(os.path.normpath(os.path.abspath(folder))) or "corpus"
    written = []
    for relative, text in scaffold_files(name, shown_path).items():
        path = os.path.join(folder, *relative.split("/"))
        write_text(path, text, new_corpus=folder)  # its sessions/ and expected/ make it a corpus early
        written.append(path)
    return written
