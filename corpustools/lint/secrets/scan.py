"""Where the secret rules look (every file and folder under the corpus, read leniently, folded and
decoded), and how a match in a view of a line becomes a position in the original."""

from __future__ import annotations

import bisect
import functools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from corpustools.io.layout import GOLD_DIR, VCS_FOLDERS
from corpustools.io.positions import Pos
from corpustools.io.yamlload import folded_quoted_scalars
from corpustools.lint.context import CacheKey
from corpustools.lint.secrets.decode import ESCAPE, base64_texts, escape_columns, unescaped
from corpustools.lint.secrets.fold import column_map, fold, folding_joins, needs_folding
from corpustools.lint.secrets.hints import Hint
from corpustools.lint.secrets.markup import (
    MARKDOWN_ESCAPE,
    MARKUP,
    joins_at,
    key_blocks,
    markdown_unescaped,
    markup_windows,
    may_join,
    run_on_end,
    unmarked,
)
from corpustools.lint.secrets.source import Unread, read_leniently
from corpustools.model.corpus import list_files

ELLIPSIS = "…"


@dataclass(frozen=True, order=True)
class Finding:
    """What a finder saw in one line: where it starts (0-based index) and how to describe it."""

    start: int
    message: str
    end: int  # 0-based, exclusive: a finding that starts before an earlier one ends is dropped
    # The secret value itself where the finding knows one apart from its context (CT502's assigned
    # value, CT503's URL password): the engine masks it wherever another rule's message quotes it.
    value: str = field(default="", compare=False)


LineFinder = Callable[[str], Iterable[Finding]]
# The finders that read the reader views of markup.py, and which kinds (markup.MARKUP, WORDS,
# KEY_VALUE): a token split by Markdown or wrapped over lines is a token, but a word of prose or
# code run on into the next line is no host, address or assignment (`ghp_…` / `password=x` on two
# lines are two findings, not one). A finder reads them for the lines its hint points at.
READERS: dict[LineFinder, frozenset[str]] = {}


def reads_views(*kinds: str) -> Callable[[LineFinder], LineFinder]:
    """Register the decorated finder as a reader of the reader views of `kinds` (READERS)."""
    def register(finder: LineFinder) -> LineFinder:
        READERS[finder] = frozenset(kinds)
        return finder
    return register


