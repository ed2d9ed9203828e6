"""The one YAML dialect: YAML 1.2 core schema over libyaml's events (or PyYAML's pure-Python
parser, with the same results), duplicate keys are errors, timestamps stay strings, no merge keys or
non-core tags, bounded aliases and nesting, and a line:col for every key and item."""

from __future__ import annotations

import pytest
import yaml

from corpustools.io import yamlload
from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.yamlload import parse_yaml
from corpustools.model.session import parse_session, split_frontmatter
from tests.support.work import hang_guard, python_steps

NESTED = """\
fixture_id: x
expected_points:
  - id: first
    must_match_all:
      - location code
      - branch
  - id: second
    must_match_all: [alpha, beta,
                     gamma]
notes: >-
  folded
  text
"""


def refused(text: str, path: str = "f.yaml", parse=parse_yaml, **kwargs) -> InputError:
    """The InputError `parse` raises for `text`, after checking it is one line (the test fails
    when the text parses)."""
    with pytest.raises(InputError) as caught:
        parse(text, path, **kwargs)
    assert "\n" not in str(caught.value)
    return caught.value


def test_positions_of_keys_and_items():
    doc = parse_yaml(NESTED, "expected/x.yaml")
    assert doc.pos(("fixture_id",)) == Pos("expected/x.yaml", 1, 1)
    assert doc.pos(("expected_points", 0)) == Pos("expected/x.yaml", 3, 5)
    assert doc.pos(("expected_points", 0, "must_match_all", 1)) == Pos("expected/x.yaml", 6, 9)
    assert str(doc.pos(("expected_points", 0, "must_match_all", 0))) == "expected/x.yaml:5:9"
    # flow sequences too, including an item on a continuation line
    assert doc.pos(("expected_points", 1, "must_match_all", 1)) == Pos("expected/x.yaml", 8, 29)
    assert doc.pos(("expected_points", 1, "must_match_all", 2)) == Pos("expected/x.yaml", 9, 22)
    assert doc.pos(("notes",)) == Pos("expected/x.yaml", 10, 1)


def test_pos_falls_back_to_the_nearest_existing_ancestor():
    doc = parse_yaml(NESTED, "f.yaml")
    assert doc.pos(("expected_points", 1, "must_not_match", 0)) == doc.pos(("expected_points", 1))
    assert doc.pos(("missing",)) == Pos("f.yaml", 1, 1)


def test_line_offset_shifts_every_position():
    doc = parse_yaml("a: 1\nb:\n  - c\n", "s.md", line_offset=10)
    assert doc.pos(("b", 0)) == Pos("s.md", 13, 5)
    error = refused("a: 1\na: 2\n", "s.md", line_offset=10)
    assert error.pos.line == 12


def test_plain_python_values():
    doc = parse_yaml("a: 1\nb: 2.5\nc: true\nd: null\ne: text\nf: [1, {g: h}]\n", "f.yaml")
    assert doc.data == {"a": 1, "b": 2.5, "c": True, "d": None, "e": "text", "f": [1, {"g": "h"}]}
    assert [type(v) for v in doc.data.values()] == [int, float, bool, type(None), str, list]
    assert type(doc.data["f"][1]) is dict


def test_yaml_1_2_scalars():
    data = parse_yaml("a: yes\nb: no\nc: on\nd: 0o17\ne: 017\nf: ~\n", "f.yaml").data
    assert data == {"a": "yes", "b": "no", "c": "on", "d": 15, "e": 17, "f": None}


def test_timestamps_stay_the_strings_written():
    data = parse_yaml("captured_at: 2026-01-15T10:00:00.000Z\nday: 2026-01-15\n", "f.yaml").data
    assert data == {"captured_at": "2026-01-15T10:00:00.000Z", "day": "2026-01-15"}


def test_duplicate_key_is_an_error_at_the_second_occurrence():
    error = refused("fixture_id: a\ncategory: b\nfixture_id: c\n", "expected/x.yaml")
    assert error.pos == Pos("expected/x.yaml", 3, 1)
    assert "duplicate key" in error.message and "line 1" in error.message
    assert "\n" not in str(error)


