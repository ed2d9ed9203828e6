"""The provenance record of a corpus: who authored and reviewed it, with which authoring prompt, and
the sha256 of every file it had then. `verify` (and lint's CT801) name every file changed since, so
an edited fixture cannot slip past review without a corpus version bump and a new record.

The record is YAML, written by `corpustools provenance record` (by default to
authoring/provenance.yaml at the top of the repository holding the corpus, see default_record_path):

    record_version: 1
    recorded: "2026-01-05"            # the date only: a record, not a report
    corpus: {path: "../fixtures/prompt-eval", name: "prompt-eval", version: 1}
    authoring_prompt: {path: "corpus-authoring-prompt.md", sha256: "..."}
    authored_by: "..."
    reviewed_by: "..."
    corpus_sha256: "..."              # the corpus as adjudicate and run init record it
    labels_sha256: "..."              # what runs are scored under (corpus.yaml, sidecars, contract)
    agreement: {statistic: ac1, min: 0.8, levels: [verdicts, points]}   # corpus.yaml's; null if none
    freeze:                           # `provenance freeze`: the labels held-out runs are measured under
      frozen: "2026-01-06"
      labels_sha256: "..."
      judged: ["<result sha256>", ...]   # every output judged in a worksheet before the freeze, sorted
    history:                          # earlier states, oldest first (see below)
      - {recorded: "2026-01-02", corpus_version: 1, corpus_sha256: "...", labels_sha256: "...", agreement: null}
      - {frozen: "2026-01-03", labels_sha256: "...", judged: 48}
    files:                            # relative POSIX paths inside the corpus, sorted
      "corpus.yaml": "<sha256>"
      "expected/admit-convention-01.yaml": "<sha256>"
      ...

Paths in the record are relative to the record's own folder, so the repository can move.

**History.** Re-recording a corpus whose state moved (its corpus or labels sha256, or its agreement
threshold) appends the state the record held to `history:`; a new freeze appends the freeze it
replaces. So the record says which threshold was in force for each corpus state a worksheet was
written under (a worksheet records the corpus sha256 it was written against): `agree` warns when
the threshold changed after the first worksheet it compares was written. Records written before
these keys have none of them; their history entry is what they say (the corpus sha256 is that of
their `files`, gold outputs left out).
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from corpustools.io.errors import InputError
from corpustools.io.inputs import claim_update
from corpustools.io.layout import GOLD_DIR, SESSIONS_DIR, SIDECARS_DIR, SPEC_FILE
from corpustools.io.paths import display_path, enclosing_repository
from corpustools.io.positions import Pos
from corpustools.io.textfile import is_regular_file, read_text, refuse_nul
from corpustools.io.writing import STANDARD_OUTPUT, refuse_corpus_path, refuse_target, write_text
from corpustools.io.yamlload import YamlDoc, parse_yaml
from corpustools.io.yamlwrite import flow_scalar
from corpustools.model.corpus import bad_names, corpus_files, disk_name, list_files, load_spec_file
from corpustools.model.hashing import digests_sha256, file_digest, file_digests, file_sha256
from corpustools.model.locate import corpus_root_of, discover_corpora
from corpustools.model.spec import AgreementThreshold, parse_agreement
from corpustools.model.status import FileStatus

RECORD_VERSION = 1
DEFAULT_RECORD = "authoring/provenance.yaml"
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, order=True)
class Drift:
    """A file that differs from the record. `path` is the file's path as found from the record."""

    path: str
    status: FileStatus  # CHANGED | NEW | MISSING
    relative: str  # inside the corpus ("sessions/x.md"), or the authoring prompt's recorded path


