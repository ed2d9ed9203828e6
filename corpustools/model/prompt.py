"""The prompt under evaluation and its knowledge base, read from outside the corpus: `render` puts
a transcript into the prompt; `lint` looks for the prompt's words in sessions (CT703) and copies
of the KB (CT704). One reader each, so both commands see the same text."""

from __future__ import annotations

import os
from dataclasses import dataclass

from corpustools.io.errors import InputError
from corpustools.io.inputs import note_folder
from corpustools.io.paths import display_path
from corpustools.io.positions import Pos
from corpustools.io.textfile import decode_text, read_bytes, read_text

# The line of the prompt that a fixture's transcript replaces.
PLACEHOLDER = "[TRANSCRIPT PLACEHOLDER, substituted at runtime]"


@dataclass(frozen=True)
class TextSource:
    """A file given from outside the corpus (the prompt under eval, or one KB document)."""

    path: str
    text: str


def has_placeholder(prompt_text: str) -> bool:
    return any(line.strip() == PLACEHOLDER for line in prompt_text.split("\n"))


def no_placeholder(prompt_path: str) -> InputError:
    """The error for a prompt that has no placeholder line, when one is needed."""
    return InputError(Pos(prompt_path), f"no line {PLACEHOLDER!r} to put the transcript in; "
                                        "pass --append to add the transcript at the end")


def read_prompt(prompt_path: str, *, display: str | None = None, need_placeholder: bool = False) -> str:
    """The prompt's text, errors naming it as `display` (default: as given); InputError when it
    cannot be read, or when `need_placeholder` is set and it has no placeholder line."""
    text = read_text(prompt_path, display=display)
    if need_placeholder and not has_placeholder(text):
        raise no_placeholder(display or prompt_path)
    return text


def prompt_source(prompt_path: str) -> TextSource:
    """The prompt as lint reads it: named relative to the working folder, no placeholder needed."""
    shown = display_path(prompt_path)
    return TextSource(shown, read_prompt(prompt_path, display=shown))


def read_kb(folder: str) -> tuple[TextSource, ...]:
    """Every *.md file under `folder` (recursively), sorted by relative path; empty files skipped.
    Paths are shown relative to the working folder; InputError for the first bad one."""
    if not os.path.isdir(folder):
        raise InputError(Pos(display_path(folder)), "not a folder")
    note_folder(folder, f"the knowledge base {display_path(folder)}", suffixes=(".md",), recursive=True)
    paths = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        paths += [os.path.join(here, name) for name in files if name.endswith(".md")]
    sources = []
    for path in sorted(paths, key=lambda p: os.path.relpath(p, folder).replace(os.sep, "/")):
        shown = display_path(path)
        data = read_bytes(path, display=shown)
        if data.strip():
            sources.append(TextSource(shown, decode_text(data, shown)))
    return tuple(sources)
