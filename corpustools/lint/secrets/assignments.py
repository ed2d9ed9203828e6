"""A secret-ish key assigned a value, in any syntax (CT502).

Recognised: `key: value` (YAML, prose labels), `key=value` (.env, INI, shell, CLI `--password=`,
URL query `?token=`), `key = "value"` (code, TOML), `"key": "value"` (JSON),
`$settings['hash_salt'] = '...'` and `'password' => '...'` (PHP), `obj.token = "..."`, a comparison
with a literal (`password == "..."`), a quoted key and a quoted value as two arguments
(`define('DB_PASSWORD', '...')`), XML and HTML (`<password>...</password>`,
`<input name="password" value="...">`, `<add key="DbPassword" value="..."/>`), and prose (`my
password is Tr0ub4dor9x`, `api-key Xk9vQ2mL7pR4`) where the value looks generated. A value on the
next line (`password:` then `  Tr0ub4dor9x`) is read through markup.joined_lines. Keys are words
for password in English and in the languages a support transcript is often in (`passwort`,
`mot_de_passe`, `contraseña`, `senha`, `wachtwoord`, `пароль`, `密码`, `パスワード`); the short
`pw` and a bare `pass` count when the value looks generated.
"""

from __future__ import annotations

import re
import string

from corpustools.lint.secrets.hints import LazyPattern, literal_hint
from corpustools.lint.secrets.markup import KEY_VALUE, MARKUP
from corpustools.lint.secrets.scan import Finding, reads_views, redact, run_start
from corpustools.lint.secrets.values import is_reference

# key, optional closing quotes/brackets (`['hash_salt']`, `"secret"`), a separator, a value.
# The key's lookbehind makes it maximal, each repeat is bounded, and the separator's first
# character is outside the key class, so a failed attempt costs at most the key's length.
_ASSIGNMENT = re.compile(
    r"(?<![\w.\-])(?P<key>[-_]{0,3}[^\W\d_][\w.\-]{0,80})"
    r"(?P<close>[\"'`\]*]{0,4})[ \t]{0,64}"
    r"(?P<sep>=>|:=|===?|!==?|=|:(?![:/])|,)[ \t]{0,64}"
    r"(?P<value>\"[^\"\n]{0,512}\"?|'[^'\n]{0,512}'?|`[^`\n]{0,512}`?|&?[^\s,;&'\"`<>)\]}]{1,512})")
# A comparison with a literal gives the literal away as an assignment does (`password == "x"`).
_COMPARISONS = frozenset({"==", "===", "!=", "!=="})
# Prose and headers without a separator, or with `is`: `my password is Tr0ub4dor9x`, `api-key X`.
# The value may be quoted or marked up as prose quotes one (`the password is \`X\``, 'X', "X", *X*, **X**).
# Quoted, the value must follow `is`, `was`, `=` or `:`: without one a quote marks a name (`the
# password \`policy2024\` document`, `tiktoken \`o200k_base\``).
_PROSE = LazyPattern(r"(?<![\w.\-])(?P<key>[^\W\d_][\w.\-]{0,80})[ \t]{1,3}(?:(?P<said>is|was|=|:)[ \t]{1,3})?"
                    r"(?P<quote>[`'\"]|\*{1,2})?(?P<value>[^\s,;'\"`<>()\[\]{}*]{8,128})")
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_DIGIT = re.compile(r"[0-9]")
_KEY_PARTS = re.compile(r"[^\W_]+")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_KEY_FILE = re.compile(r"(?:/|\./|\.\./|~/|[a-z]+://)\S*|\S+\.(?:key|pem|crt|p12|pfx|pub|asc|gpg)")
# Keys are found from the secret words in them (see scan.run_start), in any of the languages of
# FOREIGN_WORDS.
_STEMS = ("pass", "pw", "secret", "token", "key", "salt", "credential", "kennwort", "contrase", "senha",
          "wachtwoord", "\u043f\u0430\u0440\u043e\u043b\u044c", "\u5bc6\u7801", "\u30d1\u30b9\u30ef\u30fc\u30c9")
_STEM = re.compile("|".join(_STEMS))
_STEM_ANY_CASE = re.compile(_STEM.pattern, re.IGNORECASE)
HINT = literal_hint((), [*_STEMS, "mysql", "mariadb", "redis-cli", "sshpass"])


# What a key is made of, for scan.run_start: ASCII letters, digits, `_`, `.`, `-`, and the letters of
# FOREIGN_WORDS (a key in another script runs back to its stem at least).
_KEY_REST = re.compile(r"[A-Za-z0-9_.\-]*")
_AFTER_VALUE = re.compile(r"[ \t]*(\S{0,2})")

