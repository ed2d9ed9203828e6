"""An e-mail address.

What: `local@domain` where the domain ends in a real TLD or a private suffix (`.internal`,
`.local`, `.corp`, ...): `jane.doe@fernlibrary.org`, `ops+alerts@fern.internal`, `git@github.com`.
Addresses at domains reserved for documentation and testing are not personal data and are not
flagged: `user@example.com` (and `.net`, `.org`, subdomains), `desk@fern.example`, `a@b.test`,
`x@y.invalid`, `root@localhost` (RFC 2606, RFC 6761; the same names CT504 allows).
Service references (`@entity_type.manager`), npm scopes (`@babel/core`), `package@1.2.3`,
`icon@2x.png` and `user:password@host` inside a URL (that is CT503's) are not. The message shows
the first character of the local part and the domain.

Why: addresses are personal data and invite the model to copy contact details into extracted
knowledge; the authoring rules forbid inventing them. Name the role instead ("the outreach
team's inbox"). Secret rules can never be suppressed.

Example:

    [USER]: Send the export to maria.lopez@fernlibrary.org when it is done.

    sessions/admit-convention-02.md:12:28: CT506 [error] e-mail address `m…@fernlibrary.org`; fingerprint d62c88a02613ac4ce3fec2df06c0d0dd859ec7c8eaad176726ab477931f71867
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.lint.secrets.findings import secret_problems

CODE = "CT506"
NAME = "email"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = False
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from secret_problems(ctx, CODE)
