"""`corpustools render`: the prompt with one fixture's transcript in it, for a human to paste.

The transcript is the session body (frontmatter dropped), put in place of the literal line
`[TRANSCRIPT PLACEHOLDER, substituted at runtime]`. The replacement is a plain list splice, never a
regex or a format string, so `$1`, `\\g<0>` or `{}` in a transcript arrive exactly as written.
corpustools never sends the result anywhere: a person pastes it into a fresh model context.
"""

from __future__ import annotations

from corpustools.io.inputs import refuse_inputs_inside
from corpustools.io.writing import refuse_corpus_path, refuse_target, write_text

__all__ = ["Rendered", "render_all", "render_prompt", "rendered_prompts", "transcript"]

import os
from dataclasses import dataclass

from corpustools.io.errors import InputError
from corpustools.io.layout import SESSION_SUFFIX, SESSIONS_DIR
from corpustools.io.positions import Pos
from corpustools.io.suggest import closest
from corpustools.io.textfile import read_text
from corpustools.model.corpus import list_files, require_corpus, utf8_name
from corpustools.model.prompt import PLACEHOLDER, has_placeholder, no_placeholder, read_prompt
from corpustools.model.session import parse_session


def render_prompt(prompt_text: str, transcript: str, *, append: bool = False, prompt_path: str = "prompt") -> str:
    """The prompt with `transcript` on each placeholder line; appended after it when the prompt
    has none and `append` is set; InputError otherwise."""
    body = transcript.strip("\n")
    if has_placeholder(prompt_text):
        lines = [body if line.strip() == PLACEHOLDER else line for line in prompt_text.split("\n")]
        rendered = "\n".join(lines)
    elif append:
        rendered = prompt_text.rstrip("\n") + "\n\n" + body
    else:
        raise no_placeholder(prompt_path)
    return rendered if rendered.endswith("\n") else rendered + "\n"


def session_paths(corpus_root: str) -> dict[str, str]:
    found, _ = list_files(os.path.join(corpus_root, SESSIONS_DIR), SESSION_SUFFIX)
    return found


def transcript(corpus_root: str, fixture_id: str) -> str:
    """The body of `sessions/<fixture_id>.md`; InputError when there is none or it is unreadable."""
    require_corpus(corpus_root)
    fixture_id = utf8_name(fixture_id) or fixture_id  # an argument is decoded like the names it must match
    sessions = session_paths(corpus_root)
    path = sessions.get(fixture_id)
    if path is None:
        meant = closest(fixture_id, sessions)
        raise InputError(Pos(os.path.join(corpus_root, SESSIONS_DIR, fixture_id + SESSION_SUFFIX)),
                         "no such fixture session" + (f" (did you mean {meant}?)" if meant else ""))
    return parse_session(read_text(path), path, fixture_id).body


def rendered_prompts(corpus_root: str, prompt_path: str, *, append: bool = False,
                     prompt_text: str | None = None) -> tuple[dict[str, str], list[str]]:
    """(fixture id -> the prompt rendered with its transcript, by id; one line per session that
    could not be rendered): what `render --all` writes, for every session of the corpus.
    `prompt_text`: the prompt's text when already read (else read from `prompt_path`)."""
    require_corpus(corpus_root)
    if prompt_text is None:
        prompt_text = read_prompt(prompt_path, need_placeholder=not append)
    elif not append and not has_placeholder(prompt_text):
        raise no_placeholder(prompt_path)
    texts, errors = {}, []
    for fixture_id in sorted(session_paths(corpus_root)):
        try:
            texts[fixture_id] = render_prompt(prompt_text, transcript(corpus_root, fixture_id), append=append,
                                              prompt_path=prompt_path)
        except InputError as err:
            errors.append(str(err))
    return texts, errors


@dataclass(frozen=True)
class Rendered:
    written: tuple[str, ...]  # paths written, by fixture id
    errors: tuple[str, ...]  # one line per session that could not be rendered


def render_all(corpus_root: str, prompt_path: str, out_dir: str, *, append: bool, force: bool = False) -> Rendered:
    """Write `<out_dir>/<fixture_id>.md` for every session of the corpus. Every prompt is rendered
    (every input read) before anything is written: InputError, nothing written, when `out_dir`
    holds one of the files read (the prompt, the corpus) or is inside a corpus's own files."""
    require_corpus(corpus_root)
    refuse_corpus_path(out_dir, corpus_root)
    texts, errors = rendered_prompts(corpus_root, prompt_path, append=append)
    refuse_inputs_inside(out_dir)
    targets = {fixture_id: os.path.join(out_dir, fixture_id + ".md") for fixture_id in texts}
    refused = []
    for path in targets.values():  # a link or FIFO planted in DIR: refuse before writing anything
        try:
            refuse_target(path, force=force)
        except InputError as err:
            refused.append(str(err))
    if refused:
        return Rendered((), tuple(refused))
    for fixture_id, text in texts.items():
        write_text(targets[fixture_id], text, force=force)
    return Rendered(tuple(targets.values()), tuple(errors))
