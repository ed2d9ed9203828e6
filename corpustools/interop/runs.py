"""A run made by another tool, written as a corpustools run folder: `DIR/<fixture_id>.json`
(`.txt` under a text output contract) for each answer, and `DIR/run.yaml` as `run init` writes it
(corpustools.manifest), so that `score` and `compare` read it like any other run.

Everything is checked before anything is written: every answer names a fixture of the corpus
(did-you-mean otherwise), no fixture is answered twice, each DIR is absent, empty, or holds only a
run.yaml (an empty run folder; anything else needs --force), and no DIR holds an input or lies in
a corpus's own files. When the log holds the prompt the model was given, it is compared with
`corpustools render` of that fixture (input drift): a warning per fixture that differs.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from corpustools.interop.logs import Answer, ToolRun
from corpustools.io.errors import InputError
from corpustools.io.inputs import refuse_inputs_inside
from corpustools.io.positions import Pos
from corpustools.io.suggest import closest
from corpustools.io.textfile import decode_text, read_bytes
from corpustools.io.writing import refuse_corpus_path, remove_file, write_text
from corpustools.manifest import MANIFEST_FILE, build_manifest, manifest_path, manifest_yaml
from corpustools.model.prompt import has_placeholder
from corpustools.render import rendered_prompts
from corpustools.reporting.formatting import plural
from corpustools.score import LoadedCorpus, open_corpus
from corpustools.score.results import result_path

_LISTED = 8  # names listed in one line before `and N more`


@dataclass(frozen=True)
class ImportedRun:
    """One run folder written from a log."""

    folder: str
    tool: str
    written: tuple[str, ...]  # fixture ids given a result file
    unanswered: tuple[tuple[str, str], ...]  # (fixture id, why): in the log, but without an answer
    absent: tuple[str, ...]  # fixtures of the corpus the log does not answer at all
    drift: tuple[str, ...]  # one warning per fixture whose prompt differs from `corpustools render`
    remarks: tuple[str, ...]  # what the user should know (the prompt's Version line, objects written as JSON)
    removed: tuple[str, ...] = ()  # result files of a replaced run (--force) this run has not

    def absent_note(self) -> str:
        """What the user reads of the fixtures the log does not answer ("" when it answers every one).
        They are scored as missing: the log cannot tell a fixture added to the corpus after the
        export from one the tool was not run on (a limit, a filter, an eval cut short), and a
        run's figures never read better than what it answered (docs/interop.md)."""
        if not self.absent:
            return ""
        count = len(self.absent)
        return (f"{plural(count, 'fixture')} of the corpus {'is' if count == 1 else 'are'} not in the log "
                f"({_listed(list(self.absent))}): no result file, scored as missing; if the corpus gained "
                f"{'it' if count == 1 else 'them'} after the export, import with --corpus as the corpus was then "
                "(docs/interop.md)")


@dataclass(frozen=True)
class _Prompt:
    path: str
    data: bytes
    text: str
    given: bool  # --prompt FILE; else the prompt the log records


def _listed(names: list[str]) -> str:
    shown = ", ".join(names[:_LISTED])
    return shown + (f" and {len(names) - _LISTED} more" if len(names) > _LISTED else "")


def _refuse_unknown(run: ToolRun, known: set[str], corpus_root: str) -> None:
    unknown = sorted({a.fixture_id for a in run.answers if a.fixture_id not in known})
    if not unknown:
        return
    described = []
    for fixture_id in unknown:
        meant = closest(fixture_id, known)
        described.append(f"{fixture_id} (did you mean {meant}?)" if meant else fixture_id)
    raise InputError(Pos(run.path), f"{plural(len(unknown), 'fixture id')} the corpus {corpus_root} does not have: "
                                    f"{_listed(described)}; nothing written")


