"""E-mail addresses (CT506) and phone numbers (CT507)."""

from __future__ import annotations

import functools
import re
import string

from corpustools.lint.secrets.hints import LazyPattern, any_hint, literal_hint, regex_hint
from corpustools.lint.secrets.hosts import in_spans, is_reserved_host, is_url_host, urls
from corpustools.lint.secrets.scan import ELLIPSIS, Finding, anchored, run_start

# The local part is maximal (lookbehind) and bounded; the domain's classes exclude the dot.
_EMAIL = re.compile(r"(?<![A-Za-z0-9._%+\-])([A-Za-z0-9._%+\-]{1,64})"
                    r"@([A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){0,20})")
_LOCAL_CHARS = frozenset(string.ascii_letters + string.digits + "._%+-")


@functools.lru_cache(maxsize=4096)
def is_mail_domain(domain: str) -> bool:
    """A domain an address could be delivered to: one that would be a host after `//` (a real TLD,
    or a private suffix such as `.internal`, `.local`; see hosts.is_url_host), unless it is
    reserved for documentation and testing (`example.com`, `*.example`, `*.test`, `localhost`;
    see hosts.is_reserved_host)."""
    return not is_reserved_host(domain) and is_url_host(domain)


def find_emails(line: str) -> list[Finding]:
    """CT506, found from each `@`. `user:password@host` inside a URL is CT503's, and
    `@service.id` has no local part."""
    if "@" not in line:
        return []
    spans = urls(line)
    found = []
    pos = 0
    while (at := line.find("@", pos)) >= 0:
        pos = at + 1
        start = run_start(line, at, _LOCAL_CHARS, 64)
        match = _EMAIL.match(line, start) if 0 <= start < at else None
        if match is None or match.end(1) != at or in_spans(at, spans):
            continue
        local, domain, end = match.group(1), match.group(2), match.end()
        if local.startswith(".") or local.endswith(".") or line[end:end + 1] == "_":
            continue
        if is_mail_domain(domain):
            found.append(Finding(match.start(), f"e-mail address `{local[0]}{ELLIPSIS}@{domain}`", end))
            pos = end
    return found


# International: `+CC` then digit groups joined by single separators (unambiguous groups), or
# `+` and 7-15 digits in one run. North American: (NNN) NNN-NNNN, NNN-NNN-NNNN, NNN.NNN.NNNN,
# NNN NNN NNNN. National with a trunk zero: 020 7946 0958, 030 1234567, 01 23 45 67 89.
_PHONE_INTERNATIONAL = re.compile(
    r"(?<![\w+])\+\d{1,3}(?:[ .\-]?\(\d{1,5}\))?(?:[ .\-]\d{1,8}){1,6}(?![\w\-]|[.:]\d)"
    r"|(?<![\w+])\+\d{7,15}(?![\w\-]|[.:]\d)")
_PHONE_NANP = re.compile(
    r"(?<![\w+/.:\-])(?:1[ .\-])?(?:\(\d{3}\)[ ]?\d{3}[ .\-]|\d{3}(?P<sep>[ .\-])\d{3}(?P=sep))\d{4}"
    r"(?![\w\-]|[.:]\d)")
_PHONE_NATIONAL = re.compile(r"(?<![\w+/.:,\-])0\d{1,4}(?:[ /\-]\d{2,8}){1,4}(?![\w\-]|[.:]\d)")


# Literal-first hints the full patterns are matched from (see scan.anchored).
_HINT_INTERNATIONAL = re.compile(r"\+\d")
# North American numbers have no literal to start from; the full pattern runs only on lines
# with three digits, a separator, three digits, a separator and four digits somewhere.
# (`\d\d\d`, not `\d{3}`: a pattern that starts with a class, not a repeat, lets re skip to the
# next digit at C speed; a third less time.)
_HINT_NANP_LINE = re.compile(r"\d\d\d[ .\-)]{1,2}\d{3}[ .\-]\d{4}")
_HINT_NATIONAL = re.compile(r"0\d{1,4}[ /\-]\d\d")
PHONE_HINT = any_hint(*map(regex_hint, (_HINT_INTERNATIONAL, _HINT_NANP_LINE, _HINT_NATIONAL)))
EMAIL_HINT = literal_hint(["@"])


def _digits(text: str) -> int:
    return sum(c.isdigit() for c in text)


def _phone(match: re.Match) -> Finding:
    return Finding(match.start(), f"phone number `{match.group()[:4]}{ELLIPSIS}`", match.end())


# A number that a word before it names as something else: a reference, order, invoice, ticket,
# case, claim, tracking, serial or account number (`Your reference number is 0042 7781 2290`,
# `Case number 01 23 45 67 89`).
_NUMBER_BEFORE = LazyPattern(
    r"\b(?:ref|reference|order|invoice|ticket|case|claim|tracking|serial|account|customer|policy|booking"
    r"|confirmation|transaction|sku|part|item|po|receipt|parcel|shipment|member|membership|licen[cs]e)\.?"
    r"(?:[ \t]{1,3}(?:number|no\.?|nr\.?|num|id|code|#))?(?:[ \t]{1,3}(?:is|was))?[ \t]{0,3}[:#=]?[ \t]{0,3}$",
    re.IGNORECASE)


def is_named_number(line: str, start: int) -> bool:
    """Whether a word before line[start] names the number there as a reference (_NUMBER_BEFORE)."""
    return _NUMBER_BEFORE.search(line, max(0, start - 40), start) is not None


def find_phones(line: str) -> list[Finding]:
    """CT507. Ticket ids (`FERN-312`), dates, times, versions, UUIDs, ports and line numbers have
    letters, too few digits or the wrong separators; reference, order and case numbers are named
    so by the words before them."""
    found = [_phone(m) for m in anchored(line, _HINT_INTERNATIONAL, _PHONE_INTERNATIONAL)
             if 8 <= _digits(m.group()) <= 15]
    if _HINT_NANP_LINE.search(line):
        found += [_phone(m) for m in _PHONE_NANP.finditer(line)]
    found += [_phone(m) for m in anchored(line, _HINT_NATIONAL, _PHONE_NATIONAL) if 10 <= _digits(m.group()) <= 12]
    return [finding for finding in found if not is_named_number(line, finding.start)]
