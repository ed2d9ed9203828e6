"""`corpustools export jsonl|inspect|promptfoo`: a corpus rendered with one prompt, written for
another tool (docs/interop.md). The labels stay corpustools': what the other tool checks is a
convenience, corpustools' score of the imported run the reference."""

from __future__ import annotations

import json
import os

from corpustools.interop import EXPORT_FORMATS, inspectai, promptfoo
from corpustools.interop.dataset import export_corpus, jsonl, saved_answers
from corpustools.io.errors import InputError, UsageError
from corpustools.io.positions import Pos


def _replayed_model(run_folder: str) -> str | None:
    """The model the replayed run's run.yaml records, when it records one."""
    from corpustools.manifest import read_manifest

    manifest = read_manifest(run_folder).run_manifest
    return manifest.model if manifest is not None and not manifest.unrecorded else None


def export(kind: str, corpus_root: str, prompt_path: str, out: str, *, replay: str | None = None,
           force: bool = False) -> list[str]:
    """Write the corpus at `corpus_root`, rendered with the prompt at `prompt_path`, for the tool
    `kind` at `out`; the paths written. Every input is read before anything is written."""
    from corpustools.io.inputs import refuse_inputs_inside
    from corpustools.io.writing import refuse_corpus_path, write_text

    if kind not in EXPORT_FORMATS:
        raise UsageError(f"unknown export format {kind!r} (choose from {', '.join(EXPORT_FORMATS)})")
    if replay is not None and kind == "jsonl":
        raise UsageError("--replay goes with `export inspect` or `export promptfoo` (a JSONL dataset holds no answers)")
    exported = export_corpus(corpus_root, prompt_path)
    answers = saved_answers(exported, replay) if replay is not None else None
    files: dict[str, str] = {}
    if kind == "jsonl":
        files[out] = jsonl(exported)
    elif kind == "inspect":
        if os.path.lexists(out) and not os.path.isdir(out):
            raise InputError(Pos(out), "is not a folder: export inspect writes a folder (dataset.jsonl, task.py)")
        refuse_inputs_inside(out)
        files[os.path.join(out, inspectai.DATASET_FILE)] = jsonl(exported)
        files[os.path.join(out, inspectai.TASK_FILE)] = inspectai.task_py(exported, replay=replay)
        if answers is not None:
            files[os.path.join(out, inspectai.REPLAY_FILE)] = json.dumps(
                answers, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    else:
        target = os.path.join(out, promptfoo.CONFIG_FILE) if os.path.isdir(out) and not os.path.islink(out) else out
        model = _replayed_model(replay) if replay is not None else None
        files[target] = promptfoo.config_yaml(exported, replay=replay, answers=answers, model=model)
    for path in files:
        refuse_corpus_path(path, corpus_root)
    for path, text in files.items():
        write_text(path, text, force=force)
    return list(files)
