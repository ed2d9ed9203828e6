"""The secret and personal-data rules (CT501-CT507) together, through each rule's check() on small
corpora: the secrets test set of tests/support/secrets_cases.py, every corpus file kind being
scanned, redaction, and bounded running time on adversarial and 1 MB lines. Each rule's own failing
and passing sample and its documented example are in tests/rules/test_<name>.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpustools.lint.context import LintContext
from corpustools.lint.options import defaults
from corpustools.lint.rules import secret_token
from corpustools.lint.secrets import decode
from corpustools.lint.secrets.hints import literal_hint
from corpustools.lint.secrets.tokens import SHAPES
from corpustools.model.corpus import load_corpus
from tests.support.corpus import ADMIT_ID, SPEC_TEXT, sidecar_text, write_corpus
from tests.support.secret_rules import (
    ADMIT_SESSION,
    FIRST_BODY_LINE,
    RULES,
    findings,
    one_file_context,
    session_with_lines,
    where,
)
from tests.support.secrets_cases import (
    ANTHROPIC,
    AWS_ID,
    BRAINTREE,
    GITHUB,
    JWT,
    MUST_FLAG,
    MUST_NOT_FLAG,
    OPENAI_PROJECT,
    STRIPE_LIVE,
)
from tests.support.work import growth, hang_guard


def test_the_shared_valid_corpus_has_no_secret_findings(make_corpus):
    assert findings(make_corpus()) == []


# --- the secrets test set ------------------------------------------------------------------------

SET_FIRST_LINE = FIRST_BODY_LINE + 1
NOT_FIRST_LINE = SET_FIRST_LINE + len(MUST_FLAG)


@pytest.fixture(scope="module")
def set_findings(tmp_path_factory):
    """All seven rules run once over a corpus whose session holds every case, one per line."""
    lines = [case.text for case in MUST_FLAG] + list(MUST_NOT_FLAG)
    root = write_corpus(tmp_path_factory.mktemp("set") / "corpus", {ADMIT_SESSION: session_with_lines(lines)})
    return findings(root)


def test_the_set_is_big_enough_and_covers_every_syntax():
    assert len(MUST_FLAG) >= 60 and len(MUST_NOT_FLAG) >= 60
    assert {case.code for case in MUST_FLAG} == set(RULES)
    assert {"yaml", "env", "json", "prose", "code"} <= {case.syntax for case in MUST_FLAG if case.code == "CT501"}


@pytest.mark.parametrize("index", range(len(MUST_FLAG)), ids=[case.id for case in MUST_FLAG])
def test_must_flag(set_findings, index):
    case = MUST_FLAG[index]
    line = SET_FIRST_LINE + index
    on_line = [(c, col) for path, n, col, c, _ in set_findings if path == ADMIT_SESSION and n == line]
    assert (case.code, case.col) in on_line, f"{case.text!r}: got {on_line}"


@pytest.mark.parametrize("index", range(len(MUST_NOT_FLAG)), ids=[text[:40] for text in MUST_NOT_FLAG])
def test_must_not_flag(set_findings, index):
    line = NOT_FIRST_LINE + index
    on_line = [(c, col, message) for path, n, col, c, message in set_findings if path == ADMIT_SESSION and n == line]
    assert on_line == [], MUST_NOT_FLAG[index]


def test_every_token_shape_is_in_the_set(set_findings):
    messages = [message for path, n, _, code, message in set_findings
                if code == "CT501" and SET_FIRST_LINE <= n < NOT_FIRST_LINE]
    missing = [shape.name for shape in SHAPES if not any(m.startswith(shape.name) for m in messages)]
    assert missing == []


@pytest.mark.parametrize("secret", [AWS_ID, GITHUB, OPENAI_PROJECT, ANTHROPIC, STRIPE_LIVE, JWT, BRAINTREE,
                                    "Xk9vQ2mL7pR4", "Tr0ub4dor"])
def test_messages_never_echo_a_whole_secret(tmp_path, secret):
    lines = [f"key {secret}", f"password: {secret}", f"$settings['hash_salt'] = '{secret}';",
             f"mysql://fern:{secret}@db/fern"]
    root = write_corpus(tmp_path / "corpus", {ADMIT_SESSION: session_with_lines(lines)})
    found = findings(root)
    assert found, "the secret is flagged"
    assert all(secret not in message and secret[: len(secret) // 2 + 1] not in message
               for *_, message in found)


def test_vendor_named_and_prefix_shown(tmp_path):
    root = write_corpus(tmp_path / "corpus", {ADMIT_SESSION: session_with_lines([f"id {AWS_ID}", ANTHROPIC])})
    assert [m.split("; fingerprint ")[0] for *_, m in findings(root, ("CT501",))] == [
        "AWS access key id (`AKIA…`)", "Anthropic API key (`sk-ant-…`)"]


# --- which files are scanned ---------------------------------------------------------------------

def locate(text: str, needle: str) -> tuple[int, int]:
    """1-based (line, column) of the first `needle` in `text`."""
    index = text.index(needle)
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def test_every_corpus_file_is_scanned_including_gold(tmp_path):
    spec = "# owner: maria.lopez@fernlibrary.org\n" + SPEC_TEXT
    sidecar = sidecar_text(notes="Captured on fern.ddev.site by the agent.")
    gold = '{\n  "practice": [],\n  "map": [{"body": "token: ' + GITHUB + '"}]\n}\n'
    root = write_corpus(tmp_path / "corpus", {"corpus.yaml": spec, f"expected/{ADMIT_ID}.yaml": sidecar,
                                              f"gold/{ADMIT_ID}.json": gold})
    assert where(findings(root)) == sorted([
        ("corpus.yaml", *locate(spec, "maria"), "CT506"),
        (f"expected/{ADMIT_ID}.yaml", *locate(sidecar, "fern.ddev.site"), "CT504"),
        (f"gold/{ADMIT_ID}.json", *locate(gold, "token"), "CT502"),
        (f"gold/{ADMIT_ID}.json", *locate(gold, GITHUB), "CT501"),
    ])


def test_files_that_fail_to_parse_are_still_scanned(tmp_path):
    # A YAML error or a duplicate key keeps the file out of the loaded corpus, but not out of the
    # secret scan: CT002/CT003 can be suppressed, CT5xx never.
    spec = SPEC_TEXT + "owner: maria.lopez@fernlibrary.org\nbroken: [unclosed\n"
    sidecar = sidecar_text() + "notes: a\nnotes: b\npassword: Hunter22x\n"
    root = write_corpus(tmp_path / "corpus", {"corpus.yaml": spec, f"expected/{ADMIT_ID}.yaml": sidecar})
    assert where(findings(root)) == sorted([
        ("corpus.yaml", *locate(spec, "maria"), "CT506"),
        (f"expected/{ADMIT_ID}.yaml", *locate(sidecar, "password"), "CT502"),
    ])


def test_files_that_do_not_decode_are_scanned_leniently(tmp_path):
    # Undecodable bytes are replaced and the rest scanned (CT508 says so; tests/test_secret_scan_input.py).
    root = write_corpus(tmp_path / "corpus", {
        f"gold/{ADMIT_ID}.json": b'{"token": "\xff\xfe"}\n',
        "gold/reject-noise-01.json": '{"host": "10.0.0.9"}\n',
        ADMIT_SESSION: b"---\nschema_version: 1\n---\n[USER]: caf\xe9 10.0.0.8\n",
    })
    assert where(findings(root)) == [(f"gold/{ADMIT_ID}.json", 1, 3, "CT502"),
                                     ("gold/reject-noise-01.json", 1, 11, "CT505"),
                                     (ADMIT_SESSION, 4, 14, "CT505")]


def test_findings_are_sorted_and_identical_between_runs(tmp_path):
    lines = ["Ping 10.0.0.3 and db.internal, mail ops@fern.internal, call +44 20 7946 0958.",
             f"{GITHUB} then password=Hunter22 and mysql://a:Bb3xyz@h/x"]
    root = write_corpus(tmp_path / "corpus", {ADMIT_SESSION: session_with_lines(lines)})
    first, second = findings(root), findings(root)
    assert first == second
    for code in RULES:
        positions = [(path, line, col) for path, line, col, c, _ in first if c == code]
        assert positions == sorted(positions) and positions, code


# --- bounded running time ------------------------------------------------------------------------

KEY_CHARS = "aZ9_-"


def adversarial_lines(size: int = 50_000) -> list[str]:
    """Long runs of what each pattern likes: every token shape's needle followed by key characters,
    repeated (a run of starts, each followed by a run of body), and runs of the characters the
    address, host, e-mail, phone and assignment patterns consume, in the combinations that would
    make a backtracking pattern go quadratic."""
    units = [needle + KEY_CHARS * 3 for shape in SHAPES for needle in shape.needles]
    units += ["a", "0", "a.", "a-", "a:", "0.", "0:", "::", "ff::", "a@", "x@a.", "+1", "+1 ", "+1-", "00 ",
              "(555) ", "555-", "1.1.1.", "1.2.3.4 ", "a://", "a://a:a@", "http://a.", "www.", "a.com ",
              "localhost.", "password=", "password: ", "'password' => '", "$settings['hash_salt']", "--token=",
              "eyJ", "eyJa.eyJb.", "M" + "a" * 23 + ".", "-----BEGIN ", "Bearer ", "Basic ", "a" * 63 + ".",
              # what the reader views (markup.py) and the glued starts take: markup inside words,
              # tags, comments, literals joined, needles glued after capitals and digits, blocks
              "a**", "a`", "a~~", "a__", "a<b>", "a<!-- -->", " _a", "a\\_", '"a" + "', "](x)a",
              *("A" + needle + KEY_CHARS * 3 for shape in SHAPES for needle in shape.needles),
              *("2" + needle + "a" * 30 for shape in SHAPES for needle in shape.needles),
              "akia2", "-----BEGIN RSA PRIVATE KEY----- " + "Ab3+" * 20 + " "]
    return [(unit * (size // len(unit) + 1))[:size] for unit in units]


def scan_with_every_rule(context: LintContext) -> None:
    for rule in RULES.values():
        for _ in rule.check(context, defaults(rule)):
            pass


def test_every_pattern_is_linear_on_adversarial_lines(tmp_path):
    # One pattern that backtracks over a line (quadratic work) takes seconds to minutes on a 50 kB
    # line; linear patterns take milliseconds. A regular expression's steps cannot be counted, so
    # each line's CPU time at 50 kB is compared with 20 times its CPU time at 2.5 kB, in this run
    # (tests/support/work.growth): at most about 1.5 for these linear patterns, about 20 for a
    # quadratic one (a pattern planted to check: 18 and 19), whatever the machine and its load.
    # Speed is bench/'s.
    lines = {size: adversarial_lines(size) for size in (2_500, 50_000)}
    with hang_guard("the adversarial lines"):  # a fresh context each time: nothing cached is measured
        growths = [(growth(lambda size, i=i: scan_with_every_rule(one_file_context(tmp_path, lines[size][i])),
                           2_500, 20, limit=5), lines[2_500][i][:30]) for i in range(len(lines[2_500]))]
    worst, line = max(growths)
    assert worst < 5, f"{line!r}...: {worst:.1f}x the work per character at 50 kB as at 2.5 kB (quadratic: 20x)"


def test_adversarial_lines_are_really_scanned(tmp_path):
    line = ("a" * 49_000) + " deploy with " + GITHUB
    context = one_file_context(tmp_path, line)
    assert [p.pos.col for p in secret_token.check(context, defaults(secret_token))] == [line.index(GITHUB) + 1]


def test_a_one_megabyte_single_line_turn_is_scanned(tmp_path):
    words = ("The branch id is the ILS location code; see fern_branch.branch.mob.yml and call "
             "\\Drupal::service('entity_type.manager') at 09:30 for FERN-312 on Drupal 10.3. ").split()
    turn = " ".join(words[i % len(words)] for i in range(150_000))[:1_000_000]
    turn += f" then {GITHUB} at the very end"
    root = write_corpus(tmp_path / "corpus", {ADMIT_SESSION: session_with_lines([turn])})
    context = LintContext(corpus=load_corpus(str(root)))
    with hang_guard("a 1 MB line"):  # a quadratic pattern takes hours here; the growth test above bounds each pattern
        found = [(code, p.pos.line, p.pos.col) for code, rule in RULES.items() for p in rule.check(context, defaults(rule))]
    assert found == [("CT501", FIRST_BODY_LINE + 1, turn.index(GITHUB) + 1)]


# The scan's fast paths must find exactly what the plain patterns find: base64 runs found through
# a byte translation, and hints that search many files joined by newlines, their needles grouped
# by first character.
_SCAN_TEXT = st.text(alphabet=st.sampled_from(list("aZ09+/_-= \n.é€\U0001f600\udc80Kx")), max_size=200)


@settings(max_examples=300, deadline=None)
@given(_SCAN_TEXT)
def test_base64_runs_are_the_patterns_matches(text):
    assert [(m.start(), m.group()) for m in decode._base64_runs(text)] == [
        (m.start(), m.group()) for m in decode._BASE64_RUN.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ghpsk-_xoaiİ\n ")), max_size=120))
def test_a_literal_hint_points_at_every_needle(text):
    needles, any_case = ["ghp_", "gho_", "github_pat_", "sk-", "xox", "xai-", "k"], ["key", "pass", "xo"]
    search = literal_hint(needles, any_case)(text)
    lower = text.lower()
    expected = sorted({i for n in needles for i in range(len(text)) if text.startswith(n, i)}
                      | ({i for n in any_case for i in range(len(lower)) if lower.startswith(n, i)}
                         if len(lower) == len(text) else set()))
    found, pos = [], 0
    while (at := search(pos)) >= 0:
        found.append(at)
        pos = at + 1
    assert set(expected) <= set(found)
    assert all(any(text.startswith(n, at) for n in needles) or any(text[at:at + len(n)].lower() == n for n in any_case)
               for at in found)