def test_keys_that_collide_as_strings_are_duplicates():
    error = refused("1: a\n'1': b\n", "f.yaml")
    assert error.pos == Pos("f.yaml", 2, 1)
    assert "duplicate key" in error.message


def test_syntax_error_names_its_line():
    error = refused("a: 1\nb: [1, 2\nc: 3\n", "f.yaml")
    assert error.pos.path == "f.yaml" and error.pos.line >= 2
    assert error.message.startswith("YAML error:")


def test_more_than_one_document_is_an_error():
    error = refused("a: 1\n---\nb: 2\n", "f.yaml")
    assert error.pos.line == 2


def test_control_character_names_line_and_column():
    error = refused("a: 1\nb: x\x07y\n", "f.yaml")
    assert error.pos == Pos("f.yaml", 2, 5)
    assert "U+0007" in error.message


def test_aliases_expand_but_an_alias_bomb_is_refused():
    assert parse_yaml("a: &x [1, 2]\nb: *x\n", "f.yaml").data == {"a": [1, 2], "b": [1, 2]}
    lines = ['l0: &l0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for level in range(1, 9):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    with hang_guard("the alias bomb"):  # 9**9 values: without the cap, hours and all the memory
        error = refused("\n".join(lines) + "\n", "bomb.yaml")
    assert "alias bomb" in error.message


def test_too_many_values_written_out_is_refused(monkeypatch):
    monkeypatch.setattr(yamlload, "MAX_NODES", 50)
    assert len(parse_yaml("- a\n" * 40, "f.yaml").data) == 40
    error = refused("- a\n" * 60, "f.yaml")
    assert error.pos.path == "f.yaml" and error.pos.line > 1


@pytest.mark.parametrize("text", [
    "a: &s xxxxxxxxxx\nb: [*s, *s, *s, *s, *s]\n",  # a scalar, through aliases
    "a: &m {k: xxxxxxxxxx}\nb: [*m, *m, *m, *m, *m]\n",  # a mapping holding it
    "a: &k xxxxxxxxxx\nb: {*k : 1}\nc: {*k : 2}\nd: {*k : 3}\ne: {*k : 4}\nf: {*k : 5}\n",  # as a key
    "a: &n [[xxxxxxxxxx]]\nb: &o [*n, *n]\nc: [*o, *o]\n",  # nested anchors: 1 + 2 + 4 copies
])
@pytest.mark.parametrize("libyaml", [True, False])
def test_the_composed_size_counts_every_alias(monkeypatch, text, libyaml):
    monkeypatch.setattr(yamlload, "MAX_CHARS", 60)  # each text holds 10-20 characters written, 60+ composed
    error = refused(text, "f.yaml", libyaml=libyaml)
    assert error.pos.path == "f.yaml" and error.pos.line > 1
    assert "expands to more than 60 characters" in error.message
    monkeypatch.setattr(yamlload, "MAX_CHARS", 200)
    assert parse_yaml(text, "f.yaml", libyaml=libyaml).data


def test_a_long_value_repeated_through_aliases_is_refused_at_once():
    # The audit's sidecar: one 1 MB string, 2,000 aliases (far under the node cap), 2 GB composed.
    text = "a: &big " + "x" * 1_000_000 + "\nb:\n" + "  - *big\n" * 2000
    with hang_guard("the long value through aliases"):
        error = refused(text, "big.yaml")
    assert error.pos.line > 2 and "characters" in error.message


def test_a_document_without_aliases_is_never_over_the_size_cap():
    assert yamlload.MAX_CHARS >= yamlload.MAX_FILE_BYTES  # the largest file read composes under it


@pytest.mark.parametrize("depth", [101, 10_000])
def test_deep_flow_nesting_is_refused(depth):
    with hang_guard(f"{depth} levels"):  # the work is counted below, on both paths
        error = refused("x: " + "[" * depth + "]" * depth + "\n", "f.yaml")
    assert error.message == "YAML nested deeper than 100 levels; not read"
    assert error.pos.line == 1


def test_flow_nesting_up_to_the_bound_is_read():
    data = parse_yaml("x: " + "[" * 99 + "1" + "]" * 99 + "\n", "f.yaml").data
    depth = 0
    value = data["x"]
    while isinstance(value, list):
        value, depth = value[0], depth + 1
    assert (value, depth) == (1, 99)


@pytest.mark.parametrize("depth", [150, 3000])
def test_deep_block_nesting_is_refused_with_its_line(depth):
    text = "".join("  " * i + "a:\n" for i in range(depth)) + "  " * depth + "b: 1\n"
    error = refused(text, "f.yaml")
    assert "nested deeper than 100 levels" in error.message
    assert error.pos.line == 101


def test_non_mapping_documents_are_returned_for_the_caller_to_judge():
    assert parse_yaml("- a\n- b\n", "f.yaml").data == ["a", "b"]
    assert parse_yaml("just text\n", "f.yaml").data == "just text"


def test_session_frontmatter_is_read_in_the_same_dialect_with_positions():
    text = "---\nharness: claude\ncaptured_at: 2026-01-15T10:00:00.000Z\nflag: no\n---\nbody\n"
    session = parse_session(text, "s.md", "s")
    assert session.frontmatter.data == {"harness": "claude", "captured_at": "2026-01-15T10:00:00.000Z", "flag": "no"}
    assert str(session.frontmatter.pos(("flag",))) == "s.md:4:1"
    assert session.body == "body\n" and session.body_line == 6
    with pytest.raises(InputError, match="duplicate key"):
        parse_session("---\na: 1\na: 2\n---\nbody\n", "s.md", "s")


def test_frontmatter_boundary_does_not_swallow_blank_lines():
    fm, body, body_line = split_frontmatter("---\na: 1\n---\n\n\n[USER]: hi\n", "s.md")
    assert fm == "\na: 1\n"
    assert (body, body_line) == ("\n\n[USER]: hi\n", 4)  # the tag is on file line 6


def test_a_duplicate_key_message_names_the_line_of_the_first_definition():
    error = refused("fixture_id: a\ncategory: b\nnotes: x\ncategory: c\n", "expected/x.yaml")
    assert str(error) == 'expected/x.yaml:4:1: YAML error: found duplicate key "category" (first defined at line 2)'
    error = refused("points:\n  - id: p\n    type: map\n    id: q\n", "expected/x.yaml")
    assert str(error).endswith('found duplicate key "id" (first defined at line 2)')


# --- the traps of parsing with PyYAML/libyaml: each path (libyaml and pure Python) is checked ---

PATHS = [pytest.param(True, id="libyaml", marks=pytest.mark.skipif(not yaml.__with_libyaml__, reason="no libyaml")),
         pytest.param(False, id="pure-python")]


@pytest.fixture(params=PATHS)
def parse(request):
    return lambda text, path="f.yaml", **kwargs: parse_yaml(text, path, libyaml=request.param, **kwargs)


@pytest.mark.parametrize("written, value", [
    ("~", None), ("null", None), ("Null", None), ("NULL", None), ("", None),
    ("true", True), ("True", True), ("TRUE", True), ("false", False), ("False", False), ("FALSE", False),
    ("0", 0), ("-17", -17), ("+3", 3), ("017", 17), ("0o17", 15), ("0x1F", 31), ("0xff", 255),
    ("1.5", 1.5), ("-.5", -0.5), ("1.", 1.0), ("1e3", 1000.0), ("2.5E-2", 0.025),
    (".inf", float("inf")), ("-.Inf", float("-inf")), ("+.INF", float("inf")),
    # YAML 1.1 words, numbers and dates that 1.2 reads as strings
    ("yes", "yes"), ("No", "No"), ("on", "on"), ("OFF", "OFF"), ("y", "y"),
    ("1_000", "1_000"), ("0b101", "0b101"), ("1:20", "1:20"), ("0x", "0x"), ("+-1", "+-1"), (".", "."),
    ("2001-12-14", "2001-12-14"), ("2026-01-15T10:00:00Z", "2026-01-15T10:00:00Z"), ("nULL", "nULL"),
    ("tRUE", "tRUE"), (".Nan", ".Nan"), ("=", "="),
])
def test_plain_scalars_follow_the_yaml_1_2_core_schema(parse, written, value):
    data = parse(f"v: {written}\n").data["v"]
    assert data == value and type(data) is type(value)


def test_nan_is_a_float(parse):
    for written in (".nan", ".NaN", ".NAN"):
        value = parse(f"v: {written}\n").data["v"]
        assert isinstance(value, float) and value != value


@pytest.mark.parametrize("written", ['"true"', "'1'", '"~"', "''", '"1_000"', "'0x1F'", "|\n  null\n"])
def test_quoted_and_block_scalars_are_always_strings(parse, written):
    # libyaml marks a plain scalar with style '', not None: telling them apart is what keeps these strings.
    value = parse(f"v: {written}\n").data["v"]
    assert isinstance(value, str) and value.strip() in ("true", "1", "~", "", "1_000", "0x1F", "null")


def test_merge_keys_are_refused(parse):
    error = refused("base: &b {x: 1}\nd:\n  <<: *b\n  x: 2\n", parse=parse)
    assert str(error) == "f.yaml:3:3: YAML merge keys (<<) are not supported; write the keys out"
    # a quoted "<<" is an ordinary key
    assert parse("'<<': 1\n").data == {"<<": 1}


@pytest.mark.parametrize("written, name", [
    ("!!set {x, y}", "!!set"), ("!!binary aGVsbG8=", "!!binary"), ("!!omap [x: 1]", "!!omap"),
    ("!!timestamp 2001-12-14", "!!timestamp"), ("!local thing", "!local"), ("!!python/name:os.system ''", "!!python/name:os.system"),
])
def test_tags_beyond_the_core_ones_are_refused_by_name(parse, written, name):
    error = refused(f"a: 1\nv: {written}\n", parse=parse)
    assert error.pos.line == 2 and f"YAML tag {name} " in error.message


def test_core_tags_are_read_as_they_say(parse):
    data = parse("a: !!str 12\nb: !!int '7'\nc: !!float 1\nd: ! 12\ne: !!map {x: 1}\nf: !!seq [1]\n"
                 "g: !!null ''\nh: !!bool 'false'\n").data
    assert data == {"a": "12", "b": 7, "c": 1.0, "d": "12", "e": {"x": 1}, "f": [1], "g": None, "h": False}
    assert type(data["c"]) is float
    assert "'x' is not a valid !!int" in refused("v: !!int x\n", parse=parse).message


def test_only_yaml_1_2_directives_are_accepted(parse):
    assert parse("%YAML 1.2\n---\na: yes\n").data == {"a": "yes"}
    error = refused("%YAML 1.1\n---\na: yes\n", parse=parse)
    assert error.pos.line == 1 and "1.1" in error.message
    assert error.message.startswith("YAML 1.1 is not supported")


def test_duplicate_keys_are_errors_in_every_form(parse):
    assert "first defined at line 1" in refused("{a: 1, b: 2, a: 3}\n", parse=parse).message
    error = refused("k: &k a\nm:\n  a: 1\n  *k : 2\n", parse=parse)
    assert error.pos.line == 4 and 'duplicate key "a" (first defined at line 3)' in error.message
    # YAML 1.1 readers take `1` and `true` as the same key (True == 1 in Python); they are not
    assert parse("1: a\ntrue: b\n").data == {"1": "a", "True": "b"}


def test_aliases_are_copies_counted_against_the_node_budget(parse, monkeypatch):
    data = parse("a: &x {k: [1, 2]}\nb: *x\n").data
    assert data == {"a": {"k": [1, 2]}, "b": {"k": [1, 2]}}
    assert data["a"] is not data["b"] and data["a"]["k"] is not data["b"]["k"]
    monkeypatch.setattr(yamlload, "MAX_NODES", 30)
    text = "a: &x [1, 2, 3, 4, 5, 6, 7, 8]\nb: [*x, *x, *x]\n"  # 14 nodes written, 38 expanded
    assert "alias bomb" in refused(text, parse=parse).message


def test_alias_positions(parse):
    doc = parse("a: &x\n  k: [1, 2]\nb: *x\nc:\n  - *x\n")
    assert doc.pos(("b",)).line == 3 and doc.pos(("c", 0)).line == 5  # where the alias is written
    assert doc.pos(("b", "k", 1)) == doc.pos(("a", "k", 1)) == Pos("f.yaml", 2, 10)  # parts: where they are written


@pytest.mark.parametrize("text, words", [
    ("a: *nope\n", "undefined alias *nope"),
    ("a: &r [1, *r]\n", "alias *r refers to a node that contains it"),
    ("? [a, b]\n: c\n", "a mapping key must be a scalar"),
    ("a: " + "9" * 5000 + "\n", "YAML value cannot be read"),
])
def test_unreadable_structures_get_one_line(parse, text, words):
    error = refused(text, parse=parse)
    assert words in error.message and error.pos.line == 1


def test_deep_flow_nesting_is_refused_at_the_bound_on_both_paths(parse):
    with hang_guard("10,000 levels"):
        error = refused("x: " + "[" * 10_000 + "]" * 10_000 + "\n", parse=parse)
    assert str(error) == "f.yaml:1:104: YAML nested deeper than 100 levels; not read"
    # PyYAML's scanner does work for every open level, each time it looks ahead (up to 1,024
    # characters): without the bound, refusing 10,000 levels took seconds. Counted in lines of
    # Python run: refusing 10,000 levels costs what refusing 101 costs in PyYAML's parser, where
    # the bound is checked while scanning (libyaml stops at its own bound, 1,000, then hands the
    # text to PyYAML's); without the bound, 220 times as much.
    def steps(depth: int, parse) -> int:
        return python_steps(refused, "x: " + "[" * depth + "]" * depth + "\n", "f.yaml", parse)

    assert steps(10_000, parse) <= 2 * steps(101, lambda text, path: parse_yaml(text, path, libyaml=False))
    # a compact block sequence nests a level every two characters
    assert "nested deeper" in refused("- " * 5_000 + "x\n", parse=parse).message


@pytest.mark.parametrize("text, where, words", [
    ("a: \u00e9\x07\n", "f.yaml:1:5", "control character U+0007"),
    ("a:\n\tb: 1\n", "f.yaml:2:1", "found character '\\t' that cannot start any token"),
    ("a: 1\n---\nb: 2\n", "f.yaml:2:1", "but found another document"),
    ("a: [1, 2\nb: 3\n", "f.yaml:2:", "YAML error:"),
])
def test_malformed_text_names_line_and_column(parse, text, where, words):
    error = refused(text, parse=parse)
    assert str(error).startswith(where) and words in str(error)


def test_the_default_is_libyaml():
    if not yaml.__with_libyaml__:
        pytest.skip("no libyaml here")

    def error(**kwargs):
        return refused("a:\n  b: 1\n c: 2\n", **kwargs)  # the two parsers word this differently

    default, c_path, pure = error(), error(libyaml=True), error(libyaml=False)
    assert default == c_path and default.pos == pure.pos and default.message != pure.message


def test_both_paths_read_the_shipped_corpus_alike():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "fixtures" / "prompt-eval"
    documents = sorted(root.rglob("*.yaml"))
    assert len(documents) > 20
    for document in documents:
        text = document.read_text(encoding="utf-8")
        c_path, pure = parse_yaml(text, str(document)), parse_yaml(text, str(document), libyaml=False)
        assert (c_path.data, dict(c_path.positions)) == (pure.data, dict(pure.positions)), document


def test_without_libyaml_the_default_falls_back_to_pure_python(monkeypatch):
    monkeypatch.setattr(yaml, "__with_libyaml__", False)
    doc = parse_yaml(NESTED, "expected/x.yaml")
    assert doc.pos(("expected_points", 1, "must_match_all", 2)) == Pos("expected/x.yaml", 9, 22)
    error = refused("a:\n  b: 1\n c: 2\n", "f.yaml")
    assert error == InputError(Pos("f.yaml", 3, 2), "YAML error: while parsing a block mapping "
                                      "expected <block end>, but found '<block mapping start>'")
    # libyaml counts this offset in bytes, PyYAML in characters
    assert refused("a: \u00e9\u00e9\x07\n").pos == Pos("f.yaml", 1, 6)
