"""Fingerprints: the SHA-256 every secret finding prints, which `lint: secrets: allow:` entries name
(findings.py applies them), and the fingerprints no entry may name.

A fingerprint hashes the exact text a finding matched, in the view it was found in: the whole
token, the whole private-key block (header through END line), the whole assignment. A shape's
constant part alone (a vendor prefix such as `ghp_`, a private-key header such as
`-----BEGIN RSA PRIVATE KEY-----`) is the text of no finding: an entry naming its fingerprint
would allow nothing, but reads as allowing every key that starts so, and before round 4 it did
(a key's fingerprint was its header's). lint.config refuses such an entry, saying why.
"""

from __future__ import annotations

import functools
import hashlib


def fingerprint(text: str) -> str:
    """The SHA-256 (64 lowercase hex digits) of the exact text a finding matched."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@functools.cache
def constant_parts() -> dict[str, str]:
    """fingerprint -> the constant text it is the fingerprint of: every token shape's constant
    parts (tokens.TokenShape.constants: vendor prefixes, private-key headers and footers)."""
    from corpustools.lint.secrets.tokens import SHAPES  # the shapes, only when an allow-list is read

    return {fingerprint(text): text for shape in SHAPES for text in shape.constants}
