"""run.yaml, the run manifest: how a results folder was produced.

`corpustools run init` writes it before the maintainer runs the model by hand; `score` and
`compare` read it to print the model, temperature and prompt in the report header and to tell two
kinds of drift apart (docs/scoring.md, "Drift"): the *inputs* the model saw (the prompt and each
session as rendered) changed since the run, so its outputs answer other questions (a banner, and
`compare` refuses); or only the *labels* did (sidecars, corpus.yaml, the output contract), which
is how labels are meant to be revised (one line: the run is scored under the current labels).

`run init --refresh` adds those hashes to a run.yaml written before they existed (one corpus
hash), after checking that the sessions are the ones the run was made against: against the
per-session hashes it records, or else against the corpus's git history.
"""

from __future__ import annotations

from corpustools.io.inputs import claim_update
from corpustools.io.layout import SESSION_SUFFIX, SESSIONS_DIR, SIDECAR_SUFFIX, SIDECARS_DIR, SPEC_FILE

__all__ = ["CORPUS_KEYS", "MANIFEST_FILE", "UNRECORDED", "CorpusState", "ManifestRead", "PromptRecord", "Refreshed",
           "RunDrift", "RunManifest", "sessions_added",
           "build_manifest", "corpus_state", "loaded_corpus", "manifest_path", "manifest_yaml", "parse_temperature", "prompt_version",
           "read_manifest", "refresh_manifest", "run_drift", "write_manifest"]

import hashlib
import itertools
import os
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.schemastore import validate
from corpustools.io.textfile import decode_text, read_bytes, read_text
from corpustools.io.writing import write_text
from corpustools.io.yamlload import parse_yaml
from corpustools.model.corpus import CorpusFiles, ScoringCorpus, bad_names, load_scoring_corpus
from corpustools.model.hashing import corpus_sha256, digests_sha256, inputs_sha256, labels_sha256, session_input_digests
from corpustools.reporting.formatting import plural

MANIFEST_FILE = "run.yaml"
UNRECORDED = "unrecorded"
# The keys that record the corpus a run was made against, in the order run init writes them.
CORPUS_KEYS = ("corpus_sha256", "corpus_version", "inputs_sha256", "labels_sha256", "contract_sha256",
               "session_sha256")

# `Version: 5` on a line of its own, possibly inside the prompt's leading HTML comment.
_VERSION_LINE = re.compile(r"^[ \t]*(?:<!--[ \t]*)?Version:[ \t]*([^\s<>]+)", re.MULTILINE)


@dataclass(frozen=True, kw_only=True)
class PromptRecord:
    """The prompt a run was made with, as run.yaml records it."""

    path: str  # as given to run init (a report prints it only when relative: reporting.formatting.shown_path)
    name: str
    version: int | str | None  # its `Version:` line; None when it has none
    sha256: str

    def identity(self) -> dict:
        """The prompt by name, version and sha256, never its path (a worksheet or a calibration
        report names no file outside the corpus)."""
        return {"name": self.name, "version": self.version, "sha256": self.sha256}


@dataclass(frozen=True, kw_only=True)
class RunManifest:
    """run.yaml, read once (schema-valid): how a run was produced, and the corpus it was made against
    (CORPUS_KEYS; None where a run.yaml written before them records none)."""

    prompt: PromptRecord
    model: str
    temperature: int | float | str
    harness: str
    operator: str
    started_at: str
    corpus_sha256: str
    corpus_version: int | None = None
    inputs_sha256: str | None = None  # None: written before inputs and labels were recorded apart
    labels_sha256: str | None = None  # None: unknown (refreshed on the user's word) or not recorded
    contract_sha256: str | None = None
    session_sha256: Mapping[str, str] | None = None  # fixture id -> its session's input digest
    cost: Mapping[str, int | float] | None = None
    notes: str = ""
    document: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)  # as written: JSON reports print it

    @classmethod
    def from_document(cls, data: Mapping[str, Any]) -> RunManifest:
        """The manifest of a run.yaml mapping the run-manifest schema accepted."""
        prompt = data["prompt"]
        return cls(prompt=PromptRecord(path=prompt["path"], name=prompt["name"], version=prompt["version"],
                                       sha256=prompt["sha256"]),
                   model=data["model"], temperature=data["temperature"], harness=data["harness"],
                   operator=data["operator"], started_at=data["started_at"], corpus_sha256=data["corpus_sha256"],
                   corpus_version=data.get("corpus_version"), inputs_sha256=data.get("inputs_sha256"),
                   labels_sha256=data.get("labels_sha256"), contract_sha256=data.get("contract_sha256"),
                   session_sha256=data.get("session_sha256"), cost=data.get("cost"), notes=data.get("notes", ""),
                   document=data)

    @property
    def unrecorded(self) -> bool:
        """Whether the model or the temperature is `unrecorded` (run init's default)."""
        return UNRECORDED in (self.model, self.temperature)


