"""A path no file can have, and numbers no JSON parser reads (issue 31, items 5 and 15;
docs/security.md).

5: a NUL byte in a path corpus.yaml gives (YAML's "\\0" escape) is one line naming corpus.yaml's
line and column, from lint (and lint --staged) and score, and the documented error class from
the Python API; never `internal error: ValueError: embedded null byte`.
15: a result holding NaN, Infinity, -Infinity or 1e400 is not JSON (`invalid-result`, with the
reason unparsable JSON always had: `invalid JSON: ...`), and no report writes such a number.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from corpustools import api
from corpustools.io.documents import dump_json
from tests.support.score import run_cli as run
from tests.support.triage import BILLING, GOLD, OUTAGE, SPEC, TRIAGE_FILES, write_run, write_triage

pytestmark = pytest.mark.usefixtures("in_tmp")

NUL_PATH = "the path holds a NUL byte (\\0), which no file name can; not read"


def strict_json(text: str):
    """`text` read as JSON.parse, Go or serde would: NaN and Infinity are errors."""
    def refuse(token):
        raise ValueError(f"{token} is not JSON")
    return json.loads(text, parse_constant=refuse)


# --- 5. a NUL byte in a path from corpus.yaml ----------------------------------------------------

SCHEMA_NUL = 'schema: "output\\0.schema.json"'
LINT_KEYS = {"prompt": "lint.prompt", "kb": "lint.kb", "provenance": "lint.provenance"}


def nul_corpus(key: str) -> None:
    if key == "schema":
        spec = SPEC.replace("schema: output.schema.json", SCHEMA_NUL)
    else:
        spec = SPEC + f'lint:\n  {key}: "notes\\0.md"\n'
    write_triage("c", {"corpus.yaml": spec})
    write_run("run", GOLD)


def test_a_nul_in_output_schema_is_one_line_at_its_key_from_lint_score_and_the_api(capsys):
    nul_corpus("schema")
    line = f"c/corpus.yaml:12:3: CT003 [error] /output/schema: cannot read the schema file: output\\x00.schema.json: {NUL_PATH}"
    assert run(capsys, "lint", "c") == (1, f"{line}\nFound 1 error in 2 fixtures.\n", "")
    code, out, err = run(capsys, "score", "c", "run")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("corpustools score: " + line.replace(" CT003 [error]", "")), err
    with pytest.raises(api.InputError) as raised:
        api.score("c", "run")
    assert str(raised.value).startswith("c/corpus.yaml:12:3: /output/schema: cannot read the schema file: ")
    assert [d.code for d in api.lint("c").diagnostics] == ["CT003"]


@pytest.mark.parametrize("key", LINT_KEYS)
def test_a_nul_in_a_lint_path_is_one_line_at_its_key_from_lint_and_a_config_error_from_the_api(capsys, key):
    nul_corpus(key)
    line = f"c/corpus.yaml:30:3: {LINT_KEYS[key]}: {NUL_PATH}\n"
    assert run(capsys, "lint", "c") == (2, "", line)
    with pytest.raises(api.ConfigError) as raised:
        api.lint("c")
    assert f"corpus.yaml:30:3: {LINT_KEYS[key]}: {NUL_PATH}" in str(raised.value)
    assert run(capsys, "score", "c", "run")[0] == 0  # score reads no lint: path


def test_a_nul_in_the_provenance_path_is_one_line_from_provenance_too(capsys):
    nul_corpus("provenance")
    code, out, err = run(capsys, "provenance", "verify", "--corpus", "c")
    assert (code, out, err) == (2, "", f"corpustools provenance: c/corpus.yaml:30:3: lint.provenance: {NUL_PATH}\n")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("key", ["schema", "prompt"])
def test_lint_staged_names_the_key_too(capsys, key):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    write_triage("c")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "corpus"]):
        subprocess.run(["git", *args], check=True, capture_output=True, env=env, timeout=60)
    nul_corpus(key)
    subprocess.run(["git", "add", "c/corpus.yaml"], check=True, capture_output=True, env=env, timeout=60)
    code, out, err = run(capsys, "lint", "--staged")
    if key == "schema":
        assert (code, err) == (1, "") and out.startswith("c/corpus.yaml:12:3: CT003 [error] /output/schema: "
                                                         f"cannot read the schema file: output\\x00.schema.json: {NUL_PATH}")
    else:
        assert (code, out, err) == (2, "", f"c/corpus.yaml:30:3: lint.prompt: {NUL_PATH}\n")


# --- 15. strict JSON ---------------------------------------------------------------------------------

@pytest.mark.parametrize("written, column, why", [
    ("NaN", 34, "NaN is not JSON (JSON has no NaN or Infinity)"),
    ("Infinity", 34, "Infinity is not JSON (JSON has no NaN or Infinity)"),
    ("-Infinity", 34, "-Infinity is not JSON (JSON has no NaN or Infinity)"),
    ("1e400", 34, "1e400 is out of the range of a JSON number (a 64-bit double)"),
])
def test_a_result_holding_a_number_json_has_not_is_not_json(capsys, written, column, why):
    # no schema: nothing but the parser stands between the number and a report's "got"
    write_triage("c", {"corpus.yaml": SPEC.replace("  schema: output.schema.json\n", ""), "output.schema.json": None})
    result = json.dumps({**GOLD[BILLING], "priority": "PLACEHOLDER"}).replace('"PLACEHOLDER"', written)
    write_run("run", {BILLING: result, OUTAGE: GOLD[OUTAGE]})
    assert result.index(written) + 1 == column
    code, out, err = run(capsys, "score", "c", "run", "--format", "json")
    assert code == 0, err
    report = strict_json(out)
    billing = next(f for f in report["fixtures"] if f["id"] == BILLING)
    assert billing["reasons"] == [f"invalid-result:run/{BILLING}.json:1:{column}: invalid JSON: {why}"]
    # a number out of range but no infinity, and a string spelling NaN, are JSON
    write_run("run", {BILLING: {**GOLD[BILLING], "priority": "NaN", "extra": 1e308}, OUTAGE: GOLD[OUTAGE]})
    billing = next(f for f in strict_json(run(capsys, "score", "c", "run", "--format", "json")[1])["fixtures"]
                   if f["id"] == BILLING)
    assert billing["status"] == "ok"


@pytest.mark.parametrize("written", [".nan", ".inf", "-.inf"])
def test_a_yaml_nan_or_infinity_in_expected_fields_is_a_sidecar_error_said_as_written(capsys, written):
    sidecar = TRIAGE_FILES[f"expected/{BILLING}.yaml"].replace("  /escalate: false", f"  /escalate: {written}")
    write_triage("c", {f"expected/{BILLING}.yaml": sidecar})
    code, out, _ = run(capsys, "lint", "c")
    assert code == 1
    assert out.splitlines()[0] == (f"c/expected/{BILLING}.yaml:13:3: CT005 [error] expected_fields key '/escalate': "
                                   f"{written} is no JSON number (a JSON number is finite: no report could write "
                                   "it): write a finite number, or quote it as a string")
    write_run("run", GOLD)
    code, out, _ = run(capsys, "score", "c", "run", "--format", "json")
    billing = next(f for f in strict_json(out)["fixtures"] if f["id"] == BILLING)
    assert billing["status"] == "sidecar-invalid"


def test_no_json_writer_can_write_a_non_standard_number():
    for value in (float("nan"), float("inf"), float("-inf"), {"got": [float("nan")]}):
        with pytest.raises(ValueError):
            dump_json(value)
    assert dump_json({"got": 1e308, "text": "NaN"}) == '{"got": 1e+308, "text": "NaN"}'