def default_record_path(corpus_root: str) -> str:
    """authoring/provenance.yaml in the repository that holds the corpus (the nearest folder at or
    above it with `.git`), else in the corpus folder itself: a default never lands outside the
    user's repository, or outside the folder they named when there is none. The record is never
    one of the corpus's own files (corpus.yaml, sessions/, expected/, gold/), so a corpus at the
    top of its repository keeps its record at <corpus>/authoring/provenance.yaml.

    The result is relative when `corpus_root` is (fixtures/x -> authoring/provenance.yaml run from
    the repository's top)."""
    repository = enclosing_repository(corpus_root)
    if repository is None:
        return os.path.normpath(os.path.join(corpus_root, DEFAULT_RECORD))
    relative = os.path.relpath(repository, os.path.abspath(corpus_root))
    return os.path.normpath(os.path.join(corpus_root, relative, DEFAULT_RECORD))


def corpus_record_path(corpus_root: str, spec=None) -> str:
    """Where the provenance record of a corpus is: corpus.yaml's `lint: provenance:` (relative to
    the corpus folder) when set, else default_record_path. The one answer for lint's CT801 and
    for the defaults of `provenance record` and `provenance verify`. `spec`: the loaded
    CorpusSpec, if the caller has it (else corpus.yaml is read; an unreadable one counts as unset)."""
    if spec is None:
        spec = load_spec_file(corpus_root)[0]
    configured = spec.lint.get("provenance") if spec is not None and isinstance(spec.lint, dict) else None
    if isinstance(configured, str) and configured:
        try:
            refuse_nul(configured, "lint.provenance")
        except InputError as err:  # at the key: no file can be named so
            raise InputError(spec.doc.pos(("lint", "provenance")) if spec.doc else err.pos, str(err)) from None
        return os.path.normpath(os.path.join(corpus_root, configured))
    return default_record_path(corpus_root)


def record_files(corpus_root: str) -> list[str]:
    """corpus.yaml, sessions, sidecars and gold outputs: relative POSIX paths, sorted. Regular files
    only: a link (to /dev/zero, say) or a folder named like a gold output is never read."""
    gold, problems = list_files(os.path.join(corpus_root, GOLD_DIR), ".json")
    for problem in bad_names(problems):
        raise InputError(problem.pos, problem.message)
    return sorted(corpus_files(corpus_root) + [f"{GOLD_DIR}/{fixture_id}.json" for fixture_id, path in gold.items()
                                               if is_regular_file(path)])


def file_hashes(corpus_root: str, *, strict: bool = False, known: Mapping[str, str] | None = None) -> dict[str, str]:
    """relative path -> sha256. A file that cannot be read is UNREAD (so it shows as changed), or,
    when `strict`, an InputError naming it (a record must hash every file). `known`: digests taken
    this run of files already read (hashing.file_digests)."""
    return file_digests(corpus_root, record_files(corpus_root), strict=strict, known=known)


def _relative_to(path: str, folder: str) -> str:
    return os.path.relpath(os.path.abspath(path), os.path.abspath(folder)).replace(os.sep, "/")


def _refuse_other_corpus_record(out_path: str, corpus_root: str) -> None:
    """InputError when `out_path` is the record of another corpus: two corpora of one repository
    share the default path, and recording one must not erase the other's review."""
    if not os.path.isfile(out_path):
        return
    try:
        other = load_record(out_path).corpus_root
    except InputError:
        return  # not a readable record: write_text replaces it as any other file
    if not os.path.isdir(other) or not os.path.samefile(other, corpus_root):
        raise InputError(Pos(out_path), f"is the provenance record of another corpus ({_relative_to(other, '.')}); "
                         "not overwritten: give --output, or set lint: provenance: in corpus.yaml")


