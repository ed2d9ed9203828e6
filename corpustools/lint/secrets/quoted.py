"""A secret value the scan found by its context, masked wherever a lint message quotes it.

CT502 finds `password = "Tq7vLm2pXz9wKr4s"` by its key, and CT503 a URL's password by the URL
around it. Alone, with no `password =` beside it, such a value is a random-looking word no shape of
redaction.py knows: a term rule quoting a sidecar's term (`term 'Tq7vLm2pXz9wKr4s' is not
lowercase`) would show it. So each such finding keeps its value's keys (unless the value is too
short or one plain word: is_maskable), and the engine masks, in every message, each span whose
text is a known value (lint/engine.merged_runs) — the same masking on a run with the cache
as without it, since the cache holds the keys, and over every corpus one lint reports.

A value is known by its keys, never its text: one for each form a message may quote it in (as
written, blanks collapsed, repr-escaped, normalized as terms are matched), each the first
characters the finding's own message already shows (scan.redact's prefix), lowercased; the form's
length; and the sha256 of the form, lowercased (a rule may quote a term lowercased). A span is
masked when it is a form in any case, not glued to a letter or digit on either side
(`Tq7vLm2pXz9wKr4s.` is masked, `Tq7vLm2pXz9wKr4sX` is another word), and so is a span a message
shortened with `...` that starts like a value (the value's first characters and four more).
"""

from __future__ import annotations

import hashlib
import json
import re
import string
import urllib.parse
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


SHORTEST = 6  # a shorter value (`v1`, `md5`) is text many a message says: a path, a version, a word
LONGEST_WORD = 12  # a plain word up to this long (`drupal`, `changeme`) is a word, not a generated value


def is_maskable(value: str) -> bool:
    """Whether another rule's message quoting `value` gives a secret away: a value of SHORTEST
    characters or more that is no plain word. A plain word (letters in one case or Title case, up
    to LONGEST_WORD: `password: drupal`, a weak password of a test site) is the word a host name,
    a term or a sentence says too, and masking it would cut it out of every message that names the
    word for what it is (`host name `drupal.org``), and so is one such word between punctuation
    (`-----BEGIN`, a key's header). Anything else is masked: a value with digits (all digits too),
    letters and symbols (`gravel-orbit-tundra`, `P@ssword!`), random letters (`ZmXkQpLrTwVb`,
    `qzxvkwpmtrhbnlfd`) and a phrase."""
    from corpustools.lint.secrets.assignments import looks_generated  # not on the replay's path (cache.py)

    if len(value) < SHORTEST or not any(c.isalnum() for c in value):
        return False
    if looks_generated(value) or len(value.split()) > 1 or value.isdigit():
        return True
    core = value.strip(string.punctuation)  # `-----BEGIN` is a header's word, `P@ssword!` no word
    word = core.isalpha() and (core.islower() or core.isupper() or core.istitle()) and len(core) <= LONGEST_WORD
    return not word


def _forms(value: str) -> list[str]:
    """The forms a rule's message may quote `value` in: as written, and as read (its JSON escapes or
    a URL's percent-encoding decoded); each with its blanks collapsed (labels.quoted),
    repr-escaped (a backslash or a quote doubled) and normalized as terms are matched
    (model/normalize: `write 'tq7v lm2p xz9wkr4s'`)."""
    from corpustools.model.normalize import normalize, normalize_words  # not on the replay's path (cache.py)

    decoded = [_json_unescaped(value), urllib.parse.unquote(value)]  # `\/`, `\u0040`; a URL's `%40`
    forms = []
    for written in (value, *decoded):
        collapsed = " ".join(written.split())
        forms += [written, collapsed, repr(collapsed)[1:-1], normalize(written), normalize_words(written)]
    return [form for n, form in enumerate(forms) if len(form) >= SHORTEST and form not in forms[:n]]


def _json_unescaped(value: str) -> str:
    """`value` with its JSON string escapes read (`\\/`, `\\u0040`), or itself when it has none or is no JSON string's text."""
    if "\\" not in value:
        return value
    try:
        read = json.loads(f'"{value}"')
    except ValueError:
        return value
    return read if isinstance(read, str) else value