@dataclass(frozen=True)
class ManifestRead:
    manifest: dict | None  # run.yaml as written, schema-valid; None when it is missing or invalid
    warnings: tuple[str, ...]

    @property
    def run_manifest(self) -> RunManifest | None:
        """The manifest as the typed value the rest of corpustools reads (run.yaml is read once)."""
        return None if self.manifest is None else RunManifest.from_document(self.manifest)


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
        return ManifestRead(None, (f"{doc.pos(first.keypath)}: {first}; "
                                   f"manifest ignored: {unrecorded}",))
    said = (f"{path}: {unrecorded}",) if RunManifest.from_document(doc.data).unrecorded else ()
    return ManifestRead(doc.data, said)


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


@dataclass(frozen=True)
class CorpusState:
    """What run.yaml records of a corpus (CORPUS_KEYS), computed for one loaded corpus."""

    sha256: str
    version: int | None
    labels_sha256: str | None  # None: unknown (a run.yaml refreshed on the user's word)
    contract_sha256: str | None
    sessions: dict[str, str]  # fixture id -> sha256 of the session body as rendered

    def inputs_sha256(self, prompt_sha256: str) -> str:
        return inputs_sha256(prompt_sha256, self.sessions)

    def recorded(self, prompt_sha256: str) -> dict:
        """The CORPUS_KEYS values run init writes for a run of the prompt `prompt_sha256`."""
        values = {"corpus_sha256": self.sha256, "corpus_version": self.version,
                  "inputs_sha256": self.inputs_sha256(prompt_sha256), "labels_sha256": self.labels_sha256,
                  "contract_sha256": self.contract_sha256, "session_sha256": dict(sorted(self.sessions.items()))}
        return {key: value for key, value in values.items()
                if value is not None or key in ("corpus_version", "labels_sha256")}


def loaded_corpus(corpus_root: str) -> ScoringCorpus:
    """The corpus as scoring loads it; InputError for a file name that is not UTF-8 (its hashes
    could not name the file the same way on every machine)."""
    corpus = load_scoring_corpus(corpus_root)
    for problem in bad_names(corpus.problems):
        raise InputError(problem.pos, problem.message)
    return corpus


def corpus_state(corpus: CorpusFiles) -> CorpusState:
    return CorpusState(corpus_sha256(corpus), corpus.spec.corpus_version if corpus.spec is not None else None,
                       labels_sha256(corpus), corpus.contract.sha256 if corpus.contract is not None else None,
                       session_input_digests(corpus))


def build_manifest(corpus_root: str, prompt_path: str, *, model: str, temperature: str, harness: str | None,
                   operator: str, started_at: str, prompt_name: str | None = None, notes: str = "",
                   prompt_data: bytes | None = None, cost: Mapping[str, int | float] | None = None,
                   corpus: ScoringCorpus | None = None) -> tuple[dict, list[str]]:
    """-> (manifest, notes for the user). Raises InputError when the prompt cannot be read or
    the manifest would not be valid.

    `prompt_data`: the prompt's bytes when they are not read from `prompt_path` (an imported run
    given no --prompt records the prompt its log holds); `cost`: the tokens and dollars a harness
    reported (run.yaml's `cost`); `corpus`: the corpus at `corpus_root`, when already loaded."""
    data = read_bytes(prompt_path) if prompt_data is None else prompt_data  # read once: text and sha256 agree
    shown = prompt_path or "the prompt"
    text = decode_text(data, shown)
    corpus = loaded_corpus(corpus_root) if corpus is None else corpus
    spec = corpus.spec
    version = prompt_version(text)
    remarks = []
    if version is None:
        remarks.append(f"{shown}: no 'Version:' line; prompt version recorded as null")
    elif spec is not None and str(spec.prompt_version) != str(version):
        remarks.append(f"{shown}: prompt is Version {version}; corpus.yaml's prompt_under_eval "
                       f"is version {spec.prompt_version}")
    if prompt_name is None:
        prompt_name = spec.prompt_name if spec is not None else os.path.basename(prompt_path).split(".", 1)[0]
    if harness is None:
        harness = spec.harnesses[0] if spec is not None else UNRECORDED
    prompt_sha = hashlib.sha256(data).hexdigest()
    manifest = {
        "prompt": {"path": prompt_path, "name": prompt_name, "version": version, "sha256": prompt_sha},
        "model": model,
        "temperature": parse_temperature(temperature),
        "harness": harness,
        "operator": operator,
        "started_at": started_at,
        **corpus_state(corpus).recorded(prompt_sha),
        **({"cost": dict(cost)} if cost else {}),
        "notes": notes,
    }
    errors = validate("run-manifest", manifest)
    if errors:
        raise InputError(Pos(MANIFEST_FILE), str(errors[0]))
    return manifest, remarks


