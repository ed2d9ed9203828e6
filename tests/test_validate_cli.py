"""`corpustools validate`, `schema`, `--version` and `python -m corpustools`, as a user runs them."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corpustools import __version__
from corpustools.cli import main
from corpustools.io.schemastore import VALIDATE_KINDS, schema_text
from tests.support.corpus import SPEC_TEXT, sidecar_text

CANDIDATE = {"type": "practice", "tags": ["drupal"], "title": "Branch ids are location codes",
             "description": "Branch ids are lowercased ILS location codes.", "body": "Holdings join on it.",
             "kk_confidence": "medium"}
OUTPUT_JSON = json.dumps({"practice": [CANDIDATE], "map": []}, indent=2) + "\n"


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_valid_file_exits_0(tmp_path, capsys):
    path = write(tmp_path, "out.json", OUTPUT_JSON)
    assert run(["validate", "proposal-output", path], capsys) == (0, f"{path}: valid\n", "")


def test_invalid_file_exits_1_with_one_line_per_error(tmp_path, capsys):
    bad = dict(CANDIDATE, kk_confidence="sure", extra="x")
    path = write(tmp_path, "out.json", json.dumps({"practice": [bad], "map": [], "notes": ""}))
    code, out, err = run(["validate", "proposal-output", path], capsys)
    assert code == 1 and err == ""
    assert out.splitlines() == [
        f"{path}: /notes: unknown key 'notes' (allowed here: map, practice)",
        f"{path}: /practice/0/extra: unknown key 'extra' (allowed here: body, description, kk_confidence, tags, "
        "title, type)",
        f"{path}: /practice/0/kk_confidence: 'sure' is not one of ['low', 'medium', 'high']",
    ]


def test_several_files_are_reported_in_order_and_any_invalid_fails(tmp_path, capsys):
    good = write(tmp_path, "a.yaml", sidecar_text())
    bad = write(tmp_path, "b.yaml", sidecar_text(max_unexpected=-1))
    code, out, _ = run(["validate", "sidecar", good, bad, good], capsys)
    assert code == 1
    assert out.splitlines() == [f"{good}: valid", f"{bad}: /max_unexpected_proposals: -1 is less than the minimum of 0",
                                f"{good}: valid"]


def test_unreadable_file_exits_2_on_stderr(tmp_path, capsys):
    good = write(tmp_path, "a.yaml", sidecar_text())
    missing = str(tmp_path / "missing.yaml")
    code, out, err = run(["validate", "sidecar", good, missing], capsys)
    assert (code, out, err) == (2, f"{good}: valid\n", f"{missing}: no such file\n")


def test_unreadable_beats_invalid_for_the_exit_code(tmp_path, capsys):
    bad = write(tmp_path, "b.yaml", "a: 1\n")
    assert run(["validate", "sidecar", bad, str(tmp_path)], capsys)[0] == 2


@pytest.mark.parametrize("argv", [
    ["validate", "score-sheet", "x.json"],  # unknown kind
    ["validate", "sidecar"],                # no file
    ["validate"],
    ["schema", "nope"],
    ["frobnicate"],
    [],
])
def test_usage_errors_exit_2_with_a_message(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.strip() and "Traceback" not in err


def test_unknown_kind_names_the_choices(capsys):
    _, _, err = run(["validate", "score-sheet", "x.json"], capsys)
    assert "invalid choice: 'score-sheet'" in err
    assert all(kind in err for kind in VALIDATE_KINDS)


@pytest.mark.parametrize("kind, name, text", [
    ("sidecar", "s.json", json.dumps({"fixture_id": "a", "category": "b", "expect_empty": True,
                                      "expected_points": [], "max_unexpected_proposals": 0, "notes": "n"})),
    ("proposal-output", "out.yaml", "practice: []\nmap: []\n"),
    ("corpus-spec", "corpus.yaml", SPEC_TEXT),
    ("corpus-spec", "corpus.json", json.dumps({"corpus_version": 1, "name": "n", "categories": [
        {"id": "a", "count": 1, "expect": "map", "tests": "t"}],
        "prompt_under_eval": {"name": "p", "version": "5"}})),
    ("run-manifest", "run.yaml", "prompt: {path: p.md, name: p, version: 5, sha256: " + "a" * 64 + "}\n"
     "model: m\ntemperature: 0.2\nharness: claude\noperator: me\nstarted_at: 2026-01-15T10:00:00Z\n"
     "corpus_sha256: " + "b" * 64 + "\n"),
    ("sidecar", "flow.yaml", '{fixture_id: a, category: b, expect_empty: true, expected_points: [],'
                             ' max_unexpected_proposals: 0, notes: n}\n'),  # YAML flow mapping, not JSON
])
def test_json_and_yaml_are_both_accepted(tmp_path, capsys, kind, name, text):
    path = write(tmp_path, name, text)
    assert run(["validate", kind, path], capsys) == (0, f"{path}: valid\n", "")


def test_contract_warnings_print_but_do_not_fail(tmp_path, capsys):
    output = {"practice": [dict(CANDIDATE, title="T" * 90, tags=["Drupal"])], "map": []}
    path = write(tmp_path, "out.json", json.dumps(output))
    code, out, _ = run(["validate", "proposal-output", path], capsys)
    assert code == 0
    assert out.splitlines() == [
        f"{path}: warning: practice[0]: tag-case: tag 'Drupal' is not lowercase",
        f"{path}: warning: practice[0]: title-too-long: 90 characters, max 80",
        f"{path}: valid",
    ]


def _stdin(monkeypatch, data: bytes):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_stdin_json(monkeypatch, capsys):
    _stdin(monkeypatch, OUTPUT_JSON.encode())
    assert run(["validate", "proposal-output", "-"], capsys) == (0, "-: valid\n", "")


def test_stdin_yaml_invalid(monkeypatch, capsys):
    _stdin(monkeypatch, b"practice: []\n")
    assert run(["validate", "proposal-output", "-"], capsys) == (
        1, "-: /: 'map' is a required property\n", "")


def test_stdin_yaml_flow_mapping_is_not_mistaken_for_json(monkeypatch, capsys):
    _stdin(monkeypatch, b"{practice: [], map: []}\n")
    assert run(["validate", "proposal-output", "-"], capsys) == (0, "-: valid\n", "")


def test_stdin_broken_json_reports_the_json_error(monkeypatch, capsys):
    _stdin(monkeypatch, b'{"practice": [],\n "map": [,]}')
    assert run(["validate", "proposal-output", "-"], capsys) == (1, "-:2:10: invalid JSON: Expecting value\n", "")


def test_stdin_bad_bytes(monkeypatch, capsys):
    _stdin(monkeypatch, b"practice: []\nmap: [\xff]\n")
    code, out, _ = run(["validate", "proposal-output", "-"], capsys)
    assert code == 1 and out.startswith("-:2:7: not valid UTF-8")


@pytest.mark.parametrize("kind", VALIDATE_KINDS)
def test_schema_prints_the_shipped_schema(kind, capsys):
    code, out, err = run(["schema", kind], capsys)
    assert (code, err) == (0, "")
    assert out == schema_text(kind)
    assert json.loads(out)["$id"] == f"corpustools:{kind}"


def test_version(capsys):
    assert run(["--version"], capsys) == (0, f"corpustools {__version__}\n", "")


def test_help_lists_validate_and_schema(capsys):
    code, out, _ = run(["--help"], capsys)
    assert code == 0 and "validate" in out and "schema" in out


def _subprocess(args, **kwargs):
    env = dict(os.environ, PYTHONHASHSEED=kwargs.pop("seed", "0"), LC_ALL="C")
    return subprocess.run(args, capture_output=True, env=env, timeout=60, **kwargs)


def test_python_dash_m(tmp_path):
    assert _subprocess([sys.executable, "-m", "corpustools", "--version"]).stdout == f"corpustools {__version__}\n".encode()
    good = write(tmp_path, "a.yaml", sidecar_text())
    bad = write(tmp_path, "b.yaml", sidecar_text(notes="''"))
    assert _subprocess([sys.executable, "-m", "corpustools", "validate", "sidecar", good]).returncode == 0
    assert _subprocess([sys.executable, "-m", "corpustools", "validate", "sidecar", bad]).returncode == 1
    assert _subprocess([sys.executable, "-m", "corpustools", "validate", "sidecar", str(tmp_path / "x")]).returncode == 2
    assert _subprocess([sys.executable, "-m", "corpustools", "validate", "nope", good]).returncode == 2


def test_python_dash_m_reads_stdin():
    done = _subprocess([sys.executable, "-m", "corpustools", "validate", "proposal-output", "-"],
                       input=OUTPUT_JSON.encode())
    assert (done.returncode, done.stdout) == (0, b"-: valid\n")


def test_console_script():
    script = Path(sys.executable).parent / "corpustools"
    if not script.exists():
        pytest.skip("the corpustools console script is not installed next to this interpreter")
    done = _subprocess([str(script), "--version"])
    assert (done.returncode, done.stdout) == (0, f"corpustools {__version__}\n".encode())


def test_output_is_byte_identical_across_hash_seeds(tmp_path):
    data = {"practice": [dict(CANDIDATE, zeta=1, alpha=2, kk_confidence="x", type="y")], "map": {}, "b": 1, "a": 2}
    path = write(tmp_path, "out.json", json.dumps(data))
    runs = {_subprocess([sys.executable, "-m", "corpustools", "validate", "proposal-output", path], seed=seed).stdout
            for seed in ("1", "2", "3")}
    assert len(runs) == 1 and runs.pop().count(b"\n") >= 5
