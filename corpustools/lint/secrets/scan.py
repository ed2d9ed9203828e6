"""Where the secret rules look, and how a match in a line becomes a position."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from corpustools.corpus import GOLD_DIR, list_files
from corpustools.lint.diagnostic import Problem
from corpustools.positions import InputError, Pos
from corpustools.textfile import read_text

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


def gold_texts(root: str) -> dict[str, str]:
    """path -> text of each readable gold/*.json: gold answers are committed next to the fixtures
    and can leak too. Unreadable gold files are skipped here; no secret rule is the place to say
    a file is malformed (the scorer reports them)."""
    found, _links = list_files(os.path.join(root, GOLD_DIR), ".json")
    texts = {}
    for path in found.values():
        try:
            texts[path] = read_text(path)
        except InputError:
            continue
    return texts


def unparsed_texts(corpus) -> dict[str, str]:
    """path -> text of each corpus file that is readable text but did not load, so the loader kept
    no text of it (a sidecar or corpus.yaml with a YAML error or a duplicate key): a secret in a
    malformed file is still a secret, and CT002/CT003 can be suppressed where CT5xx cannot."""
    paths = [corpus.spec_path, *corpus.session_paths.values(), *corpus.sidecar_paths.values()]
    texts = {}
    for path in paths:
        if path in corpus.texts or not os.path.isfile(path):
            continue
        try:
            texts[path] = read_text(path)
        except InputError:  # links, non-UTF-8, too large: skipped, as for gold files
            continue
    return texts


def scanned_lines(ctx) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(path, lines) of every file the secret rules scan, sorted by path; computed once per run."""

    def load(context) -> tuple[tuple[str, tuple[str, ...]], ...]:
        texts = dict(context.corpus.texts)
        texts.update(unparsed_texts(context.corpus))
        texts.update(gold_texts(context.corpus.root))
        return tuple((path, tuple(texts[path].split("\n"))) for path in sorted(texts))

    return ctx.cached("secrets.lines", load)


def without_overlaps(findings: Iterable[Finding]) -> list[Finding]:
    """Findings sorted by start; one that starts inside an earlier kept one is the same thing seen
    twice (a JWT inside a bearer header) and is dropped."""
    kept: list[Finding] = []
    for finding in sorted(set(findings)):
        if kept and finding.start < kept[-1].end:
            continue
        kept.append(finding)
    return kept


def scan(ctx, finder: LineFinder) -> Iterator[Problem]:
    """Run `finder` over every line of every scanned file; yield its findings with positions."""
    for path, lines in scanned_lines(ctx):
        for number, line in enumerate(lines, 1):
            if not line:
                continue
            for finding in without_overlaps(finder(line)):
                yield Problem(Pos(path, number, finding.start + 1), finding.message)
