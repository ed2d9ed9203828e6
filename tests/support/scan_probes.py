"""The secret scan's four probe sets (issue 31, item 17), each a table the figures test reads
(tests/adversarial/test_scan_figures.py):

- DISGUISES (132): one token disguised as a reader still reads it: every family of issue 23's
  matrix (invisible characters, look-alikes, escapes, encodings, base64), and split by Markdown
  emphasis, code spans, strikethrough, HTML tags and comments, link syntax and Markdown escapes,
  glued to a word, split across lines (with and without a continuation mark) and across string
  literals. Caught: CT501, CT502 or CT503 reports it in its file.
- ASSIGNMENTS (36): a password or key given a literal value in the forms CT502 must read (the
  values starting with `!#@*&`, HTML and XML forms, comparisons, short and foreign key words,
  prose, JSON/YAML/ENV/shell/URL-query/INI/TOML/PHP). Caught: CT501, CT502 or CT503 in its file.
- LOCATIONS (38): every place of a corpus a token can sit, each planted in a corpus of its own
  (a session's body and frontmatter, a sidecar's terms, ids and notes, corpus.yaml, gold, runs,
  calibration worksheets, the README, file and folder names, ...). Caught: CT501 reports it in
  the file it was planted in (at the line, where one is given).
- PLAIN (30): engineering and support sentences no secret rule may flag (versions, OIDs,
  reference and order numbers, SKUs, hashes, UUIDs, colours, identifiers, a PEM header named in
  prose). Flagged: any of CT501-CT507 in its file.

A probe the scan cannot reach is marked `reach=False` with the reason; the test asserts exactly
those pass (so the figures in docs/security.md stay true). Fake secrets are assembled at run time
(tests/support/secrets_cases.py), never written literally.
"""

from __future__ import annotations

import base64
import codecs
from dataclasses import dataclass, field

from tests.support.corpus import ADMIT_ID, SPEC_TEXT, session_text, sidecar_text
from tests.support.disguises import PASSWORD, Disguise, numbered, session_with
from tests.support.secrets_cases import (
    ANTHROPIC,
    GITHUB,
    GITLAB,
    GOOGLE,
    OPENAI_PROJECT,
    SLACK_BOT,
    STRIPE_LIVE,
    fake,
)

BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
# The issue's own example (`AKIA**Z7Q2**M4…`): an AWS key id in AWS's alphabet (A-Z, 2-7).
AWS = "AKIA" + "Z7Q2M4" + fake(10, BASE32, offset=3)
SECRET_CODES = frozenset({"CT501", "CT502", "CT503"})
CONTACT_CODES = frozenset({"CT501", "CT502", "CT503", "CT504", "CT505", "CT506", "CT507"})

# Tokens of eight vendors, and where each is split: a few characters into its body.
TOKENS = {"aws": AWS, "github": GITHUB, "slack": SLACK_BOT, "stripe": STRIPE_LIVE, "openai": OPENAI_PROJECT,
          "google": GOOGLE, "gitlab": GITLAB, "anthropic": ANTHROPIC}
_PREFIX = {"aws": 4, "github": 4, "slack": 5, "stripe": 8, "openai": 8, "google": 4, "gitlab": 6, "anthropic": 7}


def split(name: str, offset: int = 2) -> tuple[str, str]:
    """TOKENS[name] cut `offset` characters into its body."""
    token, at = TOKENS[name], _PREFIX[name] + offset
    return token[:at], token[at:]


def around(name: str, before: str, after: str = "", length: int = 4) -> str:
    """TOKENS[name] with `length` characters of its body wrapped in `before` ... `after`."""
    head, tail = split(name)
    return head + before + tail[:length] + (after or before) + tail[length:]


def inside(name: str, mark: str, offset: int = 2) -> str:
    head, tail = split(name, offset)
    return head + mark + tail


# --- 132 disguised tokens -----------------------------------------------------------------------