def _flow(value) -> str:
    """A value of the record in flow style (a mapping or list on one line), read back exactly."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_flow(inner)}" for key, inner in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(inner) for inner in value) + "]"
    return flow_scalar(value)


def render_record(data: dict) -> str:
    corpus, prompt = data["corpus"], data["authoring_prompt"]
    lines = [
        "# Provenance record of a corpus, written by `corpustools provenance record`; checked by",
        "# `corpustools provenance verify` and lint rule CT801. Re-record after review; do not edit.",
        f"record_version: {data['record_version']}",
        f"recorded: {flow_scalar(data['recorded'])}",
        "corpus:",
        f"  path: {flow_scalar(corpus['path'])}",
        f"  name: {flow_scalar(corpus['name'])}",
        f"  version: {flow_scalar(corpus['version'])}",
    ]
    for key in ("corpus_sha256", "labels_sha256", "agreement"):
        if key in data:
            lines.append(f"{key}: {_flow(data[key])}")
    lines += [
        "authoring_prompt:",
        f"  path: {flow_scalar(prompt['path'])}",
        f"  sha256: {flow_scalar(prompt['sha256'])}",
        f"authored_by: {flow_scalar(data['authored_by'])}",
        f"reviewed_by: {flow_scalar(data['reviewed_by'])}",
    ]
    if data.get("freeze"):
        frozen = data["freeze"]
        lines += ["freeze:", f"  frozen: {flow_scalar(frozen['frozen'])}",
                  f"  labels_sha256: {flow_scalar(frozen['labels_sha256'])}", "  judged:"]
        lines += [f"    - {flow_scalar(sha)}" for sha in frozen["judged"]] if frozen["judged"] else []
        if not frozen["judged"]:
            lines[-1] += " []"
    if data.get("history"):
        lines += ["history:"] + [f"  - {_flow(entry)}" for entry in data["history"]]
    lines.append("files:")
    lines += [f"  {flow_scalar(relative)}: {flow_scalar(sha)}" for relative, sha in sorted(data["files"].items())]
    return "\n".join(lines) + "\n"


def record(corpus_root: str, authoring_prompt: str, authored_by: str, reviewed_by: str, out_path: str,
           date: str | None = None, *, force: bool = False, out=None) -> dict:
    """Write the provenance record of `corpus_root` to `out_path` (`-`: to `out`, its paths then
    relative to the working folder) and return it. InputError if the corpus spec is invalid, the
    prompt unreadable, or `out_path` inside the corpus, one of the files read (the authoring
    prompt), or read-only without `force`."""
    to_stdout = out_path == STANDARD_OUTPUT
    spec, _text, problems = load_spec_file(corpus_root)
    if spec is None:
        first = problems[0]  # the loader always says why there is no spec
        raise InputError(first.pos, f"cannot record: {first.message}")
    if not os.path.lexists(authoring_prompt):
        raise InputError(Pos(authoring_prompt), "authoring prompt: no such file")
    prompt_sha256 = file_sha256(authoring_prompt)  # read before the record is claimed: never written over
    if not to_stdout:
        refuse_corpus_path(out_path, corpus_root)  # never among the files it hashes
        claim_update(out_path, "the record")  # read below (whose record is it?) only to be replaced
        refuse_target(out_path, force=force, updating=True)
        _refuse_other_corpus_record(out_path, corpus_root)

    recorded = date or datetime.date.today().isoformat()
    if not _DATE.fullmatch(recorded):
        raise InputError(Pos(""), f"--date {recorded!r} is not YYYY-MM-DD")
    for who, value in (("--authored-by", authored_by), ("--reviewed-by", reviewed_by)):
        if not value.strip():
            raise InputError(Pos(""), f"{who} must name a model or a person")
    folder = os.getcwd() if to_stdout else os.path.dirname(os.path.abspath(out_path))
    files = file_hashes(corpus_root, strict=True)
    from corpustools.manifest import corpus_state, loaded_corpus  # manifest: record/freeze only; lint loads this module

    state = corpus_state(loaded_corpus(corpus_root))
    data = {
        "record_version": RECORD_VERSION,
        "recorded": recorded,
        "corpus": {"path": _relative_to(corpus_root, folder), "name": spec.name, "version": spec.corpus_version},
        "corpus_sha256": state.sha256,
        "labels_sha256": state.labels_sha256,
        "agreement": spec.agreement.as_dict() if spec.agreement is not None else None,
        "authoring_prompt": {"path": _relative_to(authoring_prompt, folder), "sha256": prompt_sha256},
        "authored_by": authored_by.strip(),
        "reviewed_by": reviewed_by.strip(),
        "files": files,
    }
    earlier = None if to_stdout else _earlier_record(out_path, corpus_root)
    if earlier is not None:  # the state it held joins the history when this one differs from it
        then = earlier.state
        history = list(earlier.history)
        if (then.corpus_sha256, then.labels_sha256, then.agreement) != (
                state.sha256, state.labels_sha256, spec.agreement):
            history.append(then.entry())
        data["freeze"] = earlier.doc.data.get("freeze") if earlier.freeze is not None else None
        data["history"] = history
    if to_stdout:
        out.write(render_record(data))
    else:
        write_text(out_path, render_record(data), force=force, updating=True)
    return data


@dataclass(frozen=True)
class State:
    """What a record (or an earlier entry of its history) says of the corpus it recorded."""

    recorded: str | None
    corpus_version: object
    corpus_sha256: str | None
    labels_sha256: str | None
    agreement: AgreementThreshold | None

    def entry(self) -> dict:
        """As the record's history lists it."""
        return {"recorded": self.recorded, "corpus_version": self.corpus_version, "corpus_sha256": self.corpus_sha256,
                "labels_sha256": self.labels_sha256,
                "agreement": self.agreement.as_dict() if self.agreement is not None else None}


