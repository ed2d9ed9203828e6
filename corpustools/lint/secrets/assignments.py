"""A secret-ish key assigned a value, in any syntax (CT502).

Recognised: `key: value` (YAML, prose labels), `key=value` (.env, INI, shell, CLI `--password=`,
URL query `?token=`), `key = "value"` (code, TOML), `"key": "value"` (JSON),
`$settings['hash_salt'] = '...'` and `'password' => '...'` (PHP), `obj.token = "..."`.
Not recognised: XML elements and a value on the next line (YAML block scalars, nested mappings).
"""

from __future__ import annotations

import re
import string

from corpustools.lint.secrets.hints import literal_hint
from corpustools.lint.secrets.scan import Finding, redact, run_start
from corpustools.lint.secrets.values import is_reference

# key, optional closing quotes/brackets (`['hash_salt']`, `"secret"`), a separator, a value.
# The key's lookbehind makes it maximal, each repeat is bounded, and the separator's first
# character is outside the key class, so a failed attempt costs at most the key's length.
_ASSIGNMENT = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?P<key>-{0,2}[A-Za-z][A-Za-z0-9_.\-]{0,80})"
    r"(?P<close>[\"'`\]*]{0,4})[ \t]{0,8}"
    r"(?P<sep>=>|:=|=(?!=)|:(?![:/]))[ \t]{0,8}"
    r"(?P<value>\"[^\"\n]{0,512}\"?|'[^'\n]{0,512}'?|`[^`\n]{0,512}`?|[^\s,;&'\"`<>)\]}]{1,512})")
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_KEY_FILE = re.compile(r"(?:/|\./|\.\./|~/|[a-z]+://)\S*|\S+\.(?:key|pem|crt|p12|pfx|pub|asc|gpg)")
# Keys are found from the secret words in them (see scan.run_start).
_STEM = re.compile(r"pass|pwd|secret|token|key|salt|credential")
_STEM_ANY_CASE = re.compile(_STEM.pattern, re.IGNORECASE)
HINT = literal_hint((), _STEM.pattern.split("|"))
_KEY_CHARS = frozenset(string.ascii_letters + string.digits + "_.-")
_KEY_REST = re.compile(r"[A-Za-z0-9_.\-]*")
_AFTER_VALUE = re.compile(r"[ \t]*(\S{0,2})")

# The last word of the key decides (`db_password`, `clientSecret`, `hash_salt`).
SECRET_WORDS = frozenset({"password", "passwd", "passphrase", "pwd", "secret", "token", "apikey",
                          "credential", "credentials", "salt", "accesskey", "secretkey", "privatekey",
                          "authtoken", "accesstoken"})
# `key` and `pass` are secret only when qualified: `api_key`, `private_key`, `db_pass` (but not
# `primary_key`, `entity_key`, `$form['pass']`).
KEY_QUALIFIERS = frozenset({"api", "access", "private", "secret", "encryption", "signing", "master",
                            "app", "client", "auth", "license", "account", "subscription",
                            "consumer", "deploy", "session", "webhook", "shared", "storage", "hmac",
                            "jwt", "ssh", "gpg", "pgp", "crypt", "decryption", "aes", "rsa"})
PASS_QUALIFIERS = frozenset({"db", "database", "mysql", "postgres", "pg", "redis", "smtp", "mail",
                             "ftp", "sftp", "ssh", "admin", "root", "user", "basic", "http", "ldap"})
# Secret-ish stems inside an identifier value mark it as a variable holding the secret.
_SECRET_STEMS = ("pass", "pwd", "secret", "token", "key", "salt", "cred", "auth")


def key_words(key: str) -> list[str]:
    """`--DB_PASSWORD` -> ['db', 'password']; `clientSecret` -> ['client', 'secret']."""
    return [word.lower() for word in _WORDS.findall(key)]


# A last word that ends in one of these without a word break is a secret key too: `PGPASSWORD`,
# `DBPASSWORD`, `JWTSECRET`. Not `salt` or `key` (`basalt`, `monkey`, `turkey`), and a word that
# only starts with one is not (`passwordless`, `tokenizer`).
SECRET_SUFFIXES = ("password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "secretkey",
                   "privatekey", "credential", "credentials")


def is_secret_key(key: str) -> bool:
    words = key_words(key)
    if not words:
        return False
    last, before = words[-1], words[-2] if len(words) > 1 else ""
    if last in SECRET_WORDS or last.endswith(SECRET_SUFFIXES):
        return True
    if last == "key":
        return before in KEY_QUALIFIERS
    return last == "pass" and before in PASS_QUALIFIERS


def _unquoted(match: re.Match, line: str) -> str | None:
    """The literal value, or None when the value is an expression or prose (see _value)."""
    value = _value(match, line)
    return None if value is None or is_reference(value, quoted=match.group("value")[0] in "\"'`") else value


def _value(match: re.Match, line: str) -> str | None:
    """The value without its quotes, or None when an unquoted value is an expression or prose."""
    raw, key, sep = match.group("value"), match.group("key"), match.group("sep")
    if raw[0] in "\"'`":
        closed = len(raw) >= 2 and raw[-1] == raw[0]
        start = match.start("key")
        # In "no `password=`, no `token=`" the backtick after `=` closes a Markdown code span.
        closes_span = raw[0] == "`" and "`" not in match.group("close") and line[start - 1:start] == "`"
        return raw[1:-1] if closed and not closes_span else None
    after = _AFTER_VALUE.match(line, match.end())
    assert after is not None  # the pattern matches the empty string
    rest = after.group(1)
    if sep == ":" and rest and not rest.startswith(("#", ",", ";", "}", "]", ")", "\"", "'", "`")):
        return None  # `Token: see the docs` is a sentence, not an assignment
    if rest.startswith(("(", "[", ".", "->", "::")):
        return None  # `token = make_token(...)`, `password = config['x']`
    if _IDENTIFIER.fullmatch(raw) and sep != ":" and (
            "." in raw or raw.lower() == key.strip("-").lower()
            or any(stem in raw.lower() for stem in _SECRET_STEMS)):
        return None  # `password=password`, `api_key=settings.API_KEY`, `token = new_token`
    return raw


def find_assignments(line: str) -> list[Finding]:
    """CT502: `<secret-ish key> <separator> <literal value>` anywhere in `line`, found from the
    secret words in keys. A secret word inside an earlier match (`secret_key`, or a value that
    mentions `token`) is not looked at again."""
    folded = line.lower()
    stems = _STEM.finditer(folded) if len(folded) == len(line) else _STEM_ANY_CASE.finditer(line)
    found = []
    seen = -1
    for stem in stems:
        if stem.start() < seen:
            continue
        key_rest = _KEY_REST.match(line, stem.start())
        assert key_rest is not None  # the pattern matches the empty string
        seen = key_rest.end()
        start = run_start(line, stem.start(), _KEY_CHARS, 82)
        match = _ASSIGNMENT.match(line, start) if start >= 0 else None
        if match is None:
            continue
        seen = max(seen, match.end())
        key = match.group("key")
        if not is_secret_key(key):
            continue
        value = _unquoted(match, line)
        if value is None or _KEY_FILE.fullmatch(value):
            continue  # a path to a key file (`private_key: ../keys/private.key`) names the secret
        name = key.lstrip("-")
        found.append(Finding(match.start("key") + len(key) - len(name),
                             f"`{name}` is assigned a value (`{redact(value)}`)", match.end()))
    return found