def _invisible() -> list[tuple[str, dict]]:
    chars = {"aws": ("\u200b", "\u3164"), "github": ("\u00ad", "\u200d"), "slack": ("\u00a0", "\u2060"),
             "stripe": ("\u0301", "\ufeff"), "openai": ("\u2060", "\u034f"), "google": ("\u202e", "\u2066"),
             "gitlab": ("\ufe0f", "\u180e"), "anthropic": ("\U000e0041", "\u2800")}
    return [(f"{name}-U{ord(char):04X}", {"line": f"The key {inside(name, char)} is set."})
            for name, pair in chars.items() for char in pair]


def _lookalike() -> list[tuple[str, dict]]:
    fullwidth = "".join(chr(ord(c) + 0xFEE0) for c in AWS)
    bold = "".join(chr(0x1D400 + ord(c) - ord("A")) if c.isupper() else c for c in AWS)
    return [(name, {"line": f"key {text} here"}) for name, text in [
        ("fullwidth-aws", fullwidth),
        ("cyrillic-a-aws", "\u0410" + AWS[1:]),
        ("math-bold-aws", bold),
        ("fullwidth-underscore-github", GITHUB[:3] + "\uff3f" + GITHUB[4:]),
        ("greek-omicron-slack", "x\u03bf" + SLACK_BOT[2:]),
    ]]


def _escape() -> list[tuple[str, dict]]:
    return [
        ("yaml-x-aws", {"path": "expected/{m}.yaml", "text": f'notes: "\\x41{AWS[1:]}"\n'}),
        ("json-u-github", {"path": "gold/{m}.json", "text": '{"note": "\\u0067' + GITHUB[1:] + '"}\n'}),
        ("json-u-zwsp-slack", {"path": "gold/{m}.json", "text": '{"note": "' + inside("slack", "\\u200b") + '"}\n'}),
        ("yaml-continued-aws", {"path": "expected/{m}.yaml", "text": f'notes: "{AWS[:9]}\\\n  {AWS[9:]}"\n'}),
        ("entity-decimal-aws", {"line": f"key &#65;{AWS[1:]} here"}),
        ("entity-hex-github", {"line": f"key &#x67;{GITHUB[1:]} here"}),
        ("percent-aws", {"line": f"key %41{AWS[1:]} here"}),
        ("percent-all-stripe", {"line": "key " + "".join(f"%{ord(c):02X}" for c in STRIPE_LIVE)}),
    ]


def _encoding() -> list[tuple[str, dict]]:
    text = session_with(f"The key is {AWS} here.")
    return [(name, {"path": "sessions/{m}.md", "bytes": data}) for name, data in [
        ("utf16le-bom", codecs.BOM_UTF16_LE + text.encode("utf-16-le")),
        ("utf16be-no-bom", text.encode("utf-16-be")),
        ("utf32le-bom", codecs.BOM_UTF32_LE + text.encode("utf-32-le")),
        ("latin1-byte", text.replace("here", "caf\xe9").encode("latin-1")),
        ("utf8-bom-crlf", codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode()),
    ]]


def _base64() -> list[tuple[str, dict]]:
    return [(name, {"line": line}) for name, line in [
        ("base64-aws", "config " + base64.b64encode(f"aws_access_key_id = {AWS}".encode()).decode()),
        ("base64-urlsafe-github", "blob " + base64.urlsafe_b64encode(f"token {GITHUB}".encode()).decode().rstrip("=")),
    ]]


