"""Runs made with other tools, and corpora written for them (docs/interop.md).

- logs.py        what corpustools reads of another tool's log: `ToolRun`, one `Answer` per fixture
- promptfoo.py   promptfoo's results.json (version 3) read as a run; the promptfooconfig.yaml it runs
- inspectai.py   an inspect_ai eval log read as runs (one per epoch); the task.py it runs
- runs.py        a `ToolRun` written as a run folder (results and run.yaml), input drift checked
- dataset.py     a corpus rendered with one prompt: the JSONL rows every export starts from
- exports.py     `export jsonl|inspect|promptfoo`: each format's exporter (EXPORTERS) and the writing

corpustools never runs either tool: it reads the files they write and writes files they read.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING

from corpustools.io.lazy import LazyFunction, lazy_names

if TYPE_CHECKING:
    from corpustools.interop.exports import export
    from corpustools.interop.inspectai import read_inspect_log
    from corpustools.interop.logs import Answer, ToolRun
    from corpustools.interop.promptfoo import read_promptfoo_results
    from corpustools.interop.runs import ImportedRun, import_runs

# `export`'s formats (its FORMAT argument's choices, in --help's order): each is the function
# `export_files(exported, out, *, replay, answers) -> {path: text}` of the tool's module, imported
# when the format is used, so the command line lists them without loading the exporters.
EXPORTERS: dict[str, Callable[..., dict[str, str]]] = {
    "jsonl": LazyFunction("corpustools.interop.dataset", "export_files"),
    "inspect": LazyFunction("corpustools.interop.inspectai", "export_files"),
    "promptfoo": LazyFunction("corpustools.interop.promptfoo", "export_files"),
}
EXPORT_FORMATS = tuple(EXPORTERS)

__getattr__, __dir__ = lazy_names(__name__, {
    "export": "corpustools.interop.exports", "Answer": "corpustools.interop.logs", "ToolRun": "corpustools.interop.logs",
    "ImportedRun": "corpustools.interop.runs", "import_runs": "corpustools.interop.runs",
    "read_inspect_log": "corpustools.interop.inspectai", "read_promptfoo_results": "corpustools.interop.promptfoo"})

__all__ = ["EXPORTERS", "EXPORT_FORMATS", "Answer", "ImportedRun", "ToolRun", "export", "import_runs", "read_inspect_log",
           "read_promptfoo_results"]