def _key(form: str) -> ValueKey:
    keep = min(4, len(form) // 2)  # scan.redact's prefix: what the finding's own message shows
    return ValueKey(_folded(form[:keep]), len(form), _digest(_folded(form)))


def value_keys(value: str) -> tuple[ValueKey, ...]:
    """The keys of a secret value, one per form a message may quote it in (_forms); none for a
    value no message can be told to quote (is_maskable)."""
    if not is_maskable(value):
        return ()
    return tuple(_key(form) for form in _forms(value))


def is_value_key(probe: object, length: object, digest: object) -> bool:
    """Whether the three parts could be a ValueKey as value_keys makes one (for a cache entry read back)."""
    return (isinstance(probe, str) and type(length) is int and length >= SHORTEST and len(probe) == min(4, length // 2)
            and isinstance(digest, str) and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest))


def _glued(text: str, left: int, right: int) -> bool:
    """Whether text[left] and text[right] are both letters or digits (a span ending between them
    would cut a word)."""
    return 0 <= left and right < len(text) and text[left].isalnum() and text[right].isalnum()


def _starts(text: str, probe: str) -> Iterator[int]:
    """Where `probe` (folded: _folded) starts in `text`, in any case."""
    folded = text.lower()
    if len(folded) != len(text):  # a letter whose lowercase is longer: positions would shift
        yield from (i for i in range(len(text)) if _folded(text[i:i + len(probe)]) == probe)
        return
    start = folded.find(probe)
    while start >= 0:
        yield start
        start = folded.find(probe, start + 1)


# A value a message shortened (labels.quoted's `...`): the run of characters from where the value
# starts up to the dots. (`…` is redaction's own mark: `sk_test_…` is a vendor prefix shown on purpose.)
_CUT = re.compile(r"\S*?\.\.\.")


@dataclass(frozen=True)
class SecretValues:
    """The keys of every secret value a run's scan found, by probe, to mask them in messages."""

    by_probe: dict[str, tuple[ValueKey, ...]]

    @classmethod
    def of(cls, keys: Iterable[ValueKey]) -> SecretValues:
        by_probe: dict[str, set[ValueKey]] = {}
        for key in keys:
            by_probe.setdefault(key.probe, set()).add(key)
        return cls({probe: tuple(sorted(found, key=lambda k: -k.length)) for probe, found in sorted(by_probe.items())})

    @classmethod
    def union(cls, every: Iterable[SecretValues]) -> SecretValues:
        return cls.of(key for values in every for keys in values.by_probe.values() for key in keys)

    def __bool__(self) -> bool:
        return bool(self.by_probe)

    def _spans(self, text: str) -> list[tuple[int, int]]:
        found = []
        for probe, keys in self.by_probe.items():
            for start in _starts(text, probe):
                if _glued(text, start - 1, start):
                    continue
                digests: dict[int, str] = {}  # length -> digest of the span that long: one hash each
                for key in keys:  # the longest value first: a span is masked once
                    end = start + key.length
                    if end > len(text) or _glued(text, end - 1, end):
                        continue
                    if end not in digests:
                        digests[end] = _digest(_folded(text[start:end]))
                    if digests[end] == key.digest:
                        found.append((start, end))
                        break
                else:
                    cut = _CUT.match(text, start)
                    # shortened: as long as the probe and four more characters, and no longer than a value
                    if cut is not None and len(probe) + 4 <= len(cut.group().rstrip(".")) < keys[0].length:
                        found.append((start, cut.end()))
        return sorted(found)

    def mask(self, text: str) -> str:
        """`text` with every span that is one of the values cut as redaction cuts a secret
        (scan.redact); `text` itself when it quotes none."""
        if not self.by_probe:
            return text
        spans = self._spans(text)
        if not spans:
            return text
        from corpustools.lint.secrets.scan import cut  # the scan's modules are not on the replay's path (cache.py)
        return cut(text, spans)


NO_VALUES = SecretValues({})
