"""The one redaction every lint diagnostic, path and error message passes through before it is
shown: a credential-shaped token CT501 would flag, a password in a URL (CT503) and a value assigned
to a secret-ish key (CT502) are cut to a short prefix and an ellipsis wherever they appear — in a
term quoted by CT601 or CT603, a file or folder name, a fixture id, a configuration error — and in
every view the scan reads (folded, unescaped, base64), so a disguised token is cut too."""

from __future__ import annotations

from corpustools.lint.secrets.assignments import HINT as ASSIGNMENT_HINT
from corpustools.lint.secrets.assignments import find_assignments
from corpustools.lint.secrets.fold import needs_folding
from corpustools.lint.secrets.hosts import URL_HINT, find_credential_urls
from corpustools.lint.secrets.scan import VIEW_HINT, cut, spans
from corpustools.lint.secrets.tokens import HINT as TOKEN_HINT
from corpustools.lint.secrets.tokens import find_tokens

_REDACTED = ((find_tokens, TOKEN_HINT), (find_credential_urls, URL_HINT), (find_assignments, ASSIGNMENT_HINT))


def could_hide_secret(text: str) -> bool:
    """Whether any finder or any view could find something in `text` (the quick test first)."""
    return bool(text) and (needs_folding(text) or VIEW_HINT.search(text) is not None
                           or any(hint(text)(0) >= 0 for _, hint in _REDACTED))


def redact_secrets(text: str) -> str:
    """`text` with every secret in it redacted (see the module docstring); `text` itself when it
    holds none."""
    if not could_hide_secret(text):
        return text
    found = sorted({span for finder, hint in _REDACTED for span in spans(text, finder, hint)})
    return cut(text, found) if found else text
