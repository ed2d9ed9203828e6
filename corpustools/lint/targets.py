"""Which corpora `corpustools lint PATH...` lints, and which of their files it reports.

Corpus-wide rules (duplicates, counts, templates) need every fixture, so a PATH inside a corpus
lints that whole corpus; only the report is narrowed to the PATH."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from corpustools.io.errors import ConfigError
from corpustools.io.layout import SPEC_FILE
from corpustools.io.positions import Pos
from corpustools.model.locate import corpus_root_of, discover_corpora


@dataclass(frozen=True)
class Target:
    """One corpus to lint; `only` restricts the report to these files/folders (None: everything)."""

    root: str
    only: tuple[str, ...] | None = None


def resolve_targets(paths: list[str], cwd: str = ".", *, skip_outside: bool = False,
                    whole_corpus: bool = False, staged: Iterable[str] | None = None) -> list[Target]:
    """What `corpustools lint PATH...` lints: each corpus once, sorted. A bad PATH is a ConfigError
    (usage, exit 2).

    No PATH: the corpus the working folder is in (walking up), else every corpus below it. A PATH
    inside a corpus lints that whole corpus (corpus-wide rules need every fixture) and reports only
    what is under PATH, or the whole corpus with `whole_corpus`. With `skip_outside`, a PATH neither
    in nor holding a corpus is skipped instead of an error. The pre-commit hook asks for both: it
    passes every changed file its pattern matches, and an error anywhere in a corpus it touched counts.

    `staged` (the hook's --staged: the corpora holding a staged change, absolute; see
    corpustools.lint.staged): each is linted whole as well, and no PATH means no other corpus
    (never the working folder's)."""
    whole: set[str] = set(staged) if staged is not None else set()
    if not paths and staged is not None:
        return [Target(root) for root in sorted(whole)]
    if not paths:
        enclosing = corpus_root_of(cwd)
        if enclosing is not None:
            return [Target(enclosing)]
        roots = discover_corpora(cwd)
        if not roots:
            raise ConfigError(Pos(""), f"no corpus (a folder holding {SPEC_FILE}) found in, above "
                              f"or below {os.path.abspath(cwd)}")
        return [Target(root) for root in roots]
    parts: dict[str, set[str]] = {}
    for path in paths:
        if not os.path.exists(path):
            raise ConfigError(Pos(""), f"{path}: no such file or folder")
        root = corpus_root_of(path)
        if root is None:
            below = discover_corpora(path) if os.path.isdir(path) else []
            if not below and skip_outside:
                continue
            if not below:
                raise ConfigError(Pos(""), f"{path}: not a corpus and not inside one (no {SPEC_FILE} found)")
            whole.update(os.path.abspath(r) for r in below)
        elif whole_corpus or os.path.samefile(root, path):
            whole.add(root)
        else:
            parts.setdefault(root, set()).add(os.path.abspath(path))
    targets = {root: Target(root) for root in whole}
    for root, only in parts.items():
        if root not in whole:
            targets[root] = Target(root, tuple(sorted(only)))
    return [targets[root] for root in sorted(targets)]


def within(path: str, only: tuple[str, ...]) -> bool:
    """Whether `path` is one of the Target's `only` paths or under one of them."""
    absolute = os.path.abspath(path)
    return any(absolute == o or absolute.startswith(o.rstrip(os.sep) + os.sep) for o in only)
