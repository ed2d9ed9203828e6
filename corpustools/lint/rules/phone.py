"""A phone number.

What: international numbers (`+44 20 7946 0958`, `+1 (555) 123-4567`, `+4930123456`), North
American forms (`(555) 123-4567`, `555-123-4567`, `555.123.4567`, `555 123 4567`,
`1-555-123-4567`) and spaced national forms with a trunk zero and 10-12 digits
(`020 7946 0958`, `030 1234567`, `01 23 45 67 89`). Ticket ids (`FERN-312`), dates
(`2026-02-17`, `01-02-2026`), times (`09:30`), timestamps, UUIDs, version numbers, port numbers
(`:8080`) and line numbers (`Branch.php:123`) are not: they have letters, too few digits, or the
wrong separators; nor is a number a word before names as a reference, order, invoice, ticket,
case, claim, tracking, serial, account or similar number (`Your reference number is 0042 7781
2290`, `Case number 01 23 45 67 89`). The message shows the first characters only.

Why: phone numbers are personal data; the authoring rules forbid inventing them, and a
realistic fake one cannot be told from a real one. Secret rules can never be suppressed.

Example:

    [USER]: If the import fails, call the branch desk on 020 7946 0958.

    sessions/reject-noise-01.md:6:54: CT507 [error] phone number `020 …`; fingerprint 17ecf2f53832da40de4095dbd8f291eb87de5ee35c424020b2309de6a94fc7e0
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.lint.secrets.findings import secret_problems

CODE = "CT507"
NAME = "phone"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = False
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from secret_problems(ctx, CODE)
