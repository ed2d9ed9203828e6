"""The lint engine: configuration under `lint:` in corpus.yaml, what runs, what is reported, and how a
crashing rule or an unsuppressible rule is handled. Fake rule modules stand in where a test needs a
rule with particular properties (a secret rule, a rule with options, a rule that raises)."""

from __future__ import annotations

import copy
import gc
import re
import types
from typing import NamedTuple

import pytest

from corpustools.io.positions import Pos
from corpustools.lint.config import ConfigError, check_cli_ignore, expand_codes
from corpustools.lint.diagnostic import Problem
from corpustools.lint.engine import Selection, build_context, corpus_config, exit_code, lint_paths
from corpustools.lint.options import Option, defaults, option_annotation
from corpustools.lint.registry import rule_modules
from corpustools.lint.reported import LintReport
from corpustools.lint.targets import Target, resolve_targets
from corpustools.model.corpus import load_corpus
from corpustools.model.locate import corpus_root_of, discover_corpora
from tests.support.corpus import ADMIT_ID, REJECT_ID, REJECT_TURNS, REJECT_UUID, SPEC_TEXT, session_text
from tests.support.lint import lint_run, where

REJECT_SESSION = f"sessions/{REJECT_ID}.md"
AGENT_FIRST = session_text(REJECT_UUID, REJECT_TURNS[1:] + REJECT_TURNS[:1])  # CT403 at line 7


pytestmark = pytest.mark.usefixtures("in_tmp")


def test_the_shared_valid_corpus_passes_every_rule(make_corpus):
    """The corpus the rule tests break one file of is clean: each rule's failing sample is its own."""
    run = lint_run(make_corpus())
    assert run.fixtures == 2
    assert (run.diagnostics, run.crashes) == ((), ())


def with_lint(section: str) -> dict:
    return {"corpus.yaml": SPEC_TEXT + "lint:\n" + section}


def fake_rule(code, name, *, severity="error", suppressible=True, options=None, check=None):
    module = types.ModuleType(f"fake_{name.replace('-', '_')}")
    module.__doc__ = f"A fake rule {name} for tests.\n\nIt flags what the test tells it to."
    module.CODE, module.NAME, module.SEVERITY = code, name, severity
    module.OPTIONS, module.SUPPRESSIBLE = options or (), suppressible
    if options:  # what a rule spells as a NamedTuple class, in the OPTIONS' order and types
        module.Options = NamedTuple("Options", [(option.name, option_annotation(option)) for option in options])
    module.check = check or (lambda ctx, opts: iter(()))
    return module


def flag_every_session(message="flagged"):
    def check(ctx, options):
        for fixture_id in sorted(ctx.corpus.sessions):
            yield Problem(Pos(ctx.corpus.sessions[fixture_id].path, 7, 2), f"{message} {dict(sorted(options._asdict().items()))}")
    return check


SECRET = fake_rule("CT599", "fake-secret", suppressible=False, check=flag_every_session("secret"))


def test_valid_corpus_lints_clean_with_every_rule(make_corpus):
    run = lint_run(make_corpus())
    assert [(d.code, d.path, d.line, d.message) for d in run.diagnostics] == []
    assert run.crashes == () and exit_code(run) == 0


def test_ignore_switches_a_rule_off(make_corpus):
    assert where(lint_run(make_corpus({REJECT_SESSION: AGENT_FIRST}, "a")), "CT403") != []
    run = lint_run(make_corpus({REJECT_SESSION: AGENT_FIRST, **with_lint("  ignore: [CT403]\n")}, "b"))
    assert where(run, "CT403") == []


def test_severity_relevels_a_rule_and_changes_the_exit_code(make_corpus):
    run = lint_run(make_corpus({REJECT_SESSION: AGENT_FIRST}, "a"))
    assert [d.severity for d in run.diagnostics] == ["warning"] and exit_code(run) == 0
    assert exit_code(run, strict=True) == 1
    run = lint_run(make_corpus({REJECT_SESSION: AGENT_FIRST, **with_lint("  severity: {CT403: error}\n")}, "b"))
    assert [(d.code, d.severity) for d in run.diagnostics] == [("CT403", "error")] and exit_code(run) == 1


