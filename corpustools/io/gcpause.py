"""Keeping Python's cycle collector off the loaded corpus.

Loading and indexing a corpus allocate millions of small acyclic objects (strings, tuples, dicts);
every allocation burst triggers a collection that rescans everything already loaded, which at
10,000 fixtures cost lint and score several seconds for nothing. Reference counting frees all of
it, so pausing the collector while building, and freezing what was loaded, changes no result.
"""

from __future__ import annotations

import gc


class gc_paused:
    """Pause the cycle collector for the duration of a `with` block, then restore its state.

    A class, not a generator: an exception leaving the block passes through untouched (the
    project's frozen InputError cannot take the traceback a generator's throw() would set)."""

    def __enter__(self) -> None:
        self._enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info) -> None:
        if self._enabled:
            gc.enable()


def freeze_loaded() -> None:
    """Move everything allocated so far out of the collector's reach. A process-wide step that
    library code never takes: the `corpustools lint` command passes it to the engine as the hook
    to run once a corpus is loaded (a program importing corpustools keeps its collector as it is)."""
    gc.freeze()