def _emphasis() -> list[tuple[str, dict]]:
    """Markdown that renders the token whole: bold, italics, code spans, strikethrough inside it,
    and underscores around it."""
    cases = []
    for name in TOKENS:
        cases += [(f"bold-inside-{name}", {"line": f"Use {around(name, '**')} here."}),
                  (f"underscores-around-{name}", {"line": f"Use _{TOKENS[name]}_ here."}),
                  (f"code-span-inside-{name}", {"line": f"Use {around(name, '`')} here."})]
    cases += [(f"strike-inside-{name}", {"line": f"Use {around(name, '~~')} here."}) for name in list(TOKENS)[:6]]
    head, tail = split("aws")
    cases += [
        ("star-inside-aws", {"line": f"Use {around('aws', '*')} here."}),
        ("bold-italic-inside-aws", {"line": f"Use {around('aws', '***')} here."}),
        ("bold-prefix-aws", {"line": f"Use **{head}**{tail} here."}),
        ("bold-prefix-github", {"line": f"Use **{GITHUB[:4]}**{GITHUB[4:]} here."}),
        ("strong-underscores-around-github", {"line": f"Use __{GITHUB}__ here."}),
        ("intraword-underscores-aws", {"line": f"Use {around('aws', '__')} here."}),
        ("double-backticks-stripe", {"line": f"Use {around('stripe', '``')} here."}),
        ("link-text-aws", {"line": f"Use [{head}{tail[:4]}](https://docs.fern.test/x){tail[4:]} here."}),
        ("escaped-underscore-github", {"line": f"Use {GITHUB[:3]}\\_{GITHUB[4:]} here."}),
        ("escaped-underscores-stripe", {"line": "Use " + STRIPE_LIVE.replace("_", "\\_") + " here."}),
        ("escaped-hyphens-slack", {"line": "Use " + SLACK_BOT.replace("-", "\\-") + " here."}),
        ("zwsp-and-bold-aws", {"line": f"Use {head}\u200b**{tail[:4]}**{tail[4:]} here."}),
    ]
    return cases


def _tags() -> list[tuple[str, dict]]:
    tags = {"aws": ("<b>", "</b>"), "github": ("<wbr>", ""), "slack": ("<em>", "</em>"),
            "stripe": ("<span>", "</span>"), "openai": ("<strong>", "</strong>"),
            "google": ("<code>", "</code>"), "gitlab": ("<i>", "</i>"), "anthropic": ("<sup>", "</sup>")}
    cases = [(f"tag-{name}", {"line": f"Use {around(name, *pair)} here."}) for name, pair in tags.items()]
    head, tail = split("aws", 4)
    cases.append(("line-break-tag-aws", {"line": f"Use {head}<br>{tail} here."}))
    return cases


def _comments() -> list[tuple[str, dict]]:
    cases = [(f"comment-{name}", {"line": f"Use {inside(name, '<!-- -->')} here."}) for name in TOKENS]
    head, tail = split("aws")
    cases += [
        ("two-comments-aws", {"line": f"Use {head}<!-- a -->{tail[:3]}<!-- b -->{tail[3:]} here."}),
        ("comment-across-lines-aws", {"line": f"Use {head}<!--\n-->{tail} here."}),
        ("comment-in-password-key", {"line": f"pass<!-- -->word={PASSWORD}"}),
    ]
    return cases


def _glued() -> list[tuple[str, dict]]:
    return [(name, {"line": line}) for name, line in [
        ("word-before-aws", f"The keyAKIA{AWS[4:]} is set."),
        ("word-before-aws-2", f"The tokenAKIA{AWS[4:]} is set."),
        ("digits-before-aws", f"The id 2024{AWS} is set."),
        ("word-after-aws", f"The {AWS}secret is set."),
        ("word-around-aws", f"The key{AWS}secret is set."),
        ("capitals-before-github", f"Set GITHUB_TOKEN{GITHUB} now."),
        ("digit-before-github", f"Set v2{GITHUB} now."),
        ("word-before-github", f"Set my{GITHUB} now."),
        ("word-before-slack", f"Set slack{SLACK_BOT} now."),
        ("word-before-google", f"Set key{GOOGLE} now."),
        ("capitals-before-stripe", f"Set STRIPE{STRIPE_LIVE} now."),
        ("digit-before-openai", f"Set 1{OPENAI_PROJECT} now."),
        ("word-before-gitlab", f"Set token{GITLAB} now."),
        ("word-after-github", f"Set {GITHUB}and go."),
    ]]


