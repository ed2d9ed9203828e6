"""The names that make a folder a corpus on disk: corpus.yaml, and the sessions/, expected/ and
gold/ folders beside it. Defined here, below the corpus model, because writing must know them too:
it refuses to write into any corpus's own files (corpustools.io.writing)."""

import os
from collections.abc import Callable

SPEC_FILE = "corpus.yaml"
SESSIONS_DIR, SIDECARS_DIR, GOLD_DIR = "sessions", "expected", "gold"
SESSION_SUFFIX, SIDECAR_SUFFIX = ".md", ".yaml"
# Version control's own store: nothing in it is committed text. lint's secret scan never walks it,
# nor does its replay's digest of a corpus (corpustools.lint.replay).
VCS_FOLDERS = frozenset({".git"})


def is_corpus_folder(folder: str, *, lexists: Callable[[str], bool] = os.path.lexists,
                     isdir: Callable[[str], bool] = os.path.isdir) -> bool:
    """A folder holding corpus.yaml (whatever it is: a link or a folder named so is a broken
    corpus, still a corpus), or sessions/ and expected/ (a corpus whose corpus.yaml is lost): what
    lint lints as a corpus, and what no command writes into. `lexists` and `isdir` ask another
    tree than the disk (git's index: corpustools.lint.staged)."""
    if lexists(os.path.join(folder, SPEC_FILE)):
        return True
    return all(isdir(os.path.join(folder, sub)) for sub in (SESSIONS_DIR, SIDECARS_DIR))
