"""Bounded work in lint (issue 31 items 6 and 7; docs/security.md, "Bounded work"): a rule that
fires at every character of a long line lists its first findings in a file and folds the rest into
one that says how many (in every format), the engine keeps a count, not a diagnostic, for each
folded one, the per-character rules stay linear on one long line, and a run's messages are
redacted in one pass instead of one scan per message and per path.

Each test counts work or output (findings listed, bytes written, characters searched, redaction
calls, memory held), never wall time: timings are bench/bounded.py's."""

from __future__ import annotations

import json
import tracemalloc
import types

import pytest

from corpustools.io.positions import Pos
from corpustools.lint.diagnostic import Problem
from corpustools.lint.engine import Selection, lint_paths
from corpustools.lint.registry import rule_modules
from corpustools.lint.rules import invisible_character
from corpustools.lint.secrets.redaction import redact_secrets
from corpustools.lint.secrets.scan import ReadFile
from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, SPEC_TEXT, session_text, sidecar_text
from tests.support.score import run_cli
from tests.support.secrets_cases import GITHUB, MUST_FLAG, MUST_NOT_FLAG

pytestmark = pytest.mark.usefixtures("in_tmp")

SESSION = f"sessions/{ADMIT_ID}.md"
SIDECAR = f"expected/{ADMIT_ID}.yaml"
INVISIBLE = 20_000  # zero-width spaces on one line, each between two letters: one CT407 finding each
LINE = "a\u200b" * INVISIBLE


def invisible_corpus(make_corpus, lint_section: str = ""):
    """The valid corpus with one more user turn: `a` + U+200B, INVISIBLE times (issue 31 item 6, at
    a 12th of its size)."""
    turns = ((ADMIT_TURNS[0][0], LINE),) + ADMIT_TURNS
    spec = SPEC_TEXT + (f"lint:\n{lint_section}" if lint_section else "")
    return make_corpus({SESSION: session_text(ADMIT_UUID, turns), "corpus.yaml": spec})


def lint(capsys, *args):
    return run_cli(capsys, "lint", *args)


def fold_text(folded: int, listed: int = 100) -> str:
    return (f"… and {folded} more CT407 findings in this file (the first {listed} are listed; corpus.yaml's "
            "lint: max_findings_per_file sets how many)")


def test_a_rule_firing_at_every_character_lists_its_first_100_findings_and_says_how_many_more(make_corpus, capsys):
    invisible_corpus(make_corpus)
    code, out, _ = lint(capsys, "corpus", "--format", "json")
    assert code == 1
    found = [d for d in json.loads(out) if d["code"] == "CT407"]
    assert len(found) == 101  # on main: 20,000, one per invisible character (5 MB of JSON)
    assert len(out) < 64_000
    listed, fold = found[:100], found[100]
    assert [(d["line"], d["col"]) for d in listed] == [(7, 10 + 2 * i) for i in range(100)]
    assert all("folded" not in d for d in listed)
    assert fold == {"path": f"corpus/{SESSION}", "line": 7, "col": 210, "code": "CT407",
                    "name": "invisible-character", "severity": "error", "message": fold_text(INVISIBLE - 100),
                    "folded": INVISIBLE - 100}


def test_the_fold_is_the_last_finding_of_its_rule_in_every_format_and_every_count_counts_the_folded(
        make_corpus, capsys):
    invisible_corpus(make_corpus)
    text = lint(capsys, "corpus", "--statistics")[1].splitlines()
    ct407 = [line for line in text if " CT407 " in line and line.startswith("corpus/")]
    assert len(ct407) == 101 and ct407[-1].endswith(f"CT407 [error] {fold_text(INVISIBLE - 100)}")
    assert f"{INVISIBLE:<5} CT407 invisible-character" in text
    summary = json.loads(lint(capsys, "corpus", "--format", "json-summary")[1])
    assert summary["by_code"]["CT407"] == INVISIBLE and summary["errors"] >= INVISIBLE
    assert text[-1].startswith(f"Found {summary['errors']} errors")
    github = [line for line in lint(capsys, "corpus", "--format", "github")[1].splitlines() if "CT407" in line]
    assert len(github) == 101 and github[-1].endswith(f"::{fold_text(INVISIBLE - 100)}")
    sarif = json.loads(lint(capsys, "corpus", "--format", "sarif")[1])
    results = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "CT407"]
    assert len(results) == 101 and "properties" not in results[0]
    assert results[-1]["message"]["text"] == fold_text(INVISIBLE - 100)
    assert results[-1]["properties"] == {"folded": INVISIBLE - 100}


