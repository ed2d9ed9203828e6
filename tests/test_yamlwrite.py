"""corpustools.io.yamlwrite: whatever text is written, corpustools.io.yamlload reads back exactly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from corpustools.io.yamlload import parse_yaml
from corpustools.io.yamlwrite import inline_scalar, scalar_lines

# Lines made of the characters that make YAML block scalars hard: spaces, tabs, indicators.
_TRICKY = st.text(alphabet=st.sampled_from(list(" \t\n-:#|>'\"[]{}&*!%@`,?\\aé日\x85\u2028\x07\ufeff")), max_size=40)


def _read_back(value, indent: int):
    lines = scalar_lines("v", value, indent)
    prefix = "".join(f"{' ' * level}l{level}:\n" for level in range(0, indent, 2))
    data = parse_yaml(prefix + "\n".join(lines) + "\n", "t").data
    for level in range(0, indent, 2):
        data = data[f"l{level}"]
    return data["v"]


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=60), _TRICKY), indent=st.sampled_from([0, 2, 4, 8]))
def test_any_string_round_trips_at_any_depth(text, indent):
    assert _read_back(text, indent) == text


def test_multi_line_text_is_a_literal_block_and_ids_stay_bare():
    assert scalar_lines("body", "a\n  b\n", 4) == ["    body: |", "      a", "        b"]
    assert scalar_lines("body", " a\nb", 0) == ["body: |2-", "   a", "  b"]
    assert [inline_scalar(v) for v in ("practice[0]", "admit-convention-01", "yes", "12", "a: b", None, 5)] == [
        "practice[0]", "admit-convention-01", '"yes"', '"12"', '"a: b"', "null", "5"]
