"""Where corpora are: the corpus a path belongs to (walking up), and every corpus below a folder
(walking down). `lint` turns its PATH arguments into corpora with these
(corpustools.lint.targets); `provenance verify` finds its record with them."""

from __future__ import annotations

import os

from corpustools.io.layout import is_corpus_folder

# Folders never searched for corpora: tool caches and virtual environments hold copies of
# packages (and their test fixtures) that are not this repository's corpora.
_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages", "venv", "build", "dist"})


# A folder holding corpus.yaml, or sessions/ and expected/: a corpus, perhaps one whose corpus.yaml
# is lost (lint reports that as CT003 rather than "no corpus here"). One definition, in io/layout:
# writing refuses the same folders' own files.
is_corpus_root = is_corpus_folder


def corpus_root_of(path: str) -> str | None:
    """The corpus a file or folder belongs to: the nearest corpus root at or above it (absolute),
    or None. `lint` lints that corpus for a path inside it, and walks up from the working folder."""
    folder = path if os.path.isdir(path) else os.path.dirname(path) or "."
    folder = os.path.abspath(folder)
    while True:
        if is_corpus_root(folder):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def discover_corpora(base: str) -> list[str]:
    """Every folder holding corpus.yaml under `base`, sorted; hidden folders and venvs are skipped."""
    found = []
    for folder, dirs, _files in os.walk(base):
        if is_corpus_root(folder):
            found.append(folder)
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS
                         and not os.path.isfile(os.path.join(folder, d, "pyvenv.cfg"))
                         and not os.path.islink(os.path.join(folder, d)))
    return sorted(os.path.normpath(f) for f in found)