@pytest.mark.parametrize(("setting", "listed"), [("0", INVISIBLE), ("5", 5), (str(INVISIBLE), INVISIBLE)])
def test_max_findings_per_file_sets_how_many_are_listed_and_0_lists_them_all(make_corpus, capsys, setting, listed):
    invisible_corpus(make_corpus, f"  max_findings_per_file: {setting}\n")
    found = [d for d in json.loads(lint(capsys, "corpus", "--format", "json")[1]) if d["code"] == "CT407"]
    if listed == INVISIBLE:
        assert len(found) == INVISIBLE and not any("folded" in d for d in found)
    else:
        assert len(found) == listed + 1 and found[-1]["message"] == fold_text(INVISIBLE - listed, listed)


@pytest.mark.parametrize("setting", ["-1", "many", "2.5", "true"])
def test_a_bad_max_findings_per_file_is_ct003_at_its_line_and_the_default_holds(make_corpus, capsys, setting):
    invisible_corpus(make_corpus, f"  max_findings_per_file: {setting}\n")
    code, out, _ = lint(capsys, "corpus")
    assert code == 1
    assert out.startswith("corpus/corpus.yaml:20:3: CT003 [error] /lint/max_findings_per_file: ")
    assert out.count(": CT407 [error]") == 101  # a bad setting lists no more than the default


def test_folding_is_per_rule_and_per_file(make_corpus):
    def everywhere(ctx, options):
        for path in sorted(ctx.corpus.session_paths.values()):
            for line in range(1, 151):
                yield Problem(Pos(path, line, 1), f"finding {line}")

    rules = rule_modules() + [fake_rule("CT598", "fake-many", everywhere)]
    run = lint_paths([str(make_corpus())], rules, Selection())
    many = [d for d in run.diagnostics if d.code == "CT598"]
    assert len(many) == 2 * 101  # each of the two sessions: its first 100 and one for the other 50
    folds = [d for d in many if d.folded]
    assert [(d.line, d.folded, d.count) for d in folds] == [(101, 50, 50), (101, 50, 50)]
    assert sum(d.count for d in many) == 300


def fake_rule(code, name, check):
    module = types.ModuleType(f"fake_{name.replace('-', '_')}")
    module.__doc__ = f"A fake rule {name} for tests.\n\nIt flags what the test tells it to."
    module.CODE, module.NAME, module.SEVERITY, module.OPTIONS, module.SUPPRESSIBLE = code, name, "error", (), True
    module.check = check
    return module


def test_the_engine_holds_a_count_not_a_diagnostic_for_each_folded_finding(make_corpus):
    """200,000 findings in one file: the run holds 101 diagnostics, and what the engine keeps
    while the rule runs stays a few megabytes (on main: every Diagnostic, about 60 MB)."""
    root = make_corpus()

    def flood(ctx, options):
        path = ctx.corpus.session_paths[ADMIT_ID]
        for index in range(200_000):
            yield Problem(Pos(path, 7, index + 1), "invisible character U+200B ZERO WIDTH SPACE")

    rules = [fake_rule("CT599", "fake-flood", flood)]
    tracemalloc.start()
    try:
        run = lint_paths([str(root)], rules, Selection())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(run.diagnostics) == 101 and run.diagnostics[-1].folded == 199_900
    assert peak < 4_000_000, f"peak {peak / 1e6:.1f} MB"


