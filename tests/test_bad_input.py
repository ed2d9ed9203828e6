"""Every bad input the foundation issue lists gets a one-line message naming the file (and line and
column where known), a non-zero exit from `validate`, no traceback, and leaves the file untouched."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from corpustools.cli import main
from corpustools.model.corpus import SESSION_PARSE, SIDECAR_PARSE, load_corpus
from tests.support.corpus import ADMIT_ID, session_text, sidecar_text


def _alias_bomb() -> bytes:
    lines = ['l0: &l0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for level in range(1, 10):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    return ("\n".join(lines) + "\n").encode()


def _block_nesting(depth: int) -> bytes:
    return ("".join("  " * i + "a:\n" for i in range(depth)) + "  " * depth + "b: 1\n").encode()


SIDECAR = sidecar_text().encode()

# name -> (file name, bytes, where the message points ("" = the file as a whole), words in it)
YAML_CASES = {
    "non-utf8": ("x.yaml", SIDECAR.replace(b"tiny fixture", b"tiny caf\xe9 fixture"), ":11:18", "not valid UTF-8"),
    "bom": ("x.yaml", b"\xef\xbb\xbf" + SIDECAR, ":1:1", "byte-order mark"),
    "crlf": ("x.yaml", SIDECAR.replace(b"\n", b"\r\n"), ":1:32", "CR line ending"),
    "empty": ("x.yaml", b"", "", "file is empty"),
    "blank": ("x.yaml", b"\n  \n", "", "file is empty"),
    "nul": ("x.yaml", SIDECAR + b"\x00", ":12", "NUL byte"),
    "duplicate-key": ("x.yaml", SIDECAR + b"category: other\n", ":12:1", "duplicate key"),
    "alias-bomb": ("x.yaml", _alias_bomb(), ":1:1", "alias bomb"),
    "yaml-deep-flow": ("x.yaml", b"notes: " + b"[" * 10_000 + b"]" * 10_000 + b"\n", ":1:108", "nested deeper"),
    "yaml-deep-block": ("x.yaml", _block_nesting(300), ":101:201", "nested deeper"),
    "yaml-syntax": ("x.yaml", b"fixture_id: [a\nnotes: b\n", ":2", "YAML error"),
    "control-char": ("x.yaml", b"notes: a\x1bb\n", ":1:9", "control character U+001B"),
}
JSON_CASES = {
    "json-deep-array": ("out.json", b"[" * 10_000 + b"]" * 10_000, ":1:1", "nested too deeply"),
    "json-deep-object": ("out.json", b'{"a":' * 10_000 + b"1" + b"}" * 10_000, ":1:1", "nested too deeply"),
    "json-syntax": ("out.json", b'{"practice": [],\n "map": [,]}', ":2:10", "invalid JSON"),
    "json-duplicate-key": ("out.json", b'{"practice": [], "map": [], "map": []}', "", "duplicate key 'map'"),
}
NOT_A_MAPPING = {"list": b"- a\n- b\n", "scalar": b"just words\n", "null": b"~\n"}
FIFTY_MB = 50 * 1024 * 1024


def _snapshot(folder):
    return {name: (open(os.path.join(folder, name), "rb").read() if os.path.isfile(os.path.join(folder, name))
                   else None, os.lstat(os.path.join(folder, name)).st_mtime_ns, os.lstat(os.path.join(folder, name)).st_mode)
            for name in sorted(os.listdir(folder))}


def _validate(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, (out + err).splitlines()


def _points_at(text, path, where):
    """`text` is `path` + `where` + ': ...', or has a column after a `where` that gives only the line."""
    if not text.startswith(path + where):
        return False
    rest = text[len(path + where):]
    return rest.startswith(": ") or (where.count(":") == 1 and re.match(r":\d+: ", rest) is not None)


def _assert_one_line(lines, path, where, words):
    assert len(lines) == 1, lines
    (line,) = lines
    assert _points_at(line, path, where), line
    assert words in line
    assert "Traceback" not in line and len(line) < 400


@pytest.mark.parametrize("case", sorted(YAML_CASES) + sorted(JSON_CASES))
def test_validate_gives_one_line_and_fails(tmp_path, capsys, case):
    name, data, where, words = {**YAML_CASES, **JSON_CASES}[case]
    path = tmp_path / name
    path.write_bytes(data)
    before = _snapshot(tmp_path)
    kind = "sidecar" if name.endswith(".yaml") else "proposal-output"
    code, lines = _validate(["validate", kind, str(path)], capsys)
    assert code == 1
    _assert_one_line(lines, str(path), where, words)
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("case", sorted(NOT_A_MAPPING))
def test_validate_not_a_mapping(tmp_path, capsys, case):
    path = tmp_path / "x.yaml"
    path.write_bytes(NOT_A_MAPPING[case])
    code, lines = _validate(["validate", "sidecar", str(path)], capsys)
    assert code == 1
    _assert_one_line(lines, str(path), "", "is not of type 'object'")


def test_fifty_megabyte_file_is_refused_unread(tmp_path, capsys):
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(FIFTY_MB)  # sparse: the size is what is checked, before reading
    before = _snapshot(tmp_path)
    code, lines = _validate(["validate", "proposal-output", str(path)], capsys)
    assert code == 2
    _assert_one_line(lines, str(path), "", f"file is {FIFTY_MB} bytes, over the")
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("make, words", [
    (lambda p: None, "no such file"),
    (lambda p: os.mkdir(p), "is a directory"),
    (lambda p: os.symlink("/etc/hostname", p), "symbolic link"),
])
def test_unreadable_files_exit_2(tmp_path, capsys, make, words):
    path = tmp_path / "x.yaml"
    make(path)
    code, lines = _validate(["validate", "sidecar", str(path)], capsys)
    assert code == 2
    _assert_one_line(lines, str(path), "", words)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_endless_device_is_refused_unread(capsys):
    # only regular files are opened: a device is refused before a byte is read
    code, lines = _validate(["validate", "sidecar", "/dev/zero"], capsys)
    assert code == 2
    _assert_one_line(lines, "/dev/zero", "", "is a character device, not a regular file")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read a mode-000 file")
def test_permission_denied_exits_2(tmp_path, capsys):
    path = tmp_path / "x.yaml"
    path.write_bytes(SIDECAR)
    path.chmod(0)
    try:
        code, lines = _validate(["validate", "sidecar", str(path)], capsys)
    finally:
        path.chmod(0o644)
    assert code == 2
    _assert_one_line(lines, str(path), "", "cannot read")


# --- the same inputs inside a corpus: each becomes one problem at that file ----------------------

def _loads_with_one_problem(make_corpus, relative: str, data: bytes, kind: str, where: str, words: str):
    """The corpus with `data` as its file `relative` loads with exactly one problem: of `kind`, one
    line at that file and `where`, saying `words`; the file's folder is left as it was."""
    root = make_corpus({relative: data})
    before = _snapshot((root / relative).parent)
    corpus = load_corpus(str(root))
    (problem,) = corpus.problems
    assert problem.kind == kind
    assert _points_at(f"{problem.pos}: {problem.message}", str(root / relative), where)
    assert words in problem.message and "\n" not in problem.message
    assert _snapshot((root / relative).parent) == before
    return corpus