def _lines() -> list[tuple[str, dict]]:
    """A token broken over lines as text wraps, with and without a continuation mark."""
    head, tail = split("aws", 4)
    gh_head, gh_tail = GITHUB[:14], GITHUB[14:]
    return [
        ("wrapped-aws", {"line": f"The key is {head}\n{tail} in the env."}),
        ("wrapped-github", {"line": f"Pushed with {gh_head}\n{gh_tail} today."}),
        ("wrapped-after-prefix-github", {"line": f"Pushed with {GITHUB[:4]}\n{GITHUB[4:]} today."}),
        ("wrapped-inside-prefix-aws", {"line": f"The key is AK\nIA{AWS[4:]} in the env."}),
        ("wrapped-three-lines-aws", {"line": f"The key is AKIA\n{AWS[4:12]}\n{AWS[12:]} in the env."}),
        ("wrapped-indented-openai", {"line": f"Set {OPENAI_PROJECT[:20]}\n    {OPENAI_PROJECT[20:]} first."}),
        ("hard-break-aws", {"line": f"The key is {head}  \n{tail} in the env."}),
        ("hyphenated-aws", {"line": f"The key is {head}-\n{tail} in the env."}),
        ("shell-continuation-aws", {"line": f"export AWS_ACCESS_KEY_ID={head}\\\n{tail}"}),
        ("shell-continuation-slack", {"line": f"slack-cli --token {SLACK_BOT[:16]}\\\n  {SLACK_BOT[16:]} post"}),
        ("blockquote-aws", {"line": f"\n> The key is {head}\n> {tail} in the env."}),
        ("comment-lines-github", {"line": f"\n# token {gh_head}\n# {gh_tail}"}),
        ("bold-lines-aws", {"line": f"The key is **{head}**\n**{tail}** in the env."}),
        ("yaml-plain-scalar-aws", {"path": "expected/{m}.yaml", "text": f"notes: the key {head}\n  {tail} is old\n"}),
        ("python-implicit-concat-aws", {"line": f'key = ("{head}"\n       "{tail}")'}),
    ]


def _literals() -> list[tuple[str, dict]]:
    head, tail = split("aws", 4)
    return [
        ("concat-plus-aws", {"line": f'key = "{head}" + "{tail}"'}),
        ("concat-implicit-github", {"line": f'token = "{GITHUB[:12]}" "{GITHUB[12:]}"'}),
        ("concat-dot-php-stripe", {"line": f"$key = '{STRIPE_LIVE[:12]}' . '{STRIPE_LIVE[12:]}';"}),
        ("spaced-groups-aws", {"line": "The key is " + " ".join(AWS[i:i + 4] for i in range(0, 20, 4)) + " here.",
                               "reach": "a token read out in groups: joining every space-separated word "
                                        "would join all prose"}),
        ("reversed-aws", {"line": f"The key backwards is {AWS[::-1]} here.",
                          "reach": "a token written backwards: no reader takes it for one without being told"}),
    ]


DISGUISE_FAMILIES = {"invisible": _invisible, "lookalike": _lookalike, "escape": _escape, "encoding": _encoding,
                     "base64": _base64, "emphasis": _emphasis, "tag": _tags, "comment": _comments, "glued": _glued,
                     "lines": _lines, "literals": _literals}


def disguises() -> list[Disguise]:
    return numbered([(family, *case) for family, make in DISGUISE_FAMILIES.items() for case in make()], "dis")


# --- 36 assignments (CT502) ---------------------------------------------------------------------

GENERATED = "Xk9v" + "Q2mL7pR4"


