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
    r"(?<![A-Za-z0-9_.\-])(?P<key>[-_]{0,3}[A-Za-z][A-Za-z0-9_.\-]{0,80})"
    r"(?P<close>[\"'`\]*]{0,4})[ \t]{0,64}"
    r"(?P<sep>=>|:=|=(?!=)|:(?![:/]))[ \t]{0,64}"
    r"(?P<value>\"[^\"\n]{0,512}\"?|'[^'\n]{0,512}'?|`[^`\n]{0,512}`?|[^\s,;&'\"`<>)\]}]{1,512})")
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_KEY_FILE = re.compile(r"(?:/|\./|\.\./|~/|[a-z]+://)\S*|\S+\.(?:key|pem|crt|p12|pfx|pub|asc|gpg)")
# Keys are found from the secret words in them (see scan.run_start).
_STEM = re.compile(r"pass|pwd|secret|token|key|salt|credential")
_STEM_ANY_CASE = re.compile(_STEM.pattern, re.IGNORECASE)
HINT = literal_hint((), [*_STEM.pattern.split("|"), "mysql", "mariadb", "redis-cli", "sshpass"])
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
    """Whether `key`, normalised (its words lowercased and joined: `_DB_PASSWORD`, `dbPassword`,
    `DB-PASSWORD` and `db.password` are all `dbpassword`), ends in a secret word."""
    words = key_words(key)
    if not words:
        return False
    last, before = words[-1], words[-2] if len(words) > 1 else ""
    if last in SECRET_WORDS or "".join(words).endswith(SECRET_SUFFIXES):
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
    if sep == ":" and rest and not rest.startswith(("#", ",", ";", "}", "]", ")", "\"", "'", "`")) \
            and not looks_generated(raw):
        return None  # `Token: see the docs` is a sentence, not an assignment (`Password: Tr0ub4dor9 here` is)
    if rest.startswith(("(", "[", ".", "->", "::")):
        return None  # `token = make_token(...)`, `password = config['x']`
    if _IDENTIFIER.fullmatch(raw) and sep != ":" and (
            _is_attribute(raw) or raw.lower() == key.strip("-_").lower()
            or any(stem in raw.lower() for stem in _SECRET_STEMS)):
        return None  # `password=password`, `api_key=settings.API_KEY`, `token = new_token`
    return raw


# Objects whose attribute holds a secret: `password = self.password`, `token = request.token`.
_OBJECTS = frozenset({"self", "this", "cls", "config", "conf", "cfg", "settings", "env", "environ", "os",
                      "process", "app", "ctx", "context", "options", "opts", "args", "params", "request",
                      "req", "vault", "secrets", "credentials", "creds", "props", "state", "window",
                      "document", "module", "exports", "parent", "super", "container", "kernel", "site"})


def _is_attribute(value: str) -> bool:
    """A dotted identifier that reads an attribute (`settings.API_KEY`, `self.db.password`), not a
    dotted literal (`correct.horse.battery`, `p4ss.w0rd`)."""
    parts = value.split(".")
    return len(parts) > 1 and (parts[0].lower() in _OBJECTS or any(
        _ENV_LIKE.fullmatch(part) or any(stem in part.lower() for stem in _SECRET_STEMS) for part in parts))


_ENV_LIKE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


def looks_generated(value: str) -> bool:
    """A value no sentence has: letters with digits, or mixed-case letters with a digit or symbol."""
    letters = any(c.isalpha() for c in value)
    digits = any(c.isdigit() for c in value)
    mixed = any(c.islower() for c in value) and any(c.isupper() for c in value[1:])
    return letters and (digits or (mixed and any(not c.isalnum() for c in value)))


# Client commands that take a password glued to `-p` (`mysql -uroot -pS3cret`), or after `-a`
# (redis-cli) or `-p` (sshpass); and any long option named like a secret followed by a space and a
# value (`--password Tr0ub4dor9`, `--db-password 'x y'`).
_GLUED_P_COMMANDS = ("mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlshow", "mysqlsh",
                     "mariadb", "mariadb-dump", "mariadb-admin", "mariadb-import", "mariadb-check")
_CLI_VALUE = r"(?P<value>'[^'\n]{1,512}'|\"[^\"\n]{1,512}\"|[^\s'\"`|;&<>]{1,512})"
_GLUED_P = re.compile(r"(?<![\w\-])(?:" + "|".join(map(re.escape, sorted(_GLUED_P_COMMANDS, key=len, reverse=True)))
                      + r")(?![\w\-])[^\n|;&]{0,400}?(?<=\s)(?P<flag>-p)" + _CLI_VALUE)
_SEPARATE = re.compile(r"(?<![\w\-])(?:redis-cli(?![\w\-])[^\n|;&]{0,400}?\s(?P<a>-a)"
                       r"|sshpass(?![\w\-])[^\n|;&]{0,100}?\s(?P<p>-p))[ \t]{1,8}" + _CLI_VALUE)
_LONG_OPTION = re.compile(r"(?<![\w\-])(?P<flag>--[A-Za-z][A-Za-z0-9\-_.]{0,60})[ \t]{1,8}" + _CLI_VALUE)
CLI_NEEDLES = ("--", "mysql", "mariadb", "redis-cli", "sshpass")


def _cli_value(value: str) -> str | None:
    """The literal a command-line option is given, or None for a reference, a placeholder, the
    next option or a plain word (`--password prompt`, `--token $TOKEN`)."""
    quoted = value[0] in "'\""
    literal = value[1:-1] if quoted else value
    if not literal or literal.startswith("-") or is_reference(literal, quoted=quoted):
        return None
    return literal if quoted or looks_generated(literal) or not literal.isalpha() else None


def find_command_line(line: str) -> list[Finding]:
    """CT502 on a command line: `mysql -uroot -pS3cret`, `redis-cli -a S3cret`, `sshpass -p S3cret`,
    `--password Tr0ub4dor9` (`--password=...` is an assignment: find_assignments)."""
    found = []
    for match in _GLUED_P.finditer(line):
        value = _cli_value(match.group("value"))
        if value is not None:
            found.append(Finding(match.start("flag"), f"`-p` gives a password on the command line (`{redact(value)}`)",
                                 match.end()))
    for match in _SEPARATE.finditer(line):
        flag = "-a" if match.group("a") else "-p"
        value = _cli_value(match.group("value"))
        if value is not None:
            found.append(Finding(match.start("a") if match.group("a") else match.start("p"),
                                 f"`{flag}` gives a password on the command line (`{redact(value)}`)", match.end()))
    if "--" in line:
        for match in _LONG_OPTION.finditer(line):
            flag = match.group("flag")
            value = _cli_value(match.group("value"))
            if value is not None and is_secret_key(flag):
                found.append(Finding(match.start("flag"), f"`{flag}` is given a value (`{redact(value)}`)", match.end()))
    return found


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
    if not any(needle in folded for needle in CLI_NEEDLES):
        return found
    return found + find_command_line(line)