class CountingText(str):
    """A str that counts the characters its rfind and count calls search."""

    searched = 0

    def _span(self, start, end) -> None:
        end = len(self) if end is None else end
        CountingText.searched += max(0, end - (start or 0))

    def rfind(self, sub, start=None, end=None):
        self._span(start, end)
        return super().rfind(sub, start, end)

    def count(self, sub, start=None, end=None):
        self._span(start, end)
        return super().count(sub, start, end)


def test_ct407_reads_a_long_line_once_however_many_invisible_characters_it_holds(monkeypatch):
    """CT407 found each run's line by searching back to the line's start: 250,000 runs on a 1 MB line
    searched 125 billion characters. Now each character is searched about once."""
    text = CountingText("[USER]: ok\n[USER]: " + LINE + "\n[AGENT]: done\n")
    file = ReadFile("s.md", text, "s.md")
    monkeypatch.setattr(invisible_character, "read_files", lambda ctx: (file,))
    corpus = types.SimpleNamespace(session_paths={"s": "s.md"}, sidecar_paths={})
    CountingText.searched = 0
    found = list(invisible_character.check(types.SimpleNamespace(corpus=corpus), None))
    assert len(found) == INVISIBLE and (found[0].pos.line, found[0].pos.col) == (2, 10)
    assert (found[-1].pos.line, found[-1].pos.col) == (2, 8 + 2 * INVISIBLE)
    assert CountingText.searched <= 3 * len(text), CountingText.searched  # on main: about 400 million


def test_a_runs_messages_are_redacted_in_one_pass_not_once_per_message_and_per_path(make_corpus, capsys,
                                                                                    monkeypatch):
    """3,000 findings (every term of a sidecar never said, all listed): the redaction runs a few
    times, not twice per finding (issue 31 item 7); a token quoted among them is still cut."""
    import corpustools.lint.engine
    import corpustools.lint.reported

    terms = "".join(f"      - zq{index:05d} term\n" for index in range(3_000)) + f"      - {GITHUB}\n"
    points = f"\n  - id: many-terms\n    type: practice\n    must_match_all:\n{terms}"
    make_corpus({SIDECAR: sidecar_text(points=points), "corpus.yaml": SPEC_TEXT + "lint:\n  max_findings_per_file: 0\n"})
    calls = []

    def counted(text):
        calls.append(len(text))
        return redact_secrets(text)

    monkeypatch.setattr(corpustools.lint.engine, "redact_secrets", counted)
    monkeypatch.setattr(corpustools.lint.reported, "redact_secrets", counted)
    code, out, _ = lint(capsys, "corpus", "--format", "json")
    found = json.loads(out)
    unwinnable = [d for d in found if d["code"] == "CT601"]
    assert len(unwinnable) == 3_001
    assert len(calls) <= 10, len(calls)  # on main: 2 a finding, over 6,000
    assert GITHUB not in out and GITHUB[:4] + "…" in unwinnable[-1]["message"] + unwinnable[0]["message"]


def test_redacting_messages_together_is_redacting_each_alone():
    """Every case the secret rules must flag and every sentence they must not, as messages quoting
    them: the one-pass redaction gives each exactly what redact_secrets gives it alone, in chunks too."""
    from corpustools.lint import engine
    from corpustools.lint.engine import redacted_messages

    messages = [f"term {case.text!r} of point 'p' never occurs" for case in MUST_FLAG]
    messages += [f"sentence repeated: {text!r}" for text in MUST_NOT_FLAG if isinstance(text, str)]
    messages += [f"filler message {index} with nothing to cut" for index in range(2_000)]
    alone = {message: redact_secrets(message) for message in messages}
    assert sum(shown != message for message, shown in alone.items()) >= len(MUST_FLAG) // 2
    assert redacted_messages(messages) == alone
    assert redacted_messages(messages * 2) == alone
    assert len("\n".join(messages)) < engine.REDACTION_CHUNK  # and in chunks of a few messages each:
    original = engine.REDACTION_CHUNK
    try:
        engine.REDACTION_CHUNK = 300
        assert redacted_messages(messages) == alone
    finally:
        engine.REDACTION_CHUNK = original
