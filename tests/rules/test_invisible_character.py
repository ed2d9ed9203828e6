"""CT407 invisible-character: a zero-width or bidirectional control character in a corpus file,
reported with its code point (the rule: corpustools/lint/rules/invisible_character.py)."""

from __future__ import annotations

from tests.support.corpus import ADMIT_TURNS, ADMIT_UUID, SPEC_TEXT, session_text, sidecar_text
from tests.support.lint import lint_run, messages
from tests.support.scan_input import SESSION, SIDECAR, session_bytes, where

CODE = "CT407"
ZWSP, SHY, BOM = "\u200b", "\u00ad", "\ufeff"


def test_invisible_characters_in_a_session_are_reported_with_their_code_point(make_corpus):
    lines = f"Use the queue{ZWSP} worker.\nA soft{SHY}hyphen and a {BOM} inside.\n" \
            "Bidi \u202e\u2066\u2069 controls.\nNo invisible character here: caf\u00e9."
    root = make_corpus({SESSION: session_bytes("@@", extra=lines.encode())})
    run = lint_run(root)
    assert where(run, CODE) == [(SESSION, 8, 14), (SESSION, 9, 7), (SESSION, 9, 21), (SESSION, 10, 6)]
    assert messages(run, CODE) == ["invisible character U+200B ZERO WIDTH SPACE",
                                      "invisible character U+00AD SOFT HYPHEN",
                                      "invisible character U+FEFF ZERO WIDTH NO-BREAK SPACE",
                                      "invisible character U+202E RIGHT-TO-LEFT OVERRIDE (and 2 more)"]


def test_the_documented_example_is_what_the_rule_reports(make_corpus):
    from corpustools.lint.rules import invisible_character

    example = invisible_character.__doc__.split("Example:")[1].strip().splitlines()
    text = example[0].strip().encode().decode("unicode_escape")
    report = example[-1].strip()
    root = make_corpus({SESSION: session_text(ADMIT_UUID, body=text + "\n" + "".join(
        f"[{t}]: {x}\n" for t, x in ADMIT_TURNS[1:]))})
    run = lint_run(root)
    line, col, rest = report.split(":", 3)[1:]
    assert (where(run, CODE), messages(run, CODE)) == (
        [(SESSION, int(line), int(col))], [rest.split("CT407 [error] ", 1)[1]])


def test_invisible_characters_in_sessions_and_sidecars_are_ct407_and_can_be_ignored(make_corpus, capsys):
    # In a sidecar an invisible character disarms a label: `capa\u200bcity` never matches "capacity".
    root = make_corpus({SIDECAR: sidecar_text(notes=f"queue{ZWSP}worker"),
                        SESSION: session_bytes(f"queue{ZWSP}worker"),
                        "gold/ignored.json": f'{{"note": "queue{ZWSP}worker"}}'})
    assert sorted(path for path, _, _ in where(lint_run(root), CODE)) == sorted([SESSION, SIDECAR])
    assert where(lint_run(root, ignore={CODE}), CODE) == []
    (root / "corpus.yaml").write_text(SPEC_TEXT + "lint:\n  ignore: [CT407]\n", encoding="utf-8")
    assert where(lint_run(root), CODE) == []
