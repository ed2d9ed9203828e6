"""run.yaml, the run manifest: how a results folder was produced.

`corpustools run init` writes it before the maintainer runs the model by hand; `score` and
`compare` read it to print the model, temperature and prompt in the report header and to notice
results produced against another corpus, or under another output contract.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass

from corpustools.io.positions import InputError, Pos
from corpustools.io.schemastore import validate
from corpustools.io.textfile import decode_text, read_bytes, read_text
from corpustools.io.writing import write_text
from corpustools.io.yamlload import parse_yaml
from corpustools.io.yamlwrite import flow_scalar
from corpustools.model.corpus import corpus_sha256, read_spec_file

MANIFEST_FILE = "run.yaml"
UNRECORDED = "unrecorded"

# `Version: 5` on a line of its own, possibly inside the prompt's leading HTML comment.
_VERSION_LINE = re.compile(r"^[ \t]*(?:<!--[ \t]*)?Version:[ \t]*([^\s<>]+)", re.MULTILINE)


@dataclass(frozen=True)
class ManifestRead:
    manifest: dict | None  # the schema-valid manifest, or None
    warnings: tuple[str, ...]


def manifest_path(results_dir: str) -> str:
    return os.path.join(results_dir, MANIFEST_FILE)


def read_manifest(results_dir: str) -> ManifestRead:
    """The run manifest of a results folder. Never raises: a missing or bad one is a warning."""
    path = manifest_path(results_dir)
    unrecorded = "model and temperature unrecorded"
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return ManifestRead(None, (f"{results_dir}: no {MANIFEST_FILE}: {unrecorded}",))
    except OSError as err:  # there, perhaps, but not to be read: never "no run.yaml"
        return ManifestRead(None, (f"{path}: cannot read: {err.strerror or err}; manifest ignored: {unrecorded}",))
    try:
        doc = parse_yaml(read_text(path), path)
    except InputError as err:
        return ManifestRead(None, (f"{err}; manifest ignored: {unrecorded}",))
    errors = validate("run-manifest", doc.data)
    if errors:
        first = errors[0]
        return ManifestRead(None, (f"{doc.pos(first.keypath)}: {first.pointer or '/'}: {first.message}; "
                                   f"manifest ignored: {unrecorded}",))
    if UNRECORDED in (doc.data["model"], doc.data["temperature"]):
        return ManifestRead(doc.data, (f"{path}: {unrecorded}",))
    return ManifestRead(doc.data, ())


def prompt_version(text: str) -> int | str | None:
    """The value of the prompt's first `Version:` line (an int when it is all digits)."""
    match = _VERSION_LINE.search(text)
    if not match:
        return None
    value = match.group(1)
    return int(value) if value.isdigit() else value


def parse_temperature(text: str) -> int | float | str:
    """`0.7` -> 0.7, `1` -> 1; anything else (e.g. `unknown`) stays the string it is."""
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    try:
        value = float(text)
    except ValueError:
        return text
    return value if value == value and abs(value) != float("inf") else text


def build_manifest(corpus_root: str, prompt_path: str, *, model: str, temperature: str, harness: str | None,
                   operator: str, started_at: str, prompt_name: str | None = None,
                   notes: str = "") -> tuple[dict, list[str]]:
    """-> (manifest, notes for the user). Raises InputError when the prompt cannot be read or
    the manifest would not be valid."""
    data = read_bytes(prompt_path)  # read once: the text and its sha256 are of the same bytes
    text = decode_text(data, prompt_path)
    loaded = read_spec_file(corpus_root)
    spec = loaded.spec
    version = prompt_version(text)
    remarks = []
    if version is None:
        remarks.append(f"{prompt_path}: no 'Version:' line; prompt version recorded as null")
    elif spec is not None and str(spec.prompt_version) != str(version):
        remarks.append(f"{prompt_path}: prompt is Version {version}; corpus.yaml's prompt_under_eval "
                       f"is version {spec.prompt_version}")
    if prompt_name is None:
        prompt_name = spec.prompt_name if spec is not None else os.path.basename(prompt_path).split(".", 1)[0]
    if harness is None:
        harness = spec.harnesses[0] if spec is not None else UNRECORDED
    manifest = {
        "prompt": {"path": prompt_path, "name": prompt_name, "version": version, "sha256": hashlib.sha256(data).hexdigest()},
        "model": model,
        "temperature": parse_temperature(temperature),
        "harness": harness,
        "operator": operator,
        "started_at": started_at,
        "corpus_sha256": corpus_sha256(corpus_root),
        "notes": notes,
    }
    if loaded.contract is not None:  # the output contract results are read under (docs/contracts.md)
        manifest = {**{k: v for k, v in manifest.items() if k != "notes"},
                    "contract_sha256": loaded.contract.sha256, "notes": notes}
    errors = validate("run-manifest", manifest)
    if errors:
        raise InputError(Pos(MANIFEST_FILE), f"{errors[0].pointer or '/'}: {errors[0].message}")
    return manifest, remarks


def manifest_yaml(manifest: dict) -> str:
    lines = ["# Written by `corpustools run init`. Fill in notes (and cost, if your harness reports it)."]
    for key, value in manifest.items():
        if isinstance(value, dict):
            lines.append(f"{key}:")
            lines += [f"  {inner}: {flow_scalar(item)}" for inner, item in value.items()]
        else:
            lines.append(f"{key}: {flow_scalar(value)}")
    return "\n".join(lines) + "\n"


def write_manifest(results_dir: str, text: str, *, force: bool) -> str:
    """Write run.yaml into `results_dir` (created if missing); refuses to overwrite unless forced."""
    path = manifest_path(results_dir)
    if os.path.lexists(path) and not force:
        raise InputError(Pos(path), f"{MANIFEST_FILE} already exists; not overwritten (pass --force to replace it)")
    if os.path.isdir(path) or os.path.islink(path):
        raise InputError(Pos(path), "is a folder or a symbolic link; not overwritten")
    write_text(path, text, force=force)
    return path
