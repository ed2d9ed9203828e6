"""A session or sidecar holds an invisible character: a zero-width space or joiner, a soft hyphen, a bidi control.

What: every default-ignorable code point (Unicode's Default_Ignorable_Code_Point property) in a
session's or a sidecar's text: zero-width space, non-joiner and joiner (U+200B-U+200D), soft hyphen (U+00AD),
word joiner and invisible operators (U+2060-U+2064), a byte-order mark inside the text (U+FEFF),
bidi embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069), the left-to-right
and right-to-left marks, variation selectors, Hangul fillers and tag characters. A run of them is
reported once, at its first character, with the code point and its name.

Why: an invisible character changes what the model reads without changing what a reviewer sees. It
can hide a secret from a naive scanner (`AKIA` + U+200B + the rest; the secret rules read through
it, CT501-CT507), split a term so that a label never matches the transcript, or reorder text with
bidi controls ("Trojan Source"). In a sidecar it disarms a label silently: a `must_not_match` term
written `capa\u200bcity` never matches the `capacity` an output says, and a point id with one
cannot be copied into a worksheet's `class: point:<id>`. Transcripts copied from chat tools and web pages carry them by
accident; remove them (or write the character's name in words when the fixture is about it).

Example:

    [USER]: Use the queue\\u200b worker for expired signups.

    sessions/admit-convention-01.md:7:22: CT407 [error] invisible character U+200B ZERO WIDTH SPACE
"""

import re
import unicodedata
from collections.abc import Iterator

from corpustools.io.positions import Pos
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.lint.secrets.fold import IGNORABLE_CLASS
from corpustools.lint.secrets.scan import read_files

CODE = "CT407"
NAME = "invisible-character"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it

_RUN = re.compile(IGNORABLE_CLASS + "+")


def describe(run: str) -> str:
    first = run[0]
    name = unicodedata.name(first, "unassigned default-ignorable code point")
    more = f" (and {len(run) - 1} more)" if len(run) > 1 else ""
    return f"invisible character U+{ord(first):04X} {name}{more}"


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    checked = set(ctx.corpus.session_paths.values()) | set(ctx.corpus.sidecar_paths.values())
    for file in read_files(ctx):  # as the secret scan reads them: a BOM'd file too
        if file.path not in checked or file.text.isascii():
            continue
        text = file.text
        line, line_start, counted = 1, 0, 0
        for run in _RUN.finditer(text):
            # Only the text since the previous run is searched for newlines: linear in the file,
            # however many runs one long line holds.
            if (newlines := text.count("\n", counted, run.start())) > 0:
                line += newlines
                line_start = text.rfind("\n", counted, run.start()) + 1
            counted = run.start()
            yield Problem(Pos(file.path, line, run.start() - line_start + 1), describe(run.group()))
