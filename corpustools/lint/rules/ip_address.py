"""An IPv4 or IPv6 address, private ranges included (not loopback or documentation addresses).

What: four dotted numbers that `ipaddress` accepts as IPv4 (`10.0.0.12`, `192.168.1.20/24`,
`8.8.4.4`), and colon-separated hex that it accepts as IPv6 (`fe80::1`, `fd00::1`,
`[2a00:1450:4009::200e]:8080`). Loopback addresses (`127.0.0.0/8`, `::1`) and the documentation
ranges (RFC 5737: `192.0.2.0/24`, `198.51.100.0/24`, `203.0.113.0/24`; RFC 3849: `2001:db8::/32`)
belong to no one's network and are not flagged. Versions (`10.3`, `8.1.2`, `v1.2.3.4`, `1.2.3.4.5`,
four dotted numbers after a word that names a version or an object identifier: `driver version
4.1.2.3`, `Firmware 2.1.0.4`, `build`, `release`, `OID 1.3.6.1`, or with a version's suffix:
`1.2.3.4-SNAPSHOT`),
invalid octets (`999.1.2.3`), times (`09:30:00`), MAC addresses, UUIDs, hex hashes and PHP's `::`
are not addresses.

Why: an address in a fixture is someone's network layout (private ranges included: they map an
internal network). Write "the database host" instead, and a version as `Drupal 10.3`, never four
dotted numbers. Secret rules can never be suppressed.

Example:

    [AGENT]: Redis answers on 10.20.0.7:6379 from the web container.

    sessions/admit-gotcha-02.md:11:27: CT505 [error] IPv4 address `10.20.0.7` (private range); fingerprint 7807bce7a73dcfaa4887df975a381657e52ecfc6e0abf121d8b8e53e837db75d
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.lint.secrets.findings import secret_problems

CODE = "CT505"
NAME = "ip-address"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = False
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from secret_problems(ctx, CODE)
