"""What every rule is given: the loaded corpus, the optional prompt and knowledge base, and a
per-run cache for analyses several rules share (normalized turns, sentence skeletons)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from corpustools.lint.config import SecretAllow
from corpustools.model.corpus import Corpus
from corpustools.model.prompt import TextSource


@dataclass(frozen=True)
class LintContext:
    corpus: Corpus
    prompt: TextSource | None = None  # --prompt / lint.prompt; CT703 is inactive without it
    kb: tuple[TextSource, ...] | None = None  # --kb / lint.kb (*.md under the folder); CT704 needs it
    provenance_record: str | None = None  # corpustools.provenance.corpus_record_path of the corpus
    secret_allow: tuple[SecretAllow, ...] = ()  # `lint: secrets: allow:` (corpustools.lint.secrets.findings)
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def cached(self, key: str, factory: Callable[[LintContext], Any]) -> Any:
        """Compute `factory(self)` once per run and share it between rules (e.g. skeleton index)."""
        if key not in self._cache:
            self._cache[key] = factory(self)
        return self._cache[key]

