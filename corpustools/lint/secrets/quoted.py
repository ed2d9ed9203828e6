"""A secret value the scan found by its context, masked wherever a lint message quotes it.

CT502 finds `password = "Tq7vLm2pXz9wKr4s"` by its key, and CT503 a URL's password by the URL
around it. Alone, with no `password =` beside it, such a value is a random-looking word no shape of
redaction.py knows: a term rule quoting a sidecar's term (`term 'Tq7vLm2pXz9wKr4s' is not
lowercase`) would show it. So each such finding keeps its value's key (unless the value is one
plain word, see value_key), and the engine masks, in
every message, each span whose text is a known value (lint/engine.redacted_messages) — the same
masking on a run with the cache as without it, since the cache holds the keys.

A value is known by its key, never its text: the first characters the finding's own message
already shows (scan.redact's prefix), lowercased; its length; and the sha256 of the whole value,
lowercased (a rule may quote a term lowercased). A span is masked when it is the value in any
case, not glued to a letter or digit on either side (`Tq7vLm2pXz9wKr4s.` is masked, `cache` inside
`cachetag` is not the password `cache`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple


class ValueKey(NamedTuple):
    """What identifies a secret value without holding it (see the module docstring); a tuple, as
    lint's cache writes it."""

    probe: str  # the value's first characters, as redact() shows them, lowercased
    length: int
    digest: str  # sha256 of the value lowercased


def _folded(text: str) -> str:
    """`text` lowercased, or itself when lowercasing would change its length (a rare letter such
    as `İ`): positions in it must stay positions in `text`."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def value_key(value: str) -> ValueKey | None:
    """The key of a secret value, or None for one no message can be told to quote: an empty value,
    or one plain word (`password: drupal`, a weak password of a test site), which masking would cut
    out of every message that names the word for what it is (`host name `drupal.org``). A value
    that looks generated (letters with digits, mixed case with a symbol) or a phrase of words is
    masked: no message says those but by quoting the secret."""
    from corpustools.lint.secrets.assignments import looks_generated  # see below
    from corpustools.lint.secrets.scan import redact  # the scan's modules are not on the replay's path (cache.py)
    if not looks_generated(value) and len(value.split()) < 2:
        return None
    folded = _folded(value)
    return ValueKey(redact(folded)[:-1], len(value), _digest(folded))


def is_value_key(probe: object, length: object, digest: object) -> bool:
    """Whether the three parts could be a ValueKey as value_key makes one (for a cache entry read back)."""
    return (isinstance(probe, str) and type(length) is int and length > 0 and len(probe) == min(4, length // 2)
            and isinstance(digest, str) and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest))


def _glued(text: str, left: int, right: int) -> bool:
    """Whether text[left] and text[right] are both letters or digits (a span ending between them
    would cut a word)."""
    return 0 <= left and right < len(text) and text[left].isalnum() and text[right].isalnum()


def _starts(text: str, probe: str) -> Iterator[int]:
    """Where `probe` (lowercase) starts in `text`, in any case."""
    folded = text.lower()
    if len(folded) != len(text):  # a letter whose lowercase is longer: positions would shift
        yield from (i for i in range(len(text)) if text[i:i + len(probe)].lower() == probe)
        return
    start = folded.find(probe)
    while start >= 0:
        yield start
        start = folded.find(probe, start + 1)


@dataclass(frozen=True)
class SecretValues:
    """The keys of every secret value a run's scan found, by probe, to mask them in messages."""

    by_probe: dict[str, tuple[ValueKey, ...]]

    @classmethod
    def of(cls, keys: Iterable[ValueKey | None]) -> SecretValues:
        by_probe: dict[str, set[ValueKey]] = {}
        for key in keys:
            if key is not None:
                by_probe.setdefault(key.probe, set()).add(key)
        return cls({probe: tuple(sorted(found, key=lambda k: -k.length)) for probe, found in sorted(by_probe.items())})

    def __bool__(self) -> bool:
        return bool(self.by_probe)

    def _spans(self, text: str) -> list[tuple[int, int]]:
        found = []
        for probe, keys in self.by_probe.items():
            for start in _starts(text, probe):
                for key in keys:  # the longest value first: a span is masked once
                    end = start + key.length
                    if (end <= len(text) and not _glued(text, start - 1, start) and not _glued(text, end - 1, end)
                            and _digest(_folded(text[start:end])) == key.digest):
                        found.append((start, end))
                        break
        return sorted(found)

    def mask(self, text: str) -> str:
        """`text` with every span that is one of the values cut as redaction cuts a secret
        (scan.redact); `text` itself when it quotes none."""
        if not self.by_probe:
            return text
        spans = self._spans(text)
        if not spans:
            return text
        from corpustools.lint.secrets.scan import redact  # see value_key
        parts, pos = [], 0
        for start, end in spans:
            if start < pos:  # inside a span already cut
                continue
            parts += [text[pos:start], redact(text[start:end])]
            pos = end
        parts.append(text[pos:])
        return "".join(parts)


NO_VALUES = SecretValues({})