def _refuse_twice(run: ToolRun) -> None:
    seen: dict[str, Answer] = {}
    for answer in run.answers:
        first = seen.setdefault(answer.fixture_id, answer)
        if first is not answer:
            raise InputError(Pos(run.path), f"{first.where} and {answer.where} both answer fixture {answer.fixture_id}: "
                                            "one answer per fixture in a run; nothing written")


def _refuse_folder(folder: str, corpus_root: str, *, force: bool) -> None:
    refuse_corpus_path(folder, corpus_root)
    if os.path.islink(folder):
        raise InputError(Pos(folder), "is a symbolic link; corpustools never writes through a link")
    if os.path.lexists(folder) and not os.path.isdir(folder):
        raise InputError(Pos(folder), "is not a folder; give a run folder to write (absent or empty)")
    refuse_inputs_inside(folder)
    if not os.path.isdir(folder) or force:
        return
    try:
        names = sorted(name for name in os.listdir(folder) if name != MANIFEST_FILE)
    except OSError as err:
        raise InputError(Pos(folder), f"cannot list: {err.strerror or err}") from None
    if names:
        raise InputError(Pos(folder), f"is not an empty run folder (it holds {_listed(names)}); nothing written: "
                                      "give a new folder, or pass --force to replace the run in it")


def _prompt(run: ToolRun, prompt_path: str | None) -> _Prompt | None:
    """The prompt run.yaml records: --prompt FILE, else the template the log holds, else the
    prompts the log shows the model was given (their sha256 still tells two runs apart)."""
    if prompt_path is not None:
        data = read_bytes(prompt_path)
        return _Prompt(prompt_path, data, decode_text(data, prompt_path), True)
    text = run.prompt_text
    if text is None:
        seen = {a.fixture_id: a.prompt_seen for a in run.answers if a.prompt_seen is not None}
        if not seen:
            return None
        text = json.dumps(seen, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
    return _Prompt("", text.encode("utf-8"), text, False)


def _first_difference(seen: str, rendered: str) -> int:
    """The first line (1-based) on which two texts differ."""
    for number, (a, b) in enumerate(zip(seen.split("\n"), rendered.split("\n"), strict=False), start=1):
        if a != b:
            return number
    return min(seen.count("\n"), rendered.count("\n")) + 1


def _drift(run: ToolRun, loaded: LoadedCorpus, prompt: _Prompt) -> tuple[list[str], list[str]]:
    """(a warning per fixture whose prompt in the log is not `corpustools render`'s, remarks)."""
    seen = [a for a in run.answers if a.prompt_seen is not None]
    if not seen:
        return [], [f"{run.path}: the log holds no prompt: inputs not compared with `corpustools render`"]
    if not has_placeholder(prompt.text):
        return [], [f"{prompt.path}: no transcript placeholder line: inputs not compared with `corpustools render`"]
    rendered, errors = rendered_prompts(loaded.corpus.root, prompt.path, prompt_text=prompt.text)
    warnings = []
    for answer in seen:
        expected = rendered.get(answer.fixture_id)
        assert answer.prompt_seen is not None
        if expected is None or answer.prompt_seen.rstrip() == expected.rstrip():  # promptfoo strips the last newline
            continue
        line = _first_difference(answer.prompt_seen.rstrip(), expected.rstrip())
        warnings.append(f"{answer.fixture_id}: the prompt in {run.path} ({answer.where}) differs from `corpustools "
                        f"render` of this fixture with {prompt.path} from line {line}: the run was not made from this "
                        "corpus's session or this prompt")
    return warnings, errors


def _notes(run: ToolRun, prompt: _Prompt | None, unanswered: list[Answer], as_json: list[str],
           absent: list[str]) -> str:
    parts = [f"Imported by `corpustools import {run.tool}` from {run.path}"
             + (f" ({run.identity})" if run.identity else "") + f": {plural(len(run.answers), 'answer')}."]
    if unanswered:
        parts.append("No answer, so no result file (scored as missing): "
                     + "; ".join(f"{a.fixture_id} ({a.why_none})" for a in unanswered) + ".")
    if absent:
        parts.append(f"Not in the log (scored as missing): {', '.join(absent)}.")
    if as_json:
        parts.append(f"Answers the log holds as objects, written as JSON: {', '.join(as_json)}.")
    if prompt is not None and not prompt.given:
        held = "the prompt template the log holds" if run.prompt_text is not None else \
            "the prompts the log shows the model was given"
        parts.append(f"No --prompt given: the prompt's sha256 is that of {held}.")
    return " ".join(parts)


@dataclass(frozen=True)
class _Plan:
    folder: str
    run: ToolRun
    manifest: dict
    remarks: list[str]
    drift: list[str]
    absent: list[str]


def import_runs(corpus_root: str, runs: list[tuple[str, ToolRun]], *, prompt_path: str | None = None,
                operator: str = "unrecorded", force: bool = False) -> list[ImportedRun]:
    """Write each (folder, run) as a run folder of the corpus at `corpus_root`; every run is
    checked before any file is written (InputError, nothing written)."""
    loaded = open_corpus(corpus_root)
    corpus, contract = loaded.corpus, loaded.contract
    known = set(corpus.session_paths) | set(corpus.sidecar_paths)
    folders = [folder for folder, _ in runs]
    if len(set(map(os.path.realpath, folders))) != len(folders):
        raise InputError(Pos(folders[0]), "two runs would be written to one folder; put {epoch} in --run DIR")
    plans = []
    for folder, run in runs:
        _refuse_unknown(run, known, corpus_root)
        _refuse_twice(run)
        prompt = _prompt(run, prompt_path)
        drift, remarks = _drift(run, loaded, prompt) if prompt is not None and prompt.given else ([], [])
        if prompt is None:
            raise InputError(Pos(run.path), "the log records no prompt: give the prompt the run was made with, "
                                            "--prompt FILE")
        if not prompt.given:
            remarks.append(f"no --prompt given: inputs not compared with `corpustools render`; run.yaml records the "
                           f"prompt {run.tool} holds")
        unanswered = [a for a in run.answers if a.output is None]
        as_json = [a.fixture_id for a in run.answers if a.as_json]
        absent = sorted(set(corpus.sidecar_paths) - {a.fixture_id for a in run.answers})
        manifest, said = build_manifest(
            corpus_root, prompt.path, model=run.model, temperature=str(run.temperature), harness=run.harness,
            operator=operator, started_at=run.started_at, prompt_name=None if prompt.given else run.prompt_name,
            notes=_notes(run, prompt, unanswered, as_json, absent), prompt_data=prompt.data, cost=run.cost,
            corpus=corpus)
        plans.append(_Plan(folder, run, manifest, remarks + said, drift, absent))
    for plan in plans:  # once every input is read: none of them is in a folder written
        _refuse_folder(plan.folder, corpus_root, force=force)
    imported = []
    for plan in plans:
        answered = {a.fixture_id: a for a in plan.run.answers if a.output is not None}
        removed = []
        if os.path.isdir(plan.folder):  # --force: results of the run replaced that this one has not
            for fixture_id in sorted(known - set(answered)):
                for suffix in (contract.result_suffix, contract.other_suffix):
                    stale = result_path(plan.folder, fixture_id, contract)[:-len(contract.result_suffix)] + suffix
                    if os.path.isfile(stale) and not os.path.islink(stale):
                        remove_file(stale, force=force)
                        removed.append(stale)
        for fixture_id, answer in sorted(answered.items()):
            assert answer.output is not None
            write_text(result_path(plan.folder, fixture_id, contract), answer.output, force=force)
        write_text(manifest_path(plan.folder), manifest_yaml(plan.manifest), force=force)
        run = plan.run
        imported.append(ImportedRun(
            plan.folder, run.tool, tuple(sorted(answered)),
            tuple((a.fixture_id, a.why_none) for a in run.answers if a.output is None), tuple(plan.absent),
            tuple(plan.drift), tuple(plan.remarks), tuple(removed)))
    return imported