# Words for password in the languages support transcripts are most often in besides English:
# German, French, Spanish, Portuguese, Dutch, Russian, Chinese, Japanese (Italian says `password`);
# Spanish with or without its accent. Each costs the scan a search per batch (hints.literal_hint).
FOREIGN_WORDS = frozenset({"passwort", "kennwort", "motdepasse", "contrase\u00f1a", "contrasena", "senha",
                           "wachtwoord", "\u043f\u0430\u0440\u043e\u043b\u044c", "\u5bc6\u7801",
                           "\u30d1\u30b9\u30ef\u30fc\u30c9"})
_KEY_CHARS = frozenset(string.ascii_letters + string.digits + "_.-" + "".join(FOREIGN_WORDS))
# The last word of the key decides (`db_password`, `clientSecret`, `hash_salt`).
SECRET_WORDS = frozenset({"password", "passwd", "passphrase", "pwd", "secret", "token", "apikey",
                          "credential", "credentials", "salt", "accesskey", "secretkey", "privatekey",
                          "authtoken", "accesstoken"}) | FOREIGN_WORDS
# Short or bare words that name a password only when the value looks generated (`pw=Tr0ub4dor9x`,
# `PASS=Tr0ub4dor9x`; `pass: 12` counts tests).
WEAK_WORDS = frozenset({"pw", "pass"})
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
    """`--DB_PASSWORD` -> ['db', 'password']; `clientSecret` -> ['client', 'secret']; a word in
    another script is one word (`mot_de_passe` -> ['mot', 'de', 'passe'], `пароль` -> ['пароль'])."""
    if key.isascii():
        return [word.lower() for word in _WORDS.findall(key)]
    return [word.lower() for part in _KEY_PARTS.findall(key)
            for word in (_WORDS.findall(part) if part.isascii() else [part])]


# A last word that ends in one of these without a word break is a secret key too: `PGPASSWORD`,
# `DBPASSWORD`, `JWTSECRET`. Not `salt` or `key` (`basalt`, `monkey`, `turkey`), and a word that
# only starts with one is not (`passwordless`, `tokenizer`).
SECRET_SUFFIXES = ("password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "secretkey",
                   "privatekey", "credential", "credentials", *FOREIGN_WORDS)


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


def is_weak_key(key: str) -> bool:
    """`pw`, `PASS`, `db_pw`: a key that names a password only when its value looks generated."""
    words = key_words(key)
    return bool(words) and words[-1] in WEAK_WORDS


def _unquoted(match: re.Match, line: str) -> str | None:
    """The literal value, or None when the value is an expression or prose (see _value)."""
    value = _value(match, line)
    if value is None:
        return None
    quoted = match.group("value")[0] in "\"'`"
    if not quoted and _is_symbol_literal(value, match):
        return value
    if is_reference(value, quoted=quoted):
        return None
    sep = match.group("sep")
    if (sep in _COMPARISONS or sep == ",") and not (quoted and looks_generated(value) or _is_strong(value)):
        return None  # `password == confirm` compares two variables; `("password", "email")` lists names
    if sep == "," and not any(c.isdigit() for c in value):
        return None
    return value


# A value that starts with a YAML indicator or a shell/SQL sigil is a reference (`*alias`,
# `&anchor`, `!tag`, `@param`, `#comment`), unless what follows is long and looks generated:
# `DB_PASSWORD=!Xk9vQ2mL7pR4` is a password that starts with `!`.
_SYMBOLS = "!#@*&"


def _is_symbol_literal(value: str, match: re.Match) -> bool:
    if value[0] not in _SYMBOLS or not _is_strong(value[1:]):
        return False
    if value[0] == "#" and (match.group("sep") == ":" or match.start("value") != match.end("sep")):
        return False  # `password: #comment`, `KEY= #comment`: a comment
    return not any(stem in value.lower() for stem in _SECRET_STEMS)  # `*db_password1`: an alias


def _is_strong(value: str) -> bool:
    """One run of 8 or more characters that looks generated, letters and digits: a password on its
    own (a word, a short code or a phrase such as `e2e tests must pass` is not)."""
    return 8 <= len(value) <= 128 and looks_generated(value) and any(c.isdigit() for c in value) \
        and any(c.isalpha() for c in value) and not any(c.isspace() for c in value)


def _value(match: re.Match, line: str) -> str | None:
    """The value without its quotes, or None when an unquoted value is an expression or prose."""
    raw, key, sep = match.group("value"), match.group("key"), match.group("sep")
    if raw[0] in "\"'`":
        closed = len(raw) >= 2 and raw[-1] == raw[0]
        start = match.start("key")
        # In "no `password=`, no `token=`" the backtick after `=` closes a Markdown code span.
        closes_span = raw[0] == "`" and "`" not in match.group("close") and line[start - 1:start] == "`"
        return raw[1:-1] if closed and not closes_span else None
    if sep == ",":
        return None  # only a quoted key and a quoted value are two arguments (`define('X', 'v')`)
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
                                 match.end(), value))
    for match in _SEPARATE.finditer(line):
        flag = "-a" if match.group("a") else "-p"
        value = _cli_value(match.group("value"))
        if value is not None:
            found.append(Finding(match.start("a") if match.group("a") else match.start("p"),
                                 f"`{flag}` gives a password on the command line (`{redact(value)}`)", match.end(),
                                 value))
    if "--" in line:
        for match in _LONG_OPTION.finditer(line):
            flag = match.group("flag")
            value = _cli_value(match.group("value"))
            if value is not None and is_secret_key(flag):
                found.append(Finding(match.start("flag"), f"`{flag}` is given a value (`{redact(value)}`)", match.end(),
                                     value))
    return found


