"""The one YAML dialect: ruamel.yaml, YAML 1.2, duplicate keys are errors, timestamps stay strings,
bounded aliases and nesting, and a line:col for every key and item."""

from __future__ import annotations

import time

import frontmatter
import pytest

from corpustools import yamlload
from corpustools.frontmatter_yaml import RuamelYAMLHandler
from corpustools.positions import InputError, Pos
from corpustools.yamlload import parse_yaml

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
    with pytest.raises(InputError) as caught:
        parse_yaml("a: 1\na: 2\n", "s.md", line_offset=10)
    assert caught.value.pos.line == 12


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
    with pytest.raises(InputError) as caught:
        parse_yaml("fixture_id: a\ncategory: b\nfixture_id: c\n", "expected/x.yaml")
    assert caught.value.pos == Pos("expected/x.yaml", 3, 1)
    assert "duplicate key" in caught.value.message and "line 1" in caught.value.message
    assert "\n" not in str(caught.value)


def test_keys_that_collide_as_strings_are_duplicates():
    with pytest.raises(InputError) as caught:
        parse_yaml("1: a\n'1': b\n", "f.yaml")
    assert caught.value.pos == Pos("f.yaml", 2, 1)
    assert "duplicate key" in caught.value.message


def test_syntax_error_names_its_line():
    with pytest.raises(InputError) as caught:
        parse_yaml("a: 1\nb: [1, 2\nc: 3\n", "f.yaml")
    assert caught.value.pos.path == "f.yaml" and caught.value.pos.line >= 2
    assert caught.value.message.startswith("YAML error:")


def test_more_than_one_document_is_an_error():
    with pytest.raises(InputError) as caught:
        parse_yaml("a: 1\n---\nb: 2\n", "f.yaml")
    assert caught.value.pos.line == 2


def test_control_character_names_line_and_column():
    with pytest.raises(InputError) as caught:
        parse_yaml("a: 1\nb: x\x07y\n", "f.yaml")
    assert caught.value.pos == Pos("f.yaml", 2, 5)
    assert "U+0007" in caught.value.message


def test_aliases_expand_but_an_alias_bomb_is_refused():
    assert parse_yaml("a: &x [1, 2]\nb: *x\n", "f.yaml").data == {"a": [1, 2], "b": [1, 2]}
    lines = ['l0: &l0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for level in range(1, 9):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    started = time.perf_counter()
    with pytest.raises(InputError) as caught:
        parse_yaml("\n".join(lines) + "\n", "bomb.yaml")
    assert "alias bomb" in caught.value.message
    assert time.perf_counter() - started < 5


def test_too_many_values_written_out_is_refused(monkeypatch):
    monkeypatch.setattr(yamlload, "MAX_NODES", 50)
    assert len(parse_yaml("- a\n" * 40, "f.yaml").data) == 40
    with pytest.raises(InputError) as caught:
        parse_yaml("- a\n" * 60, "f.yaml")
    assert caught.value.pos.path == "f.yaml" and caught.value.pos.line > 1


@pytest.mark.parametrize("depth", [101, 10_000])
def test_deep_flow_nesting_is_refused_quickly(depth):
    started = time.perf_counter()
    with pytest.raises(InputError) as caught:
        parse_yaml("x: " + "[" * depth + "]" * depth + "\n", "f.yaml")
    # ruamel's scanner is quadratic in flow depth: without the bound this took seconds.
    assert time.perf_counter() - started < 1.5
    assert caught.value.message == "YAML nested deeper than 100 levels; not read"
    assert caught.value.pos.line == 1


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
    with pytest.raises(InputError) as caught:
        parse_yaml(text, "f.yaml")
    assert "nested deeper than 100 levels" in caught.value.message
    assert caught.value.pos.line == 101


def test_non_mapping_documents_are_returned_for_the_caller_to_judge():
    assert parse_yaml("- a\n- b\n", "f.yaml").data == ["a", "b"]
    assert parse_yaml("just text\n", "f.yaml").data == "just text"


def test_frontmatter_handler_uses_the_same_dialect():
    text = "---\nharness: claude\ncaptured_at: 2026-01-15T10:00:00.000Z\nflag: no\n---\nbody\n"
    post = frontmatter.loads(text, handler=RuamelYAMLHandler())
    assert post.metadata == {"harness": "claude", "captured_at": "2026-01-15T10:00:00.000Z", "flag": "no"}
    assert post.content == "body"
    with pytest.raises(InputError):
        frontmatter.loads("---\na: 1\na: 2\n---\nbody\n", handler=RuamelYAMLHandler())


def test_frontmatter_boundary_does_not_swallow_blank_lines():
    fm, body = RuamelYAMLHandler().split("---\na: 1\n---\n\n\n[USER]: hi\n")
    assert fm == "\na: 1\n"
    assert body == "\n\n\n[USER]: hi\n"


def test_a_duplicate_key_message_names_the_line_of_the_first_definition():
    with pytest.raises(InputError) as caught:
        parse_yaml("fixture_id: a\ncategory: b\nnotes: x\ncategory: c\n", "expected/x.yaml")
    assert str(caught.value) == 'expected/x.yaml:4:1: YAML error: found duplicate key "category" (first defined at line 2)'
    with pytest.raises(InputError) as caught:
        parse_yaml("points:\n  - id: p\n    type: map\n    id: q\n", "expected/x.yaml")
    assert str(caught.value).endswith('found duplicate key "id" (first defined at line 2)')
