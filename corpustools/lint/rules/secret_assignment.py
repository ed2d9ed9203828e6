"""A secret-ish key is assigned a literal value (`password=...`, `api_key: ...`, `token = "..."`).

What: a key whose normalised name (its words lowercased and joined: `_DB_PASSWORD`, `dbPassword`,
`DB-PASSWORD` and `db.password` are all `dbpassword`) ends in a secret word, with any alignment
before or after the separator (up to 64 spaces or tabs), given a literal value; and the command-line
forms: a long option named so followed by a value (`--password Tr0ub4dor9`, `--db-password 'x y'`;
`--password=...` is an assignment), `-pVALUE` glued after `mysql`, `mysqldump`, `mysqladmin`,
`mariadb` and their kin, `redis-cli -a VALUE` and `sshpass -p VALUE`. A space-separated value is a
literal when quoted or when it looks generated (letters with digits or symbols): `--password
prompt` is a word. Dotted and punctuated values are values (`p4ss.w0rd`, `correct.horse.battery`,
`hunter2.`); a dotted value is a reference only when it reads an attribute (`self.password`,
`settings.API_KEY`, a part naming a secret or an `UPPER_SNAKE` constant). In detail: a key whose last word is `password`, `passwd`, `passphrase`, `pwd`, `secret`, `token`,
`apikey`, `credential(s)` or `salt`, or `key` after `api`/`access`/`private`/`secret`/`client`/
`encryption`/`signing`/... , or `pass` after `db`/`smtp`/`admin`/..., followed by a separator and a
value, in any syntax: `password=hunter2` (.env, shell, `--password=`), `api_key: abc123` (YAML, a
prose label), `token = "..."` (code, TOML), `"secret": "..."` (JSON),
`$settings['hash_salt'] = '...'` and `'password' => '...'` (PHP), `?token=...` in a URL. Keys are
split into words (`DB_PASSWORD`, `clientSecret`, `x-api-key`), and a last word that ends in a
secret word without a break counts too (`PGPASSWORD`, `DBPASSWORD`, `JWTSECRET`); words that
merely contain or start with a secret word are not keys: `keyboard`, `monkey`, `basalt`,
`primary_key`, `tokenizer`, `passwordless`, `token_service`, `password_policy`, `max_tokens`.
Words for password in German, French, Spanish, Portuguese, Dutch, Russian, Chinese and Japanese
are secret words too (`passwort`, `Kennwort`, `mot_de_passe`, `contraseña`, `senha`,
`wachtwoord`, `пароль`, `密码`, `パスワード`); the short `pw` and a bare `pass` count when the value
looks generated (`pw=Tr0ub4dor9x`, `PASS=Tr0ub4dor9x`; `pass: 12` counts tests). Also read: a
comparison with a literal (`password == "..."`, `===`, `!=`), a quoted key and a quoted value
given as two arguments (`define('DB_PASSWORD', '...')`, `setdefault("API_TOKEN", "...")`, the value
with a digit), XML and HTML (`<password>...</password>`, `<input name="password" value="...">`,
`<add key="DbPassword" value="..."/>`, `<property name="password" value="..."/>`), prose with no
separator or with `is` (`my password is Tr0ub4dor9x`, `api-key Xk9vQ2mL7pR4`: the value one run
of 8 or more letters and digits that looks generated), and a key alone on its line whose value is
the next line (`password:` then `  Tr0ub4dor9x`). Keys and values split by Markdown or HTML
(`pass<!-- -->word=...`) are read as rendered (see CT501).

Not flagged, because they name or hide a secret rather than contain one: empty values; references
(`${DB_PASS}`, `$DB_PASS`, `%env(APP_SECRET)%`, `{{ token }}`, `@csrf_token`, `[site:name]`,
`getenv('X')`, `self.api_key`, `password=password`, an `UPPER_SNAKE` variable name); masks and
placeholders (`****`, `xxxx`, `...`, `<your-token>`, `[REDACTED]`, a value cut short with `…` or
`...` as redacted values are); `true`/`false`/`null`/`none`;
(the call, `->`, `::` and leading `! # @ & * < ? \\` heuristics apply to unquoted values only: a
quoted literal such as `"!Xk9vQ2mL7pR4"` or `"S3cr3t(2024)!"` is a value, and inside quotes only
`${...}`, `$VAR`, `%...%`, `{{ }}`, `[...]` and a whole `<placeholder>` are references; an
unquoted value that starts with `!`, `#`, `@`, `*` or `&` is a literal when the rest is one
generated-looking run of 8 or more characters naming no secret (`DB_PASSWORD=!Xk9vQ2mL7pR4`),
and otherwise a YAML tag, comment, anchor or alias or a parameter: `!vault`, `*db_password`,
`@param`, `password: #comment`);
type names (`token: string;`, `password: str`); paths to key files
(`private_key: ../keys/site.key`); and a `key: value` label followed by more words
(`Token: see the docs`), which is a sentence, unless the value looks generated
(`Password: Tr0ub4dor9 for the admin` is flagged). A value several lines below its key (a YAML
block scalar, a nested mapping) is not seen. Placeholder-looking literals such as `changeme` are
flagged: they are values.

Why: a password or key written into a fixture is leaked with it, and a realistic fake one looks
exactly like a leak to every reviewer and scanner. Secret rules can never be suppressed.

Example:

    $settings['hash_salt'] = 'Xk9vQ2mL7pR4';

    sessions/admit-gotcha-01.md:14:12: CT502 [error] `hash_salt` is assigned a value (`Xk9v…`); fingerprint 823415fc70cc2937fee2b0066399a18bef4d571b020b1d29648ae3f68e0ec111

Write `$settings['hash_salt'] = file_get_contents('../salt.txt');` or describe it in words.
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.lint.secrets.findings import secret_problems

CODE = "CT502"
NAME = "secret-assignment"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = False
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from secret_problems(ctx, CODE)
