"""URLs, credentials in URLs, and host names (CT503, CT504).

A URL is `scheme://...` with a network scheme (Drupal stream wrappers such as `public://` and
`private://` name files, not hosts). A bare dotted token is a host name only when it looks like one;
see `is_bare_host` for the heuristic.
"""

from __future__ import annotations

import bisect
import functools
import re
import string
from dataclasses import dataclass

from corpustools.lint.secrets.addresses import is_reserved_address, parse_address
from corpustools.lint.secrets.hints import any_hint, literal_hint, regex_hint
from corpustools.lint.secrets.markup import MARKUP
from corpustools.lint.secrets.scan import Finding, reads_views, redact, run_start
from corpustools.lint.secrets.tlds import (
    COUNTRY_CODES,
    DEV_HOST_DOMAINS,
    FILE_EXTENSIONS,
    GENERIC_SECOND_LEVEL,
    PRIVATE_SUFFIXES,
    STRONG,
    TLDS,
    WORDLIKE,
)
from corpustools.lint.secrets.values import is_reference

# The scheme is maximal (the lookbehind), the rest a bounded run that nothing follows: linear.
# Found from its `://` (see scan.run_start).
_URL = re.compile(r"(?<![A-Za-z0-9+.\-])([A-Za-z][A-Za-z0-9+.\-]{0,30})://([^\s<>\"'`]{0,2048})")
_SCHEME_CHARS = frozenset(string.ascii_letters + string.digits + "+.-")
# A dotted token: labels of word characters and hyphens. The classes exclude the dot, so the
# match never backtracks across labels.
_DOTTED = re.compile(r"(?<![\w.\-])[\w\-]+(?:\.[\w\-]+)+")
_INNER_DOT = re.compile(r"\.(?=[\w\-])")
_TOKEN_REST = re.compile(r"[\w.\-]*")
_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "_.-")
MAX_HOST = 253
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?")
_HOST_CHARS = re.compile(r"[A-Za-z0-9.\-_~%]*")
URL_HINT = literal_hint(["://"])
HOST_HINT = any_hint(URL_HINT, regex_hint(_INNER_DOT))
# Names reserved for testing and documentation (RFC 2606, RFC 6761): they point at no one's system.
RESERVED_TLDS = frozenset({"localhost", "test", "example", "invalid"})
RESERVED_DOMAINS = ("example.com", "example.net", "example.org")

# Schemes that name local files or in-process resources, not network hosts.
LOCAL_SCHEMES = frozenset({"file", "public", "private", "temporary", "module", "theme", "profile",
                           "library", "vfs", "php", "phar", "data", "glob", "zlib", "compress.zlib",
                           "compress.bzip2", "blob", "about", "javascript", "internal", "entity",
                           "base", "route"})

# Labels that mark a dotted token as a code identifier, not a host: Drupal config and service
# vocabulary (`system.site`, `language.entity.fr`), file roles and common object names.
CODE_WORDS = frozenset("""
system core config settings setting entity entities field fields node nodes user users views
view block blocks image style theme themes module modules services service routing route routes
links link menu menus task tasks action actions libraries library permissions permission schema
storage type types manager factory handler handlers plugin plugins cache logger channel language
locale filter format editor search page pages contact form forms taxonomy vocabulary term
comment media file files path alias event events kernel html twig yml yaml json php info install
test tests src lib js css xml dist ini conf txt sql bak orig self this object window document
console drupal drupalsettings params props state data item items row rows content label value
values target request response session env process os sys math migrate migration pathauto
pattern webform rest resource access check default defaults parent child models model controller
hook hooks update batch queue cron author owner account profile prototype
""".split())

# Characters that, right before a dotted token, make it part of a path (`config/sync/x.yml`), a
# namespace, a service reference (`@cache.default`), a variable or a parameter (`%kernel.secret%`).
_CODE_PREFIXES = frozenset("/\\@$%")
_CODE_SUFFIXES = frozenset("(\\")


@dataclass(frozen=True)
class Url:
    start: int
    end: int
    scheme: str
    userinfo: str | None
    host: str

    @property
    def is_network(self) -> bool:
        return self.scheme.lower() not in LOCAL_SCHEMES and bool(self.host)


def urls(line: str) -> list[Url]:
    """Every `scheme://...` in `line`, in order, with its userinfo and host parsed out."""
    found: list[Url] = []
    pos = 0
    while (sep := line.find("://", pos)) >= 0:
        pos = sep + 3
        start = run_start(line, sep, _SCHEME_CHARS, 31)
        match = _URL.match(line, start) if start >= 0 else None
        if match is None or match.end(1) != sep:
            continue
        pos = match.end()
        authority = re.split(r"[/?#]", match.group(2), maxsplit=1)[0]
        userinfo, _, hostport = authority.rpartition("@")
        if hostport.startswith("["):
            host = hostport[1:hostport.find("]")] if "]" in hostport else ""
        else:
            host_chars = _HOST_CHARS.match(hostport)
            assert host_chars is not None  # the pattern matches the empty string
            host = host_chars.group().rstrip(".-")
        found.append(Url(match.start(), match.end(), match.group(1),
                         userinfo if "@" in authority else None, host))
    return found


def is_reserved_host(host: str) -> bool:
    """`localhost`, `*.localhost`, `*.test`, `*.example`, `*.invalid`, `example.com/.net/.org` and
    their subdomains, and loopback or documentation addresses (`127.0.0.1`, `192.0.2.10`, `::1`)."""
    host = host.lower().rstrip(".")
    address = parse_address(host)
    if address is not None:
        return is_reserved_address(address)
    return host.rsplit(".", 1)[-1] in RESERVED_TLDS or any(
        host == domain or host.endswith("." + domain) for domain in RESERVED_DOMAINS)


