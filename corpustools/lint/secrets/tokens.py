"""Credential-shaped tokens (CT501): vendor key prefixes, private keys, JWTs, auth headers.

Each shape is data: a name for the message, literal needles (one must occur in the line before the
regex runs at all), a bounded regex, and how much of the token the message may show. Placeholder
and example keys are flagged on purpose (`AKIAIOSFODNN7EXAMPLE`, `sk-...`): a scanner cannot tell
a fake key from a real one, and neither can GitHub push protection or a reader.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from corpustools.lint.secrets.hints import Hint, LazyPattern, any_hint, literal_hint, regex_hint
from corpustools.lint.secrets.markup import MARKUP, WORDS
from corpustools.lint.secrets.scan import ELLIPSIS, Finding, reads_views, redact, run_start

# A key never starts inside a longer run of its own kind of characters, but it may start where a
# reader splits a word: at a case or digit boundary (`keyAKIA…`, `2024AKIA…`, `STRIPEsk_live_…`),
# and, for a prefix no word contains (`ghp_`, `xoxb-`, `glpat-`), right after any letter (`myghp_…`).
# Each pattern is its literal prefix, then a fixed-width lookbehind saying what may not come
# before that prefix, then the body: a regex that begins with a lookbehind or a class tries every
# position of a long line, one that begins with a literal is searched for fast, and the lookbehind
# right after the prefix rejects a start inside a run (`eyJeyJeyJ...`) before the body is tried.
_KEY_CHAR = r"[A-Za-z0-9_\-]"
_LOWER_WORD = r"[a-z_\-]"  # before a prefix that starts with a small letter: the same word goes on
_UPPER_WORD = r"[A-Z]"  # before a prefix that starts with a capital
_SEPARATOR = r"[_\-]"  # before a prefix no word contains: only a run of separators goes on
_ALNUM = r"[A-Za-z0-9]"
_LETTER = r"[A-Za-z]"
_R = r"(?![A-Za-z0-9_\-])"


def _token(prefix: str, body: str, before: str | None = _LOWER_WORD) -> str:
    """`prefix` (fixed width) not preceded by a `before` character, then `body`."""
    return prefix + (f"(?<!{before}{prefix})" if before else "") + body


# Parts of a word as a reader splits it: at case and digit boundaries (`ApiGatewayV2Authorizer`:
# Api, Gateway, V, 2, Authorizer).
_WORD_PARTS = LazyPattern(r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[A-Z]")


def is_made_of_words(text: str) -> bool:
    """An identifier of words (`ApiGatewayV2Authorizer`: parts 4.4 characters long on average), not
    a generated token (whose parts, split the same way, are 1 or 2 characters long)."""
    parts = _WORD_PARTS.findall(text)
    return bool(parts) and sum(map(len, parts)) >= 4 * len(parts)


def _has_entropy(text: str) -> bool:
    """Looks generated rather than written: a digit with a letter, or mixed-case letters."""
    has_digit = any(c.isdigit() for c in text)
    has_lower, has_upper = any(c.islower() for c in text), any(c.isupper() for c in text)
    return (has_digit and (has_lower or has_upper)) or (has_lower and has_upper)


def _looks_generated(text: str) -> bool:
    """Generated rather than written: entropy (see _has_entropy), and not an identifier of words
    (`bearer ApiGatewayV2Authorizer` names a class; `sk-ReleaseCandidate2Notes` a branch)."""
    return _has_entropy(text) and not is_made_of_words(text)


def _is_mailgun_key(match: re.Match) -> bool:
    """`key-` and 32 lowercase letters and digits. Only hex digits is a hash (`key-<md5>`, a cache
    key): a Mailgun key then only where the line names Mailgun."""
    body = match.group("body")
    if any(c not in "0123456789abcdef" for c in body):
        return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)
    return "mailgun" in match.string.lower()


def _is_basic_credentials(match: re.Match) -> bool:
    """`Basic <base64>` outside a header counts only when it decodes to `user:password`."""
    try:
        decoded = base64.b64decode(match.group("token"), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    return ":" in decoded and decoded.isprintable()


@functools.cache
def _compiled(source: str) -> re.Pattern:
    return re.compile(source)


@dataclass(frozen=True)
class TokenShape:
    name: str
    needles: tuple[str, ...]  # one must occur in the line (case-folded when `fold`)
    source: str  # the regex; group `token`, when present, is the secret part of the match
    keep: int = 4  # characters of the token the message shows (the vendor prefix)
    fold: bool = False
    accept: Callable[[re.Match], bool] | None = None
    # Constant text every match of the shape holds (its vendor prefixes); a fingerprint of one of
    # them alone allows nothing and is refused (CONSTANT_PARTS). The needles, when not given.
    constants: tuple[str, ...] = ()

    @property
    def pattern(self) -> re.Pattern:
        """`source` compiled on first use (a line holding one of the needles): importing the rules,
        --list-rules or --explain compiles none of the 30-odd shapes."""
        return _compiled(self.source)

    def matches(self, line: str) -> Iterator[re.Match]:
        return self.pattern.finditer(line)

    def describe(self, match: re.Match) -> str:
        token = match.group("token") if "token" in self.pattern.groupindex else match.group()
        return f"{self.name} (`{redact(token, self.keep)}`)"


def _shape(name, needles, pattern, keep=4, *, fold=False, accept=None, constants=()) -> TokenShape:
    return TokenShape(name, tuple(needles), pattern, keep, fold, accept, tuple(constants) or tuple(needles))


# `sk-` keys: OpenAI, Anthropic and DeepSeek share the prefix; the message names the likely vendor.
_SK_VENDORS = (("sk-ant-", "Anthropic API key"), ("sk-proj-", "OpenAI project key"),
               ("sk-svcacct-", "OpenAI service-account key"), ("sk-admin-", "OpenAI admin key"))


@dataclass(frozen=True)
class DiscordShape(TokenShape):
    """`<base64 user id>.<timestamp>.<hmac>`: found from its first dot, because the id has no
    literal prefix; the id is 23-27 characters starting with M, N or O and decodes to a number."""

    def matches(self, line: str) -> Iterator[re.Match]:
        for match in self.pattern.finditer(line):
            start = run_start(line, match.start(), _ID_CHARS, 28)
            if start < 0 or not 24 <= match.start() - start <= 28 or line[start] not in "MNO":
                continue
            whole = _ID_AND_REST.match(line, start)
            if whole is not None and _is_user_id(line[start:match.start()]):
                yield whole


def _is_user_id(segment: str) -> bool:
    """The token's first part is a Discord user id (a number) in base64: `MTA4NzE2MzU0MDkyNDc4NDY0`
    is `108716354092478464`. A dotted Java class name has the token's shape but decodes to no number."""
    try:
        decoded = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except (binascii.Error, ValueError):
        return False
    return 15 <= len(decoded) <= 21 and decoded.isdigit()