@dataclass(frozen=True)
class Frozen:
    """A record's freeze: the labels held-out runs are scored under, and every output judged before."""

    frozen: str
    labels_sha256: str
    judged: frozenset[str]


@dataclass(frozen=True)
class Record:
    path: str
    doc: YamlDoc
    corpus_root: str
    prompt_path: str
    prompt_sha256: str
    files: dict  # relative path -> sha256
    state: State = State(None, None, None, None, None)
    history: tuple[dict, ...] = ()  # earlier states and freezes, oldest first, as the record lists them
    freeze: Frozen | None = None

    def states(self) -> list[State]:
        """Every state the record knows, oldest first: its history's recordings, then its own."""
        return [_state(entry) for entry in self.history if "recorded" in entry] + [self.state]


def _state(entry: dict) -> State:
    return State(entry.get("recorded"), entry.get("corpus_version"), entry.get("corpus_sha256"),
                 entry.get("labels_sha256"), parse_agreement(entry.get("agreement")))


def _files_corpus_sha256(files: dict) -> str:
    """The corpus sha256 of a record's files: gold outputs are in the record, not in the corpus hash."""
    return digests_sha256({relative: sha for relative, sha in files.items() if not relative.startswith(f"{GOLD_DIR}/")})


def _earlier_record(out_path: str, corpus_root: str) -> Record | None:
    """The record of this corpus that `out_path` holds now, if it holds one that can be read."""
    if not os.path.isfile(out_path):
        return None
    try:
        earlier = load_record(out_path)
    except InputError:
        return None
    same = os.path.isdir(earlier.corpus_root) and os.path.samefile(earlier.corpus_root, corpus_root)
    return earlier if same else None