# `"$schema": "https://json-schema.org/draft/2020-12/schema"` names the JSON Schema dialect a
# document is written in (JSON, YAML): an identifier every schema carries, not a system of anyone's.
_SCHEMA_KEY = re.compile(r"[\"']?\$schema[\"']?[ \t]*:[ \t]*[\"']?\Z")


def is_schema_uri(line: str, url: Url) -> bool:
    """Whether `url` is a json-schema.org dialect identifier, the value of a `$schema` key (any
    other host there is still somebody's system)."""
    return url.host == "json-schema.org" and _SCHEMA_KEY.search(line, max(0, url.start - 40), url.start) is not None


def in_spans(index: int, spans: list[Url]) -> bool:
    """Whether `index` is inside one of `spans` (ordered and disjoint, as urls() returns them)."""
    at = bisect.bisect_right(spans, index, key=lambda url: url.start) - 1
    return at >= 0 and index < spans[at].end


@reads_views(MARKUP)
def find_credential_urls(line: str) -> list[Finding]:
    """CT503: `scheme://user:password@host` with a literal (not `${VAR}`) password."""
    found = []
    for url in urls(line):
        if url.userinfo is None or ":" not in url.userinfo:
            continue
        _user, password = url.userinfo.split(":", 1)
        if is_reference(password):
            continue
        found.append(Finding(url.start, f"{url.scheme}:// URL carries a password "
                                        f"(`{url.scheme}://…:{redact(password)}@…`)", url.end, password))
    return found


def _labels(token: str) -> list[str] | None:
    """The lowercased labels of a syntactically valid host name with an alphabetic last label."""
    labels = token.lower().split(".")
    if len(token) > MAX_HOST or not all(_LABEL.fullmatch(label) for label in labels) or not labels[-1].isalpha():
        return None
    return labels


def _private(labels: list[str]) -> bool:
    return labels[-2:] == ["home", "arpa"] or labels[-1] in PRIVATE_SUFFIXES


def is_url_host(token: str) -> bool:
    """A host after `//` (`//cdn.fern.test/lib.js`): any real TLD or private suffix will do."""
    labels = _labels(token)
    return labels is not None and len(labels) >= 2 and (labels[-1] in TLDS or _private(labels))


@functools.lru_cache(maxsize=4096)
def is_bare_host(token: str) -> bool:
    """Whether a dotted token outside any URL is a host name; the heuristic, step by step, is the
    CT504 documentation (corpustools/lint/rules/hostname.py)."""
    if token[1:] != token[1:].lower():  # `README.md`, `ASP.NET`, `Drupal.behaviors.fernEvents`
        return False
    labels = _labels(token)  # no underscores (`fern_events.info`), not a version (`8.1.2`)
    if labels is None or len(labels) < 2:
        return False
    tld, code_like = labels[-1], any(label in CODE_WORDS for label in labels[:-1])
    if _private(labels):
        return not code_like and not (len(labels) == 2 and tld in FILE_EXTENSIONS)
    if tld not in TLDS:
        return False
    if labels[0] == "www" or ".".join(labels[-2:]) in DEV_HOST_DOMAINS:
        return True
    if tld in STRONG or (len(labels) >= 3 and tld in COUNTRY_CODES and labels[-2] in GENERIC_SECOND_LEVEL):
        return True
    if tld in WORDLIKE or tld in FILE_EXTENSIONS:
        return False
    # A first label that is itself a TLD is a reverse-DNS identifier (`org.fern.de`).
    return len(labels) >= 3 and labels[0] not in TLDS and not code_like


def _glued_to_code(line: str, start: int, end: int) -> bool:
    before = line[start - 1] if start > 0 else " "
    after = line[end] if end < len(line) else " "
    return before in _CODE_PREFIXES or after in _CODE_SUFFIXES


def dotted_tokens(line: str):
    """Matches of _DOTTED, found from their dots (see scan.run_start); tokens longer than a host
    name can be are skipped whole."""
    pos = 0
    while (dot := _INNER_DOT.search(line, pos)) is not None:
        token_rest = _TOKEN_REST.match(line, dot.start())
        assert token_rest is not None  # the pattern matches the empty string
        pos = token_rest.end()
        start = run_start(line, dot.start(), _TOKEN_CHARS, MAX_HOST)
        match = _DOTTED.match(line, start) if start >= 0 else None
        if match is not None and len(match.group()) <= MAX_HOST:
            yield match


def find_hosts(line: str) -> list[Finding]:
    """CT504: network URLs and bare host names (see is_bare_host), unless the host is reserved
    (is_reserved_host: `http://localhost:8000/` is everyday development text)."""
    spans = [url for url in urls(line) if url.is_network]
    found = [Finding(url.start, f"URL with host `{url.host[:80]}`", url.end) for url in spans
             if not is_reserved_host(url.host) and not is_schema_uri(line, url)]
    for match in dotted_tokens(line):
        token, start = match.group(), match.start()
        if in_spans(start, spans):
            continue
        after_slashes = line[max(0, start - 2):start] == "//"  # protocol-relative: `//cdn.fern.lan/x.js`
        # reserved last: most dotted tokens are no host at all, and is_bare_host is cached
        if (is_url_host(token) if after_slashes else (
                not _glued_to_code(line, start, match.end()) and is_bare_host(token))) and not is_reserved_host(token):
            found.append(Finding(start, f"host name `{token}`", match.end()))
    return found