# Its needle is the middle of the token: a dot, 6-7 key characters and a dot (see hint()).
_DISCORD_NEEDLE = "."
_DISCORD_HINT = r"\.[A-Za-z0-9_\-]{6,7}\.[A-Za-z0-9_\-]{27}"
_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_ID_AND_REST = re.compile(r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6,7}\.[A-Za-z0-9_\-]{27,40}")


@dataclass(frozen=True)
class SkKeyShape(TokenShape):
    def describe(self, match: re.Match) -> str:
        token = match.group()
        for prefix, name in _SK_VENDORS:
            if token.startswith(prefix):
                return f"{name} (`{prefix}{ELLIPSIS}`)"
        return f"{self.name} (`sk-{ELLIPSIS}`)"


# A private key is its whole block, header through END line: each key then has a fingerprint of
# its own (the header alone is the same for every key of its kind). The block is one line of the
# view the scan reads it in: a JSON or YAML string's `\\n`s decoded to spaces, or the block's lines
# joined by spaces (scan.py's block views).
_PEM_HEADER = r"-----BEGIN(?P<kind>[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?)-----"
# Without its END line (a paste cut short), a block runs through its last line of base64: lines of
# 16 to 100 characters (a key's are 64; the first at least 32), and a last short one with padding.
_PEM_OPEN_BODY = LazyPattern(r"[ \t]{0,8}[A-Za-z0-9+/]{32,100}={0,2}(?:[ \t]{1,8}[A-Za-z0-9+/]{16,100}={0,2}){0,400}"
                            r"(?:[ \t]{1,8}[A-Za-z0-9+/]{0,99}={1,2}(?![A-Za-z0-9+/=]))?")