def _assignment_lines() -> list[tuple[str, str]]:
    p, g = PASSWORD, GENERATED
    return [
        ("env-bang", f"DB_PASSWORD=!{g}"), ("env-hash", f"DB_PASSWORD=#{g}"), ("env-at", f"DB_PASSWORD=@{g}"),
        ("env-star", f"DB_PASSWORD=*{g}"), ("env-ampersand", f"DB_PASSWORD=&{g}"),
        ("html-input-name", f'<input name="password" value="{p}">'),
        ("html-input-type", f'<input type="password" id="pw" value="{p}">'),
        ("xml-element", f"<password>{p}</password>"),
        ("xml-add-key", f'<add key="DbPassword" value="{p}" />'),
        ("spring-property", f'<property name="password" value="{p}"/>'),
        ("compare-python", f'if password == "{p}":'),
        ("compare-js", f"assert(user.password === '{p}');"),
        ("short-pw", f"pw={p}"), ("bare-pass", f"PASS={p}"), ("json-bare-pass", f'{{"pass": "{p}"}}'),
        ("api-key-space", f"api-key {g}wZ"),
        ("german-passwort", f"passwort={p}"), ("german-kennwort", f"Kennwort: {p}"),
        ("french-mot-de-passe", f"mot_de_passe={p}"), ("spanish-contrasena", f"contraseña: {p}"),
        ("portuguese-senha", f"senha={p}"), ("dutch-wachtwoord", f"wachtwoord: {p}"),
        ("russian-parol", f"пароль: {p}"),
        ("prose-is", f"my password is {p} for now"),
        ("yaml-next-line", f"password:\n  {p}"),
        ("php-define", f"define('DB_PASSWORD', '{p}');"),
        ("call-pair", f'os.environ.setdefault("API_TOKEN", "{g}")'),
        ("json", f'{{"db_password": "{p}"}}'), ("yaml", f"  smtp_password: {p}"),
        ("env-export", f"export API_TOKEN={g}"), ("shell-prefix", f"PASSWORD='{p}' ./deploy.sh"),
        ("url-query", f"https://shop.fern.test/login?user=admin&password={p}"),
        ("ini", f"password = {p}"), ("toml", f'api_key = "{g}"'),
        ("connection-string", f"Server=db;User Id=sa;Password={p};"),
        ("powershell", f'$env:API_KEY = "{g}"'),
    ]


def assignments() -> list[Disguise]:
    return numbered([("assignment", name, {"line": line}) for name, line in _assignment_lines()], "asg")


# --- 38 locations -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Location:
    """A token planted in one place of an otherwise valid corpus (a corpus of its own), and where
    CT501 must report it: `at` (the path inside the corpus) and `line` (None: any line, or the
    file as a whole for a name)."""

    name: str
    files: dict = field(default_factory=dict)  # path inside the corpus -> text (over VALID_FILES)
    at: str = ""
    line: int | None = None
    reach: str = ""


SESSION = f"sessions/{ADMIT_ID}.md"
SIDECAR = f"expected/{ADMIT_ID}.yaml"
LOWER = AWS.lower()  # a place that holds lowercase text holds the key lowercased


def _point(term_key: str, term: str) -> str:
    return (f"\n  - id: expire-via-queue\n    type: practice\n    {term_key}:\n      - queue worker\n"
            f"      - {term}\n")


def _spec_with(old: str, new: str) -> str:
    assert old in SPEC_TEXT
    return SPEC_TEXT.replace(old, new, 1)


