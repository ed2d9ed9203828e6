"""One run folder: `<results>/<fixture_id>.json` per fixture (`.txt` under a text output
contract), plus an optional run.yaml.

Result files are read, never modified, and read through the corpus's output contract
(corpustools.model.contract). A result the system will not give (permission denied, an I/O
error; also every result of a folder that cannot be searched) is one `unreadable-result` line
naming the file and why: never taken for a missing one. Anything else that keeps a file from
being a result the contract can read (a link, over the size cap, not JSON, schema-invalid, an
item array missing or not an array, saved under the other format's name) is one
`invalid-result` line naming the file and, where known, the line or the JSON pointer.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from corpustools.io.documents import parse_json
from corpustools.io.errors import InputError
from corpustools.io.inputs import note_folder
from corpustools.io.positions import Pos
from corpustools.io.suggest import closest
from corpustools.io.textfile import Unreadable, decode_text, read_bytes
from corpustools.manifest import MANIFEST_FILE, RunManifest, read_manifest
from corpustools.model.contract import DEFAULT, JSON_FORMAT, Answer, Contract, ReadError
from corpustools.model.corpus import disk_name, utf8_name
from corpustools.model.status import FileStatus


@dataclass(frozen=True)
class ResultProblem:
    """Why a result is invalid, in parts: where (the file, or its line), the JSON pointer of the
    offending value when there is one, and what is wrong. ResultFile.error says them as one line."""

    pos: Pos
    pointer: str | None
    message: str

    def __str__(self) -> str:
        return str(InputError(self.pos, f"{self.pointer}: {self.message}" if self.pointer else self.message))


@dataclass(frozen=True)
class ResultFile:
    fixture_id: str
    path: str
    status: FileStatus  # OK | MISSING | UNREADABLE | INVALID
    answer: Answer | None = None  # the result read through the contract (its items and fields)
    error: str | None = None  # one line naming the file, for an unreadable or invalid result
    digest: str | None = None  # sha256 of the bytes read (to spot two runs that are one)
    problem: ResultProblem | None = None  # an invalid result's error, in parts (validate result's JSON)
    # An invalid result whose content is valid once a code fence around it, or keys the schema
    # forbids, are taken away: that content read through the contract (never scored: an advisory
    # says what it would have scored), and how it was found (`inside the fence`, ...).
    content: Answer | None = None
    content_found: str | None = None


def invalid_result(fixture_id: str, path: str, problem: ResultProblem, digest: str,
                   content: tuple[Answer, str] | None = None) -> ResultFile:
    return ResultFile(fixture_id, path, FileStatus.INVALID, error=str(problem), digest=digest, problem=problem,
                      content=content[0] if content else None, content_found=content[1] if content else None)


@dataclass(frozen=True)
class RunFolder:
    path: str  # as given on the command line
    results: Mapping[str, ResultFile]  # fixture id -> result, for every scored fixture
    manifest: RunManifest | None
    warnings: tuple[str, ...]

    @property
    def fingerprint(self) -> tuple:
        """What two byte-identical runs share: each present result file's name and digest."""
        return tuple((fid, r.digest) for fid, r in sorted(self.results.items()) if r.status != FileStatus.MISSING)


def result_path(folder: str, fixture_id: str, contract: Contract = DEFAULT) -> str:
    """Where a fixture's result is saved: `<folder>/<fixture_id>.json` (`.txt` for a text output)."""
    return os.path.join(folder, disk_name(fixture_id + contract.result_suffix))


def read_result(fixture_id: str, path: str, contract: Contract = DEFAULT) -> ResultFile:
    """The result saved at `path` read through `contract` (or, when none is there, the one saved
    under the other format's name): OK with its answer, MISSING, UNREADABLE or INVALID with the one
    line that says why. What `score` and `validate result` read a result with."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        other = path[: -len(contract.result_suffix)] + contract.other_suffix
        if os.path.lexists(other):  # saved under the other format's name: say which name to use
            return invalid_result(fixture_id, other, other_format_problem(other, contract),
                                  "unread:saved under the other format's name")
        return ResultFile(fixture_id, path, FileStatus.MISSING)
    except OSError as err:  # the folder cannot be searched: the file may well be there
        return unreadable_result(fixture_id, path, err)
    try:
        data = read_bytes(path)
    except Unreadable as err:
        return ResultFile(fixture_id, path, FileStatus.UNREADABLE, error=str(err), digest=f"unread:{err.message}")
    except InputError as err:
        return invalid_result(fixture_id, path, ResultProblem(err.pos, None, err.message), f"unread:{err.message}")
    digest = hashlib.sha256(data).hexdigest()
    text = None
    try:
        text = decode_text(data, path, allow_empty=contract.format != JSON_FORMAT)  # a blank text answer is empty
        if contract.format != JSON_FORMAT:
            return ResultFile(fixture_id, path, FileStatus.OK, answer=contract.read_text(text), digest=digest)
        output = parse_json(text, path)
    except InputError as err:
        # The model's answer as a chat shows it, in a code fence: say what to save instead.
        fenced = fenced_json(text) if text is not None else None
        if fenced is None:
            return invalid_result(fixture_id, path, ResultProblem(err.pos, None, err.message), digest)
        line, inside = fenced
        return invalid_result(fixture_id, path, ResultProblem(Pos(path, line, 1), None, FENCED_HINT), digest,
                              content_of(inside, contract, "inside the fence"))
    answer, problem = read_output(output, contract)
    if answer is None:
        assert problem is not None  # read_output says why it read nothing
        pointer, message = problem
        return invalid_result(fixture_id, path, ResultProblem(Pos(path), pointer, message), digest,
                              content_of(output, contract, ""))
    return ResultFile(fixture_id, path, FileStatus.OK, answer=answer, digest=digest)


def other_format_problem(path: str, contract: Contract) -> ResultProblem:
    """A result saved under the other format's name (`x.txt` under a json contract): which name to use."""
    stem = os.path.basename(path)[: -len(contract.other_suffix)]
    return ResultProblem(Pos(path), None, f"this corpus's output format is {contract.format} (corpus.yaml "
                                          f"output.format): save the result as {stem}{contract.result_suffix}")


