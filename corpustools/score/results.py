"""One run folder: `<results>/<fixture_id>.json` per fixture, plus an optional run.yaml.

Result files are read, never modified. A result the system will not give (permission denied, an
I/O error; also every result of a folder that cannot be searched) is one `unreadable-result` line
naming the file and why: never taken for a missing one. Anything else that keeps a file from
being a valid proposal-output (a link, over the size cap, not JSON, schema-invalid) is one
`invalid-result` line naming the file and, where known, the line.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass

from corpustools.io.documents import parse_json
from corpustools.io.inputs import note_folder
from corpustools.io.positions import InputError, Pos
from corpustools.io.schemastore import validate
from corpustools.io.textfile import Unreadable, decode_text, read_bytes
from corpustools.manifest import MANIFEST_FILE, read_manifest
from corpustools.model.corpus import disk_name, utf8_name
from corpustools.model.status import INVALID, MISSING, OK, UNREADABLE

RESULT_SUFFIX = ".json"


@dataclass(frozen=True)
class ResultFile:
    fixture_id: str
    path: str
    status: str  # ok | missing | unreadable | invalid
    output: dict | None = None  # the schema-valid proposal output
    error: str | None = None  # one line naming the file, for an unreadable or invalid result
    digest: str | None = None  # sha256 of the bytes read (to spot two runs that are one)


@dataclass(frozen=True)
class RunFolder:
    path: str  # as given on the command line
    results: Mapping[str, ResultFile]  # fixture id -> result, for every scored fixture
    manifest: dict | None
    warnings: tuple[str, ...]

    @property
    def fingerprint(self) -> tuple:
        """What two byte-identical runs share: each present result file's name and digest."""
        return tuple((fid, r.digest) for fid, r in sorted(self.results.items()) if r.status != MISSING)


def read_result(fixture_id: str, path: str) -> ResultFile:
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return ResultFile(fixture_id, path, MISSING)
    except OSError as err:  # the folder cannot be searched: the file may well be there
        return unreadable_result(fixture_id, path, err)
    try:
        data = read_bytes(path)
    except Unreadable as err:
        return ResultFile(fixture_id, path, UNREADABLE, error=str(err), digest=f"unread:{err.message}")
    except InputError as err:
        return ResultFile(fixture_id, path, INVALID, error=str(err), digest=f"unread:{err.message}")
    digest = hashlib.sha256(data).hexdigest()
    try:
        output = parse_json(decode_text(data, path), path)
    except InputError as err:
        return ResultFile(fixture_id, path, INVALID, error=str(err), digest=digest)
    errors = validate("proposal-output", output)
    if errors:
        first = errors[0]
        return ResultFile(fixture_id, path, INVALID, error=f"{path}: {first.pointer or '/'}: {first.message}",
                          digest=digest)
    return ResultFile(fixture_id, path, OK, output=output, digest=digest)


def unreadable_result(fixture_id: str, path: str, err: OSError) -> ResultFile:
    message = f"cannot read: {err.strerror or err}"
    return ResultFile(fixture_id, path, UNREADABLE, error=str(InputError(Pos(path), message)), digest=f"unread:{message}")


def stray_results(folder: str, fixture_ids: set[str]) -> list[str]:
    """Warnings for `*.json` files that name no scored fixture (other files are ignored)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as err:  # each result was still read by its name, and said what it found
        return [f"{folder}: cannot list the results folder ({err.strerror or err}); stray results not checked"]
    warnings = []
    for listed in names:
        name = utf8_name(listed)
        if name is None:
            warnings.append(f"{os.path.join(folder, listed)}: file name is not valid UTF-8; not scored")
            continue
        if name.endswith(RESULT_SUFFIX) and not name.startswith(".") and name[: -len(RESULT_SUFFIX)] not in fixture_ids:
            warnings.append(f"{os.path.join(folder, name)}: names no fixture with a sidecar; not scored")
    return warnings


def read_run_folder(folder: str, fixture_ids: list[str]) -> RunFolder:
    """Every scored fixture's result (missing ones included) and the manifest of `folder`.
    InputError when `folder` is not a folder: a mistyped path is a usage error, not an all-missing run."""
    warnings: list[str] = []
    if not os.path.isdir(folder):
        raise InputError(Pos(folder), "no such results folder")
    note_folder(folder, f"the results folder {folder}", suffixes=(RESULT_SUFFIX,), names=(MANIFEST_FILE,))
    results = {fid: read_result(fid, os.path.join(folder, disk_name(fid + RESULT_SUFFIX))) for fid in sorted(fixture_ids)}
    manifest = read_manifest(folder)
    warnings += manifest.warnings
    warnings += stray_results(folder, set(fixture_ids))
    return RunFolder(folder, results, manifest.manifest, tuple(warnings))