@pytest.mark.parametrize("case", sorted(YAML_CASES))
def test_bad_sidecar_in_a_corpus_is_one_problem(make_corpus, case):
    _, data, where, words = YAML_CASES[case]
    corpus = _loads_with_one_problem(make_corpus, f"expected/{ADMIT_ID}.yaml", data, SIDECAR_PARSE, where, words)
    assert ADMIT_ID in corpus.sessions  # the rest of the corpus still loads


@pytest.mark.parametrize("case", sorted(NOT_A_MAPPING))
def test_sidecar_not_a_mapping_in_a_corpus(make_corpus, case):
    root = make_corpus({f"expected/{ADMIT_ID}.yaml": NOT_A_MAPPING[case]})
    (problem,) = load_corpus(str(root)).problems
    assert (problem.kind, problem.pos.line, problem.message) == (SIDECAR_PARSE, 1, "sidecar is not a YAML mapping")


SESSION = session_text().encode()
SESSION_CASES = {
    "non-utf8": (SESSION.replace(b"cron hook", b"cr\xf6n hook"), ":7:17", "not valid UTF-8"),
    "bom": (b"\xef\xbb\xbf" + SESSION, ":1:1", "byte-order mark"),
    "crlf": (SESSION.replace(b"\n", b"\r\n"), ":1:4", "CR line ending"),
    "empty": (b"", "", "file is empty"),
    "frontmatter-missing": (b"[USER]: hello\n", ":1:1", "frontmatter missing"),
    "frontmatter-unclosed": (SESSION.replace(b"\n---\n", b"\n"), ":1:1", "frontmatter never closes"),
    "frontmatter-not-mapping": (b"---\n- schema_version\n---\n[USER]: hi\n", ":2:1", "not a YAML mapping"),
    "frontmatter-duplicate": (SESSION.replace(b"harness: claude\n", b"harness: claude\nharness: codex\n"),
                              ":5:1", "duplicate key"),
    "frontmatter-alias-bomb": (b"---\n" + _alias_bomb() + b"---\n[USER]: hi\n", ":1:1", "alias bomb"),
    "frontmatter-deep": (b"---\na: " + b"[" * 10_000 + b"]" * 10_000 + b"\n---\n[USER]: hi\n", ":2:104",
                         "nested deeper"),
}