def test_per_file_ignores_apply_only_to_matching_files(make_corpus):
    both = session_text("0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a", REJECT_TURNS[1:] + REJECT_TURNS[:1])
    section = ("  per_file_ignores:\n    - files: ['sessions/reject-*.md']\n      codes: [CT403]\n"
               "      reason: the reject fixtures open mid-conversation on purpose\n")
    run = lint_run(make_corpus({REJECT_SESSION: AGENT_FIRST, f"sessions/{ADMIT_ID}.md": both, **with_lint(section)}))
    assert where(run, "CT403") == [(f"corpus/sessions/{ADMIT_ID}.md", 7, 1)]


def test_per_file_ignores_need_a_reason(make_corpus):
    section = "  per_file_ignores:\n    - files: ['sessions/*.md']\n      codes: [CT403]\n"
    run = lint_run(make_corpus({REJECT_SESSION: AGENT_FIRST, **with_lint(section)}, "a"))
    assert where(run, "CT003") == [("a/corpus.yaml", 21, 7)]  # the schema requires `reason`
    blank = section + "      reason: '  '\n"
    with pytest.raises(ConfigError, match="reason must say why"):
        lint_run(make_corpus({**with_lint(blank)}, "b"))


def test_unknown_code_in_config_is_a_config_error_at_its_line(make_corpus):
    with pytest.raises(ConfigError) as caught:
        lint_run(make_corpus(with_lint("  ignore: [CT403, CT999]\n")))
    assert (caught.value.pos.line, caught.value.pos.col) == (20, 19)
    assert "lint.ignore: unknown rule 'CT999': write a rule code such as CT403" in caught.value.message


def test_config_takes_rule_names_as_well_as_codes(make_corpus):
    section = ("  ignore: [turn-shape]\n  severity: {sidecar-missing: warning}\n"
               "  per_file_ignores:\n    - {files: ['*'], codes: [CT403], reason: test data}\n")
    config = corpus_config(load_corpus(str(make_corpus(with_lint(section), "names"))), rule_modules())
    assert (config.ignore, dict(config.severity)) == ({"CT403"}, {"CT201": "warning"})
    section = "  per_file_ignores:\n    - {files: ['sessions/*'], codes: [turn-shape], reason: test data}\n"
    config = corpus_config(load_corpus(str(make_corpus(with_lint(section), "files"))), rule_modules())
    assert config.per_file_ignores[0].codes == {"CT403"}
    run = lint_run(make_corpus({REJECT_SESSION: AGENT_FIRST, **with_lint("  ignore: [turn-shape]\n")},
                               "run"))
    assert "CT403" not in {d.code for d in run.diagnostics}