_PEM_RUN = LazyPattern(r"[A-Za-z0-9+/]{32}")
_SPAN = LazyPattern(r".*", re.DOTALL)
_PEM_KINDS = ("", "RSA ", "DSA ", "EC ", "ECDSA ", "ED25519 ", "OPENSSH ", "ENCRYPTED ", "ANY ", "SSH2 ENCRYPTED ")
# Every header and footer, which a fingerprint of alone would allow no key (fingerprints.py).
PEM_CONSTANTS = (*(f"-----{edge} {kind}PRIVATE KEY-----" for edge in ("BEGIN", "END") for kind in _PEM_KINDS),
                 "-----BEGIN PGP PRIVATE KEY BLOCK-----", "-----END PGP PRIVATE KEY BLOCK-----")


@dataclass(frozen=True)
class PrivateKeyShape(TokenShape):
    """A private key block from its header through its END line (or, cut short, its last line of
    base64). A header with no base64 after it (a sentence naming the format, a key deleted from
    under its header) holds no secret and is not a finding."""

    def matches(self, line: str) -> Iterator[re.Match]:
        headers = list(self.pattern.finditer(line))
        for index, header in enumerate(headers):
            # A block ends before the next header: each stretch of the line is searched once.
            limit = headers[index + 1].start() if index + 1 < len(headers) else len(line)
            footer = f"-----END{header.group('kind')}-----"
            end = line.find(footer, header.end(), limit)
            if end >= 0:
                if _PEM_RUN.search(line, header.end(), end):
                    yield _whole(line, header.start(), end + len(footer))
            elif (body := _PEM_OPEN_BODY.match(line, header.end(), limit)) is not None:
                yield _whole(line, header.start(), body.end())


def _whole(line: str, start: int, end: int) -> re.Match:
    match = _SPAN.match(line, start, end)
    assert match is not None  # `.*` matches any span
    return match


# AWS key ids are `AKIA` or `ASIA` and 16 characters; AWS writes them in base32 (A-Z and 2-7), and
# a fake one with a 0, 1, 8 or 9 is flagged too, unless a word before it says it is a product
# code (`SKU ASIAPAC0042XLBLK18R9`); written in small letters (a sidecar term, an id) a key id is
# one still when it is base32 and has a digit.
_AWS_ID = (_token("A[KS]IA", r"(?P<body>[A-Z0-9]{16})(?![A-Z0-9])", _UPPER_WORD)
           + "|" + _token("a[ks]ia", r"(?=[a-z]{0,15}[2-7])[a-z2-7]{16}(?![a-z0-9])", "[a-z0-9]"))
_BASE32 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
_PRODUCT_CODE_BEFORE = LazyPattern(
    r"\b(?:sku|part|item|model|product|article|catalog(?:ue)?|stock|style|variant)s?\.?"
    r"(?:[ \t]{1,3}(?:number|no\.?|nr\.?|num|code|id|#))?[ \t]{0,3}[:#=]?[ \t]{0,3}$", re.IGNORECASE)


def _is_aws_key_id(match: re.Match) -> bool:
    """A key id in AWS's alphabet, or any other 16 after the prefix not named a product code."""
    body = match.group("body")
    if body is None or _BASE32.issuperset(body):
        return True
    return _PRODUCT_CODE_BEFORE.search(match.string, max(0, match.start() - 40), match.start()) is None


