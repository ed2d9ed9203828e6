"""corpustools.model.prompt: the one reader of the prompt under eval (render and lint) and the KB."""

import pytest

from corpustools.io.errors import InputError
from corpustools.model.prompt import PLACEHOLDER, prompt_source, read_kb, read_prompt


def test_render_needs_the_placeholder_line_and_lint_does_not(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.md").write_text("Extract the conventions.\n")
    with pytest.raises(InputError, match=r"^p\.md: no line .* pass --append"):
        read_prompt("p.md", need_placeholder=True)
    assert prompt_source(str(tmp_path / "p.md")).path == "p.md"  # named as lint names paths
    (tmp_path / "q.md").write_text(f"Extract.\n  {PLACEHOLDER}\n")
    assert read_prompt("q.md", need_placeholder=True).endswith(f"{PLACEHOLDER}\n")


def test_the_kb_is_every_markdown_file_sorted_skipping_empty_and_hidden(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in {"kb/b.md": "B\n", "kb/a/z.md": "Z\n", "kb/empty.md": " \n", "kb/.git/x.md": "X\n",
                       "kb/notes.txt": "T\n"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert [(s.path, s.text) for s in read_kb("kb")] == [("kb/a/z.md", "Z\n"), ("kb/b.md", "B\n")]


def test_a_bad_kb_file_is_one_line_naming_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "bom.md").write_bytes(b"\xef\xbb\xbfhello\n")
    with pytest.raises(InputError, match=r"^kb/bom\.md:1:1: starts with a UTF-8 byte-order mark"):
        read_kb("kb")
    with pytest.raises(InputError, match=r"^missing: not a folder$"):
        read_kb("missing")
