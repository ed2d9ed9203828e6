"""The secret scan could not read a corpus file in full.

What: every file under the corpus folder is read by the secret scan byte for byte, leniently: a
BOM (UTF-8, UTF-16 or UTF-32, which decide the encoding), CRLF or CR line endings and NULs do not
stop it. A file or folder it still could not read in full is reported once, naming why: a file or
folder that is unreadable or cannot be listed, a symbolic link (a file or a folder such as a linked
`gold/`; never followed), not a regular file (a FIFO, or a folder named like a fixture file), over
the 8 MiB size cap (the first 8 MiB are scanned), bytes that are not UTF-8 or not the UTF-16/32 its
BOM announces (reported at the first one; they were replaced and the rest scanned), or a BOM whose
byte order contradicts the text (UTF-16 text behind the other order's mark: the text is scanned
in the order it reads in). A binary file has no place in a corpus folder: keep images and archives
outside it.

Why: CT001/CT002 say such a file is malformed, and they can be suppressed; the secret rules
cannot, and CT508 cannot be allowed either (`lint: secrets: allow:` takes findings, not files). A secret in a file the scan skipped would pass silently, so a file the scan could not see
whole is itself an error that nothing can suppress.

Example:

    [USER]: caf\\xe9 (a Latin-1 byte in a UTF-8 file)

    sessions/admit-gotcha-01.md:7:12: CT508 [error] the secret scan could not read this file in full: byte 0xe9 is not UTF-8; undecodable bytes were replaced and the rest scanned

Save the file as UTF-8 (and as a regular file inside the corpus).
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.lint.secrets.scan import unread_files

CODE = "CT508"
NAME = "secret-scan-incomplete"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = False
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    for unread in unread_files(ctx):
        yield Problem(unread.pos, f"the secret scan could not read this file in full: {unread.reason}")