SHAPES = (
    # Cloud
    _shape("AWS access key id", ["AKIA", "ASIA", "akia", "asia"], _AWS_ID, accept=_is_aws_key_id),
    _shape("AWS-style secret access key", ["secret"],
           r"(?i:secret[_\-]?(?:access[_\-]?)?key)[\"']?\s{0,3}(?:=>|[:=])\s{0,3}[\"']?"
           r"(?P<token>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])", fold=True),
    _shape("Google API key", ["AIza"], _token("AIza", r"[0-9A-Za-z_\-]{30,60}" + _R, _UPPER_WORD)),
    _shape("Azure storage key", ["AccountKey", "SharedAccessKey"],
           _token("(?:AccountKey|SharedAccessKey)", r"\s?=\s?(?P<token>[A-Za-z0-9+/]{20,120}={0,2})", None)),
    _shape("Azure SAS signature", ["sig="], r"sig=(?<=[?&;]sig=)(?P<token>[A-Za-z0-9%+/]{30,200}={0,2})"),
    # Source hosting and package registries
    _shape("GitHub token", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
           _token("gh[pousr]_", r"[A-Za-z0-9]{20,255}" + _R, _SEPARATOR)),
    _shape("GitHub fine-grained token", ["github_pat_"],
           _token("github_pat_", r"[A-Za-z0-9_]{22,255}" + _R, _SEPARATOR), keep=11),
    _shape("GitLab token", ["glpat-"], _token("glpat-", r"[A-Za-z0-9_\-]{20,255}" + _R, _SEPARATOR), keep=6),
    _shape("npm token", ["npm_"], _token("npm_", r"[A-Za-z0-9]{30,255}" + _R, _SEPARATOR)),
    _shape("PyPI token", ["pypi-"], _token("pypi-", r"(?P<body>[A-Za-z0-9_\-]{16,255})" + _R, _SEPARATOR), keep=5,
           accept=lambda m: _has_entropy(m.group("body"))),
    # Chat
    _shape("Slack token", ["xox"], _token("xox[abposr]-", r"[A-Za-z0-9\-]{10,255}" + _R, _SEPARATOR), keep=5,
           constants=[f"xox{c}-" for c in "abposr"]),
    _shape("Slack app token", ["xapp-"], _token("xapp-", r"[0-9]-[A-Za-z0-9\-]{10,255}" + _R, _SEPARATOR), keep=5),
    _shape("Slack webhook URL", ["hooks.slack.com"],
           r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{8,255}", keep=24,
           constants=[f"https://hooks.slack.com/{kind}/" for kind in ("services", "workflows", "triggers")]),
    _shape("Discord webhook URL", ["/api/webhooks/"],
           r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/[A-Za-z0-9_\-]{20,255}",
           keep=20, constants=[f"https://{sub}discord{app}.com/api/webhooks/" for sub in ("", "ptb.", "canary.")
                               for app in ("", "app")]),
    DiscordShape("Discord bot token", (_DISCORD_NEEDLE,),
                 r"\.[A-Za-z0-9_\-]{6,7}\.[A-Za-z0-9_\-]{27,40}" + _R, keep=4),
    # Payment
    _shape("Stripe key", ["_live_", "_test_"], _token("[srp]k_(?:live|test)_", r"[A-Za-z0-9]{10,255}" + _R), keep=8,
           constants=[f"{kind}k_{mode}_" for kind in "srp" for mode in ("live", "test")]),
    _shape("Stripe webhook secret", ["whsec_"], _token("whsec_", r"[A-Za-z0-9]{20,255}" + _R, _SEPARATOR), keep=6),
    _shape("Square token", ["sq0"], _token("sq0(?:atp|csp|idp)-", r"[A-Za-z0-9_\-]{20,255}" + _R, _SEPARATOR),
           keep=7, constants=["sq0atp-", "sq0csp-", "sq0idp-"]),
    _shape("Square access token", ["EAAA"], _token("EAAA", r"[A-Za-z0-9_\-]{56,255}" + _R, _UPPER_WORD)),
    _shape("PayPal/Braintree access token", ["access_token$"],
           _token(r"access_token\$", r"(?:production|sandbox)\$[0-9a-z]{8,32}\$[0-9a-f]{16,64}"), keep=13,
           constants=["access_token$production$", "access_token$sandbox$"]),
    # LLM vendors (OpenAI, Anthropic and DeepSeek share `sk-`; the message names the likely one);
    # an elided `sk-...` counts too: it shows a key was pasted here.
    SkKeyShape("OpenAI-style API key", ("sk-",),
               _token("sk-", r"(?:(?P<body>[A-Za-z0-9_\-]{20,255})" + _R + r"|[A-Za-z0-9_\-]{0,19}(?:\.\.\.|…))"),
               accept=lambda m: m.group("body") is None or _looks_generated(m.group("body")),
               constants=("sk-", *(prefix for prefix, _name in _SK_VENDORS))),
    _shape("Hugging Face token", ["hf_"], _token("hf_", r"[A-Za-z0-9]{30,255}" + _R), keep=3),
    _shape("Groq API key", ["gsk_"], _token("gsk_", r"[A-Za-z0-9]{20,255}" + _R, _SEPARATOR)),
    _shape("Replicate token", ["r8_"], _token("r8_", r"[A-Za-z0-9]{20,255}" + _R), keep=3),
    _shape("xAI API key", ["xai-"], _token("xai-", r"[A-Za-z0-9]{20,255}" + _R, _SEPARATOR)),
    _shape("Perplexity API key", ["pplx-"], _token("pplx-", r"[A-Za-z0-9]{20,255}" + _R, _SEPARATOR), keep=5),
    # Other common services
    _shape("SendGrid API key", ["SG."],
           _token(r"SG\.", r"[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}" + _R, _UPPER_WORD), keep=3),
    _shape("Shopify token", ["shp"], _token("shp(?:at|ca|pa|ss)_", r"[a-fA-F0-9]{32}" + _R, _SEPARATOR), keep=6,
           constants=["shpat_", "shpca_", "shppa_", "shpss_"]),
    _shape("DigitalOcean token", ["_v1_"], _token("do[opr]_v1_", r"[a-f0-9]{64}" + _R, _SEPARATOR), keep=7,
           constants=["doo_v1_", "dop_v1_", "dor_v1_"]),
    _shape("Mailgun API key", ["key-"], _token("key-", r"(?P<body>[0-9a-z]{32})" + _R), accept=_is_mailgun_key),
    _shape("Twilio API key", ["SK"], _token("SK", r"[0-9a-f]{32}(?![A-Za-z0-9])", _UPPER_WORD), keep=2),
    # Keys and signed tokens
    PrivateKeyShape("private key", ("PRIVATE KEY",), _PEM_HEADER, keep=10, constants=PEM_CONSTANTS),
    _shape("JSON Web Token", ["eyJ"],
           _token("eyJ", r"[A-Za-z0-9_\-]{5,4096}\.eyJ[A-Za-z0-9_\-]{5,8192}\.[A-Za-z0-9_\-]{0,4096}", _KEY_CHAR),
           keep=3),
    _shape("Authorization header credentials", ["authorization"],
           r"(?i:(?:proxy-)?authorization)[\"']?\s{0,3}[:=]\s{0,3}[\"']?"
           r"(?i:bearer|basic|token|digest|apikey)\s{1,3}(?P<token>[A-Za-z0-9._~+/=\-]{8,4096})",
           fold=True, accept=lambda m: _has_entropy(m.group("token"))),
    _shape("bearer token", ["bearer"],
           _token("[Bb](?:earer|EARER)", r"\s{1,3}(?P<token>[A-Za-z0-9._~+/=\-]{16,4096})", _LETTER),
           fold=True, accept=lambda m: _looks_generated(m.group("token"))),
    _shape("basic auth credentials", ["basic"],
           _token("[Bb](?:asic|ASIC)", r"\s{1,3}(?P<token>[A-Za-z0-9+/]{8,4096}={0,2})", _LETTER),
           fold=True, accept=_is_basic_credentials),
)


