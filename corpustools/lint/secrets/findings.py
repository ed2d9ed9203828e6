"""What every secret rule found, computed once per run: each finder over every view of every file
(scan.scan), each finding with its fingerprint, and the corpus's allow-list applied.

A fingerprint is the SHA-256 of the exact text a finding matched (in the view it was found in),
printed at the end of the finding's message (fingerprints.py). `lint: secrets: allow:` in corpus.yaml lists
fingerprints, each with the file it is allowed in and a reason (corpustools.lint.config); a finding
whose file and fingerprint an entry names is not reported, and an entry no finding used is
CT509's. Nothing else can silence a secret rule.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from corpustools.io.positions import Pos, Problem
from corpustools.lint.cache import CachedFinding, file_key
from corpustools.lint.context import CacheKey
from corpustools.lint.secrets.addresses import HINT as ADDRESS_HINT
from corpustools.lint.secrets.addresses import find_ip_addresses
from corpustools.lint.secrets.assignments import HINT as ASSIGNMENT_HINT
from corpustools.lint.secrets.assignments import find_assignments
from corpustools.lint.secrets.contact import EMAIL_HINT, PHONE_HINT, find_emails, find_phones
from corpustools.lint.secrets.fingerprints import fingerprint
from corpustools.lint.secrets.hints import Hint
from corpustools.lint.secrets.hosts import HOST_HINT, URL_HINT, find_credential_urls, find_hosts
from corpustools.lint.secrets.quoted import SecretValues, ValueKey, value_keys
from corpustools.lint.secrets.scan import LineFinder, Located, read_files, scan, scan_files, viewed
from corpustools.lint.secrets.tokens import HINT as TOKEN_HINT
from corpustools.lint.secrets.tokens import find_tokens

# code -> (finder, hint): the rules CT501-CT507, each a module that reports its code's findings.
FINDERS: Mapping[str, tuple[LineFinder, Hint | None]] = {
    "CT501": (find_tokens, TOKEN_HINT),
    "CT502": (find_assignments, ASSIGNMENT_HINT),
    "CT503": (find_credential_urls, URL_HINT),
    "CT504": (find_hosts, HOST_HINT),
    "CT505": (find_ip_addresses, ADDRESS_HINT),
    "CT506": (find_emails, EMAIL_HINT),
    "CT507": (find_phones, PHONE_HINT),
}


@dataclass(frozen=True)
class SecretFinding:
    code: str
    pos: Pos
    message: str  # the finder's message, without the fingerprint
    relative: str  # the file's path relative to the corpus root, POSIX
    fingerprint: str
    values: tuple[ValueKey, ...]  # the keys of the secret value a finder found by its context (quoted.py)

    def problem(self) -> Problem:
        return Problem(self.pos, f"{self.message}; fingerprint {self.fingerprint}")


def _relative(root: str, path: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def _found(root: str, code: str, located: Located) -> SecretFinding:
    return SecretFinding(code, located.pos, located.message, _relative(root, located.pos.path),
                         fingerprint(located.text), value_keys(located.value))


def _all(ctx) -> tuple[SecretFinding, ...]:
    """Every finder over every file (scan.scan). With lint's cache (ctx.file_cache), a file seen
    last time with the same path and text is not viewed nor scanned again: its findings are the
    cached ones (code, position, message, fingerprint, value keys; corpustools.lint.cache), and what a file
    scanned now holds is noted for the next run."""
    root = ctx.corpus.root
    cache = ctx.file_cache
    if cache is None:
        return tuple(_found(root, code, located) for code, located in scan(ctx, FINDERS))
    found: list[SecretFinding] = []
    keys = {}
    for file in read_files(ctx):
        relative = _relative(root, file.path)
        key = file_key(relative, file.text)
        cached = cache.findings(key)
        if cached is None:
            keys[file.path] = key
            continue
        found += (SecretFinding(code, Pos(file.path, line, col), message, relative, print_, values)
                  for code, line, col, message, print_, values in cached)
    fresh: dict[str, list[CachedFinding]] = {path: [] for path in keys}
    for code, located in scan_files([viewed(file) for file in read_files(ctx) if file.path in keys], FINDERS):
        finding = _found(root, code, located)
        found.append(finding)
        fresh[located.pos.path].append((code, finding.pos.line, finding.pos.col, finding.message, finding.fingerprint,
                                        finding.values))
    for path, key in keys.items():
        cache.note(key, tuple(fresh[path]))
    return tuple(found)


FINDINGS: CacheKey[tuple[SecretFinding, ...]] = CacheKey("secrets.findings")


def secret_findings(ctx) -> tuple[SecretFinding, ...]:
    """Every finding of CT501-CT507, allowed or not."""
    return ctx.cached(FINDINGS, _all)


VALUES: CacheKey[SecretValues] = CacheKey("secrets.values")


def secret_values(ctx) -> SecretValues:
    """The key of every secret value the scan found by its context, allowed or not (an allowed
    one is still a password: no other rule's message shows it)."""
    return ctx.cached(VALUES, lambda ctx: SecretValues.of(key for finding in secret_findings(ctx)
                                                          for key in finding.values))


def is_allowed(ctx, finding: SecretFinding) -> bool:
    return any(entry.file in (None, finding.relative) and entry.fingerprint == finding.fingerprint
               for entry in ctx.secret_allow)


def secret_problems(ctx, code: str) -> Iterator[Problem]:
    """What rule `code` reports: its findings that no `lint: secrets: allow:` entry allows."""
    for finding in secret_findings(ctx):
        if finding.code == code and not is_allowed(ctx, finding):
            yield finding.problem()
