"""The secret-disguise matrix: one secret, disguised in every way issue 23's audit names, each in a
file of its own, all in one corpus (a few cases need a corpus of their own: the corpus README).

A case is caught when CT501, CT502 or CT503 reports the secret in its file (a link: when CT508 says
it was not followed); its marker, `case-NNN`, is in the reported path (the redaction of a path
keeps it). CT508 alone does not catch a disguise: the secret itself must be found. The families: invisible
characters of every category the fold drops, look-alikes, YAML and JSON escapes, UTF-16 and UTF-32
files, files the scan used not to read, password-assignment variants, and markup encodings.
Fake secrets are assembled at run time (tests/support/secrets_cases.py), never written literally.
"""

from __future__ import annotations

import base64
import codecs
import os
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.corpus import write_corpus
from tests.support.lint import lint_run
from tests.support.secrets_cases import AWS_ID, GITHUB, fake

PASSWORD = "Tr0ub" + "4dor9x"
# A disguise is caught when the secret itself is found; a link is caught when CT508 says it was not
# followed (what it points at is never read).
FOUND = frozenset({"CT501", "CT502", "CT503"})
NOT_FOLLOWED = frozenset({"CT508"})
SESSION_HEAD = "---\nschema_version: 1\nsession_id: 3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d\nharness: claude\n" \
               "captured_at: '2026-01-05T10:00:00Z'\n---\n"


@dataclass(frozen=True)
class Disguise:
    id: str  # case-NNN-<what>, unique
    family: str
    files: dict = field(default_factory=dict)  # path inside the corpus -> str or bytes
    corpus: str = "shared"  # cases whose file must sit where another case's does get their own corpus
    links: dict = field(default_factory=dict)  # path inside the corpus -> link target (outside it)
    reach: str = ""  # why the scan cannot catch it, for a case it is known not to (empty: it must)

    @property
    def caught_by(self) -> frozenset[str]:
        return NOT_FOLLOWED if self.links else FOUND

    @property
    def marker(self) -> str:
        return self.id.split("-", 2)[0] + "-" + self.id.split("-", 2)[1]


def session_with(line: str) -> str:
    return f"{SESSION_HEAD}[USER]: {line}\n[AGENT]: Noted.\n"


# Invisible characters, by general category (and the blanks and default-ignorables of others).
INVISIBLE = {
    "Cc": ["\x01", "\x07", "\x08", "\x1b", "\x1f", "\x7f", "\x85", "\x9b"],
    "Cf": ["\u00ad", "\u0600", "\u061c", "\u06dd", "\u070f", "\u180e", "\u200b", "\u200e", "\u202a", "\u202e",
           "\u2061", "\u2066", "\ufeff", "\ufff9", "\ufffb", "\U000110bd", "\U0001d173", "\U000e0001", "\U000e0041"],
    "Mn": ["\u0301", "\u0336", "\u034f", "\u05bf", "\u20d2", "\ufe00", "\ufe20", "\U000e0100"],
    "Me": ["\u0488", "\u20dd", "\u20e3"],
    "Zl": ["\u2028"],
    "Zp": ["\u2029"],
    "Zs": ["\u00a0", "\u1680", "\u2000", "\u2007", "\u2009", "\u200a", "\u202f", "\u205f", "\u3000"],
    "blank": ["\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"],
}


def _invisible_cases() -> list[tuple[str, dict]]:
    cases = []
    for category, chars in INVISIBLE.items():
        for char in chars:
            name = f"{category}-U{ord(char):04X}"
            cases.append((f"aws-{name}", {"line": f"The key {AWS_ID[:4]}{char}{AWS_ID[4:]} is in the env."}))
            cases.append((f"github-{name}", {"line": f"Pushed with {GITHUB[:3]}{char}{GITHUB[3:]} today."}))
            cases.append((f"password-{name}", {"line": f"pass{char}word={PASSWORD}"}))
    return cases


