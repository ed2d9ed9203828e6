"""In-place YAML edits (corpustools.io.yamledit) and the one writer into a corpus (io/writing.py's
rewrite_corpus_file and rename_corpus_file), which `lint --fix` uses.

The property (issue 25): over the shipped sidecars and corpus.yaml, the `init` scaffold's files and
a generated corpus's, an edit that sets a value to itself gives the file back byte for byte, and
one real edit changes that one line and no other (a dropped item: exactly its line removed), every
comment kept.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpustools.io.errors import InputError
from corpustools.io.writing import rename_corpus_file, rewrite_corpus_file, write_text
from corpustools.io.yamledit import EditRefused, YamlEdit, edit_yaml, nodes
from corpustools.io.yamlload import parse_yaml
from corpustools.scaffold import scaffold_files
from tests.support.bench import write_generated
from tests.support.corpus import write_corpus

REPO = Path(__file__).resolve().parent.parent


def _frontmatter(text: str) -> str:
    return text.split("---\n", 2)[1]


def _yaml_files(tmp: Path) -> dict[str, str]:
    """name -> YAML text: every shipped sidecar and spec, the scaffold's, and a generated corpus's
    (session frontmatter included)."""
    texts = {}
    shipped = REPO / "fixtures" / "prompt-eval"
    for path in sorted((shipped / "expected").glob("*.yaml")) + [shipped / "corpus.yaml"]:
        texts[f"shipped/{path.name}"] = path.read_text()
    for path in sorted((shipped / "sessions").glob("*.md"))[:4]:
        texts[f"shipped/{path.name}"] = _frontmatter(path.read_text())
    for relative, text in scaffold_files("new", "new").items():
        if relative.endswith(".yaml"):
            texts[f"scaffold/{relative}"] = text
        elif relative.endswith(".md") and relative.startswith("sessions/"):
            texts[f"scaffold/{relative}"] = _frontmatter(text)
    corpus = write_generated(tmp, 20) / "corpus"
    for path in sorted((corpus / "expected").glob("*.yaml"))[:8] + [corpus / "corpus.yaml"]:
        texts[f"generated/{path.name}"] = path.read_text()
    return texts


@pytest.fixture(scope="module")
def yaml_files(tmp_path_factory) -> dict[str, str]:
    return _yaml_files(tmp_path_factory.mktemp("yaml"))


def _scalars(text: str):
    """(key path, value) of every scalar value of the document."""
    data = parse_yaml(text, "<t>").data
    for keypath, node in nodes(text).items():
        if node.kind == "scalar" and keypath:
            value = data
            for part in keypath:
                value = value[part]
            yield keypath, value, node


def noop(text: str, keypath: tuple) -> YamlEdit:
    """An edit that sets the value at `keypath` to itself."""
    value = parse_yaml(text, "<t>").data
    for part in keypath:
        value = value[part]
    return YamlEdit("set", keypath, value, value)


def _changed_lines(before: str, after: str) -> list[int]:
    a, b = before.split("\n"), after.split("\n")
    assert len(a) == len(b)
    return [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]


def test_the_files_under_test_are_many(yaml_files):
    assert sum(1 for name in yaml_files if name.startswith("shipped/")) >= 25
    assert sum(1 for name in yaml_files if name.startswith("scaffold/")) >= 9
    assert sum(len(list(_scalars(text))) for text in yaml_files.values()) > 500


def test_setting_every_value_to_itself_gives_the_file_back_byte_for_byte(yaml_files):
    for name, text in yaml_files.items():
        for keypath, _, _ in _scalars(text):
            assert edit_yaml(text, noop(text, keypath)) == text, (name, keypath)


def test_one_changed_value_changes_its_line_only(yaml_files):
    changed = 0
    for name, text in yaml_files.items():
        lines = text.split("\n")
        for keypath, value, node in _scalars(text):
            if not isinstance(value, str) or "\n" in text[node.start:node.end]:
                continue
            new = value.upper() + " (edited: #1)" if value else "edited"
            edited = edit_yaml(text, YamlEdit("set", keypath, value, new))
            line = text.count("\n", 0, node.start)
            assert _changed_lines(text, edited) == [line], (name, keypath)
            assert parse_yaml(edited, "<t>").data != parse_yaml(text, "<t>").data
            assert "#" not in lines[line] or lines[line].split("#", 1)[1] in edited  # a comment on the line stays
            changed += 1
    assert changed > 400


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_new_text_is_written_on_the_one_line_and_reads_back(yaml_files, data):
    name = data.draw(st.sampled_from(sorted(yaml_files)))
    text = yaml_files[name]
    candidates = [(k, v, n) for k, v, n in _scalars(text) if isinstance(v, str) and "\n" not in text[n.start:n.end]]
    keypath, value, node = data.draw(st.sampled_from(candidates))
    new = data.draw(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30))
    try:
        edited = edit_yaml(text, YamlEdit("set", keypath, value, new))
    except EditRefused:
        return  # a value no one-line scalar can hold is refused, never written wrong
    expected = parse_yaml(text, "<t>").data
    target = expected
    for part in keypath[:-1]:
        target = target[part]
    target[keypath[-1]] = new
    assert parse_yaml(edited, "<t>").data == expected
    assert _changed_lines(text, edited) in ([], [text.count("\n", 0, node.start)])


@pytest.mark.parametrize("new", ["-_", "._", "+_", "0_"])
def test_a_value_ruamel_crashes_on_as_a_plain_scalar_is_written_quoted(new):
    """ruamel.yaml's resolver raises IndexError on plain `-_` and ValueError on `._` (found by the
    property test above): the edit is then written in a form both parsers read, never a traceback."""
    text = "fixture_id: x\nnotes: old\n"
    edited = edit_yaml(text, YamlEdit("set", ("notes",), "old", new))
    assert parse_yaml(edited, "<t>").data == {"fixture_id": "x", "notes": new}


def test_dropping_an_item_removes_exactly_its_line(yaml_files):
    dropped = 0
    for name, text in yaml_files.items():
        found = nodes(text)
        for keypath, node in found.items():
            siblings = [k for k in found if k[:-1] == keypath[:-1] and len(k) == len(keypath)]
            parent = found.get(keypath[:-1])
            if (node.kind != "scalar" or not keypath or not isinstance(keypath[-1], int) or len(siblings) < 2
                    or parent is None or parent.style != "block"):
                continue
            value = parse_yaml(text, "<t>").data
            for part in keypath:
                value = value[part]
            edited = edit_yaml(text, YamlEdit("drop", keypath, value))
            line = text.count("\n", 0, node.start)
            lines = text.split("\n")
            assert edited.split("\n") == lines[:line] + lines[line + 1:], (name, keypath)
            dropped += 1
    assert dropped > 100


def test_comments_and_layout_survive_every_kind_of_edit():
    text = ("# top\nfixture_id: a-01   # id\nlist:\n  - A   # about a\n  # about b\n  - b\n"
            "flow: [x,  Y , 'z']  # flow\nquoted: \"q\"\n")
    assert edit_yaml(text, YamlEdit("set", ("list", 0), "A", "a")) == text.replace("- A ", "- a ")
    assert edit_yaml(text, YamlEdit("drop", ("list", 0), "A")) == text.replace("  - A   # about a\n", "")
    assert edit_yaml(text, YamlEdit("drop", ("flow", 1), "Y")) == text.replace("[x,  Y , 'z']", "[x,  'z']")
    assert edit_yaml(text, YamlEdit("rename", ("flow",), "flow", "flows")) == text.replace("flow:", "flows:")
    assert edit_yaml(text, YamlEdit("set", ("quoted",), "q", "it's")) == text.replace('"q"', '"it\'s"')
    assert edit_yaml(text, YamlEdit("set", ("fixture_id",), "a-01", "true")) == text.replace(
        "fixture_id: a-01", "fixture_id: 'true'")  # plain `true` would read as a boolean


def test_a_term_becomes_a_list_of_terms_and_a_flow_list_gains_one_in_place():
    """What CT614's fix does: a scalar written as a flow sequence, and a one-line flow sequence
    rewritten; items bare where YAML reads them back as the same strings, else quoted."""
    text = "terms:  # the point's\n  - reversal   # key\n  - [cache, 'tags']\n  - x\n"
    assert edit_yaml(text, YamlEdit("set", ("terms", 0), "reversal", ["reversal", "reverses"])) == text.replace(
        "- reversal ", "- [reversal, reverses] ")
    assert edit_yaml(text, YamlEdit("set", ("terms", 1), ["cache", "tags"], ["cache", "tags", "tag, list", "no"])) == (
        text.replace("[cache, 'tags']", '[cache, tags, "tag, list", "no"]'))
    block = "terms:\n  - - a\n    - b\n"
    with pytest.raises(EditRefused, match="not a one-line scalar or flow sequence"):
        edit_yaml(block, YamlEdit("set", ("terms", 0), ["a", "b"], ["a", "b", "c"]))


@pytest.mark.parametrize(("text", "edit", "why"), [
    ("a: &x [b]\nc: *x\n", YamlEdit("drop", ("a", 0), "b"), "shared through a YAML anchor"),
    ("a: |\n  b\n", YamlEdit("set", ("a",), "b\n", "c"), "not a one-line scalar"),
    ("a: b\n", YamlEdit("set", ("a",), "other", "c"), "changed since it was checked"),
    ("a: b\nc: d\n", YamlEdit("rename", ("a",), "a", "c"), "already has a key 'c'"),
])
def test_an_edit_that_cannot_be_made_safely_is_refused(text, edit, why):
    with pytest.raises(EditRefused, match=why):
        edit_yaml(text, edit)


# --- the writer into a corpus ---------------------------------------------------------------------

def test_the_fix_writer_writes_only_this_corpus_s_own_files(tmp_path):
    root = write_corpus(tmp_path / "tiny")
    sidecar = root / "expected" / "admit-convention-01.yaml"
    was = sidecar.read_bytes()
    rewrite_corpus_file(str(sidecar), str(root), was, was + b"# fixed\n")
    assert sidecar.read_bytes() == was + b"# fixed\n"
    with pytest.raises(InputError, match="corpustools never writes there"):
        write_text(str(sidecar), "the report writer still refuses")
    (root / "gold").mkdir()
    gold = root / "gold" / "x.json"
    gold.write_text("{}")
    with pytest.raises(InputError, match="not one of the corpus's own files lint reads"):
        rewrite_corpus_file(str(gold), str(root), b"{}", b"[]")
    with pytest.raises(InputError, match="changed since lint read it"):
        rewrite_corpus_file(str(sidecar), str(root), was, b"x")
    assert sidecar.read_bytes() == was + b"# fixed\n"


def test_the_fix_writer_never_writes_through_a_link_nor_into_another_corpus(tmp_path):
    root = write_corpus(tmp_path / "tiny")
    outside = tmp_path / "outside.yaml"
    outside.write_text("a: 1\n")
    link = root / "expected" / "linked.yaml"
    link.symlink_to(outside)
    with pytest.raises(InputError, match="symbolic link"):
        rewrite_corpus_file(str(link), str(root), b"a: 1\n", b"a: 2\n")
    assert outside.read_text() == "a: 1\n"
    inner = write_corpus(root / "sessions" / "nested")  # a corpus inside another's own files
    (inner / "sessions").mkdir(exist_ok=True)
    session = next((inner / "sessions").glob("*.md"))
    with pytest.raises(InputError, match="another corpus"):
        rewrite_corpus_file(str(session), str(inner), session.read_bytes(), b"x")


def test_a_rename_never_replaces_a_file(tmp_path):
    root = write_corpus(tmp_path / "tiny")
    sidecar = root / "expected" / "admit-convention-01.yaml"
    misnamed = root / "expected" / "admit-convention-01.yml"
    misnamed.write_text("fixture_id: x\n")
    with pytest.raises(InputError, match="exists"):
        rename_corpus_file(str(misnamed), str(sidecar), str(root), b"fixture_id: x\n")
    assert misnamed.exists() and sidecar.read_text().startswith("fixture_id: admit-convention-01")
    sidecar.unlink()
    rename_corpus_file(str(misnamed), str(sidecar), str(root), b"fixture_id: x\n")
    assert sidecar.read_text() == "fixture_id: x\n" and not os.path.lexists(misnamed)


def test_a_value_written_again_in_its_own_style_is_the_same_characters(yaml_files):
    # What makes a set edit touch nothing but the value: the writer reproduces how the file spells it.
    from corpustools.io.yamledit import _renderings

    for name, text in yaml_files.items():
        for keypath, value, node in _scalars(text):
            if "\n" not in text[node.start:node.end]:
                assert _renderings(value, node.style)[0] == text[node.start:node.end], (name, keypath)
