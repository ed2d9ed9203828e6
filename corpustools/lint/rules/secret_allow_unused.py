"""An entry of `lint: secrets: allow:` in corpus.yaml allows nothing.

What: each entry of `lint: secrets: allow:` names a file and the fingerprint (SHA-256 of the exact
matched text) that a secret finding (CT501-CT507) printed there. An entry that no finding of this
run matches (the text was changed or removed, the file renamed, or the fingerprint was copied from
another file) is reported at the entry.

Why: an allow-list entry that allows nothing is stale: it documents an exception that no longer
exists, and it would silently allow the same text if it came back. Delete it.

Example:

    lint:
      secrets:
        allow:
          - file: sessions/admit-tooling-01.md
            fingerprint: 5a1f0e9b3c2d4e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7
            reason: a branch name, not a key

    corpus.yaml:4:13: CT509 [warning] lint.secrets.allow: no finding in sessions/admit-tooling-01.md has fingerprint 5a1f0e9b3c2d…; delete this entry
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.lint.secrets.findings import secret_findings

CODE = "CT509"
NAME = "secret-allow-unused"
SEVERITY = Severity.WARNING
OPTIONS = ()
SUPPRESSIBLE = False
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    found = secret_findings(ctx)
    used = {(finding.relative, finding.fingerprint) for finding in found}
    used_anywhere = {finding.fingerprint for finding in found}
    for entry in ctx.secret_allow:
        if entry.file is None and entry.fingerprint not in used_anywhere:
            yield Problem(entry.pos, f"lint.secrets.allow: no finding in this corpus has fingerprint "
                                     f"{entry.fingerprint[:12]}…; delete this entry")
        elif entry.file is not None and (entry.file, entry.fingerprint) not in used:
            yield Problem(entry.pos, f"lint.secrets.allow: no finding in {entry.file} has fingerprint "
                                     f"{entry.fingerprint[:12]}…; delete this entry")