def manifest_yaml(manifest: dict) -> str:
    lines = ["# Written by `corpustools run init`. Fill in notes (and cost, if your harness reports it)."]
    for key, value in manifest.items():
        lines += _yaml_lines(key, value)
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


# --- drift: what changed since the run ----------------------------------------------------------

@dataclass(frozen=True)
class RunDrift:
    inputs: str | None = None  # why these outputs may answer other inputs: a banner, and compare refuses
    labels: str | None = None  # the one line saying the run is scored under revised labels
    # Fixtures whose sessions were added since the run while every session it recorded is unchanged:
    # no drift, the run answered the same questions for the fixtures it has (scored on those).
    added: tuple[str, ...] = ()


def labels_line(then: int | None, now: int | None) -> str:
    """`labels revised since this run (corpus version 3 → 4): scored under the current labels`."""
    def shown(version: int | None) -> str:
        return "unknown" if version is None else str(version)

    return f"labels revised since this run (corpus version {shown(then)} → {shown(now)}): scored under the current labels"


def changed_session(recorded: Mapping[str, str], now: Mapping[str, str]) -> str | None:
    """`sessions/<id>.md changed` (or `was added`, `was removed`) for the first fixture, by id,
    whose session input differs between the recorded digests and now; None when none does."""
    for fixture_id in sorted(set(recorded) | set(now)):
        if recorded.get(fixture_id) == now.get(fixture_id):
            continue
        what = "was added" if fixture_id not in recorded else "was removed" if fixture_id not in now else "changed"
        return f"sessions/{fixture_id}.md {what}"
    return None


def sessions_added(manifest: RunManifest, now: Mapping[str, str]) -> tuple[str, ...] | None:
    """The fixtures whose sessions were added since the run, by id, when that is all that changed in
    its inputs: every session it records is there unchanged, and they (with its prompt) are the inputs
    it records. None when a recorded session changed or was removed, or the run records no sessions."""
    recorded = manifest.session_sha256
    if recorded is None or manifest.inputs_sha256 is None:
        return None
    if any(now.get(fixture_id) != digest for fixture_id, digest in recorded.items()):
        return None
    if inputs_sha256(manifest.prompt.sha256, recorded) != manifest.inputs_sha256:
        return None  # its session_sha256 is not what its inputs hash was made of
    return tuple(sorted(set(now) - set(recorded)))


def run_drift(manifest: RunManifest | None, folder: str, corpus_path: str, now: CorpusState) -> RunDrift:
    """How the corpus at `corpus_path` (state `now`) differs from the one the run in `folder` was
    made against, by its manifest (none: nothing is known, nothing is said)."""
    if manifest is None:
        return RunDrift()
    path = manifest_path(folder)
    recorded_inputs = manifest.inputs_sha256
    if recorded_inputs is None:  # written before inputs and labels were recorded apart: one corpus hash
        if manifest.corpus_sha256 != now.sha256:
            return RunDrift(inputs=(
                f"{path} records one corpus sha256 ({manifest.corpus_sha256[:12]}; {corpus_path} is now "
                f"{now.sha256[:12]}): it was written before run.yaml recorded the model's inputs apart from the "
                "labels, so a changed session cannot be told apart from a revised label; if the sessions are "
                f"unchanged since the run, `corpustools run init {folder} --corpus {corpus_path} --refresh` "
                "records both"))
        contract = manifest.contract_sha256
        if contract is not None and contract != now.contract_sha256:  # corpus.yaml unchanged: same version
            return RunDrift(labels=labels_line(now.version, now.version))
        return RunDrift()
    inputs: str | None = None
    added: tuple[str, ...] = ()
    current = now.inputs_sha256(manifest.prompt.sha256)
    if current != recorded_inputs and (found := sessions_added(manifest, now.sessions)) is not None:
        added = found  # sessions added, none of the run's changed: no drift
    elif current != recorded_inputs:
        recorded = manifest.session_sha256
        what = changed_session(recorded, now.sessions) if recorded is not None else None
        inputs = (f"{path} was produced against other inputs: {what or 'the sessions changed'} since the run "
                  f"(inputs sha256 {recorded_inputs[:12]}, now {current[:12]}): these outputs answer other questions")
    labels = None
    if manifest.labels_sha256 != now.labels_sha256:
        labels = labels_line(manifest.corpus_version, now.version)
    return RunDrift(inputs, labels, added)