def _lookalike_cases() -> list[tuple[str, dict]]:
    fullwidth = "".join(chr(ord(c) + 0xFEE0) for c in AWS_ID)
    bold = "".join(chr(0x1D400 + ord(c) - ord("A")) if c.isupper() else c for c in AWS_ID)  # MATHEMATICAL BOLD
    return [
        ("fullwidth-aws", {"line": f"key {fullwidth} here"}),
        ("cyrillic-a-aws", {"line": f"key \u0410{AWS_ID[1:]} here"}),
        ("math-bold-aws", {"line": f"key {bold} here"}),
        ("fullwidth-equals", {"line": f"password\uff1d{PASSWORD}"}),
        ("cyrillic-password", {"line": f"p\u0430ssword: {PASSWORD}"}),
        ("fullwidth-github", {"line": "key " + "".join(chr(ord(c) + 0xFEE0) if c != "_" else "\uff3f" for c in GITHUB)}),
    ]


def _escape_cases() -> list[tuple[str, dict]]:
    aws_x = "\\x41" + AWS_ID[1:]
    aws_u = "\\u0041" + AWS_ID[1:]
    gh_u = "\\u0067" + GITHUB[1:]
    gh_x = "gh\\x70" + GITHUB[3:]
    yaml = [
        ("yaml-x-aws", f'notes: "{aws_x}"\n'),
        ("yaml-u-aws", f'notes: "{aws_u}"\n'),
        ("yaml-U-aws", f'notes: "\\U00000041{AWS_ID[1:]}"\n'),
        ("yaml-u-github", f'notes: "{gh_u}"\n'),
        ("yaml-x-github", f'notes: "{gh_x}"\n'),
        ("yaml-continuation-aws", f'notes: "{AWS_ID[:8]}\\\n  {AWS_ID[8:]}"\n'),
        ("yaml-nbsp-escape-aws", f'notes: "{AWS_ID[:4]}\\_{AWS_ID[4:]}"\n'),
        ("yaml-nel-escape-aws", f'notes: "{AWS_ID[:4]}\\N{AWS_ID[4:]}"\n'),
        ("yaml-nul-escape-aws", f'notes: "{AWS_ID[:4]}\\0{AWS_ID[4:]}"\n'),
        ("yaml-x-password-key", f'notes: "pass\\x77ord: {PASSWORD}"\n'),
        ("yaml-escaped-key", f'"\\x70assword": "{PASSWORD}"\n'),
        ("yaml-u-zwsp-aws", f'notes: "{AWS_ID[:4]}\\u200b{AWS_ID[4:]}"\n'),
    ]
    json = [
        ("json-u-aws", f'{{"note": "{aws_u}"}}\n'),
        ("json-u-github", f'{{"note": "{gh_u}"}}\n'),
        ("json-u-middle-github", f'{{"note": "gh\\u0070{GITHUB[3:]}"}}\n'),
        ("json-u-zwsp-aws", f'{{"note": "{AWS_ID[:4]}\\u200b{AWS_ID[4:]}"}}\n'),
        ("json-u-equals", f'{{"note": "password\\u003d{PASSWORD}"}}\n'),
        ("json-u-key", f'{{"\\u0070assword": "{PASSWORD}"}}\n'),
        ("json-solidus-hook", '{"hook": "https:\\/\\/hooks.slack.com\\/services\\/T' + fake(8, "ABCDEFGH0123")
         + '\\/B' + fake(10, "ABCDEFGH0123") + '\\/' + fake(24) + '"}\n'),
        ("json-u-whole-aws", '{"note": "' + "".join(f"\\u{ord(c):04x}" for c in AWS_ID) + '"}\n'),
    ]
    return ([(name, {"path": "expected/{m}.yaml", "text": text}) for name, text in yaml]
            + [(name, {"path": "gold/{m}.json", "text": text}) for name, text in json])


def _encoding_cases() -> list[tuple[str, dict]]:
    text = session_with(f"The key is {AWS_ID} here.")
    le, be = text.encode("utf-16-le"), text.encode("utf-16-be")
    return [(name, {"path": "sessions/{m}.md", "bytes": data}) for name, data in [
        ("utf16le-bom", codecs.BOM_UTF16_LE + le),
        ("utf16be-bom", codecs.BOM_UTF16_BE + be),
        ("utf32le-bom", codecs.BOM_UTF32_LE + text.encode("utf-32-le")),
        ("utf32be-bom", codecs.BOM_UTF32_BE + text.encode("utf-32-be")),
        ("utf16le-no-bom", le),
        ("utf16be-no-bom", be),
        ("utf16-wrong-bom", codecs.BOM_UTF16_BE + le),
        ("utf16-odd-length", codecs.BOM_UTF16_LE + le + b"\x00"),
        ("utf8-bom-crlf", codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode()),
        ("latin1-bytes", text.replace("here", "caf\xe9").encode("latin-1")),
    ]]