@pytest.mark.parametrize("case", sorted(SESSION_CASES))
def test_bad_session_in_a_corpus_is_one_problem(make_corpus, case):
    data, where, words = SESSION_CASES[case]
    corpus = _loads_with_one_problem(make_corpus, f"sessions/{ADMIT_ID}.md", data, SESSION_PARSE, where, words)
    assert ADMIT_ID not in corpus.sessions and ADMIT_ID in corpus.sidecars


def test_fifty_megabyte_session_in_a_corpus(make_corpus):
    root = make_corpus()
    with open(root / "sessions" / f"{ADMIT_ID}.md", "wb") as handle:
        handle.truncate(FIFTY_MB)
    (problem,) = load_corpus(str(root)).problems
    assert problem.kind == SESSION_PARSE and "over the" in problem.message


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read a mode-000 file")
def test_unreadable_sidecar_in_a_corpus(make_corpus):
    root = make_corpus()
    path = root / "expected" / f"{ADMIT_ID}.yaml"
    path.chmod(0)
    try:
        (problem,) = load_corpus(str(root)).problems
    finally:
        path.chmod(0o644)
    assert problem.kind == SIDECAR_PARSE and "cannot read" in problem.message


# --- end to end: a real process, every bad file at once ----------------------------------------

def test_no_traceback_from_a_real_process(tmp_path):
    paths = []
    for case, (name, data, _, _) in sorted({**YAML_CASES, **JSON_CASES}.items()):
        path = tmp_path / f"{case}-{name}"
        path.write_bytes(data)
        paths.append(str(path))
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as handle:
        handle.truncate(FIFTY_MB)
    paths += [str(huge), str(tmp_path / "missing.yaml")]
    before = _snapshot(tmp_path)
    done = subprocess.run([sys.executable, "-m", "corpustools", "validate", "sidecar", *paths],
                          capture_output=True, timeout=120)
    lines = (done.stdout + done.stderr).decode().splitlines()
    assert done.returncode == 2
    assert "Traceback" not in done.stderr.decode()
    assert len(lines) == len(paths)
    assert sorted(line.split(":", 1)[0] for line in lines) == sorted(paths)
    assert _snapshot(tmp_path) == before