# --- run init --refresh ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Refreshed:
    text: str | None  # run.yaml's new text (the old one with the hashes appended); None: nothing to add
    says: str  # what was checked, for the user


def refresh_manifest(folder: str, corpus_root: str, *, inputs_unchanged: bool = False) -> Refreshed:
    """The run.yaml of `folder` with the inputs and labels hashes added, once the sessions are
    known to be the ones the run was made against; InputError (refused) when they changed, or when
    that cannot be told and `inputs_unchanged` does not vouch for it. The keys it has are kept."""
    path = manifest_path(folder)
    if not os.path.lexists(path):
        raise InputError(Pos(path), f"no {MANIFEST_FILE} to refresh; write one with `corpustools run init {folder} "
                                    f"--corpus {corpus_root} --prompt FILE`")
    now = corpus_state(loaded_corpus(corpus_root))
    claim_update(path, "run init --refresh")  # read in order to be replaced: not an input
    text = read_text(path)
    doc = parse_yaml(text, path)
    errors = validate("run-manifest", doc.data)
    if errors:
        raise InputError(doc.pos(errors[0].keypath), str(errors[0]))
    manifest = RunManifest.from_document(doc.data)
    prompt_sha = manifest.prompt.sha256
    if manifest.inputs_sha256 is not None:
        new_sessions = sessions_added(manifest, now.sessions)
        if new_sessions:
            return Refreshed(None, f"{path} already records the inputs apart from the labels, and no session it "
                                   f"records changed ({plural(len(new_sessions), 'session')} added since the run): "
                                   "nothing to refresh")
        if now.inputs_sha256(prompt_sha) != manifest.inputs_sha256:
            changed = changed_session(manifest.session_sha256 or {}, now.sessions)
            raise InputError(Pos(path), f"refused: {changed or 'the sessions changed'} since the run: these outputs "
                                        f"answer other questions; {MANIFEST_FILE} is left as it is")
        return Refreshed(None, f"{path} already records the inputs apart from the labels, and the inputs are "
                               "unchanged: nothing to refresh")
    recorded = manifest.corpus_sha256
    if recorded == now.sha256:
        then, how = now, "the corpus is the one the run was made against"
    else:
        found = state_in_history(corpus_root, recorded)
        if isinstance(found, str):
            if not inputs_unchanged:
                raise InputError(Pos(path), f"cannot tell whether the sessions changed since the run: {found}; if you "
                                            "are sure they did not, pass --inputs-unchanged")
            then = CorpusState(recorded, None, None, None, now.sessions)
            how = (f"on your word (--inputs-unchanged): {found}, so the sessions were not checked and the labels "
                   "the run was made against are unknown")
        else:
            then, commit = found
            changed = changed_session(then.sessions, now.sessions)
            version = "unknown" if then.version is None else then.version
            if changed is not None:
                raise InputError(Pos(path), f"refused: {changed} since the run (made against commit {commit[:12]}, "
                                            f"corpus version {version}): these outputs answer other questions; "
                                            f"{MANIFEST_FILE} is left as it is")
            how = (f"its sessions are those of commit {commit[:12]} (corpus version {version}), whose corpus sha256 "
                   "is the one it records")
    values = then.recorded(prompt_sha)
    added = {key: value for key, value in values.items() if key not in manifest.document}
    lines = [f"# Added by `corpustools run init --refresh`: {how}."]
    for key, value in added.items():
        lines += _yaml_lines(key, value)
    new_text = (text if text.endswith("\n") else text + "\n") + "\n".join(lines) + "\n"
    errors = validate("run-manifest", parse_yaml(new_text, path).data)
    if errors:
        raise InputError(Pos(path), str(errors[0]))
    return Refreshed(new_text, f"{how}; recorded {', '.join(added)}")


