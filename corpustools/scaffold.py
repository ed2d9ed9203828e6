"""`corpustools init DIR [--output KIND]`: a new corpus to start from, which lints clean under
`--strict` and scores its own gold.

One kind of corpus per kind of prompt answer (docs/contracts.md):

- `kenkeep` (the default): the shipped prompt's `{practice, map}` proposals, corpus.yaml without
  `output:`. Four fixtures, one per kind of expectation (corpus.yaml's `expect`):
  `admit-convention-01` (practice: a practice point with a forbidden term), `admit-map-01` (map: a
  map point), `mixed-salvage-01` (subset: a durable rule inside task narration that must not
  survive) and `reject-noise-01` (empty: expect_empty).
- `items`: a JSON answer of typed items and scalar fields (a meeting-notes prompt: action items,
  decisions, a meeting type and a follow-up flag), with an output schema file and its own role
  tags (`[PM]`, `[DEV]`): `assign-action-01`, `record-decision-01`, `mixed-salvage-01`,
  `no-outcome-01`, each also pinning the scalar answers.
- `text`: a plain-text answer (`<fixture_id>.txt`): `admit-rule-01`, `mixed-salvage-01`,
  `reject-noise-01` (whose answer is `none`).

Each fixture has a session, a sidecar and a gold output; corpus.yaml explains every key in
comments; `prompt/<name>.v1.md` is a starter prompt (its `Version:` line, the transcript
placeholder `render` substitutes, and the answer's shape under the kind's output contract), and
the README says the run loop. The files are fixed text, kept as files in corpustools/new_corpus/<kind>/ (package
data): a folder per fixture holding its `session.md` (or none, when it reuses another kind's
session), `sidecar.yaml` and `gold.json` or `gold.txt`, any other file of the corpus
(`output.schema.json`) and its `prompt.md` as they are, and two templates given the corpus name and path,
`corpus.yaml.in` and `README.md.in`; so the same DIR name and kind always give the same bytes.
That layout is not a corpus's own (no corpus.yaml, no sessions/ beside expected/), so `lint`
never takes the package's folder for a corpus.
"""

from __future__ import annotations

__all__ = ["KINDS", "scaffold", "scaffold_files", "starter_prompt"]

import os
from dataclasses import dataclass

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.writing import write_text
from corpustools.io.yamlwrite import flow_scalar

TEMPLATES = "new_corpus"  # the folder beside this module


@dataclass(frozen=True)
class Kind:
    """One kind of scaffold: its fixtures, each with the template folder its session comes from."""

    fixtures: tuple[tuple[str, str], ...]  # (fixture id, "<kind>/<fixture folder>" holding its session.md)
    gold_suffix: str  # .json, or .txt for a text answer
    prompt: str  # corpus.yaml's prompt_under_eval name: the starter prompt is prompt/<prompt>.v1.md
    files: tuple[str, ...] = ()  # other files of the kind's folder, written as they are
    readme: tuple[tuple[str, str], ...] = ()  # names README.md.in is given, beside name and path


KENKEEP, ITEMS, TEXT = "kenkeep", "items", "text"
ADMIT_ID, MAP_ID, SUBSET_ID, REJECT_ID = "admit-convention-01", "admit-map-01", "mixed-salvage-01", "reject-noise-01"
KINDS = {
    KENKEEP: Kind(tuple((f, f"{KENKEEP}/{f}") for f in (ADMIT_ID, MAP_ID, SUBSET_ID, REJECT_ID)), ".json",
                  "my-extraction-prompt", readme=(("admit", ADMIT_ID), ("map", MAP_ID), ("subset", SUBSET_ID), ("reject", REJECT_ID))),
    ITEMS: Kind(tuple((f, f"{ITEMS}/{f}") for f in ("assign-action-01", "record-decision-01", "mixed-salvage-01",
                                                    "no-outcome-01")), ".json", "my-meeting-notes-prompt",
                files=("output.schema.json",)),
    # The text answers are about the same sessions as the default kind's rule and reject fixtures.
    TEXT: Kind((("admit-rule-01", f"{KENKEEP}/{ADMIT_ID}"), (SUBSET_ID, f"{KENKEEP}/{SUBSET_ID}"),
                (REJECT_ID, f"{KENKEEP}/{REJECT_ID}")), ".txt", "my-one-rule-prompt"),
}
DEFAULT_KIND = KENKEEP


def _template(relative: str) -> str:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), TEMPLATES, *relative.split("/"))
    with open(path, encoding="utf-8") as handle:  # universal newlines: a CRLF checkout still writes LF
        return handle.read()


def scaffold_files(name: str, shown_path: str, kind: str = DEFAULT_KIND) -> dict[str, str]:
    """relative POSIX path -> text of every file `init` writes, corpus.yaml last (a folder holding
    it, or sessions/ and expected/, is a corpus, whose own files only `init` writes, into the
    folder it creates)."""
    spec = KINDS[kind]
    prompt = starter_prompt(kind)
    files = {"README.md": _template(f"{kind}/README.md.in").format(name=name, path=shown_path,
                                                                   prompt=f"{shown_path}/{prompt}", **dict(spec.readme))}
    files.update({relative: _template(f"{kind}/{relative}") for relative in spec.files})
    # A starter prompt: the transcript placeholder render substitutes, and the answer's shape.
    files[prompt] = _template(f"{kind}/prompt.md")
    for template, folder, suffix in (("session.md", "sessions", ".md"), ("sidecar.yaml", "expected", ".yaml"),
                                     (f"gold{spec.gold_suffix}", "gold", spec.gold_suffix)):
        for fixture_id, session_from in spec.fixtures:
            source = session_from if template == "session.md" else f"{kind}/{fixture_id}"
            files[f"{folder}/{fixture_id}{suffix}"] = _template(f"{source}/{template}")
    files["corpus.yaml"] = _template(f"{kind}/corpus.yaml.in").format(name=flow_scalar(name))
    return files


def starter_prompt(kind: str) -> str:
    """Where `init` writes the starter prompt of `kind`, relative to the corpus: `prompt/<name>.v1.md`."""
    return f"prompt/{KINDS[kind].prompt}.v1.md"


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


def scaffold(folder: str, shown_path: str, kind: str = DEFAULT_KIND) -> list[str]:
    """Write a new corpus of `kind` into `folder` (absent or empty); the paths written, in order."""
    refuse_folder(folder)
    name = os.path.basename(os.path.normpath(os.path.abspath(folder))) or "corpus"
    written = []
    for relative, text in scaffold_files(name, shown_path, kind).items():
        path = os.path.join(folder, *relative.split("/"))
        write_text(path, text, new_corpus=folder)  # its sessions/ and expected/ make it a corpus early
        written.append(path)
    return written
