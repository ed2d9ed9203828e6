"""Each rule's SCOPE (lint/registry.py) is true: a rule of fixture scope finds, in a fixture's files,
exactly what it finds there when the corpus holds only that fixture (or a handful), and nothing
outside the fixtures' files. lint's cache relies on it: it keeps such a rule's findings per fixture
and runs the rule only on the fixtures it does not hold (lint/engine.fixture_problems), so a wrong
declaration would make a warm lint miss or invent a finding. Checked on every shipped corpus, the
planted-defect corpus and a generated one, with the sub-corpus built by the model's own
Corpus.restricted_to, as the engine builds it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from corpustools.lint.engine import Selection, active_rules, build_context, corpus_config, fixture_context
from corpustools.lint.registry import FIXTURE, rule_modules
from corpustools.model.corpus import load_corpus
from tests.support.bench import write_generated

REPO = Path(__file__).resolve().parent.parent
SHIPPED = sorted(path.name for path in (REPO / "fixtures").iterdir() if (path / "corpus.yaml").exists())
FIXTURE_RULES = [rule for rule in rule_modules() if rule.SCOPE == FIXTURE]

Finding = tuple[str, int, int, str]


def findings(rule, ctx, options) -> set[Finding]:
    return {(p.pos.path, p.pos.line, p.pos.col, p.message) for p in rule.check(ctx, options)}


def scope_violations(root: Path, selection: Selection | None = None, group: int = 1, sample: int | None = None,
                     rules_checked=tuple(FIXTURE_RULES)) -> list[str]:
    """What the rules of fixture scope (`rules_checked`) find differently on the corpus at `root` restricted to
    `group` fixtures at a time (every fixture, or `sample` groups of them drawn at random) than on
    the whole corpus, and whatever they find outside the fixtures' files."""
    corpus = load_corpus(str(root))
    rules = rule_modules()
    config = corpus_config(corpus, rules)
    selection = selection or Selection()
    ctx = build_context(corpus, config, selection)
    ids = corpus.fixture_ids
    groups = [ids[i:i + group] for i in range(0, len(ids), group)]
    if sample is not None:
        groups = random.Random(0).sample(groups, min(sample, len(groups)))
    problems = []
    for rule in active_rules(list(rules_checked), config, selection):
        options = config.options_of(rule)
        whole = findings(rule, ctx, options)
        owned = {path for f in ids for path in corpus.fixture_files(f) if path is not None}
        problems += [f"{rule.CODE} finds outside the fixtures' files: {f}" for f in sorted(whole) if f[0] not in owned]
        for chosen in groups:
            files = {path for f in chosen for path in corpus.fixture_files(f) if path is not None}
            alone = findings(rule, fixture_context(ctx, chosen), options)
            expected = {f for f in whole if f[0] in files}
            problems += [f"{rule.CODE} on {chosen} alone also finds {f}" for f in sorted(alone - expected)]
            problems += [f"{rule.CODE} on {chosen} alone misses {f}" for f in sorted(expected - alone)]
    return problems


def test_every_rule_declares_a_scope_and_some_are_of_fixture_scope():
    assert {rule.SCOPE for rule in rule_modules()} == {"fixture", "corpus"}
    assert {"CT614", "CT703", "CT704", "CT601"} <= {rule.CODE for rule in FIXTURE_RULES}


@pytest.mark.parametrize("corpus", SHIPPED)
def test_fixture_rules_find_the_same_one_fixture_at_a_time_in_the_shipped_corpora(corpus):
    assert scope_violations(REPO / "fixtures" / corpus) == []


def test_fixture_rules_find_the_same_in_the_planted_defect_corpus(tmp_path):
    out = write_generated(tmp_path / "gen", 80, seed=7, defects=1)  # tests/test_golden.py's corpus
    selection = Selection(prompt=str(out / "prompt.md"), kb=str(out / "kb"))
    assert scope_violations(out / "corpus", selection) == []
    assert scope_violations(out / "corpus", selection, group=5) == []


def test_fixture_rules_find_the_same_in_a_generated_corpus(tmp_path):
    out = write_generated(tmp_path / "gen", 300, seed=3, defects=2)
    selection = Selection(prompt=str(out / "prompt.md"), kb=str(out / "kb"))
    assert scope_violations(out / "corpus", selection, group=3, sample=25) == []


def test_a_wrong_declaration_fails(tmp_path):
    """A rule of corpus scope declared of fixture scope is caught: CT102 (a session_id used by two
    fixtures) finds nothing in one fixture alone."""
    root = tmp_path / "gen"
    write_generated(root, 40, seed=1)
    session = sorted((root / "corpus" / "sessions").glob("*.md"))
    first, second = session[0].read_text(encoding="utf-8"), session[1].read_text(encoding="utf-8")
    first_id = next(line for line in first.splitlines() if line.startswith("session_id:"))
    second_id = next(line for line in second.splitlines() if line.startswith("session_id:"))
    session[1].write_text(second.replace(second_id, first_id), encoding="utf-8")
    duplicate = next(rule for rule in rule_modules() if rule.CODE == "CT102")
    problems = scope_violations(root / "corpus", rules_checked=[duplicate])
    assert problems and all(p.startswith("CT102 on ") and " misses " in p for p in problems), problems
