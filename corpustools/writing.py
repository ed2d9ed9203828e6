"""Where and how corpustools writes: anywhere the user names, except into a corpus's own files.

A corpus is defined by corpus.yaml, sessions/, expected/ (and its gold/ outputs); a report, a
history table or a runs/ folder beside them is the user's business, but no command may ever
overwrite or add to the files that make up the corpus.
"""

from __future__ import annotations

import os

from corpustools.corpus import GOLD_DIR, SESSIONS_DIR, SIDECARS_DIR
from corpustools.positions import InputError, Pos
from corpustools.spec import SPEC_FILE

PROTECTED = (SPEC_FILE, SESSIONS_DIR, SIDECARS_DIR, GOLD_DIR)


def refuse_corpus_path(path: str, corpus_root: str) -> None:
    """Raise InputError if writing `path` would touch a file that defines the corpus."""
    target = os.path.realpath(path)
    root = os.path.realpath(corpus_root)
    for name in PROTECTED:
        protected = os.path.join(root, name)
        if target == protected or target.startswith(protected + os.sep):
            raise InputError(Pos(path), f"is inside the corpus's own files ({name}); corpustools never writes there")


def emit(text: str, output: str | None, corpus_root: str, out) -> None:
    """A report goes to `output` (never inside the corpus's own files), or to `out` when none."""
    if output:
        refuse_corpus_path(output, corpus_root)
        write_text(output, text)
    else:
        out.write(text)


def write_text(path: str, text: str) -> None:
    """Write a whole text file (LF line endings, UTF-8); an unwritable path is an InputError.

    The text is encoded before the file is opened, so text that is not valid Unicode (a file
    name or argument that was not UTF-8) leaves an existing file untouched."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InputError(Pos(path), f"not written: the text holds {err.object[err.start]!r}, which is not valid "
                                    "Unicode (a file name or argument that is not UTF-8?)") from None
    try:
        parent = os.path.dirname(path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
    except OSError as err:
        raise InputError(Pos(path), f"cannot write: {err.strerror or err}") from None