def load_record(record_path: str) -> Record:
    """Read and check a record; InputError at the offending key if it is not one."""
    doc = parse_yaml(read_text(record_path), record_path)
    data = doc.data

    def need(keypath, kind):
        value = data
        for key in keypath:
            if not isinstance(value, dict) or key not in value:
                raise InputError(doc.pos(keypath), f"not a provenance record: {'.'.join(keypath)} is missing")
            value = value[key]
        if not isinstance(value, kind):
            raise InputError(doc.pos(keypath),
                             f"not a provenance record: {'.'.join(keypath)} is not a {kind.__name__}")
        return value

    if need(("record_version",), int) != RECORD_VERSION:
        raise InputError(doc.pos(("record_version",)),
                         f"unknown record_version (this corpustools reads {RECORD_VERSION})")
    files = need(("files",), dict)
    for relative, sha in files.items():
        if not isinstance(sha, str) or not _SHA256.fullmatch(sha):
            raise InputError(doc.pos(("files", relative)), f"files.{relative}: not a sha256")
    folder = os.path.dirname(os.path.abspath(record_path))
    agreement = data.get("agreement")
    if agreement is not None and (not isinstance(agreement, dict) or "min" not in agreement):
        raise InputError(doc.pos(("agreement",)), "not a provenance record: agreement is not a threshold")
    history = data.get("history") or []
    if not isinstance(history, list) or not all(isinstance(entry, dict) for entry in history):
        raise InputError(doc.pos(("history",)), "not a provenance record: history is not a list of entries")
    state = State(data.get("recorded"), data.get("corpus", {}).get("version") if isinstance(data.get("corpus"), dict)
                  else None, data.get("corpus_sha256") or _files_corpus_sha256(files), data.get("labels_sha256"),
                  parse_agreement(agreement))
    frozen = data.get("freeze")
    freeze = None
    if frozen is not None:
        judged = frozen.get("judged") if isinstance(frozen, dict) else None
        if not isinstance(judged, list) or not isinstance(frozen.get("labels_sha256"), str) or not all(
                isinstance(sha, str) and _SHA256.fullmatch(sha) for sha in judged):
            raise InputError(doc.pos(("freeze",)), "not a provenance record: freeze needs labels_sha256 and judged "
                                                   "(a list of sha256)")
        freeze = Frozen(str(frozen.get("frozen")), frozen["labels_sha256"], frozenset(judged))
    return Record(
        path=record_path,
        doc=doc,
        corpus_root=os.path.normpath(os.path.join(folder, need(("corpus", "path"), str))),
        prompt_path=os.path.normpath(os.path.join(folder, need(("authoring_prompt", "path"), str))),
        prompt_sha256=need(("authoring_prompt", "sha256"), str),
        files=dict(files),
        state=state,
        history=tuple(history),
        freeze=freeze,
    )


# --- freeze: the labels held-out runs are measured under ------------------------------------------

_OWN = (SESSIONS_DIR, SIDECARS_DIR, GOLD_DIR)  # a corpus's own folders: no worksheet lives there


def judged_outputs(corpus_root: str, name: str, extra: tuple[str, ...] = ()) -> tuple[dict[str, str], int]:
    """The result sha256 of every output judged in a worksheet of the corpus `name` found under
    `corpus_root` (and under each of `extra`, a file or folder): sha256 -> the first worksheet
    judging it, and how many worksheets were read. InputError for a .yaml file that cannot be read
    (it might be a worksheet: a freeze must see every judged output)."""
    paths: list[str] = []
    for top in extra:  # named by the user: one that is not there would freeze without its outputs
        if not os.path.isfile(top) and not os.path.isdir(top):
            raise InputError(Pos(top), "no such file or folder; nothing frozen (--worksheets names worksheets to read)")
    for top in (corpus_root, *extra):
        if os.path.isfile(top):
            paths.append(top)
            continue
        for folder, folders, names in os.walk(top):  # links are never followed
            if os.path.samefile(folder, corpus_root):
                folders[:] = [f for f in folders if f not in _OWN]
            folders.sort()
            paths += [os.path.join(folder, n) for n in sorted(names) if n.endswith((".yaml", ".yml"))
                      and not (os.path.samefile(folder, corpus_root) and n == SPEC_FILE)
                      and not os.path.islink(os.path.join(folder, n))]
    judged: dict[str, str] = {}
    worksheets = 0
    for path in paths:
        doc = parse_yaml(read_text(path), path)
        data = doc.data
        corpus = data.get("corpus") if isinstance(data, dict) else None
        if not isinstance(data, dict) or "worksheet_version" not in data or not isinstance(data.get("fixtures"), list) \
                or not isinstance(corpus, dict) or corpus.get("name") != name:
            if path in extra:  # a file the user named: found under a folder, any YAML may be something else
                raise InputError(Pos(path), f"is not an adjudication worksheet of the corpus {name!r}; nothing frozen")
            continue
        worksheets += 1
        for fixture in data["fixtures"]:
            sha = fixture.get("result_sha256") if isinstance(fixture, dict) else None
            if isinstance(sha, str) and _SHA256.fullmatch(sha):
                judged.setdefault(sha, path)
    return judged, worksheets