def redact(secret: str, keep: int = 4) -> str:
    """`secret` cut to a short prefix and an ellipsis: never more than half of it is shown."""
    return secret[: min(keep, len(secret) // 2)] + ELLIPSIS


def cut(text: str, found: Sequence[tuple[int, int]]) -> str:
    """`text` with each (start, end) span of `found` (sorted) cut by redact; a span that starts
    inside one already cut is part of it."""
    parts, pos = [], 0
    for start, end in found:
        if start < pos:  # inside a span already cut
            continue
        parts += [text[pos:start], redact(text[start:end])]
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


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
class View:
    """A text the finders read besides a file's folded lines: a line as written (when it folds), a
    line with its escapes decoded, a decoded base64 blob, a YAML string that spans lines as the
    parser reads it, or a file or folder name. `columns()` gives, for each character of `text` and
    for its end, the 0-based column in the original line it is reported at; it is computed only
    when a finder found something in the view."""

    line: int  # 1-based; 0 for a name (the file as a whole)
    text: str
    columns: Callable[[], Sequence[int]] = field(compare=False, repr=False)
    # A reader view's kind (markup.MARKUP, WORDS, KEY_VALUE), read only by the finders registered
    # for it (reads_views); for joined lines, where they were joined: a finding counts only if it
    # starts on the first line and crosses its break.
    kind: str = ""
    breaks: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScannedFile:
    """One file or folder of a corpus as the secret rules see it: its text as read (see source.py;
    empty for a folder or a file that could not be read), its folded view (line for line; the text
    itself when nothing folds), the original of each line whose folded view differs, for mapping
    columns back (see fold.py), and its other views (View), computed once."""

    path: str
    text: str
    folded: str
    originals: Mapping[int, str]  # 1-based line number -> original line, for folded lines only
    views: tuple[View, ...] = ()
    view_text: str = ""  # the views' texts, one per line, for hints to search at once (scan)
    # The reader views of each line a hint pointed at (_derived_views), made on first use.
    derived: dict[tuple[int, str], list[View]] = field(default_factory=dict, compare=False, repr=False)
    lines: list[str] = field(default_factory=list, compare=False, repr=False)  # folded, split on first use


def _view(line: int, text: str, columns: Callable[[], Sequence[int]]) -> View:
    """`text` folded, its columns mapped through the fold."""
    if not needs_folding(text):
        return View(line, text, columns)
    return View(line, fold(text), lambda: [columns()[i] for i in column_map(text)])


def _as_written(line: int, text: str) -> View:
    return View(line, text, lambda: range(len(text) + 1))


def _at(line: int, col: int, text: str) -> list[View]:
    """Views of `text` (one per line of it), every character reported at `col` of `line`."""
    return [_view(line, part, _constant(col, len(part))) for part in text.split("\n") if part]


def _constant(col: int, length: int) -> Callable[[], Sequence[int]]:
    """Columns that put each of `length` characters (and the end) at `col`."""
    return lambda: [col] * (length + 1)


def _unescaped_view(number: int, line: str) -> View | None:
    decoded = unescaped(line)
    return None if decoded is None else _view(number, decoded, lambda: escape_columns(line))


def _decoded_views(number: int, line: str, *, folds: bool) -> list[View]:
    """The views of one line beyond its folded self: as written (when it `folds`), unescaped, its
    base64 blobs (used for names; a file's lines get the same views from scanned_file)."""
    views = [_as_written(number, line)] if folds else []
    if (decoded := _unescaped_view(number, line)) is not None:
        views.append(decoded)
    for start, text in base64_texts(line):
        views += _at(number, start, text)
    return views


def _lines_with(pattern: re.Pattern, text: str) -> Iterator[tuple[int, str]]:
    """(1-based number, line) of each line of `text` where `pattern` matches, once each."""
    number, counted, pos = 1, 0, 0
    while (match := pattern.search(text, pos)) is not None:
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.start())
        end = len(text) if end < 0 else end
        number += text.count("\n", counted, start)
        counted, pos = start, end + 1
        yield number, text[start:end]


def _quoted_views(path: str, text: str) -> list[View]:
    """Double-quoted YAML strings that span lines, as the parser joins them (a YAML file, or the
    frontmatter of a Markdown file), each at the line and column where it starts."""
    if path.endswith((".yaml", ".yml")):
        source = text
    elif text.startswith("---\n") and (close := text.find("\n---", 3)) > 0:
        source = text[: close + 1]
    else:
        return []
    if '"' not in source or not any(_opens_a_quote(line) for line in source.split("\n") if '"' in line):
        return []
    return [view for line, col, value in folded_quoted_scalars(source) for view in _at(line + 1, col, value)]


_BACKSLASH_ESCAPE = re.compile(r"\\.")


def _opens_a_quote(line: str) -> bool:
    """Whether `line` may leave a double-quoted string open (an odd number of unescaped `"`): only
    then can a YAML string span lines (a cheap test before the parser runs)."""
    return _BACKSLASH_ESCAPE.sub("", line).count('"') % 2 == 1


def _folded_columns(number: int, columns: Sequence[int], originals: Mapping[int, str]) -> list[int]:
    """`columns` of folded line `number` (1-based) as columns of the line as written."""
    original = originals.get(number)
    if original is None:
        return list(columns)
    through = column_map(original)
    return [through[column] for column in columns]


def _block_views(folded: str, originals: Mapping[int, str]) -> list[View]:
    """Each private-key block of the file as one line (markup.key_blocks), at its header."""
    views = []
    for index, column, block in key_blocks(folded):
        at = _folded_columns(index + 1, [column], originals)[0]
        views.append(View(index + 1, block, _constant(at, len(block))))
    return views


def _derived_views(file: ScannedFile, number: int, line: str, kind: str) -> list[View]:
    """The reader views of `kind` of `line`, line `number` (1-based) of `file`'s folded text, made
    once: its markup removed (MARKUP: markup.markup_windows), or the lines joined from it (WORDS,
    KEY_VALUE: markup.joins_at, their markup removed too); columns mapped back through the fold."""
    if (views := file.derived.get((number, kind))) is not None:
        return views
    views = []
    if kind == MARKUP:
        for start, end in markup_windows(line):
            if (found := unmarked(line[start:end])) is not None:
                views.append(View(number, found[0], functools.partial(
                    _folded_columns, number, [start + column for column in found[1]], file.originals), MARKUP))
    elif may_join(line, kind):
        if not file.lines:
            file.lines.extend(file.folded.split("\n"))
        for joined in joins_at(file.lines, number - 1, kind):
            text, columns, breaks = joined.text, joined.columns, joined.breaks
            if (found := unmarked(text)) is not None:
                text, kept = found
                breaks = tuple(bisect.bisect_left(kept, at) for at in breaks)
                columns = [columns[index] for index in kept]
            views.append(View(number, text, functools.partial(_folded_columns, number, columns, file.originals),
                              kind, breaks))
    file.derived[number, kind] = views
    return views


def name_views(name: str) -> list[View]:
    """A file or folder name as the finders read it: folded, as written, unescaped, its base64
    blobs, and with `-` and `.` read as spaces; all reported at the file as a whole (line 0)."""
    folded = _view(0, name, _constant(0, len(name)))
    # Words of a name are joined by `-` and `.` where a line has spaces (`notes-ghp_….txt`).
    spaced = folded.text.replace("-", " ").replace(".", " ")
    views = [folded, *_decoded_views(0, name, folds=folded.text != name), View(0, spaced, folded.columns)]
    return [View(0, view.text, _constant(0, len(view.text))) for view in views]


def scanned_file(path: str, text: str, name: str | None = None) -> ScannedFile:
    """What the finders read of one file: its folded lines, and every other view (see View); with
    `name`, that name's views too."""
    views = name_views(name) if name is not None else []
    originals: dict[int, str] = {}
    folded = text
    if needs_folding(text):
        folded = fold(text)  # newlines are kept: the folded text has the same lines
        if folded != text:
            originals = {number: line for number, (line, view)
                         in enumerate(zip(text.split("\n"), folded.split("\n"), strict=True), 1) if line != view}
    # Each view is searched for over the whole text first: a file with no escape and no base64
    # blob (most) costs two regex scans.
    views += [_as_written(number, line) for number, line in originals.items() if folding_joins(line)]
    for number, line in _lines_with(ESCAPE, text):
        if (decoded := _unescaped_view(number, line)) is not None:
            views.append(decoded)
    for number, line in _lines_with(MARKDOWN_ESCAPE, folded):
        markdown, columns = markdown_unescaped(line)
        views.append(View(number, markdown, functools.partial(_folded_columns, number, columns, originals)))
    number, counted = 1, 0
    for offset, blob_text in base64_texts(text):
        number += text.count("\n", counted, offset)
        counted = offset
        views += _at(number, offset - (text.rfind("\n", 0, offset) + 1), blob_text)
    views += _quoted_views(path, text)
    views += _block_views(folded, originals)
    return ScannedFile(path, text, folded, originals, tuple(views), "\n".join(view.text.replace("\n", " ") for view in views))


# Text that may have a decoded view: an escape character, or a run long enough to be base64.
VIEW_HINT = re.compile(r"[\\&%]|[A-Za-z0-9+/_\-]{20}")
SKIPPED_FOLDERS = VCS_FOLDERS  # version control's own store: nothing in it is committed text


@dataclass(frozen=True)
class Tree:
    """Every entry under a corpus folder: the regular files to read, every entry to name (files,
    folders, links, special files), and what could not be listed or is no file to read."""

    files: tuple[str, ...]
    entries: tuple[str, ...]
    unread: tuple[Unread, ...]


def corpus_tree(root: str) -> Tree:
    """Walk `root` without following links; `.git` folders are skipped."""
    files, entries, unread = [], [], []
    folders = [root]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as listing:
                found = sorted(listing, key=lambda entry: entry.name)
        except OSError as err:
            unread.append(Unread(Pos(folder), f"cannot list folder: {err.strerror or err}"))
            continue
        for entry in found:
            if entry.name in SKIPPED_FOLDERS:
                continue
            entries.append(entry.path)
            try:
                if entry.is_symlink():
                    unread.append(Unread(Pos(entry.path), "is a symbolic link; links are not followed"))
                elif entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    files.append(entry.path)
                else:
                    unread.append(Unread(Pos(entry.path), "is a special file, not a regular file"))
            except OSError as err:
                unread.append(Unread(Pos(entry.path), f"cannot read: {err.strerror or err}"))
    return Tree(tuple(sorted(files)), tuple(sorted(entries)), tuple(unread))


def listed_paths(corpus) -> set[str]:
    """The files the corpus loader lists (sessions, sidecars, gold/*.json, corpus.yaml): one of
    them that is a folder is reported, as the loader cannot read it either."""
    paths = {*corpus.session_paths.values(), *corpus.sidecar_paths.values(), corpus.spec_path}
    gold, _links = list_files(os.path.join(corpus.root, GOLD_DIR), ".json")
    return paths | set(gold.values())


def _display_name(path: str) -> str:
    """An entry's name as UTF-8, whatever the locale (an undecodable byte stays escaped)."""
    return os.fsencode(os.path.basename(path)).decode("utf-8", errors="surrogateescape")


@dataclass(frozen=True)
class ReadFile:
    """One file or folder under a corpus as read, before any view is made: its text (empty for a
    folder or a file that could not be read) and its name as the finders read it."""

    path: str
    text: str
    name: str


def _read(context) -> tuple[tuple[ReadFile, ...], tuple[Unread, ...]]:
    corpus = context.corpus
    tree = corpus_tree(corpus.root)
    files, unread = [], list(tree.unread)
    readable = set(tree.files) | set(corpus.texts)  # what the loader read, and every file on disk
    folders = set(tree.entries) - readable
    for path in sorted(listed_paths(corpus) & folders):
        if os.path.isdir(path) and not os.path.islink(path):
            unread.append(Unread(Pos(path), "is a directory, not a regular file"))
    for path in sorted(set(tree.entries) | readable):
        text = ""
        if path in readable:
            text = corpus.texts.get(path)  # the loader read it strictly: nothing to add
            if text is None:
                text, why = read_leniently(path)
                if why is not None:
                    unread.append(why)
        files.append(ReadFile(path, text, _display_name(path)))
    return tuple(files), tuple(sorted(unread))


# Every file read once a run, and what could not be read in full; their views, made once a run.
READ: CacheKey[tuple[tuple[ReadFile, ...], tuple[Unread, ...]]] = CacheKey("secrets.read")
FILES: CacheKey[tuple[ScannedFile, ...]] = CacheKey("secrets.files")


def read_files(ctx) -> tuple[ReadFile, ...]:
    """Every file and folder under the corpus as read, sorted by path; read once per run."""
    return ctx.cached(READ, _read)[0]


def viewed(file: ReadFile) -> ScannedFile:
    """`file` with every view the finders read."""
    return scanned_file(file.path, file.text, file.name)


def scanned_files(ctx) -> tuple[ScannedFile, ...]:
    """Every file and folder under the corpus, sorted by path; read and viewed once per run."""
    return ctx.cached(FILES, lambda c: tuple(viewed(file) for file in read_files(c)))


def unread_files(ctx) -> tuple[Unread, ...]:
    """What the secret scan could not read in full, one note per file or folder (CT508)."""
    return ctx.cached(READ, _read)[1]


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


@dataclass(frozen=True, order=True)
class Located:
    """A finding at its place in the original file, with the text it matched in the view it was
    found in (what a fingerprint hashes)."""

    pos: Pos
    message: str
    text: str
    value: str = field(default="", compare=False)  # Finding.value


# line, start column, end column, message, matched text, whether it was found in a reader view, and
# the secret value (Finding.value)
_Spot = tuple[int, int, int, str, str, bool, str]


def _located(number: int, columns: Sequence[int] | None, line: str, findings: Iterable[Finding], *,
             derived: bool = False) -> Iterator[_Spot]:
    for finding in without_overlaps(findings):
        start = columns[finding.start] if columns is not None else finding.start
        end = columns[min(finding.end, len(columns) - 1)] if columns is not None else finding.end
        yield number, start, end, finding.message, line[finding.start:finding.end], derived, finding.value


def _spots(file: ScannedFile, finder: LineFinder, folded_lines: Iterable[tuple[int, str]],
           view_lines: Iterable[tuple[int, str]]) -> Iterator[_Spot]:
    """What `finder` finds in every view of `file`, once per secret, at original positions: in the
    candidate lines of its folded text (and their reader views of the kinds it reads) and of its
    views' text (see candidate_lines)."""
    found: list[_Spot] = []
    kinds = READERS.get(finder, frozenset())
    for number, line in folded_lines:
        original = file.originals.get(number)
        found += _located(number, column_map(original) if original is not None else None, line, finder(line))
        for kind in kinds:
            for view in _derived_views(file, number, line, kind):
                found += _in_view(view, view.text, finder)
    for index, line in view_lines:
        found += _in_view(file.views[index - 1], line, finder)
    return _kept(found)


def _in_view(view: View, line: str, finder: LineFinder) -> list[_Spot]:
    findings = finder(line)
    if view.breaks:  # only what starts on the first line and crosses its break is new
        findings = [f for f in findings if f.start < view.breaks[0] < f.end]
    return list(_located(view.line, view.columns(), line, findings, derived=bool(view.kind))) if findings else []


def _kept(found: list[_Spot]) -> Iterator[_Spot]:
    """One finding per secret: on each line, a finding that starts inside one kept before (from
    another view of the same line) or matched the same text is dropped; of two that start at the
    same place, the one found in the line's own views is kept before a reader view's (a token that
    ends its line stays itself when the next line starts with a letter)."""
    last_line, last_end, seen = -1, -1, set[str]()
    for item in sorted(found, key=lambda f: (f[0], f[1], f[5], -f[2])):
        number, start, end, _message, text, _derived, _value = item
        if number != last_line:
            last_line, last_end, seen = number, -1, set[str]()
        if start < last_end or text in seen:
            continue
        last_end = max(last_end, end, start + 1)
        seen.add(text)
        yield item


@dataclass(frozen=True)
class Batch:
    """Consecutive scanned files whose folded texts, and whose views' texts, are each joined by
    newlines, so that a hint searches them in one call (a hint's cost is one pass over the text
    per needle, whatever its length: 500 small files searched one by one cost 40 times the
    calls). `folded_first[i]` / `views_first[i]` is the joined line number of the i-th file's
    first line."""

    files: tuple[ScannedFile, ...]
    folded: str
    views: str
    folded_first: tuple[int, ...]
    views_first: tuple[int, ...]


BATCH_CHARS = 4_000_000  # a batch's joined text: large enough to pay few calls, small enough to add little memory


def _first_lines(texts: Sequence[str]) -> tuple[int, ...]:
    firsts, number = [], 1
    for text in texts:
        firsts.append(number)
        number += text.count("\n") + 1
    return tuple(firsts)


def _batch(files: Sequence[ScannedFile]) -> Batch:
    folded, views = [file.folded for file in files], [file.view_text for file in files]
    return Batch(tuple(files), "\n".join(folded), "\n".join(views), _first_lines(folded), _first_lines(views))


def _batches(files: Sequence[ScannedFile]) -> Iterator[Batch]:
    """`files` in batches of about BATCH_CHARS, made one at a time (a batch is a copy of its files'
    texts: only one is alive at once); the files whose texts are all ASCII apart from the others,
    so that one wide character does not make a whole batch a string of 2 or 4 bytes a character
    (searched slower, and twice or four times the memory)."""
    narrow = [file for file in files if file.folded.isascii() and file.view_text.isascii()]
    wide = [file for file in files if not (file.folded.isascii() and file.view_text.isascii())]
    for group in (narrow, wide):
        current: list[ScannedFile] = []
        size = 0
        for file in group:
            if current and size + len(file.folded) + len(file.view_text) > BATCH_CHARS:
                yield _batch(current)
                current, size = [], 0
            current.append(file)
            size += len(file.folded) + len(file.view_text)
        if current:
            yield _batch(current)


def _by_file(lines: Iterable[tuple[int, str]], firsts: Sequence[int]) -> dict[int, list[tuple[int, str]]]:
    """Candidate lines of a joined text, as file index -> [(the file's own line number, line)]."""
    by_file: dict[int, list[tuple[int, str]]] = {}
    for number, line in lines:
        index = bisect.bisect_right(firsts, number) - 1
        by_file.setdefault(index, []).append((number - firsts[index] + 1, line))
    return by_file


def scan(ctx, finders: Mapping[str, tuple[LineFinder, Hint | None]]) -> Iterator[tuple[str, Located]]:
    """Run each finder over every view of every scanned file (scan_files)."""
    return scan_files(scanned_files(ctx), finders)


def scan_files(files: Sequence[ScannedFile],
               finders: Mapping[str, tuple[LineFinder, Hint | None]]) -> Iterator[tuple[str, Located]]:
    """Run each finder over every view of each of `files` (the folded lines its hint points at,
    and each other View it points at); yield (its key in `finders`, finding) once per finding, at
    the finding's original line and column. Batch by batch, every finder on each. What is found
    in a file depends on that file alone (its path and text), not on the others scanned with it."""
    for batch in _batches(files):
        for key, (finder, hint) in finders.items():
            folded = _by_file(candidate_lines(batch.folded, hint), batch.folded_first)
            views = _by_file(candidate_lines(batch.views, hint), batch.views_first)
            for index, file in enumerate(batch.files):
                for number, start, _end, message, text, _derived, value in _spots(
                        file, finder, folded.get(index, ()), views.get(index, ())):
                    yield key, Located(Pos(file.path, number, start + 1 if number else 0), message, text, value)


def spans(text: str, finder: LineFinder, hint: Hint | None = None) -> list[tuple[int, int]]:
    """(start, end) in `text` of what `finder` finds in any view of any of its lines (for
    redaction: corpustools.lint.secrets.redaction); a secret found in lines joined runs on into
    the next lines' first words (markup.run_on_end), which are cut too."""
    file = scanned_file("", text)
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    found = []
    for number, start, end, _message, matched, derived, _value in _spots(
            file, finder, candidate_lines(file.folded, hint), candidate_lines(file.view_text, hint)):
        span_end = offsets[number - 1] + max(end, start + 1)
        if derived and end >= len(lines[number - 1]) and len(matched) > end - start:
            span_end = run_on_end(text, span_end, len(matched) - (end - start))
        found.append((offsets[number - 1] + start, span_end))
    return found