def state_in_history(corpus_root: str, corpus_sha: str) -> tuple[CorpusState, str] | str:
    """The state of the corpus at the newest commit whose corpus hash is `corpus_sha`, and that
    commit; or why none was found (no git, no repository, no such commit)."""
    import tempfile  # tempfile: only `run init --refresh` of a changed corpus

    from corpustools.io.githistory import NoHistory, blobs, commits, digests, tree  # run init --refresh only

    def counted(relative: str) -> bool:
        folder, _, name = relative.rpartition("/")
        suffix = {SESSIONS_DIR: SESSION_SUFFIX, SIDECARS_DIR: SIDECAR_SUFFIX}.get(folder)
        return relative == SPEC_FILE or (suffix is not None and name.endswith(suffix) and not name.startswith("."))

    try:
        shas = commits(corpus_root, [SPEC_FILE, SESSIONS_DIR, SIDECARS_DIR])
        # Only the files the corpus hash counts are read (a stray file under sessions/ never is),
        # each streamed into its hash and only when within the cap every read has: a commit holding
        # a larger one cannot be a state the run was made against, as no corpus read could hold it.
        trees = [(sha, {relative: blob for relative, blob in tree(corpus_root, sha, [
            SPEC_FILE, f"{SESSIONS_DIR}/", f"{SIDECARS_DIR}/"]).files.items() if counted(relative)}) for sha in shas]
        digest = digests(corpus_root, [blob for _, files in trees for blob in files.values()])
        for sha, files in trees:
            hashes = {relative: hashed for relative, blob in files.items() if (hashed := digest[blob]) is not None}
            if len(hashes) < len(files) or digests_sha256(hashes) != corpus_sha:
                continue
            contents = blobs(corpus_root, list(files.values()))
            with tempfile.TemporaryDirectory(prefix="corpustools-refresh-") as scratch:
                # The corpus goes as deep in `scratch` as its schema file lies above it (`../x.json`),
                # so every file of the commit lands inside `scratch`, where corpus.yaml names it.
                schema = _declared_schema(contents.get(files.get(SPEC_FILE, "")))
                root = os.path.join(scratch, *["corpus"] * _levels_up(schema))
                _write_blobs(scratch, root, files, contents)
                if schema is not None:
                    _schema_at(corpus_root, sha, schema, scratch, root)
                return corpus_state(load_scoring_corpus(root)), sha
    except NoHistory as err:
        return str(err)
    return f"no commit of {corpus_root} among the {len(shas)} that changed it has corpus sha256 {corpus_sha[:12]}"


def _declared_schema(spec: bytes | None) -> str | None:
    """The output schema file a corpus.yaml's bytes declare (relative to it), or None."""
    if spec is None:
        return None
    try:
        data = parse_yaml(decode_text(spec, "corpus.yaml"), "corpus.yaml").data
    except InputError:
        return None
    output = data.get("output") if isinstance(data, dict) else None
    relative = output.get("schema") if isinstance(output, dict) else None
    return relative if isinstance(relative, str) and not os.path.isabs(relative) else None


def _levels_up(relative: str | None) -> int:
    """How many folders above corpus.yaml's a relative path reaches (`../../x.json`: 2)."""
    parts = posixpath.normpath(relative).split("/") if relative else []
    return len(list(itertools.takewhile(lambda part: part == "..", parts)))


def _schema_at(corpus_root: str, sha: str, relative: str, scratch: str, root: str) -> None:
    """Copy the output schema file `relative` (to corpus.yaml) as of commit `sha` beside the corpus
    written at `root` in `scratch` (the contract's hash covers it); nothing when git has none."""
    from corpustools.io.githistory import NoHistory, blobs, tree  # githistory: run init --refresh only

    try:
        found = tree(corpus_root, sha, [relative])
        data = blobs(corpus_root, list(found.files.values()))
    except NoHistory:
        return
    _write_blobs(scratch, root, found.files, data)


def _write_blobs(scratch: str, root: str, files: Mapping[str, str], contents: Mapping[str, bytes]) -> None:
    """Write each file (POSIX path relative to `root` -> blob id) with its blob's bytes: a corpus as
    of a commit, for load_scoring_corpus to read. Only ever inside the fresh folder `scratch`, as new
    files, never through a link: a path reaching out of it is not written."""
    inside = os.path.join(os.path.abspath(scratch), "")
    for relative, blob in files.items():
        target = os.path.abspath(os.path.join(root, *relative.split("/")))
        if not target.startswith(inside):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(contents[blob])


def _yaml_lines(key: str, value) -> list[str]:
    """One top-level key of run.yaml as manifest_yaml writes it."""
    from corpustools.io.yamlwrite import flow_scalar, inline_scalar  # writing only: score never loads it

    if isinstance(value, dict) and not value:
        return [f"{key}: {{}}"]
    if isinstance(value, dict):
        return [f"{key}:"] + [f"  {inline_scalar(inner)}: {flow_scalar(item)}" for inner, item in value.items()]
    return [f"{key}: {flow_scalar(value)}"]