def _placement_cases() -> list[tuple[str, dict]]:
    line = f"The key is {AWS_ID} here.\n"
    return [
        ("notes-txt", {"path": "sessions/{m}-notes.txt", "text": line}),
        ("gold-txt", {"path": "gold/{m}.txt", "text": line}),
        ("gold-subfolder", {"path": "gold/{m}/x.json", "text": '{"note": "' + AWS_ID + '"}\n'}),
        ("hidden-session", {"path": "sessions/.{m}.md", "text": session_with(line.strip())}),
        ("runs-output", {"path": "runs/{m}/admit-convention-01.json", "text": '{"x": "' + AWS_ID + '"}\n'}),
        ("calibration-worksheet", {"path": "calibration/{m}.yaml", "text": f"why: {line}"}),
        ("root-notes", {"path": "{m}-notes.md", "text": line}),
        ("sidecar-yml", {"path": "expected/{m}.yml", "text": f"notes: {line}"}),
        ("sidecar-upper", {"path": "expected/{m}.YAML", "text": f"notes: {line}"}),
        ("session-markdown", {"path": "sessions/{m}.markdown", "text": session_with(line.strip())}),
        ("no-extension", {"path": "sessions/{m}", "text": line}),
        ("backup", {"path": "expected/{m}.yaml.bak", "text": f"notes: {line}"}),
        ("named-like-key", {"path": "sessions/{m}-" + AWS_ID + ".txt", "text": "nothing here\n"}),
        ("folder-named-like-key", {"path": "gold/{m}-" + GITHUB + "/x.txt", "text": "nothing here\n"}),
        ("named-percent-key", {"path": "sessions/{m}-%41" + AWS_ID[1:] + ".txt", "text": "nothing here\n"}),
        ("named-zwsp-key", {"path": "sessions/{m}-" + AWS_ID[:4] + "\u200b" + AWS_ID[4:] + ".txt",
                            "text": "nothing here\n"}),
        ("symlinked-gold", {"link": "gold", "corpus": "own"}),
        ("symlinked-file", {"link": "sessions/{m}.md"}),
        ("readme", {"path": "README.md", "text": line, "corpus": "own"}),
    ]


def _assignment_cases() -> list[tuple[str, dict]]:
    p = PASSWORD
    lines = [
        f"_DB_PASSWORD={p}", f"__DB_PASSWORD={p}", f"DB_PASSWORD                 = {p}", f"db_password:\t\t\t{p}",
        f"dbPassword: {p}", f"DB-PASSWORD: {p}", f"db.password={p}", f"spring.datasource.password={p}",
        f"--password {p}", f"--password={p}", f"--db-password '{p}'", f"mysql -uroot -p{p} site",
        f"mysqldump -u backup -p'{p}' site > dump.sql", f"mariadb -u admin -p{p}", f"mysqladmin -uroot -p{p} status",
        "password = \"Tr0ub.4dor\"", "password: p4ss.w0rd", "password=correct.horse.battery.staple",
        f"password: {p}.", f"export MYSQL_PWD={p}", f"PGPASSWORD={p} psql -h db site", f"$password = '{p}';",
        f"'password' => '{p}',", f"password := \"{p}\"", f"Password: {p} for the admin account",
        f"admin_pass={p}", f"ROOT_PASSWORD={p}", f"smtpPassword = \"{p}\"", f"redis-cli -h cache -a {p} ping",
        f"sshpass -p '{p}' ssh deploy@web", f"docker login --password {p} registry", "password: \"S3cr3t(2024)!\"",
        f"passwd={p}", f"x-db-password: {p}", f"MYSQL_ROOT_PASSWORD: \"{p}\"",
    ]
    return [(f"assign-{i:02d}", {"line": line}) for i, line in enumerate(lines)]


