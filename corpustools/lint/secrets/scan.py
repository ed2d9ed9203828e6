"""Where the secret rules look (every corpus file, read leniently and folded), and how a match in\na folded line becomes a position in the original."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from corpustools.io.layout import GOLD_DIR
from corpustools.io.positions import Pos
from corpustools.lint.diagnostic import Problem
from corpustools.lint.secrets.fold import column_map, fold
from corpustools.lint.secrets.hints import Hint
from corpustools.lint.secrets.source import Unread, read_leniently
from corpustools.model.contract import RESULT_SUFFIXES
from corpustools.model.corpus import list_files

ELLIPSIS = "…"


@dataclass(frozen=True, order=True)
class Finding:
    """What a finder saw in one line: where it starts (0-based index) and how to describe it."""

    start: int
    message: str
    end: int  # 0-based, exclusive: a finding that starts before an earlier one ends is dropped


LineFinder = Callable[[str], Iterable[Finding]]


def redact(secret: str, keep: int = 4) -> str:
    """`secret` cut to a short prefix and an ellipsis: never more than half of it is shown."""
    return secret[: min(keep, len(secret) // 2)] + ELLIPSIS


def run_start(line: str, index: int, run_chars: frozenset[str], reach: int) -> int:
    """Where the run of `run_chars` that ends at `index` starts, or -1 when it is longer than
    `reach`. Finders search for a cheap literal (a dot, an `@`, a secret word) and then match
    their full pattern from the start of the word around it: a regex that begins with a
    lookbehind or a character class tries every position of a 1 MB line; a literal does not."""
    start, floor = index, index - reach
    while start > 0 and line[start - 1] in run_chars:
        start -= 1
        if start < floor:
            return -1
    return start


def anchored(line: str, hint: re.Pattern, pattern: re.Pattern, run_chars: frozenset[str] = frozenset(),
             reach: int = 0) -> Iterator[re.Match]:
    """Matches of `pattern` found from the hits of the literal-first `hint`: each is matched from
    the start of the run of `run_chars` (at most `reach` long) that ends at the hit, and must
    cover the hit."""
    pos = 0
    while (hit := hint.search(line, pos)) is not None:
        start = run_start(line, hit.start(), run_chars, reach) if run_chars else hit.start()
        match = pattern.match(line, start) if start >= 0 else None
        if match is not None and match.end() > hit.start():
            yield match
            pos = max(match.end(), hit.start() + 1)
        else:
            pos = hit.start() + 1


@dataclass(frozen=True)
class ScannedFile:
    """One corpus file as the secret rules see it: its text as read (see source.py), its folded
    view (line for line; the text itself when pure ASCII), and the original of each line whose
    folded view differs, for mapping columns back (see fold.py)."""

    path: str
    text: str
    folded: str
    originals: Mapping[int, str]  # 1-based line number -> original line, for folded lines only


def _scanned_file(path: str, text: str) -> ScannedFile:
    if text.isascii():
        return ScannedFile(path, text, text, {})
    lines = text.split("\n")
    folded = [fold(line) for line in lines]
    originals = {number: line for number, (line, view) in enumerate(zip(lines, folded, strict=True), 1) if line != view}
    return ScannedFile(path, text, "\n".join(folded) if originals else text, originals)


def corpus_file_paths(corpus) -> list[str]:
    """Every file the secret rules scan: corpus.yaml (and the output contract's schema file, among
    the loaded texts), every listed session and sidecar (loaded or not), and gold/*.json and
    gold/*.txt (a text output contract's answers), since gold answers are committed next to the
    fixtures and can leak too."""
    paths = [*corpus.texts, *corpus.session_paths.values(), *corpus.sidecar_paths.values()]
    if os.path.lexists(corpus.spec_path):
        paths.append(corpus.spec_path)
    gold = [path for suffix in RESULT_SUFFIXES.values()
            for path in list_files(os.path.join(corpus.root, GOLD_DIR), suffix)[0].values()]
    return sorted(set(paths) | set(gold))


def _load(context) -> tuple[tuple[ScannedFile, ...], tuple[Unread, ...]]:
    files, unread = [], []
    for path in corpus_file_paths(context.corpus):
        text = context.corpus.texts.get(path)  # the loader read it strictly: nothing to add
        if text is None:
            text, why = read_leniently(path)
            if why is not None:
                unread.append(why)
        if text:
            files.append(_scanned_file(path, text))
    return tuple(files), tuple(unread)


def scanned_files(ctx) -> tuple[ScannedFile, ...]:
    """Every file the secret rules scan, sorted by path; read and folded once per run."""
    return ctx.cached("secrets.files", _load)[0]


def unread_files(ctx) -> tuple[Unread, ...]:
    """What the secret scan could not read in full, one note per file (CT508)."""
    return ctx.cached("secrets.files", _load)[1]


def candidate_lines(text: str, hint: Hint | None) -> Iterator[tuple[int, str]]:
    """(1-based number, line) of each non-empty line of `text` that `hint` points at; every
    non-empty line when there is no hint."""
    if hint is None:
        for number, line in enumerate(text.split("\n"), 1):
            if line:
                yield number, line
        return
    search = hint(text)
    number, counted, pos = 1, 0, 0
    while (offset := search(pos)) >= 0:
        start = text.rfind("\n", 0, offset) + 1
        end = text.find("\n", offset)
        end = len(text) if end < 0 else end
        number += text.count("\n", counted, start)
        counted, pos = start, end + 1
        yield number, text[start:end]


def without_overlaps(findings: Iterable[Finding]) -> list[Finding]:
    """Findings sorted by start; one that starts inside an earlier kept one is the same thing seen
    twice (a JWT inside a bearer header) and is dropped."""
    kept: list[Finding] = []
    for finding in sorted(set(findings)):
        if kept and finding.start < kept[-1].end:
            continue
        kept.append(finding)
    return kept


def scan(ctx, finder: LineFinder, hint: Hint | None = None) -> Iterator[Problem]:
    """Run `finder` over the folded view of every line of every scanned file that `hint` points
    at; yield its findings at their original line and column."""
    for file in scanned_files(ctx):
        for number, line in candidate_lines(file.folded, hint):
            findings = without_overlaps(finder(line))
            if not findings:
                continue
            original = file.originals.get(number)
            columns = column_map(original) if original is not None else None
            for finding in findings:
                col = columns[finding.start] if columns is not None else finding.start
                yield Problem(Pos(file.path, number, col + 1), finding.message)