def locations() -> list[Location]:
    t = AWS
    body = f"[USER]: Deploy with {t} set.\n[AGENT]: Noted, I will keep that in mind.\n"
    found = [
        Location("session-user-turn", {SESSION: session_text(body=body)}, SESSION, 7),
        Location("session-agent-turn", {SESSION: session_text(body=f"[USER]: Go.\n[AGENT]: I used {t} there.\n")},
                 SESSION, 8),
        Location("session-continuation-line",
                 {SESSION: session_text(body=f"[USER]: Output:\nkey = {t}\n[AGENT]: Noted.\n")}, SESSION, 8),
        Location("session-code-fence",
                 {SESSION: session_text(body=f"[USER]: Here:\n```\nexport K={t}\n```\n[AGENT]: Noted.\n")}, SESSION, 9),
        Location("frontmatter-harness", {SESSION: session_text(harness=LOWER)}, SESSION, 4),
        Location("frontmatter-harness-as-written", {SESSION: session_text(harness=t)}, SESSION, 4),
        Location("frontmatter-extra-key", {SESSION: session_text(extra_frontmatter=f"model: {t}\n")}, SESSION, 6),
        Location("frontmatter-captured-at", {SESSION: session_text(captured_at=f"'{t}'")}, SESSION, 5),
        Location("frontmatter-session-id", {SESSION: session_text(session_id=t)}, SESSION, 3),
        Location("sidecar-notes", {SIDECAR: sidecar_text(notes=f"the key {t} was rotated")}, SIDECAR),
        Location("sidecar-term-all", {SIDECAR: sidecar_text(points=_point("must_match_all", LOWER))}, SIDECAR, 9),
        Location("sidecar-term-any", {SIDECAR: sidecar_text(points=_point("must_match_any", LOWER))}, SIDECAR, 9),
        Location("sidecar-term-as-written", {SIDECAR: sidecar_text(points=_point("must_match_all", t))}, SIDECAR, 9),
        Location("sidecar-forbidden-term",
                 {SIDECAR: sidecar_text(points=_point("must_match_all", "expired signups")
                                        + f"    must_not_match:\n      - {LOWER}\n")}, SIDECAR, 11),
        Location("sidecar-point-id", {SIDECAR: sidecar_text(points=_point("must_match_all", "expired signups")
                                                            .replace("expire-via-queue", LOWER))}, SIDECAR, 5),
        Location("sidecar-optional-point",
                 {SIDECAR: sidecar_text(optional="\n  - id: opt\n    type: practice\n    must_match_all:\n"
                                                 f"      - {LOWER}\n")}, SIDECAR),
        Location("sidecar-fixture-id", {SIDECAR: sidecar_text().replace(f"fixture_id: {ADMIT_ID}", f"fixture_id: {t}")},
                 SIDECAR, 1),
        Location("sidecar-comment", {SIDECAR: "# key " + t + "\n" + sidecar_text()}, SIDECAR, 1),
        Location("sidecar-key", {SIDECAR: sidecar_text() + f"{t}: 1\n"}, SIDECAR),
        Location("spec-name", {"corpus.yaml": _spec_with("name: tiny", f"name: {LOWER}")}, "corpus.yaml", 2),
        Location("spec-category-tests", {"corpus.yaml": _spec_with("tests: the user teaches a project convention",
                                                                   f"tests: the user pastes {t}")}, "corpus.yaml"),
        Location("spec-category-id", {"corpus.yaml": _spec_with("id: reject-noise", f"id: {LOWER}")}, "corpus.yaml"),
        Location("spec-harnesses", {"corpus.yaml": _spec_with("harnesses: [claude]", f"harnesses: [claude, {LOWER}]")},
                 "corpus.yaml", 6),
        Location("spec-comment", {"corpus.yaml": SPEC_TEXT + f"# rotated {t}\n"}, "corpus.yaml"),
        Location("spec-allow-reason", {"corpus.yaml": SPEC_TEXT + "lint:\n  secrets:\n    allow:\n      - fingerprint: "
                                       + "0" * 64 + f"\n        reason: not {t}\n"}, "corpus.yaml"),
        Location("gold-value", {f"gold/{ADMIT_ID}.json": '{"note": "' + t + '"}\n'}, f"gold/{ADMIT_ID}.json", 1),
        Location("gold-key", {f"gold/{ADMIT_ID}.json": '{"' + t + '": 1}\n'}, f"gold/{ADMIT_ID}.json", 1),
        Location("run-result", {f"runs/r1/{ADMIT_ID}.json": '{"proposals": [{"text": "' + t + '"}]}\n'},
                 f"runs/r1/{ADMIT_ID}.json", 1),
        Location("run-manifest", {"runs/r1/run.yaml": f"model: {t}\n"}, "runs/r1/run.yaml", 1),
        Location("calibration-worksheet", {"calibration/w.yaml": f"judgements:\n  - why: pasted {t}\n"},
                 "calibration/w.yaml", 2),
        Location("readme", {"README.md": f"# Tiny\n\nThe key {t} is rotated.\n"}, "README.md", 3),
        Location("notes-file", {"notes/todo.txt": f"rotate {t}\n"}, "notes/todo.txt", 1),
        Location("dotenv", {".env": f"AWS_ACCESS_KEY_ID={t}\n"}, ".env", 1),
        Location("session-file-name", {f"sessions/{t}.md": "nothing here\n"}, f"sessions/{t}.md"),
        Location("sidecar-file-name", {f"expected/{LOWER}.yaml": "notes: nothing\n"}, f"expected/{LOWER}.yaml"),
        Location("folder-name", {f"runs/{t}/x.json": "{}\n"}, f"runs/{t}"),
        Location("nested-file", {"runs/a/b/c/d.txt": f"key {t}\n"}, "runs/a/b/c/d.txt", 1),
        Location("session-in-subfolder", {f"sessions/old/{ADMIT_ID}.md": session_text(body=body)},
                 f"sessions/old/{ADMIT_ID}.md", 7),
    ]
    return found