def read_output(output, contract: Contract) -> tuple[Answer | None, tuple[str, str] | None]:
    """A parsed JSON result read through `contract`: (its answer, None), or (None, (pointer,
    message) of the first problem: a schema error, or an item array or item that is not one)."""
    errors = contract.schema_errors(output)
    if errors:
        return None, (errors[0].pointer or "/", errors[0].message)
    try:
        return contract.read_json(output), None
    except ReadError as err:
        return None, (err.pointer, err.message)


def content_of(output, contract: Contract, found: str) -> tuple[Answer, str] | None:
    """`output` read through `contract` once the keys its schema forbids are taken away (an answer
    with an extra `notes` key is a format failure, not a wrong answer), with how it was found
    (`found`, then `without the extra key /notes`); None when it is not valid even then."""
    extra = contract.extra_keys(output)
    if extra:
        output = _without(output, extra)
        keys = ", ".join("/" + "/".join(str(part) for part in keypath) for keypath in extra)
        found = ", ".join(part for part in (found, f"without the extra key{'s' if len(extra) > 1 else ''} {keys}")
                          if part)
    answer, _ = read_output(output, contract)
    return (answer, found) if answer is not None and found else None


def _without(document, keypaths: list[tuple]):
    """A copy of the JSON `document` without the keys at `keypaths`."""
    trimmed = copy.deepcopy(document)
    for keypath in sorted(keypaths, key=len, reverse=True):
        parent = trimmed
        for part in keypath[:-1]:
            parent = parent[part]
        parent.pop(keypath[-1], None)
    return trimmed


def unreadable_result(fixture_id: str, path: str, err: OSError) -> ResultFile:
    message = f"cannot read: {err.strerror or err}"
    return ResultFile(fixture_id, path, FileStatus.UNREADABLE, error=str(InputError(Pos(path), message)), digest=f"unread:{message}")


FENCED_HINT = "the file holds a fenced code block: save only the JSON object"
_FENCE = re.compile(r"\A\s*(```|~~~)[^\n`]*\n(.*)\n[ \t]*\1[ \t]*\s*\Z", re.DOTALL)


def fenced_json(text: str) -> tuple[int, dict] | None:
    """(the line of the opening fence, the object) when `text` is a JSON object inside one Markdown
    code fence (```json ... ```), else None."""
    match = _FENCE.match(text)
    if match is None:
        return None
    try:
        inside = json.loads(match.group(2))
    except ValueError:
        return None
    return (text[:match.start(1)].count("\n") + 1, inside) if isinstance(inside, dict) else None


def stray_results(folder: str, fixture_ids: set[str], suffix: str = DEFAULT.result_suffix,
                  sessions: Collection[str] = ()) -> list[str]:
    """Warnings for result files (`*.json`, or `*.txt` for a text output) that name no scored
    fixture (other files are ignored); a name that matches no fixture at all (not even a session
    without a sidecar) says which fixture it may have meant."""
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
        stem = name[: -len(suffix)]
        if name.endswith(suffix) and not name.startswith(".") and stem not in fixture_ids:
            warnings.append(unscored_name(os.path.join(folder, name), stem, fixture_ids, suffix, sessions))
    return warnings


def unscored_name(path: str, stem: str, fixture_ids: Collection[str], suffix: str, sessions: Collection[str] = ()) -> str:
    """`<path>: names no fixture with a sidecar; not scored`, with the fixture it may have meant when
    its name `stem` is close to one and is no session's."""
    meant = closest(stem, fixture_ids) if stem not in sessions else None
    hint = f" (did you mean {meant}{suffix}?)" if meant else ""
    return f"{path}: names no fixture with a sidecar; not scored{hint}"


def read_run_folder(folder: str, fixture_ids: list[str], contract: Contract = DEFAULT,
                    sessions: Collection[str] = ()) -> RunFolder:
    """Every scored fixture's result (missing ones included) and the manifest of `folder`, each
    result read through `contract`. InputError when `folder` is not a folder: a mistyped path is
    a usage error, not an all-missing run."""
    warnings: list[str] = []
    if not os.path.isdir(folder):
        raise InputError(Pos(folder), "no such results folder")
    note_folder(folder, f"the results folder {folder}", suffixes=(contract.result_suffix, contract.other_suffix),
                names=(MANIFEST_FILE,))
    results = {fid: read_result(fid, result_path(folder, fid, contract), contract) for fid in sorted(fixture_ids)}
    manifest = read_manifest(folder)
    warnings += manifest.warnings
    warnings += stray_results(folder, set(fixture_ids), contract.result_suffix, sessions)
    return RunFolder(folder, results, manifest.run_manifest, tuple(warnings))
