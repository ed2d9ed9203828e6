"""The secret and personal-data rules (CT501-CT507) run through each rule's check() on small
corpora (tests/rules/ and tests/test_lint_secrets.py): a session with lines of one's choosing, the
problems as (path inside the corpus, line, col, code, message)."""

from __future__ import annotations

import inspect
import os

from corpustools.lint.context import LintContext
from corpustools.lint.options import defaults
from corpustools.lint.rules import credential_url, email, hostname, ip_address, phone, secret_assignment, secret_token
from corpustools.model.corpus import Corpus, load_corpus
from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, session_text, write_corpus

RULES = {rule.CODE: rule for rule in (secret_token, secret_assignment, credential_url, hostname, ip_address,
                                      email, phone)}
ADMIT_SESSION = f"sessions/{ADMIT_ID}.md"
FIRST_BODY_LINE = 7  # tests.support.corpus.session_text: six frontmatter lines, then the body
SAMPLE_LINE = FIRST_BODY_LINE + 2  # where scanned_at puts the sample line


def session_with_lines(lines) -> str:
    """The admit session with `lines` after its first turn: lines[i] is file line FIRST_BODY_LINE + 1 + i."""
    first = f"[USER]: {ADMIT_TURNS[0][1]}\n"
    rest = "".join(f"[{tag}]: {text}\n" for tag, text in ADMIT_TURNS[1:])
    return session_text(ADMIT_UUID, body=first + "".join(line + "\n" for line in lines) + rest)


def findings(root, codes=tuple(RULES)) -> list[tuple[str, int, int, str, str]]:
    """(path inside the corpus, line, col, code, message) of every problem the rules yield."""
    context = LintContext(corpus=load_corpus(str(root)))
    found = []
    for code in codes:
        rule = RULES[code]
        for problem in rule.check(context, defaults(rule)):
            relative = os.path.relpath(problem.pos.path, root).replace(os.sep, "/")
            found.append((relative, problem.pos.line, problem.pos.col, code, problem.message))
    return found


def where(found, code=None):
    """(path, line, col, code) of the findings (of `code`), sorted."""
    return sorted((path, line, col, c) for path, line, col, c, _ in found if code in (None, c))


def scanned_at(tmp_path, code: str, line: str):
    """Where `code` reports `line` said in the admit session after a line of context (SAMPLE_LINE)."""
    root = write_corpus(tmp_path / "corpus", {ADMIT_SESSION: session_with_lines(["Some context first.", line])})
    return where(findings(root, (code,)))


def one_file_context(tmp_path, text: str) -> LintContext:
    """A context whose corpus is just `text` (no file-size cap stands between it and the rules)."""
    path = str(tmp_path / "adversarial.md")
    return LintContext(corpus=Corpus(root=str(tmp_path), spec=None, texts={path: text}))


def documented_example(tmp_path, code: str) -> tuple[tuple[int, str], list[tuple[int, str]]]:
    """The rule's docstring example (an input line, then the report line) as (col, message), and
    the (col, message) of what the rule reports on that input line."""
    rule = RULES[code]
    example = [line[4:] for line in inspect.cleandoc(rule.__doc__ or "").split("Example")[-1].splitlines()
               if line.startswith("    ")]
    text, report = example[0], example[1]
    _path, _line, col, rest = report.split(":", 3)
    expected = (int(col), rest.split(f"{code} [error] ", 1)[1])
    return expected, [(p.pos.col, p.message) for p in rule.check(one_file_context(tmp_path, text), defaults(rule))]
