"""What every rule is given: the loaded corpus, the optional prompt and knowledge base, and a
per-run cache for analyses several rules share (normalized turns, sentence skeletons)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from corpustools.lint.cache import CorpusCache
from corpustools.lint.config import PointIgnore, SecretAllow
from corpustools.model.corpus import Corpus
from corpustools.model.prompt import TextSource

T = TypeVar("T")


@dataclass(frozen=True)
class CacheKey(Generic[T]):
    """What one analysis several rules share is cached under, for a run; its type parameter is
    the type of the value, so `ctx.cached(KEY, build)` is checked: a module declares its keys as
    `SHAPES: CacheKey[dict[str, Shape]] = CacheKey("monotone.shapes")` (names are module-qualified)."""

    name: str


@dataclass
class IgnoreUse:
    """What the engine saw while it applied `lint: per_point_ignores:` (engine.kept_problems): the
    rules that ran, and for each entry (by its index) the codes it switched a finding off for.
    CT615 reads it, after every other rule ran, to report an entry that switched nothing off."""

    ran: set[str] = field(default_factory=set)
    used: dict[int, set[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class LintContext:
    corpus: Corpus
    prompt: TextSource | None = None  # --prompt / lint.prompt; CT703 is inactive without it
    kb: tuple[TextSource, ...] | None = None  # --kb / lint.kb (*.md under the folder); CT704 needs it
    provenance_record: str | None = None  # corpustools.provenance.corpus_record_path of the corpus
    secret_allow: tuple[SecretAllow, ...] = ()  # `lint: secrets: allow:` (corpustools.lint.secrets.findings)
    point_ignores: tuple[PointIgnore, ...] = ()  # `lint: per_point_ignores:` (applied by engine.kept_problems)
    ignore_use: IgnoreUse = field(default_factory=IgnoreUse, compare=False, repr=False)
    file_cache: CorpusCache | None = field(default=None, compare=False, repr=False)  # lint's cache (lint/cache.py)
    _cache: dict[tuple[CacheKey[Any], tuple[Hashable, ...]], Any] = field(default_factory=dict, compare=False,
                                                                          repr=False)

    def cached(self, key: CacheKey[T], factory: Callable[[LintContext], T], *params: Hashable) -> T:
        """`factory(self)` computed once per run for `key` and `params` (the options it depends on),
        and shared between rules (e.g. the skeleton index)."""
        slot = (key, params)
        if slot not in self._cache:
            self._cache[slot] = factory(self)
        return self._cache[slot]

