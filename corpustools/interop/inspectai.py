"""An inspect_ai eval log read as runs (one per epoch), and the `task.py` that runs a corpus
exported for inspect_ai (docs/interop.md: every field).

A `.json` log is read with the standard library. An `.eval` log (a zip of zstd-compressed JSON,
which Python's zipfile cannot read before 3.14, and no frozen public format) is read through
`inspect_ai.log.read_eval_log` when inspect_ai is installed (`pip install 'corpustools[interop]'`).
`sample.id` is the fixture id, `output.completion` the answer, byte for byte; a sample with an
error or a limit has no answer.
"""

from __future__ import annotations

import io
import json
import keyword
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from corpustools.interop.dataset import Exported, jsonl
from corpustools.interop.logs import MAX_LOG_BYTES, Answer, ToolRun, add_cost, mapping, read_log_json
from corpustools.io.errors import InputError
from corpustools.io.inputs import refuse_inputs_inside
from corpustools.io.positions import Pos
from corpustools.io.textfile import read_bytes

TOOL = "inspect"
_ZIP_MAGIC = b"PK\x03\x04"
_ATTACHMENT = "attachment://"


def _eval_log(path: str) -> Any:
    """The log's document: JSON as written, or an `.eval` log as inspect_ai reads it."""
    data = read_bytes(path, limit=MAX_LOG_BYTES)  # through corpustools' reader: checked, and noted as an input
    if not data.startswith(_ZIP_MAGIC):
        return read_log_json(path, "inspect_ai log")
    try:
        from inspect_ai.log import read_eval_log  # inspect_ai: ~1,300 modules, only for a .eval log
    except ImportError:
        raise InputError(Pos(path), "an inspect_ai .eval log, which needs inspect_ai to read: run `inspect log convert "
                                    f"--to json {path}` and import the .json log, or install the interop extra "
                                    "(pip install 'corpustools[interop]')") from None
    try:
        log = read_eval_log(io.BytesIO(data), resolve_attachments=True, format="eval")
    except Exception as err:  # whatever inspect_ai raises for a file it cannot read: one line, never a traceback
        raise InputError(Pos(path), f"not an inspect_ai log inspect_ai can read: {' '.join(str(err).split())[:200]}") \
            from None
    return log.model_dump(mode="json", exclude_none=True)


def _resolved(value, attachments: Mapping):
    """A message content: `attachment://<id>` replaced by the text the log keeps apart."""
    if isinstance(value, str) and value.startswith(_ATTACHMENT):
        found = attachments.get(value[len(_ATTACHMENT):])
        return found if isinstance(found, str) else value
    return value


def _text(content, attachments: Mapping) -> str | None:
    """A message's content as text: a string, or its text parts joined."""
    content = _resolved(content, attachments)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [_resolved(part.get("text"), attachments) for part in content
                 if isinstance(part, dict) and part.get("type") == "text"]
        texts = [part for part in parts if isinstance(part, str)]
        return "".join(texts) if texts else None
    return None


def _prompt_seen(sample: Mapping, attachments: Mapping) -> str | None:
    """The prompt the model was given: a string input, or the last user message of the input."""
    given = sample.get("input")
    if isinstance(given, str):
        return _resolved(given, attachments)
    users = [m for m in given if isinstance(m, dict) and m.get("role") == "user"] if isinstance(given, list) else []
    return _text(users[-1].get("content"), attachments) if users else None


def _why_none(sample: Mapping) -> str | None:
    error, limit = sample.get("error"), sample.get("limit")
    if error:
        message = mapping(error).get("message") if isinstance(error, dict) else error
        return f"error: {' '.join(str(message).split())[:200]}"
    if limit:
        kind = mapping(limit).get("type") if isinstance(limit, dict) else limit
        return f"{kind} limit reached"
    return None


def _cost(samples: Sequence[Mapping], stats: Mapping, *, every_sample: bool) -> dict[str, int | float]:
    """Tokens and dollars summed over the samples' model usage; the log's total when the samples
    carry none and all of them are imported."""
    usages = [usage for sample in samples for usage in mapping(sample.get("model_usage")).values()]
    if not usages and every_sample:
        usages = list(mapping(stats.get("model_usage")).values())
    sums: dict[str, int | float] = {}
    for usage in usages:
        usage = mapping(usage)
        for key, field in (("input_tokens", "input_tokens"), ("output_tokens", "output_tokens"), ("usd", "total_cost")):
            add_cost(sums, key, usage.get(field))
    return sums