@pytest.mark.parametrize("section, message", [
    ("  ignore: [term-brittel]\n", "lint.ignore: unknown rule 'term-brittel': did you mean CT610 (term-brittle)?"),
    ("  ignore: [ct610]\n", "lint.ignore: unknown rule 'ct610': did you mean CT610 (term-brittle)?"),
    ("  severity: {turn-shap: error}\n", "lint.severity: unknown rule 'turn-shap': did you mean CT403 (turn-shape)?"),
    ("  per_file_ignores:\n    - {files: ['*'], codes: [nonsense-words-here], reason: r}\n",
     "lint.per_file_ignores: unknown rule 'nonsense-words-here': write a rule code such as CT403 or a name"),
    ("  severity: {CT403: error, turn-shape: warning}\n",
     "lint.severity: CT403 (turn-shape) is given twice, as error and as warning"),
])
def test_an_unknown_rule_name_says_what_to_write(make_corpus, section, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        lint_run(make_corpus(with_lint(section)))


def _odd(value):
    return None if value % 2 else "must be odd"


FAKE_OPTIONS = (
    Option("limit", int, 3, "a limit", min=1, max=9, validate=_odd),
    Option("share", float, 0.5, "a share", min=0, max=1),
    Option("words", tuple, ("a",), "some words"),
    Option("mode", str, "fast", "a mode", choices=("fast", "slow")),
    Option("loud", bool, False, "a switch"),
)


def test_rule_options_are_validated_and_every_one_is_set(make_corpus):
    rule = fake_rule("CT598", "fake-options", options=FAKE_OPTIONS, check=flag_every_session())
    rules = rule_modules() + [rule]
    run = lint_paths([str(make_corpus({}, "defaults"))], rules, Selection())
    assert {d.message for d in run.diagnostics if d.code == "CT598"} == {
        "flagged {'limit': 3, 'loud': False, 'mode': 'fast', 'share': 0.5, 'words': ('a',)}"}
    section = "  rules:\n    CT598: {limit: 5, share: 1, words: [b, 404], mode: slow, loud: true}\n"
    run = lint_paths([str(make_corpus(with_lint(section), "set"))], rules, Selection())
    assert {d.message for d in run.diagnostics if d.code == "CT598"} == {
        "flagged {'limit': 5, 'loud': True, 'mode': 'slow', 'share': 1.0, 'words': ('b', '404')}"}
    run = lint_paths([str(make_corpus(with_lint("  rules:\n    fake-options: {limit: 7}\n"), "name"))],
                     rules, Selection())
    assert {d.message for d in run.diagnostics if d.code == "CT598"} == {
        "flagged {'limit': 7, 'loud': False, 'mode': 'fast', 'share': 0.5, 'words': ('a',)}"}
    for name, section, message in [
        ("unknown", "  rules:\n    CT598: {limt: 5}\n",
         "lint.rules.CT598: unknown option 'limt' (options: limit, loud, mode, share, words)"),
        ("type", "  rules:\n    CT598: {limit: many}\n",
         "lint.rules.CT598.limit: expected an integer like the default 3, not many"),
        ("bool", "  rules:\n    CT598: {limit: true}\n", "lint.rules.CT598.limit: expected an integer"),
        ("float", "  rules:\n    CT598: {limit: 2.5}\n", "lint.rules.CT598.limit: expected an integer"),
        ("list", "  rules:\n    CT598: {words: one}\n", "lint.rules.CT598.words: expected a list of words"),
        ("nested", "  rules:\n    CT598: {words: [[a]]}\n", "lint.rules.CT598.words: expected a list of words"),
        ("under", "  rules:\n    CT598: {limit: 0}\n", "lint.rules.CT598.limit: 0 is under 1"),
        ("over", "  rules:\n    CT598: {share: 1.5}\n", "lint.rules.CT598.share: 1.5 is over 1"),
        ("choice", "  rules:\n    CT598: {mode: warp}\n", "lint.rules.CT598.mode: warp is not one of fast, slow"),
        ("validator", "  rules:\n    fake-options: {limit: 4}\n", "lint.rules.fake-options.limit: must be odd"),
        ("twice", "  rules:\n    CT598: {limit: 5}\n    fake-options: {limit: 7}\n",
         "lint.rules: CT598 (fake-options) is given twice, as CT598 and as fake-options"),
        ("rule", "  rules:\n    fake-optoins: {limit: 5}\n",
         "lint.rules: unknown rule 'fake-optoins': did you mean CT598 (fake-options)?"),
    ]:
        with pytest.raises(ConfigError, match=re.escape(message)) as caught:
            lint_paths([str(make_corpus(with_lint(section), name))], rules, Selection())
        assert caught.value.pos.line > 0, name


def test_an_option_declaration_must_hold_a_valid_default():
    with pytest.raises(ValueError, match="default 200"):
        Option("threshold", int, 200, "a similarity", min=0, max=100)
    with pytest.raises(TypeError, match="type must be"):
        Option("words", list, [], "a list")


def test_a_rule_is_handed_read_only_options_with_every_one_set():
    options = defaults(fake_rule("CT598", "fake-options", options=FAKE_OPTIONS))
    assert (options.limit, options.words, len(options)) == (3, ("a",), 5)
    with pytest.raises(AttributeError):
        options.limit = 5
    with pytest.raises(TypeError):
        options["limit"] = 5
    assert copy.deepcopy(options) == options and hash(copy.copy(options)) == hash(options)


def test_option_values_out_of_range_are_config_errors_not_rule_crashes(make_corpus):
    # A threshold of 200 made CT702 divide by zero: an "internal error", exit 2, naming no line.
    for name, section, message in [
        ("over", "  rules:\n    CT702: {threshold: 200}\n", "lint.rules.CT702.threshold: 200 is over 100"),
        ("negative", "  rules:\n    CT604: {min: -1}\n", "lint.rules.CT604.min: -1 is negative"),
    ]:
        with pytest.raises(ConfigError, match=re.escape(message)) as caught:
            lint_run(make_corpus(with_lint(section), name))
        assert caught.value.pos.line == 21
    run = lint_run(make_corpus(with_lint("  rules:\n    CT702: {threshold: 100}\n"), "edge"))
    assert run.crashes == ()


def test_secret_rules_cannot_be_suppressed_in_config(make_corpus):
    rules = rule_modules() + [SECRET]
    for name, section, message in [
        ("ignore", "  ignore: [CT599]\n", "CT599 (fake-secret) is a secret rule and can never be ignored"),
        ("level", "  severity: {CT599: warning}\n", "can never be re-levelled to warning"),
        ("files", "  per_file_ignores:\n    - {files: ['*'], codes: [CT599], reason: test data}\n",
         "can never be ignored per file"),
    ]:
        with pytest.raises(ConfigError, match=re.escape(message)):
            lint_paths([str(make_corpus(with_lint(section), name))], rules, Selection())


def test_secret_rules_run_whatever_is_selected(make_corpus):
    rules = rule_modules() + [SECRET]
    run = lint_paths([str(make_corpus())], rules, Selection(select=frozenset({"CT403"})))
    assert sorted({d.code for d in run.diagnostics}) == ["CT599"]
    with pytest.raises(ConfigError, match="can never be ignored"):
        check_cli_ignore(expand_codes("CT5", rules, option="--ignore"), rules)


def test_select_and_ignore_take_codes_and_prefixes():
    rules = rule_modules()
    assert expand_codes("CT30, CT101", rules, option="--select") == {"CT301", "CT302", "CT303", "CT101"}
    assert expand_codes("ct403", rules, option="--select") == {"CT403"}
    for bad in ("CT999", "XY1", "CT4011", "turn_shape"):
        with pytest.raises(ConfigError, match="unknown rule"):
            expand_codes(bad, rules, option="--select")


def test_select_and_ignore_take_rule_names_as_explain_and_corpus_yaml_do():
    rules = rule_modules()
    assert expand_codes("turn-shape, CT101", rules, option="--ignore") == {"CT403", "CT101"}
    assert expand_codes("Turn-Shape", rules, option="--select") == {"CT403"}


def test_a_crashing_rule_is_reported_and_the_others_still_run(make_corpus):
    def explode(ctx, options):
        yield Problem(Pos(ctx.corpus.spec_path, 1, 1), "before the crash")
        raise ZeroDivisionError("division by zero")

    rules = rule_modules() + [fake_rule("CT597", "fake-crash", check=explode)]
    run = lint_paths([str(make_corpus({REJECT_SESSION: AGENT_FIRST}))], rules, Selection())
    assert [str(c) for c in run.crashes] == [
        "internal error in rule CT597 (fake-crash): ZeroDivisionError: division by zero"]
    assert where(run, "CT403") == [(f"corpus/{REJECT_SESSION}", 7, 1)]
    assert where(run, "CT597") == []  # a crashed rule's partial findings are not trusted
    assert exit_code(run) == 2


def test_diagnostics_are_sorted_and_unique(make_corpus):
    def twice(ctx, options):
        for path in sorted(ctx.corpus.session_paths.values(), reverse=True):
            yield Problem(Pos(path, 9, 3), "b")
            yield Problem(Pos(path, 2, 1), "a")
            yield Problem(Pos(path, 9, 3), "b")

    rules = rule_modules() + [fake_rule("CT596", "fake-order", check=twice)]
    run = lint_paths([str(make_corpus())], rules, Selection())
    assert [(d.path, d.line) for d in LintReport(run=run, rules=()).diagnostics] == [
        (f"corpus/sessions/{ADMIT_ID}.md", 2), (f"corpus/sessions/{ADMIT_ID}.md", 9),
        (f"corpus/{REJECT_SESSION}", 2), (f"corpus/{REJECT_SESSION}", 9)]


def test_a_path_inside_a_corpus_lints_that_whole_corpus_once(make_corpus):
    root = make_corpus({REJECT_SESSION: AGENT_FIRST, f"expected/{ADMIT_ID}.yaml": None})
    whole = lint_run(root)
    assert {d.code for d in whole.diagnostics} == {"CT201", "CT403"} and whole.fixtures == 2
    # By hand, a file inside a corpus reports that file only (the corpus is still linted whole).
    assert {d.code for d in lint_run(root / REJECT_SESSION).diagnostics} == {"CT403"}
    # The pre-commit hook passes the changed files with --whole-corpus: an error in an unchanged
    # file of their corpus (here the admit session's missing sidecar) still fails the commit.
    assert lint_run(root / REJECT_SESSION, whole_corpus=True) == whole
    assert lint_run(root / "expected", whole_corpus=True) == whole
    assert lint_run(root / REJECT_SESSION, root / "corpus.yaml", root, root / "sessions") == whole


def test_changed_files_of_several_corpora_lint_each_corpus_once_in_sorted_order(make_corpus, tmp_path):
    broken = make_corpus({REJECT_SESSION: AGENT_FIRST}, name="b-broken")
    clean = make_corpus(name="a-clean")
    assert resolve_targets([str(broken / REJECT_SESSION), str(clean / "corpus.yaml"), str(broken)],
                           whole_corpus=True) == [
        Target(str(clean)), Target(str(broken))]
    assert lint_run(clean / REJECT_SESSION).diagnostics == ()
    run = lint_run(broken / REJECT_SESSION, clean / REJECT_SESSION, whole_corpus=True)
    assert [d.path for d in run.diagnostics] == [f"b-broken/{REJECT_SESSION}"] and run.fixtures == 4


def test_corpus_root_of_is_the_nearest_corpus_folder_at_or_above_a_path(make_corpus, tmp_path):
    root = make_corpus(name="outer/corpus")
    (root / "sessions" / "deeper").mkdir()
    assert corpus_root_of(str(root / REJECT_SESSION)) == str(root)
    assert corpus_root_of(str(root / "sessions" / "deeper")) == str(root)
    assert corpus_root_of(str(root)) == str(root)
    assert corpus_root_of("outer/corpus/corpus.yaml") == str(root)  # relative in, absolute out
    assert corpus_root_of(str(tmp_path / "outer")) is None
    (root / "corpus.yaml").unlink()  # sessions/ + expected/ still make a corpus (lint says CT003)
    assert resolve_targets([str(root / REJECT_SESSION)], whole_corpus=True) == [Target(str(root))]
    assert "CT003" in {d.code for d in lint_run(root / REJECT_SESSION, whole_corpus=True).diagnostics}


def test_discovery_skips_hidden_folders_and_virtualenvs(make_corpus, tmp_path):
    make_corpus(name="fixtures/one")
    make_corpus(name="fixtures/two")
    make_corpus(name=".hidden/three")
    make_corpus(name="venv/four")
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr\n")
    make_corpus(name="env/lib/five")
    assert discover_corpora(".") == ["fixtures/one", "fixtures/two"]


def test_prompt_and_kb_paths_resolve_relative_to_corpus_yaml(make_corpus, tmp_path):
    (tmp_path / "prompt.md").write_text("# The prompt\nExtract practices.\n")
    kb = tmp_path / "kb"
    (kb / "b").mkdir(parents=True)
    (kb / "z.md").write_text("Zed.\n")
    (kb / "b" / "a.md").write_text("Alpha.\n")
    (kb / "empty.md").write_text("")
    (kb / "notes.txt").write_text("not markdown\n")
    root = make_corpus(with_lint("  prompt: ../prompt.md\n  kb: ../kb\n"))
    corpus = load_corpus(str(root))
    context = build_context(corpus, corpus_config(corpus, rule_modules()), Selection())
    assert context.prompt.path == "prompt.md" and context.prompt.text.startswith("# The prompt")
    assert [s.path for s in context.kb] == ["kb/b/a.md", "kb/z.md"]
    with pytest.raises(ConfigError, match="lint.prompt"):
        lint_run(make_corpus(with_lint("  prompt: ../nowhere.md\n"), "bad"))


def test_linting_and_scoring_leave_the_callers_cycle_collector_alone(make_corpus, monkeypatch):
    """A program that imports corpustools keeps its collector as it set it: switching it off or
    freezing what is loaded is the command line's choice (corpustools.cli), never the library's."""
    from corpustools.score import score_report

    touched = []
    for name in ("disable", "enable", "freeze", "set_threshold"):
        monkeypatch.setattr(gc, name, lambda *_, name=name: touched.append(name))
    root = make_corpus()
    lint_run(root)
    (root / "results").mkdir()
    score_report(str(root), [str(root / "results")])
    assert touched == []