def _split_needles(needles: set[str]) -> set[str]:
    """A vendor prefix cut by a line break: its start at a line's end (`AK` then a newline), so
    that the line a token wrapped inside its prefix starts on is looked at and joined with the
    next (markup.joins_at). Starts of two capitals or three characters (`AK`, `ghp`), and only of
    needles that share their first character with another (whose search is a pattern anyway:
    hints._by_first_character; a lone needle's is str.find, several times faster): a line ending
    in two small letters (`gh`: `through`) is too common to look at, so a key cut right after its
    first small letters, or inside `EAAA`, `key-`, `npm_` or `whsec_`, is not seen."""
    shared = {needle[0] for needle in needles if sum(other[0] == needle[0] for other in needles) > 1}
    return {needle[:cut] + "\n" for needle in needles if len(needle) <= 8 and needle[0] in shared
            for cut in range(2, len(needle)) if cut > 2 or needle[:2].isupper()}


def _hint() -> Hint:
    """Where some shape's needle occurs (see scan.candidate_lines): lines without any needle are
    never looked at line by line. The Discord token's needle is its dotted middle, a pattern."""
    exact = {n for shape in SHAPES if not shape.fold for n in shape.needles} - {_DISCORD_NEEDLE}
    literals = literal_hint(exact | _split_needles(exact), {n for shape in SHAPES if shape.fold for n in shape.needles})
    return any_hint(literals, regex_hint(re.compile(_DISCORD_HINT)))


HINT = _hint()


@reads_views(MARKUP, WORDS)
def find_tokens(line: str) -> list[Finding]:
    """Every credential-shaped token in `line`."""
    found = []
    folded = None
    for shape in SHAPES:
        if shape.fold:
            folded = line.lower() if folded is None else folded
            haystack = folded
        else:
            haystack = line
        if not any(needle in haystack for needle in shape.needles):
            continue
        for match in shape.matches(line):
            if shape.accept is not None and not shape.accept(match):
                continue
            found.append(Finding(match.start(), shape.describe(match), match.end()))
    return found