def read_inspect_log(path: str, *, epoch: int | None = None, each_epoch: bool = False) -> list[tuple[int, ToolRun]]:
    """The runs in the inspect_ai log `path`: epoch `epoch`, every epoch (`each_epoch`), or the
    only one; InputError when the log holds several and neither is asked for."""
    document = _eval_log(path)
    header = mapping(document).get("eval") if isinstance(document, dict) else None
    if not isinstance(header, dict):
        raise InputError(Pos(path), "not an inspect_ai log (no 'eval' header; write one with `inspect eval`, "
                                    "or convert an .eval log with `inspect log convert --to json`)")
    samples = document.get("samples")
    if not isinstance(samples, list) or not samples:
        raise InputError(Pos(path), "the inspect_ai log holds no samples (was it written with log_samples off, "
                                    f"or is it unfinished? status {document.get('status')!r})")
    epochs = sorted({s.get("epoch", 1) for s in samples if isinstance(s, dict) and isinstance(s.get("epoch", 1), int)})
    shown = ", ".join(str(e) for e in epochs)
    if epoch is not None:
        if epoch not in epochs:
            raise InputError(Pos(path), f"--epoch {epoch}: the log holds epoch{'s' if len(epochs) > 1 else ''} {shown}")
        wanted = [epoch]
    elif each_epoch or len(epochs) == 1:
        wanted = epochs
    else:
        raise InputError(Pos(path), f"the log holds {len(epochs)} epochs ({shown}): pick one with --epoch N, or put "
                                    "{epoch} in --run DIR to write one run per epoch")
    return [(number, _run(path, document, header, samples, number, len(epochs))) for number in wanted]


def _run(path: str, document: Mapping, header: Mapping, samples: list, epoch: int, epochs: int) -> ToolRun:
    chosen = [(i, s) for i, s in enumerate(samples) if isinstance(s, dict) and s.get("epoch", 1) == epoch]
    answers = []
    for index, sample in chosen:
        where = f"samples[{index}]"
        raw_id = sample.get("id")
        if not isinstance(raw_id, (str, int)) or isinstance(raw_id, bool) or raw_id == "":
            raise InputError(Pos(path), f"{where}: a sample without an id: each sample's id is its fixture id")
        attachments = mapping(sample.get("attachments"))
        seen = _prompt_seen(sample, attachments)
        why = _why_none(sample)
        completion = mapping(sample.get("output")).get("completion")
        if why is None and not isinstance(completion, str):
            why = "no output.completion"
        if why is not None:
            answers.append(Answer(str(raw_id), where, None, why_none=why, prompt_seen=seen))
            continue
        answers.append(Answer(str(raw_id), where, _resolved(completion, attachments), prompt_seen=seen))
    config = mapping(header.get("model_generate_config"))
    temperature = config.get("temperature")
    version = mapping(header.get("packages")).get("inspect_ai")
    status = document.get("status")
    identity = ", ".join(part for part in (
        f"eval_id {header['eval_id']}" if isinstance(header.get("eval_id"), str) else "",
        f"task {header['task']}" if isinstance(header.get("task"), str) else "",
        f"epoch {epoch} of {epochs}" if epochs > 1 else "",
        f"status {status}" if isinstance(status, str) and status != "success" else "") if part)
    return ToolRun(
        tool=TOOL, path=path, answers=tuple(answers), model=str(header.get("model") or "unrecorded"),
        temperature=temperature if isinstance(temperature, (int, float)) and not isinstance(temperature, bool)
        else "unknown",
        harness=f"inspect_ai {version}" if isinstance(version, str) else "inspect_ai",
        started_at=str(header.get("created") or "unrecorded"),
        cost=_cost([s for _, s in chosen], mapping(document.get("stats")), every_sample=epochs == 1),
        identity=identity, prompt_name=header.get("task") if isinstance(header.get("task"), str) else None)


# --- export: the task that runs an exported corpus ----------------------------------------------

DATASET_FILE, TASK_FILE, REPLAY_FILE = "dataset.jsonl", "task.py", "replay.json"

