"""A URL carries a user and password (`scheme://user:password@host`).

What: any `scheme://user:password@host` (http, https, mysql, postgres, redis, amqp, ftp, ...) in
any corpus file, with a literal password. A password that is a reference or a mask
(`mysql://db:${DB_PASS}@db/site`, `https://user:****@host`) is not flagged. The message shows the
scheme and the first characters of the password only.

Why: connection strings are the commonest way real credentials end up pasted into a transcript,
and `mysql://drupal:drupal@...` looks real to every scanner. Secret rules can never be suppressed.

Example:

    [AGENT]: The settings use postgres://fern:Tr0ub4dor@db/fern for the replica.

    sessions/reject-noise-02.md:9:27: CT503 [error] postgres:// URL carries a password (`postgres://…:Tr0u…@…`); fingerprint 3922bfb5c792fd66fecc09c16e7ddacbc6ae504c5f71964449b997a475c91eac
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.lint.secrets.findings import secret_problems

CODE = "CT503"
NAME = "credential-url"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = False
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from secret_problems(ctx, CODE)