@dataclass(frozen=True)
class Freeze:
    record: str
    labels_sha256: str
    judged: int  # outputs
    worksheets: int


def freeze(corpus_root: str, record_path: str | None = None, *, extra: tuple[str, ...] = (),
           date: str | None = None) -> Freeze:
    """Record in the corpus's provenance record that its labels are frozen: their sha256 now and
    the result sha256 of every output judged so far in any worksheet under the corpus (and `extra`).
    A run is then held out when its outputs were made under these labels and none was judged before
    (calibrate). The freeze replaced joins the record's history. InputError when there is no record,
    it is another corpus's, or a corpus file changed since it (record after review, then freeze)."""
    from corpustools.manifest import corpus_state, loaded_corpus  # manifest: record/freeze only; lint loads this module

    path = record_path or corpus_record_path(corpus_root)
    if not os.path.lexists(path):
        raise InputError(Pos(path), "no such record: record provenance (corpustools provenance record) before "
                                    "freezing")
    claim_update(path, "the record")  # read below only to be replaced
    refuse_target(path, updating=True)
    rec = load_record(path)
    if not os.path.isdir(rec.corpus_root) or not os.path.samefile(rec.corpus_root, corpus_root):
        raise InputError(Pos(path), f"is the provenance record of another corpus ({_relative_to(rec.corpus_root, '.')})")
    drifts = record_drift(rec)
    if drifts:
        raise InputError(Pos(drifts[0].path), f"{drifts[0].status} since the record {path} ({len(drifts)} file(s) "
                         "in all): review the labels and record provenance again, then freeze")
    frozen = date or datetime.date.today().isoformat()
    if not _DATE.fullmatch(frozen):
        raise InputError(Pos(""), f"--date {frozen!r} is not YYYY-MM-DD")
    labels = corpus_state(loaded_corpus(corpus_root)).labels_sha256
    if labels is None:  # never for a corpus read now; the type allows it for a refreshed run.yaml
        raise InputError(Pos(corpus_root), "cannot hash the labels; nothing frozen")
    judged, worksheets = judged_outputs(corpus_root, rec.doc.data["corpus"]["name"], extra)
    data = dict(rec.doc.data)
    history = list(rec.history)
    if rec.freeze is not None:
        history.append({"frozen": rec.freeze.frozen, "labels_sha256": rec.freeze.labels_sha256,
                        "judged": len(rec.freeze.judged)})
    data["history"] = history
    data["freeze"] = {"frozen": frozen, "labels_sha256": labels, "judged": sorted(judged)}
    write_text(path, render_record(data), updating=True)
    return Freeze(path, labels, len(judged), worksheets)