_TASK = '''\
"""inspect_ai task for the corpustools corpus {name} ({rows}), prompt {prompt}.

Written by `corpustools export inspect{replay_said}`.{replayed} Each sample is one fixture:
its input the prompt as `corpustools render` prints it, its id the fixture id, its target the
gold output.
This task has no scorer: corpustools' score is the reference. Run it, then import its log:

    inspect eval task.py --model {model_hint} --log-format json
    corpustools import inspect LOG.json --corpus CORPUS --run RUN --prompt PROMPT
    corpustools score CORPUS RUN
"""

from __future__ import annotations
{replay_imports}
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import Sample, json_dataset
from inspect_ai.model import ChatMessageUser{model_imports}
from inspect_ai.solver import {solver_imports}

HERE = Path(__file__).resolve().parent


def record_to_sample(row: dict) -> Sample:
    """A row of {dataset} (`corpustools export jsonl`'s shape) as a sample."""
    return Sample(id=row["id"], input=[ChatMessageUser(content=message["content"]) for message in row["input"]],
                  target=row["ideal"] if row["ideal"] is not None else "", metadata=row["metadata"])
{replay_solver}

@task
def {function}({task_parameters}) -> Task:
    return Task(dataset=json_dataset(str(HERE / "{dataset}"), record_to_sample, name={name_literal}),
                solver={solver}{task_options})
'''

_REPLAY_SOLVER = '''

@solver
def replay():
    """Answer each sample with the saved output of the replayed run ({replay_file}), byte for byte,
    without calling a model: the round trip runs offline. The usage is set, so that nothing
    counts tokens (which would fetch a tokenizer). A fixture the run has no output for is an
    error of that sample, which an import reads as a missing result."""
    saved = json.loads((HERE / "{replay_file}").read_text(encoding="utf-8"))

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        answer = saved.get(str(state.sample_id))
        if answer is None:
            raise RuntimeError(f"{{state.sample_id}}: the replayed run has no output for this fixture")
        state.output = ModelOutput.from_content(model="corpustools-replay", content=answer)
        state.output.usage = ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)
        state.messages.append(state.output.message)
        return state

    return solve
'''


def task_py(exported: Exported, *, replay: str | None = None) -> str:
    """The task.py beside the exported dataset; with `replay` (the replayed run's folder) its
    solver answers from replay.json instead of the model, unless run with -T replayed=false."""
    function = re.sub(r"\W", "_", exported.name, flags=re.ASCII).strip("_") or "corpus"
    if function[0].isdigit() or keyword.iskeyword(function):
        function = f"corpus_{function}"
    values = {
        "name": exported.name, "name_literal": json.dumps(exported.name), "rows": f"{len(exported.fixtures)} fixtures", "prompt": exported.prompt_id,
        "dataset": DATASET_FILE, "function": function, "replay_file": REPLAY_FILE,
        "replay_said": " --replay RUN" if replay else "",
        "replayed": f"\nThe replay solver answers with the saved outputs of the run {replay}." if replay else "",
        "model_hint": "mockllm/model" if replay else "PROVIDER/MODEL",
    }
    if replay:
        values.update(replay_imports="\nimport json", model_imports=", ModelOutput, ModelUsage",
                      solver_imports="Generate, TaskState, generate, solver",
                      replay_solver=_REPLAY_SOLVER.format(**values), task_parameters="replayed: bool = True",
                      solver="replay() if replayed else generate()",
                      task_options=",\n                fail_on_error=False")
    else:
        values.update(replay_imports="", model_imports="", solver_imports="generate", replay_solver="",
                      task_parameters="", solver="generate()", task_options="")
    return _TASK.format(**values)


def export_files(exported: Exported, out: str, *, replay: str | None, answers: dict[str, str] | None) -> dict[str, str]:
    """`export inspect`: the folder `out` holding dataset.jsonl, task.py and, with a replayed run,
    replay.json (its saved answers)."""
    if os.path.lexists(out) and not os.path.isdir(out):
        raise InputError(Pos(out), "is not a folder: export inspect writes a folder (dataset.jsonl, task.py)")
    refuse_inputs_inside(out)
    files = {os.path.join(out, DATASET_FILE): jsonl(exported), os.path.join(out, TASK_FILE): task_py(exported, replay=replay)}
    if answers is not None:
        files[os.path.join(out, REPLAY_FILE)] = json.dumps(answers, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    return files