def _assigned(match: re.Match, line: str) -> Finding | None:
    """The finding of a `key <separator> value` match, or None when the key is not secret-ish,
    the value is no literal or the separator is no assignment there."""
    key, sep = match.group("key"), match.group("sep")
    quoted_key = any(q in match.group("close") for q in "\"'") and line[match.start("key") - 1:match.start("key")] in "\"'"
    if sep == "," and not quoted_key:
        return None
    strong = is_secret_key(key)
    if not strong and not is_weak_key(key):
        return None
    value = _unquoted(match, line)
    if value is None or _KEY_FILE.fullmatch(value) or not strong and not _is_strong(value):
        return None  # a path to a key file (`private_key: ../keys/private.key`) names the secret
    name = key.lstrip("-")
    return Finding(match.start("key") + len(key) - len(name), f"`{name}` is assigned a value (`{redact(value)}`)",
                   match.end(), value)


def _said(line: str, start: int) -> Finding | None:
    """`my password is Tr0ub4dor9x`, `api-key Xk9vQ2mL7pR4`: a secret-ish key, a space (and `is`),
    and a value that looks generated (a word does not: `password reset link`)."""
    match = _PROSE.match(line, start)
    if match is None or _DIGIT.search(match.group("value")) is None:
        return None  # most prose after a secret word has no digit: the cheap test first
    if match.group("quote") and not match.group("said"):
        return None
    value = match.group("value").rstrip(".!?:")
    if not _is_strong(value) or not is_secret_key(match.group("key")) or is_reference(value):
        return None
    name = match.group("key")
    return Finding(match.start("key"), f"`{name}` is given a value (`{redact(value)}`)",
                   match.start("value") + len(value), value)


@reads_views(MARKUP, KEY_VALUE)
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
        if start < 0:
            continue
        match = _ASSIGNMENT.match(line, start)
        finding = _assigned(match, line) if match is not None else None
        if match is not None:
            seen = max(seen, match.end())
        if finding is None and (match is None or match.group("sep") == ":"):
            finding = _said(line, start)
        if finding is not None:
            seen = max(seen, finding.end)
            found.append(finding)
    if "<" in line:
        found += find_markup(line)
    if not any(needle in folded for needle in CLI_NEEDLES):
        return found
    return found + find_command_line(line)


# XML and HTML: an element named like a secret (`<password>x</password>`), or one whose naming
# attribute is (`<input name="password" value="x">`, `<add key="DbPassword" value="x"/>`,
# `<entry key="password">x</entry>`), with a literal value or content.
_TAG = LazyPattern(r"<(?P<name>[^\W\d][\w.:\-]{0,80})(?P<attrs>[ \t][^<>\n]{0,1000}?)?/?>")
_ATTRIBUTE = LazyPattern(r"(?P<attr>[^\W\d][\w.:\-]{0,40})[ \t]*=[ \t]*(?:\"(?P<dq>[^\"\n]{0,512})\"|'(?P<sq>[^'\n]{0,512})')")
_NAMING = frozenset({"name", "key", "id", "type", "property", "for", "param", "variable"})
_VALUES = frozenset({"value", "content", "default", "defaultvalue", "val"})
_CONTENT = LazyPattern(r"(?P<content>[^<>\n]{1,512})</")


def find_markup(line: str) -> list[Finding]:
    """CT502 in XML and HTML: see _TAG."""
    found = []
    for tag in _TAG.finditer(line):
        if _STEM_ANY_CASE.search(line, tag.start(), tag.end()) is None:
            continue  # no secret word in the tag: its name or attributes name no secret
        attributes = {m.group("attr").lower(): m.group("dq") if m.group("dq") is not None else m.group("sq")
                      for m in _ATTRIBUTE.finditer(tag.group("attrs") or "")}
        names = [attributes[a] for a in _NAMING if a in attributes and is_secret_key(attributes[a])]
        if is_secret_key(tag.group("name")):
            names.append(tag.group("name"))
        if not names:
            continue
        value = next((attributes[a] for a in _VALUES if a in attributes), None)
        end = tag.end()
        if value is None and (content := _CONTENT.match(line, tag.end())) is not None:
            value, end = content.group("content"), content.end("content")
        if value is not None and value.strip() and not is_reference(value, quoted=True):
            found.append(Finding(tag.start(), f"`{names[0]}` is given a value (`{redact(value)}`)", end, value))
    return found