def threshold_warning(corpus_root: str, now: AgreementThreshold | None, written_under: dict[str, str]) -> str | None:
    """The warning `agree` gives when the agreement threshold changed after the first worksheet it
    compares was written, by the provenance record's history; None when it did not (or there is no
    threshold and no record to tell by). `written_under`: worksheet path -> the corpus sha256 it
    records."""
    path = corpus_record_path(corpus_root)
    if not os.path.isfile(path):
        return None if now is None else (f"no provenance record ({path}): nothing says the agreement threshold was "
                                         "fixed before the second rater started (corpustools provenance record)")
    try:
        states = load_record(path).states()
    except InputError as err:
        return f"{err}; cannot tell when the agreement threshold was fixed"
    found = [(i, worksheet) for worksheet, sha in written_under.items()
             for i, state in enumerate(states) if state.corpus_sha256 == sha]
    if not found:
        if now is None:
            return None
        return (f"the provenance record {path} has no entry for the corpus state any worksheet compared here was "
                "written under: cannot tell whether the agreement threshold was fixed before they were (record "
                "provenance before adjudicating)")
    first, worksheet = min(found)
    then = states[first].agreement
    later = [(state.recorded, state.agreement) for state in states[first + 1:]] + [("now (corpus.yaml)", now)]
    for when, threshold in later:
        if threshold != then:
            return (f"the agreement threshold changed after the first worksheet compared here was written: "
                    f"{then or 'none'} when {worksheet} was written (the record of {states[first].recorded}), "
                    f"{threshold or 'none'} {'since ' + str(when) if when != 'now (corpus.yaml)' else 'now'}")
    return None


def corpus_drift(rec: Record, known: Mapping[str, str] | None = None) -> list[Drift]:
    """Corpus files changed, added or removed since the record, sorted by relative path. `known`:
    the digests of the corpus's files as loaded this run (lint's), not read again."""
    current = file_hashes(rec.corpus_root, known=known) if os.path.isdir(rec.corpus_root) else {}
    drifts = []
    for relative in sorted(set(current) | set(rec.files)):
        path = os.path.join(rec.corpus_root, *disk_name(relative).split("/"))
        if relative not in current:
            drifts.append(Drift(path, FileStatus.MISSING, relative))
        elif relative not in rec.files:
            drifts.append(Drift(path, FileStatus.NEW, relative))
        elif current[relative] != rec.files[relative]:
            drifts.append(Drift(path, FileStatus.CHANGED, relative))
    return sorted(drifts, key=lambda d: d.relative)


def verify(record_path: str) -> list[Drift]:
    """Every file changed since the record: the corpus files, then the authoring prompt."""
    return record_drift(load_record(record_path))


def record_drift(rec: Record, known: Mapping[str, str] | None = None) -> list[Drift]:
    """What `verify` reports for a loaded record (lint's CT801 reports the same, with `known`: the
    digests its loaded corpus took of the files it read, so that no corpus file is read twice)."""
    drifts = corpus_drift(rec, known)
    if not is_regular_file(rec.prompt_path):
        drifts.append(Drift(rec.prompt_path, FileStatus.MISSING, rec.doc.data["authoring_prompt"]["path"]))
    elif file_digest(rec.prompt_path) != rec.prompt_sha256:
        drifts.append(Drift(rec.prompt_path, FileStatus.CHANGED, rec.doc.data["authoring_prompt"]["path"]))
    return drifts


def default_record(corpus: str | None = None) -> str:
    """The record `provenance verify` checks when none is named: the record of `corpus`, else of the
    corpus the working folder is in, else of the one corpus below it that has a record (else the
    default path, DEFAULT_RECORD)."""
    root = corpus or corpus_root_of(".")
    if root is not None:
        return corpus_record_path(root)
    found = {corpus_record_path(r) for r in discover_corpora(".")}
    existing = sorted(path for path in found if os.path.lexists(path))
    return existing[0] if len(existing) == 1 else DEFAULT_RECORD


@dataclass(frozen=True)
class VerifyReport:
    """What `provenance verify` found: the record checked and every file changed since it."""

    record: str
    drifts: tuple[Drift, ...]

    @property
    def exit_code(self) -> int:
        """1 when a file changed since the record, else 0."""
        return 1 if self.drifts else 0


def verify_report(record: str | None = None, corpus: str | None = None) -> VerifyReport:
    """Verify `record`, else the record of `corpus` (default_record). InputError when there is no
    such record or it cannot be read."""
    path = record or default_record(corpus)
    if not os.path.lexists(path):  # anything else that is not a regular file: read_text says what it is

        raise InputError(Pos(display_path(path) if not record else path), "no such record")
    return VerifyReport(path, tuple(verify(path)))
