"""Fuzzing lint and score: hypothesis mutates one file of a small generated corpus at a time.

Each example copies a clean generated corpus (bench/corpusgen.py), mutates one session, sidecar,
corpus.yaml, result file or run.yaml (truncation, random bytes, invalid UTF-8, byte-order mark,
UTF-16, CRLF, emptiness, deep nesting, huge values, wrong types), runs `corpustools lint` and
`corpustools score` in-process, and checks that:

- neither raises nor reports an internal error;
- a mutated file that is bad (by the readers' own standard: undecodable, unparseable, or invalid
  against its schema) is named: by a lint diagnostic for a corpus file, by a FAIL reason for a
  result or a sidecar, by a warning for run.yaml;
- nothing under the corpus or results folder changed, byte for byte.

Every mutation kind runs once per file kind as an explicit example; hypothesis adds a few drawn
ones. Bounded and derandomized, so CI is fast and deterministic.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from defects import FROZEN_PLANTERS, NOT_PLANTED, planter_codes  # bench/ is on pytest's pythonpath
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from corpustools.io.documents import parse_json
from corpustools.io.errors import InputError
from corpustools.io.schemastore import validate
from corpustools.io.textfile import decode_text
from corpustools.io.yamlload import parse_yaml
from corpustools.model.session import parse_session
from corpustools.model.spec import parse_spec
from tests.support.bench import generate, lint_json, run_main, tree_digest, unreported, write_generated, write_tree
from tests.support.corpus import key_paths
from tests.support.recipes import RULE

ROOT = Path(__file__).resolve().parent.parent
BASE_FIXTURES, BASE_SEED = 5, 8
MUTATIONS = ("truncate", "insert-bytes", "random-bytes", "invalid-utf8", "bom", "utf-16", "crlf", "empty",
             "deep-nesting", "huge-value", "wrong-type")
INVALID_UTF8 = (b"\xff", b"\xe9", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80")
FRONTMATTER_KEYS = {"schema_version", "session_id", "harness", "captured_at"}
UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
UTC_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")
FUZZ = settings(max_examples=6, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return write_generated(tmp_path_factory.mktemp("fuzz-base") / "base", BASE_FIXTURES, BASE_SEED)


# -- mutations: (new bytes, whether the file is certainly bad) ------------------------------------

def _other_kind(value):
    """A value of another JSON kind than `value`: every node of our schemas has one fixed kind."""
    if isinstance(value, dict):
        return ["a list", "not a mapping"]
    if isinstance(value, list):
        return "a string, not a list"
    if isinstance(value, str):
        return [1, 2]
    return {"wrong": "kind"}


def _replace(value, path, new):
    if not path:
        return new
    value[path[0]] = _replace(value[path[0]], path[1:], new)
    return value


def _structured(data: bytes, file_kind: str):
    """The file's data (JSON results, YAML otherwise; a session's frontmatter), or None."""
    try:
        text = data.decode("utf-8")
        if file_kind == "result":
            return json.loads(text)
        if file_kind == "session":
            return parse_yaml(text.split("---\n")[1], "fm").data
        return parse_yaml(text, "doc").data
    except (ValueError, InputError, IndexError):
        return None


def _write_structured(data: bytes, file_kind: str, value) -> bytes:
    """`value` written back as JSON (JSON is YAML too); for a session, as its frontmatter."""
    text = json.dumps(value, ensure_ascii=False)
    if file_kind == "session":
        body = data.decode("utf-8").split("---\n", 2)[2]
        return f"---\n{text}\n---\n{body}".encode()
    return text.encode() + b"\n"


def mutate(data: bytes, file_kind: str, how: str, position: float, junk: bytes, depth: int,
           size: int) -> tuple[bytes, bool]:
    cut = int(position * len(data))
    if how == "truncate":
        return data[:cut], False
    if how == "insert-bytes":
        return data[:cut] + junk + data[cut:], False
    if how == "random-bytes":
        return junk, False
    if how == "invalid-utf8":
        return data[:cut] + INVALID_UTF8[depth % len(INVALID_UTF8)] + data[cut:], True
    if how == "bom":
        return b"\xef\xbb\xbf" + data, True
    if how == "utf-16":
        return data.decode("utf-8").encode("utf-16"), True
    if how == "crlf":
        return data.replace(b"\n", b"\r\n"), True
    if how == "empty":
        return b" \n" * (depth % 3), True
    if how == "deep-nesting":  # an extra key (or, in a result, a list of lists) nested `depth` deep
        nested = "[" * (depth + 1) + "]" * (depth + 1)
        if file_kind == "result":
            return f'{{"practice": {nested}, "map": []}}\n'.encode(), True
        if file_kind == "session":
            return data.replace(b"---\n", f"---\nnested: {nested}\n".encode(), 1), True
        return data + f"nested: {nested}\n".encode(), True
    value = _structured(data, file_kind)
    if how == "huge-value":
        if file_kind == "session" and depth % 2:  # one huge single-line turn
            return data + b"[USER]: " + b"lorem ipsum dolor " * (size // 18) + b"\n", False
        if not isinstance(value, dict) or not value:
            return data + b"x" * size, False
        # A huge string, or (every third time) an integer too long for int() to convert.
        huge = "9" * min(size, 6000) if depth % 3 == 0 else '"' + "x" * size + '"'
        value[sorted(value)[depth % len(value)]] = "@@HUGE@@"
        return _write_structured(data, file_kind, value).replace(b'"@@HUGE@@"', huge.encode()), False
    assert how == "wrong-type"
    if value is None:
        return data + b"\n[1, {wrong: kind}]\n", False
    nodes = list(key_paths(value))
    path = nodes[depth % len(nodes)]
    target = value
    for key in path:
        target = target[key]
    return _write_structured(data, file_kind, _replace(value, path, _other_kind(target))), True


# -- what counts as bad, by the readers' own standard ---------------------------------------------

def _frontmatter_ok(data) -> bool:
    return (isinstance(data, dict) and set(data) == FRONTMATTER_KEYS
            and type(data["schema_version"]) is int and data["schema_version"] == 1
            and isinstance(data["session_id"], str) and bool(UUID4.fullmatch(data["session_id"]))
            and data["harness"] == "claude"
            and isinstance(data["captured_at"], str) and bool(UTC_TIME.fullmatch(data["captured_at"])))


def is_bad(data: bytes, file_kind: str, path: str) -> bool:
    try:
        text = decode_text(data, path)
        if file_kind == "result":
            return bool(validate("proposal-output", parse_json(text, path)))
        if file_kind == "session":
            return not _frontmatter_ok(parse_session(text, path, Path(path).stem).frontmatter.data)
        doc = parse_yaml(text, path)
        if not isinstance(doc.data, dict):
            return True
        if file_kind == "spec":
            return bool(parse_spec(doc)[1])
        return bool(validate({"sidecar": "sidecar", "manifest": "run-manifest"}[file_kind], doc.data))
    except InputError:
        return True


# -- the campaign ---------------------------------------------------------------------------------

def _same_file(reported: str, path: Path) -> bool:
    return os.path.normpath(os.path.abspath(reported)) == os.path.normpath(os.path.abspath(path))


def _fixture(report: dict, fixture_id: str) -> dict:
    return next(f for f in report["fixtures"] if f["id"] == fixture_id)


def campaign(base: Path, file_kind: str, pick: int, how: str, position: float, junk: bytes, depth: int,
             size: int) -> None:
    with tempfile.TemporaryDirectory(prefix="fuzz-") as scratch:
        root = Path(scratch) / "c"
        shutil.copytree(base, root, symlinks=True)
        corpus, results = root / "corpus", root / "results"
        candidates = {
            "session": sorted((corpus / "sessions").iterdir()),
            "sidecar": sorted((corpus / "expected").iterdir()),
            "spec": [corpus / "corpus.yaml"],
            "result": sorted(results.glob("*.json")),
            "manifest": [results / "run.yaml"],
        }[file_kind]
        target = candidates[pick % len(candidates)]
        mutated, certainly_bad = mutate(target.read_bytes(), file_kind, how, position, junk, depth, size)
        target.write_bytes(mutated)
        bad = certainly_bad or is_bad(mutated, file_kind, str(target))
        before = tree_digest(root)

        lint_code, diagnostics, lint_err = lint_json(str(corpus))
        score_code, score_out, score_err = run_main("score", str(corpus), str(results), "--format", "json")

        assert "internal error" not in lint_err and "Traceback" not in lint_err, lint_err
        assert "internal error" not in score_err and "Traceback" not in score_err, score_err
        assert lint_code in (0, 1) or (lint_code == 2 and lint_err.strip()), (lint_code, lint_err)
        assert score_code == 0, (score_code, score_err)
        assert tree_digest(root) == before, "lint or score wrote into the corpus or results folder"

        report = json.loads(score_out)
        if not bad:
            return
        if file_kind in ("session", "sidecar", "spec"):
            # CT801 (provenance drift) names every edited file; the finding must be another one.
            named = [d for d in diagnostics if d["code"] != "CT801" and _same_file(d["path"], target)]
            assert named or (lint_code == 2 and target.name in lint_err), (
                f"{how} made {target.name} bad but no diagnostic names it: {diagnostics}")
        if file_kind == "sidecar":
            verdict = _fixture(report, target.stem)
            assert verdict["verdict"] == "FAIL" and verdict["reasons"][0].startswith("sidecar-invalid"), verdict
        if file_kind == "spec":
            assert any("corpus.yaml" in warning for warning in report["corpus_warnings"]), report["corpus_warnings"]
        if file_kind == "result":
            verdict = _fixture(report, target.stem)
            assert verdict["verdict"] == "FAIL" and any(
                r.startswith("invalid-result") and target.name in r for r in verdict["reasons"]), verdict
        if file_kind == "manifest":
            assert any("run.yaml" in warning for warning in report["warnings"]), report["warnings"]


def every_mutation(test):
    """Each mutation kind once, on the first file of the kind, as an explicit example."""
    for how in MUTATIONS:
        test = example(pick=0, how=how, position=0.5, junk=b"\x00{[: &x *x", depth=150, size=200_000)(test)
    return test


def drawn(test):
    test = given(pick=st.integers(0, 50), how=st.sampled_from(MUTATIONS), position=st.floats(0, 1),
                 junk=st.binary(min_size=0, max_size=32), depth=st.integers(0, 3000),
                 size=st.integers(1, 300_000))(every_mutation(test))
    return FUZZ(test)


# corpus.yaml is the kind "spec"; a run's run.yaml is "manifest"; an output <fixture_id>.json is "result".
@pytest.mark.parametrize("file_kind", ["session", "sidecar", "spec", "result", "manifest"])
@drawn
def test_fuzz(base, file_kind, pick, how, position, junk, depth, size):
    campaign(base, file_kind, pick, how, position, junk, depth, size)


# -- the baseline the campaign relies on ----------------------------------------------------------

def test_unmutated_generated_corpus_is_clean_and_scores(base, tmp_path):
    """The fuzz findings mean something only if the corpus before mutation has none."""
    root = tmp_path / "c"
    shutil.copytree(base, root)
    code, diagnostics, err = lint_json(str(root / "corpus"))
    assert (code, diagnostics, err) == (0, [], "")
    code, out, err = run_main("score", str(root / "corpus"), str(root / "results"), "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["aggregate"]["fixtures_total"] == BASE_FIXTURES


def test_planted_defects_are_each_reported(tmp_path):
    """make_corpus.py --defects: every planted defect is a diagnostic of its code at its file."""
    generated = generate(64, seed=3, defects=1)
    root = tmp_path / "d"
    write_tree(str(root), generated.files)
    code, missing = unreported(root, generated.planted)
    assert code == 1 and not missing, f"planted but not reported: {missing}"
    assert {c for c, _ in generated.planted} == set(FROZEN_PLANTERS)


def test_every_planter_has_a_rule_and_a_new_one_is_exercised_by_the_rule_s_tests():
    from corpustools.lint.registry import REGISTERED

    tested = {row.code for row in REGISTERED if _exercises_its_planter(row.code, row.module)}
    gaps = planter_gaps(set(planter_codes()), {code for code, _ in NOT_PLANTED}, {row.code for row in REGISTERED}, tested)
    assert gaps == [], "\n".join(gaps + [RULE])


def _exercises_its_planter(code: str, module: str) -> bool:
    test_module = ROOT / "tests" / "rules" / f"test_{module}.py"
    text = test_module.read_text(encoding="utf-8") if test_module.exists() else ""
    return "planted_but_not_reported(" in text and f'"{code}"' in text  # with the code or a CODE naming it


def planter_gaps(planters: set[str], explained: set[str], rule_codes: set[str], tested: set[str]) -> list[str]:
    """What bench/defects.py and the rules' tests lack: a planted or explained code no rule has, a
    planter the golden corpus does not plant (a rule newer than FROZEN_PLANTERS) that the rule's own
    test does not exercise."""
    return ([f"{code}: bench/defects.py plants or explains it, but no registered rule has this code"
             for code in sorted((planters | explained) - rule_codes)]
            + [f"{code}: its planter in bench/defects.py is not in FROZEN_PLANTERS (the golden corpus never plants it), "
               f"so its rule's tests/rules/test_<name>.py must check `planted_but_not_reported(\"{code}\", tmp_path) == []`"
               for code in sorted(planters & rule_codes - set(FROZEN_PLANTERS) - tested)])


def test_a_planter_without_its_rule_or_its_test_is_named_with_the_recipe():
    assert planter_gaps({"CT001", "CT901", "CT902", "CT998"}, {"CT003"}, {"CT001", "CT003", "CT901", "CT902"},
                        {"CT902"}) == [
        "CT998: bench/defects.py plants or explains it, but no registered rule has this code",
        "CT901: its planter in bench/defects.py is not in FROZEN_PLANTERS (the golden corpus never plants it), so its "
        'rule\'s tests/rules/test_<name>.py must check `planted_but_not_reported("CT901", tmp_path) == []`']