# --- 30 plain sentences -------------------------------------------------------------------------

PLAIN = (
    ("bearer-class", "The Lambda uses the bearer ApiGatewayV2Authorizer class for auth."),
    ("driver-version", "Install driver version 4.1.2.3 from the vendor page."),
    ("oid", "The SNMP tree starts at OID 1.3.6.1 under iso."),
    ("reference-number", "Your reference number is 0042 7781 2290, keep it for the claim."),
    ("sku", "SKU ASIAPAC0042XLBLK18R9 ships from the Singapore warehouse."),
    ("order-number", "Order #100234-88 shipped on 2026-02-17 to the branch."),
    ("commit-hash", "Fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8 on main."),
    ("uuid", "The request id was 3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d in the logs."),
    ("semver", "Upgrade to v2.14.3-rc.1 before Friday."),
    ("css-colours", "The header colour is #1a2b3c and the link colour is #ff6600."),
    ("base64-word", "The fixture name Zm9vYmFyYmF6cXV4 decodes to a test string."),
    ("maven-version", "Maven pulls com.acme:billing:1.2.3.4-SNAPSHOT from the mirror."),
    ("firmware-version", "Firmware 2.1.0.4 fixes the fan curve on the older units."),
    ("docker-digest", "The image digest is sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08."),
    ("pod-name", "Pod api-7d9f8c6b5-x2k4q restarted twice during the deploy."),
    ("arn", "The role arn:aws:iam::123456789012:role/DeployRole can assume it."),
    ("stripe-ids", "Customer cus_NffrFeUfNV2Hib paid invoice in_1MtHbELkdIwHu7ixl4OzzPMv yesterday."),
    ("tracking-number", "The tracking number is 1Z999AA10123456784 with the courier."),
    ("isbn", "ISBN 978-0-13-468599-1 is the second edition of the book."),
    ("ticket-and-extension", "Extension 4821 reaches the help desk; ticket SUP-20931 tracks it."),
    ("windows-build", "Windows 10.0.19045.3930 is the reference machine for the test."),
    ("mac-address", "The MAC address 00:1a:2b:3c:4d:5e belongs to the label printer."),
    ("java-class", "AbstractSingletonProxyFactoryBean2 is the class name in the trace."),
    ("pem-header-named", "A PEM key file starts with -----BEGIN RSA PRIVATE KEY----- and ends with the END line."),
    ("discount-code", "Discount code SPRING2026SALE applies at checkout for members."),
    ("css-functions", "The theme uses rgba(26, 43, 60, 0.8) and hsl(210, 40%, 50%) for the cards."),
    ("timestamps", "Timestamps like 2026-02-17T09:41:26.000Z and 1739785286 are UTC."),
    ("invoice", "Invoice INV-2026-000481 was paid by bank transfer on Monday."),
    ("case-number", "Case number 01 23 45 67 89 was escalated to the second line."),
    ("password-policy", "The password reset link expires after 24 hours; the token bucket refills every 2 seconds."),
)


def plain() -> list[Disguise]:
    return numbered([("plain", name, {"line": line}) for name, line in PLAIN], "fp")
