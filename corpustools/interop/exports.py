"""`corpustools export jsonl|inspect|promptfoo`: a corpus rendered with one prompt, written for
another tool (docs/interop.md). The labels stay corpustools': what the other tool checks is a
convenience, corpustools' score of the imported run the reference. What each format writes is
its exporter's, in the package's EXPORTERS table (an `export_files` function in the tool's module)."""

from __future__ import annotations

from corpustools.interop import EXPORTERS
from corpustools.interop.dataset import export_corpus, saved_answers
from corpustools.io.errors import UsageError
from corpustools.io.writing import refuse_corpus_path, write_text


def export(kind: str, corpus_root: str, prompt_path: str, out: str, *, replay: str | None = None,
           force: bool = False) -> list[str]:
    """Write the corpus at `corpus_root`, rendered with the prompt at `prompt_path`, for the tool
    `kind` at `out`; the paths written. Every input is read before anything is written."""
    if kind not in EXPORTERS:
        raise UsageError(f"unknown export format {kind!r} (choose from {', '.join(EXPORTERS)})")
    if replay is not None and kind == "jsonl":
        raise UsageError("--replay goes with `export inspect` or `export promptfoo` (a JSONL dataset holds no answers)")
    exported = export_corpus(corpus_root, prompt_path)
    answers = saved_answers(exported, replay) if replay is not None else None
    files: dict[str, str] = EXPORTERS[kind](exported, out, replay=replay, answers=answers)
    for path in files:
        refuse_corpus_path(path, corpus_root)
    for path, text in files.items():
        write_text(path, text, force=force)
    return list(files)
