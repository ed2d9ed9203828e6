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

from corpustools.io.positions import Problem
from corpustools.lint.cache import file_key
from corpustools.lint.context import CacheKey
from corpustools.lint.secrets.addresses import HINT as ADDRESS_HINT
from corpustools.lint.secrets.addresses import find_ip_addresses
from corpustools.lint.secrets.assignments import HINT as ASSIGNMENT_HINT
from corpustools.lint.secrets.assignments import find_assignments
from corpustools.lint.secrets.contact import EMAIL_HINT, PHONE_HINT, find_emails, find_phones
from corpustools.lint.secrets.fingerprints import fingerprint
from corpustools.lint.secrets.hints import Hint
from corpustools.lint.secrets.hosts import HOST_HINT, URL_HINT, find_credential_urls, find_hosts
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
    found: Located
    relative: str  # the file's path relative to the corpus root, POSIX
    fingerprint: str

    def problem(self) -> Problem:
        return Problem(self.found.pos, f"{self.found.message}; fingerprint {self.fingerprint}")


def _relative(root: str, path: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def _all(ctx) -> tuple[SecretFinding, ...]:
    root = ctx.corpus.root
    return tuple(SecretFinding(code, located, _relative(root, located.pos.path), fingerprint(located.text))
                 for code, located in _scanned(ctx))


def _scanned(ctx) -> Iterator[tuple[str, Located]]:
    """Every finder over every file (scan.scan); with lint's cache (ctx.file_cache), a file it
    found clean last time, same path and text, is not viewed nor scanned again, and a file found
    clean now is noted (corpustools.lint.cache)."""
    cache = ctx.file_cache
    if cache is None:
        yield from scan(ctx, FINDERS)
        return
    root = ctx.corpus.root
    keys = {}
    for file in read_files(ctx):
        key = file_key(_relative(root, file.path), file.text)
        if not cache.is_clean(key):
            keys[file.path] = key
    found = set()
    for code, located in scan_files([viewed(file) for file in read_files(ctx) if file.path in keys], FINDERS):
        found.add(located.pos.path)
        yield code, located
    for path, key in keys.items():
        if path not in found:
            cache.note_clean(key)


FINDINGS: CacheKey[tuple[SecretFinding, ...]] = CacheKey("secrets.findings")


def secret_findings(ctx) -> tuple[SecretFinding, ...]:
    """Every finding of CT501-CT507, allowed or not."""
    return ctx.cached(FINDINGS, _all)


def is_allowed(ctx, finding: SecretFinding) -> bool:
    return any(entry.file in (None, finding.relative) and entry.fingerprint == finding.fingerprint
               for entry in ctx.secret_allow)


def secret_problems(ctx, code: str) -> Iterator[Problem]:
    """What rule `code` reports: its findings that no `lint: secrets: allow:` entry allows."""
    for finding in secret_findings(ctx):
        if finding.code == code and not is_allowed(ctx, finding):
            yield finding.problem()