def _markup_cases() -> list[tuple[str, dict]]:
    aws_b64 = base64.b64encode(f"aws_access_key_id = {AWS_ID}".encode()).decode()
    pw_b64 = base64.b64encode(f"password={PASSWORD}".encode()).decode()
    gh_b64 = base64.urlsafe_b64encode(f"token {GITHUB}".encode()).decode().rstrip("=")
    return [(name, {"line": line}) for name, line in [
        ("entity-decimal-aws", f"key &#65;{AWS_ID[1:]} here"),
        ("entity-hex-aws", f"key &#x41;{AWS_ID[1:]} here"),
        ("entity-hex-github", f"key &#x67;{GITHUB[1:]} here"),
        ("entity-zwsp-aws", f"key {AWS_ID[:4]}&#8203;{AWS_ID[4:]} here"),
        ("entity-shy-password", f"pass&shy;word={PASSWORD}"),
        ("entity-equals", f"password&#61;{PASSWORD}"),
        ("entity-quot", f"password=&quot;{PASSWORD}&quot;"),
        ("entity-all-aws", "key " + "".join(f"&#{ord(c)};" for c in AWS_ID)),
        ("percent-aws", f"key %41{AWS_ID[1:]} here"),
        ("percent-zwsp-aws", f"key {AWS_ID[:4]}%E2%80%8B{AWS_ID[4:]} here"),
        ("percent-equals", f"password%3D{PASSWORD}"),
        ("percent-all-github", "key " + urllib.parse.quote(GITHUB, safe="").replace("_", "%5F")),
        ("base64-aws", f"config {aws_b64} here"),
        ("base64-password", f"env {pw_b64}"),
        ("base64-urlsafe-github", f"blob {gh_b64}"),
    ]]


def numbered(specs: list[tuple[str, str, dict]], prefix: str) -> list[Disguise]:
    """Disguises from (family, name, spec) in a stable order: `<prefix>-NNN-<name>`, its marker
    `<prefix>-NNN`. A spec is one `line` of a session, a file (`path` with `{m}` for the marker,
    and `text` or `bytes`), or a `link`; `corpus: own` gives it a corpus of its own, and `reach`
    says why the scan cannot catch it."""
    found = []
    for number, (family, name, spec) in enumerate(specs):
        case_id = f"{prefix}-{number:03d}-{name}"
        marker = f"{prefix}-{number:03d}"
        corpus = spec.get("corpus", "shared")
        files: dict[str, str | bytes] = {}
        if "line" in spec:
            files = {f"sessions/{marker}.md": session_with(spec["line"])}
        elif "link" not in spec:
            files = {str(spec["path"]).replace("{m}", marker): spec["bytes"] if "bytes" in spec else spec["text"]}
        links = {spec["link"].replace("{m}", marker): "outside"} if "link" in spec else {}
        found.append(Disguise(case_id, family, files, corpus if corpus == "shared" else case_id, links,
                              spec.get("reach", "")))
    return found


def cases() -> list[Disguise]:
    """Every disguise, numbered in a stable order."""
    specs = [("invisible", *c) for c in _invisible_cases()] + [("lookalike", *c) for c in _lookalike_cases()] \
        + [("escape", *c) for c in _escape_cases()] + [("encoding", *c) for c in _encoding_cases()] \
        + [("placement", *c) for c in _placement_cases()] + [("assignment", *c) for c in _assignment_cases()] \
        + [("markup", *c) for c in _markup_cases()]
    return numbered(specs, "case")


def plant(base: Path, planted: list[Disguise]) -> dict[str, Path]:
    """Every corpus of `planted` under `base`, by name; every link points at one outside folder."""
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("nothing to see\n", encoding="utf-8")
    files: dict[str, dict] = {}
    for case in planted:
        files.setdefault(case.corpus, {}).update(case.files)
    roots = {name: write_corpus(base / name, corpus_files) for name, corpus_files in files.items()}
    for case in planted:
        for relative in case.links:
            link = roots[case.corpus] / relative
            link.parent.mkdir(parents=True, exist_ok=True)
            if link.is_dir():
                os.rmdir(link)
            os.symlink(outside, link)
    return roots


def caught_markers(base: Path, planted: list[Disguise], codes: Iterable[str] | None = None) -> set[str]:
    """The markers of the cases some rule reported (`codes`, else each case's `caught_by`), over
    every corpus: a case with a corpus of its own is named after it, so its marker is in every
    path reported there (the redaction of a path keeps it)."""
    wanted = None if codes is None else frozenset(codes)
    caught: set[str] = set()
    for root in plant(base, planted).values():
        for diagnostic in lint_run(root).diagnostics:
            caught.update(case.marker for case in planted if case.marker in diagnostic.path
                          and diagnostic.code in (case.caught_by if wanted is None else wanted))
    return caught
