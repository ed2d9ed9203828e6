"""IPv4 and IPv6 addresses (CT505), validated with the standard `ipaddress` module.

IPv4 needs four dotted numbers (`10.3` and `8.1.2` are versions); a fifth part (`1.2.3.4.5`), a
letter next to it (`v1.2.3.4`), a word before it that names a version or an OID (`driver version
4.1.2.3`, `OID 1.3.6.1`) or a version's suffix (`1.2.3.4-SNAPSHOT`) makes it something else. IPv6 candidates need two colons and must
parse; `::` alone (a PHP or C++ scope operator), times (`09:30:00`), MAC addresses, UUIDs and hex
hashes never parse or never have the colons.
"""

from __future__ import annotations

import functools
import ipaddress
import re

from corpustools.lint.secrets.hints import LazyPattern, any_hint, regex_hint
from corpustools.lint.secrets.scan import Finding, anchored

# Bounded, and each `\d{1,3}` is followed by a dot that is outside its class: no backtracking.
_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?!\w|\.\d)")
# A colon within the first five characters, then a bounded run that nothing follows.
_IPV6 = re.compile(r"(?<![\w:.])[0-9A-Fa-f]{0,4}:[0-9A-Fa-f:.]{1,44}")
_IPV6_CHARS = frozenset("0123456789abcdefABCDEF:.")
# Literal-first hints the full patterns are matched from (see scan.anchored).
_HINT_IPV4 = re.compile(r"\.\d{1,3}\.\d{1,3}\.\d")
_HINT_IPV6 = re.compile(r":[0-9A-Fa-f]{0,4}:")
HINT = any_hint(regex_hint(_HINT_IPV4), regex_hint(_HINT_IPV6))
_DIGITS = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")


# Addresses that say nothing about anyone's network: documentation ranges (RFC 5737, RFC 3849).
DOCUMENTATION_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32"))


def is_reserved_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Loopback (127.0.0.0/8, ::1) or a documentation range: everyday development text."""
    return address.is_loopback or any(address.version == net.version and address in net
                                       for net in DOCUMENTATION_NETWORKS)


@functools.lru_cache(maxsize=4096)
def parse_address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None  # 999.1.1.1, 010.0.0.1, 09:30:00


@functools.lru_cache(maxsize=4096)
def describe_address(text: str) -> str | None:
    """`IPv4 address `10.0.0.1` (private range)`, or None when `text` is not an address or a
    reserved one (is_reserved_address)."""
    address = parse_address(text)
    if address is None or is_reserved_address(address):
        return None
    kind = " (private range)" if address.is_private else ""
    return f"IPv{address.version} address `{text}`{kind}"


# Four dotted numbers that a version or an object identifier has: after a word that says so
# (`driver version 4.1.2.3`, `Firmware 2.1.0.4`, `OID 1.3.6.1`), or with a version's suffix
# (`1.2.3.4-SNAPSHOT`, `1.2.3.4+build5`).
_VERSION_BEFORE = LazyPattern(r"(?:\b(?:version|ver|release|build|driver|firmware|bios|patch|revision|rev|oid|mib)"
                             r"|\bv)\.?[ \t]{0,3}[:=#]?[ \t]{0,3}$", re.IGNORECASE)
_VERSION_AFTER = LazyPattern(r"-[A-Za-z]|\+[A-Za-z0-9]")


def is_version(line: str, start: int, end: int) -> bool:
    """Whether the dotted numbers at line[start:end] are a version or an OID (see _VERSION_BEFORE)."""
    return (_VERSION_BEFORE.search(line, max(0, start - 24), start) is not None
            or _VERSION_AFTER.match(line, end) is not None)


def find_ip_addresses(line: str) -> list[Finding]:
    found = []
    for match in anchored(line, _HINT_IPV4, _IPV4, _DIGITS, 3):
        if is_version(line, match.start(), match.end()):
            continue
        message = describe_address(match.group())
        if message is not None:
            found.append(Finding(match.start(), message, match.end()))
    for match in anchored(line, _HINT_IPV6, _IPV6, _HEX, 4):
        end = match.end()
        if end < len(line) and (line[end] in _IPV6_CHARS or line[end].isalnum() or line[end] == "_"):
            continue  # longer than any address, or glued to a word
        candidate = match.group().rstrip(".")
        if candidate.count(":") < 2 or not any(c not in ":." for c in candidate):
            continue
        message = describe_address(candidate)
        if message is not None:
            found.append(Finding(match.start(), message, match.start() + len(candidate)))
    return found
