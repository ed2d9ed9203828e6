"""The shipped JSON Schemas (valid and invalid samples of each) and the advisory prompt-contract
warnings that the proposal-output schema leaves out."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from corpustools.io.schemastore import VALIDATE_KINDS, SchemaError, schema_text, validate
from corpustools.io.yamlload import parse_yaml
from corpustools.model.contract import DEFAULT, contract_warnings
from tests.support.corpus import SPEC_TEXT, key_paths, sidecar_text


def _candidate(kind="practice", **changes):
    candidate = {"type": kind, "tags": ["drupal", "config"], "title": "Branch ids are ILS location codes",
                 "description": "Every branch config entity id is the branch's lowercased ILS location code.",
                 "body": "Holdings and pickups join on it.", "kk_confidence": "high"}
    candidate.update(changes)
    return candidate


OUTPUT = {"practice": [_candidate()], "map": [_candidate("map", kk_confidence="low")]}
SIDECAR = parse_yaml(sidecar_text(), "s.yaml").data
SPEC = parse_yaml(SPEC_TEXT, "corpus.yaml").data
MANIFEST = {
    "prompt": {"path": "prompts/proposal-extract.md", "name": "proposal-extract", "version": 5, "sha256": "a" * 64},
    "model": "claude-sonnet-4-5", "temperature": 0, "harness": "claude", "operator": "mk",
    "started_at": "2026-01-15T10:00:00Z", "corpus_sha256": "0123456789abcdef" * 4,
    "cost": {"input_tokens": 1200, "output_tokens": 300, "usd": 0.42}, "notes": "first run",
}
ADJUDICATION = {
    "worksheet_version": 1, "corpus": {"name": "tiny", "version": 1, "sha256": "0" * 64},
    "run": {"results": "runs/r1", "prompt": {"name": "proposal-extract", "version": 5, "sha256": "a" * 64}},
    "shows_terms": False,
    "fixtures": [{
        "fixture_id": "admit-convention-01", "category": "admit-convention", "expect": "practice",
        "session": "sessions/admit-convention-01.md", "result_sha256": "b" * 64, "result_status": "ok",
        "notes": "A tiny fixture.",
        "points": [{"id": "p", "list": "expected", "type": "practice", "notes": None, "captured": "yes"}],
        "proposals": [{"name": "practice[0]", "type": "practice", "title": "T", "description": "D", "body": "B",
                       "tags": ["x"], "class": "point:p"}],
        "task_detail_leak": "no", "verdict": "PASS", "why": ""}],
}
VALID = {"proposal-output": OUTPUT, "sidecar": SIDECAR, "corpus-spec": SPEC, "run-manifest": MANIFEST,
         "adjudication": ADJUDICATION}


def _changed(kind, change):
    data = copy.deepcopy(VALID[kind])
    change(data)
    return data


def _pointers(kind, data):
    return [e.pointer for e in validate(kind, data)]


@pytest.mark.parametrize("kind", VALIDATE_KINDS)
def test_every_schema_is_a_valid_draft_2020_12_schema(kind):
    schema = json.loads(schema_text(kind))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("kind", VALIDATE_KINDS)
def test_valid_samples_have_no_errors(kind):
    assert validate(kind, VALID[kind]) == []


def test_unknown_schema_kind():
    with pytest.raises(KeyError):
        schema_text("nope")


# --- proposal-output ---------------------------------------------------------------------------

def test_proposal_output_both_arrays_may_be_empty():
    assert validate("proposal-output", {"practice": [], "map": []}) == []


@pytest.mark.parametrize("change, pointer", [
    (lambda d: d.pop("map"), ""),
    (lambda d: d.update(notes="x"), "/notes"),
    (lambda d: d.update(practice={}), "/practice"),
    (lambda d: d["practice"][0].pop("kk_confidence"), "/practice/0"),
    (lambda d: d["practice"][0].update(score=1), "/practice/0/score"),
    (lambda d: d["practice"][0].update(type="rule"), "/practice/0/type"),
    (lambda d: d["map"][0].update(kk_confidence="certain"), "/map/0/kk_confidence"),
    (lambda d: d["practice"][0].update(tags="drupal"), "/practice/0/tags"),
    (lambda d: d["practice"][0].update(tags=["ok", 3]), "/practice/0/tags/1"),
    (lambda d: d["practice"][0].update(title=None), "/practice/0/title"),
    (lambda d: d["map"][0].update(body=["a"]), "/map/0/body"),
])
def test_proposal_output_invalid(change, pointer):
    assert pointer in _pointers("proposal-output", _changed("proposal-output", change))


def test_proposal_output_root_must_be_an_object():
    assert _pointers("proposal-output", [OUTPUT]) == [""]


# --- sidecar -----------------------------------------------------------------------------------

@pytest.mark.parametrize("change, pointer", [
    (lambda d: d.pop("notes"), ""),
    (lambda d: d.update(notes="   "), "/notes"),
    (lambda d: d.update(notes=""), "/notes"),
    (lambda d: d.update(expect_empty="false"), "/expect_empty"),
    (lambda d: d.update(max_unexpected_proposals=-1), "/max_unexpected_proposals"),
    (lambda d: d.update(max_unexpected_proposals=1.5), "/max_unexpected_proposals"),
    (lambda d: d.update(extra=1), "/extra"),
    (lambda d: d["expected_points"][0].update(type=""), "/expected_points/0/type"),
    (lambda d: d["expected_points"][0].update(must_match_all=[]), "/expected_points/0/must_match_all"),
    (lambda d: d["expected_points"][0].update(must_not_match="x"), "/expected_points/0/must_not_match"),
    (lambda d: d["expected_points"][0].update(weight=2), "/expected_points/0/weight"),
    (lambda d: d["expected_points"][0].pop("id"), "/expected_points/0"),
    (lambda d: d["expected_points"][0].update(notes=""), "/expected_points/0/notes"),
    (lambda d: d["expected_points"][0].update(notes=" \n"), "/expected_points/0/notes"),
    (lambda d: d.update(optional_points={}), "/optional_points"),
    (lambda d: d.update(optional_points=[{"id": "x", "type": "map", "item_fields": []}]),
     "/optional_points/0/item_fields"),
    (lambda d: d.update(optional_points=[{"id": "x", "type": "map", "item_fields": {"dose": {"a": 1}}}]),
     "/optional_points/0/item_fields/dose"),
    (lambda d: d.update(optional_points=[{"id": "x", "type": "map", "item_fields": {"dose": []}}]),
     "/optional_points/0/item_fields/dose"),
    (lambda d: d.update(optional_points=[{"id": "x", "type": "map", "must_match_all": ["a"], "weight": 1}]),
     "/optional_points/0/weight"),
])
def test_sidecar_invalid(change, pointer):
    assert pointer in _pointers("sidecar", _changed("sidecar", change))


def test_sidecar_optional_must_not_match_and_empty_points():
    data = _changed("sidecar", lambda d: d["expected_points"][0].update(must_not_match=["bookmobile"]))
    assert validate("sidecar", data) == []
    assert validate("sidecar", _changed("sidecar", lambda d: d.update(expected_points=[]))) == []


def test_sidecar_optional_points_and_point_notes_are_valid():
    optional = [{"id": "also", "type": "map", "must_match_all": ["a"], "must_not_match": ["b"], "notes": "Means a."}]
    data = _changed("sidecar", lambda d: d.update(optional_points=optional))
    data["expected_points"][0]["notes"] = "The queue worker handles expiry."
    assert validate("sidecar", data) == []


# --- adjudication ------------------------------------------------------------------------------

def test_adjudication_version_2_nests_item_fields_and_names_its_rater():
    def to_v2(d):
        proposal = d["fixtures"][0]["proposals"][0]
        fields = {k: proposal.pop(k) for k in ("title", "description", "body", "tags")}
        proposal["fields"] = {**fields, "name": "also a field", "type": "x", "class": "y"}
        d.update(worksheet_version=2, rater="alice", reconciled=["alice", "bob"])

    assert validate("adjudication", _changed("adjudication", to_v2)) == []
    assert validate("adjudication", _changed("adjudication", lambda d: d.update(rater="alice"))) == []


@pytest.mark.parametrize("change, pointer", [
    (lambda d: d.update(worksheet_version=3), "/worksheet_version"),
    (lambda d: d.update(worksheet_version=2), "/fixtures/0/proposals/0/title"),  # version 2: under fields
    (lambda d: d.update(rater=" "), "/rater"),
    (lambda d: d["fixtures"][0]["points"][0].update(captured=None), "/fixtures/0/points/0/captured"),
    (lambda d: d["fixtures"][0]["points"][0].update(captured=True), "/fixtures/0/points/0/captured"),
    (lambda d: d["fixtures"][0]["proposals"][0].update({"class": "phantom"}), "/fixtures/0/proposals/0/class"),
    (lambda d: d["fixtures"][0]["proposals"][0].update({"class": "point:"}), "/fixtures/0/proposals/0/class"),
    (lambda d: d["fixtures"][0].update(verdict="pass"), "/fixtures/0/verdict"),
    (lambda d: d["fixtures"][0].update(task_detail_leak=None), "/fixtures/0/task_detail_leak"),
    (lambda d: d["fixtures"][0].update(verdit="PASS"), "/fixtures/0/verdit"),
    (lambda d: d["fixtures"][0].pop("why"), "/fixtures/0"),
])
def test_adjudication_invalid(change, pointer):
    assert pointer in _pointers("adjudication", _changed("adjudication", change))


def test_adjudication_why_may_be_empty_or_blank_and_classes_name_optional_points():
    for why in ("", None, "a reason"):
        assert validate("adjudication", _changed("adjudication", lambda d, why=why: d["fixtures"][0].update(why=why))) == []
    for cls in ("optional:x", "durable-unlabeled", "over-extraction"):
        changed = _changed("adjudication", lambda d, cls=cls: d["fixtures"][0]["proposals"][0].update({"class": cls}))
        assert validate("adjudication", changed) == []


# --- corpus-spec -------------------------------------------------------------------------------

@pytest.mark.parametrize("change, pointer", [
    (lambda d: d.pop("categories"), ""),
    (lambda d: d.update(corpus_version="1"), "/corpus_version"),
    (lambda d: d.update(corpus_version=0), "/corpus_version"),
    (lambda d: d.update(categories=[]), "/categories"),
    (lambda d: d["categories"][0].update(expect=""), "/categories/0/expect"),
    (lambda d: d["categories"][0].update(id="Admit_Convention"), "/categories/0/id"),
    (lambda d: d["categories"][1].update(count=-1), "/categories/1/count"),
    (lambda d: d["prompt_under_eval"].pop("version"), "/prompt_under_eval"),
    (lambda d: d.update(harnesses=[]), "/harnesses"),
    (lambda d: d.update(harnesses=["claude", "claude"]), "/harnesses"),
    (lambda d: d["turns"].update(median=5), "/turns/median"),
    (lambda d: d.update(lint={"ignore": ["E501"]}), "/lint/ignore/0"),
    (lambda d: d.update(lint={"severity": {"CT601": "fatal"}}), "/lint/severity/CT601"),
    (lambda d: d.update(lint={"per_file_ignores": [{"files": ["x"], "codes": ["CT601"]}]}), "/lint/per_file_ignores/0"),
    (lambda d: d.update(lint={"colour": True}), "/lint/colour"),
])
def test_corpus_spec_invalid(change, pointer):
    assert pointer in _pointers("corpus-spec", _changed("corpus-spec", change))


def test_corpus_spec_lint_options_are_accepted():
    lint = {"prompt": "p.md", "kb": "kb", "ignore": ["CT605"], "severity": {"CT602": "error"},
            "per_file_ignores": [{"files": ["sessions/x.md"], "codes": ["CT701"], "reason": "shared opener"}],
            "rules": {"CT702": {"threshold": 90}}}
    assert validate("corpus-spec", _changed("corpus-spec", lambda d: d.update(lint=lint))) == []


# --- run-manifest ------------------------------------------------------------------------------

@pytest.mark.parametrize("change, pointer", [
    (lambda d: d.pop("model"), ""),
    (lambda d: d.update(corpus_sha256="ABC"), "/corpus_sha256"),
    (lambda d: d["prompt"].update(sha256="A" * 64), "/prompt/sha256"),
    (lambda d: d.update(temperature=None), "/temperature"),
    (lambda d: d["cost"].update(usd=-1), "/cost/usd"),
    (lambda d: d.update(seed=4), "/seed"),
])
def test_run_manifest_invalid(change, pointer):
    assert pointer in _pointers("run-manifest", _changed("run-manifest", change))


def test_run_manifest_optional_parts():
    minimal = _changed("run-manifest", lambda d: (d.pop("cost"), d.pop("notes")))
    assert validate("run-manifest", minimal) == []
    assert validate("run-manifest", _changed("run-manifest", lambda d: d.update(temperature="unknown"))) == []


# --- error values ------------------------------------------------------------------------------

def test_pointer_escapes_tilde_and_slash():
    assert SchemaError(("a/b", "c~d", 0), "m").pointer == "/a~1b/c~0d/0"
    assert SchemaError((), "m").pointer == ""


def test_errors_are_sorted_and_messages_bounded():
    data = {"practice": [_candidate(type="x", title="t" * 5000)], "map": "no", "zzz": 1}
    data["practice"][0]["title"] = 7
    errors = validate("proposal-output", data)
    assert errors == validate("proposal-output", copy.deepcopy(data))
    assert [e.pointer for e in errors] == sorted(e.pointer for e in errors)
    big = validate("proposal-output", {"practice": "x" * 50_000, "map": []})
    assert all(len(e.message) <= 200 for e in big)


def test_deeply_nested_data_does_not_crash_validation():
    data = current = {}
    for _ in range(5000):
        current["a"] = {}
        current = current["a"]
    assert validate("sidecar", data)  # errors, not a RecursionError


# --- contract warnings -------------------------------------------------------------------------

def test_clean_output_has_no_contract_warnings():
    assert contract_warnings(OUTPUT) == []
    assert contract_warnings({"practice": [], "map": []}) == []


def test_proposals_are_named_practice_then_map_in_array_order():
    output = {"map": [_candidate("map", title="m0")],
              "practice": [_candidate(title="p0"), _candidate(title="p1")]}
    assert [(item.name, item.title) for item in DEFAULT.read_json(output).items] == [
        ("practice[0]", "p0"), ("practice[1]", "p1"), ("map[0]", "m0")]


@pytest.mark.parametrize("where, changes, expected", [
    ("map", {"type": "practice"}, "map[0]: type-mismatch: type is 'practice' inside 'map'"),
    ("practice", {"tags": []}, "practice[0]: tag-count: 0 tags, expected 1-5"),
    ("practice", {"tags": list("abcdef")}, "practice[0]: tag-count: 6 tags, expected 1-5"),
    ("practice", {"tags": ["Drupal"]}, "practice[0]: tag-case: tag 'Drupal' is not lowercase"),
    ("practice", {"title": "t" * 81}, "practice[0]: title-too-long: 81 characters, max 80"),
    ("practice", {"description": "d" * 141}, "practice[0]: description-too-long: 141 characters, max 140"),
    ("practice", {"body": ""}, "practice[0]: empty-string: body is empty"),
    ("practice", {"title": "  "}, "practice[0]: empty-string: title is empty"),
    ("practice", {"tags": ["ok", ""]}, "practice[0]: empty-string: a tag is empty"),
])
def test_contract_warnings(where, changes, expected):
    output = {"practice": [], "map": []}
    output[where] = [_candidate(where, **changes)]
    assert validate("proposal-output", output) == []  # advisory: the schema still accepts it
    assert [str(w) for w in contract_warnings(output)] == [expected]


def test_contract_limits_are_inclusive():
    output = {"practice": [_candidate(title="t" * 80, description="d" * 140, tags=list("abcde"))], "map": []}
    assert contract_warnings(output) == []


# --- the fast structural check (corpustools.io.schemacheck) agrees with jsonschema -----------------

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([1.0, 0.5, -1.0, float("nan"), float("inf")]),
    st.sampled_from(["", " ", "x", "practice", "map", "low", "high", "claude", "CT101", "CT1", "Admit-x", "a" * 64,
                     "0123456789abcdef" * 4, "admit-convention", "id", "type", "tags", "notes"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["id", "type", "x", "name", "CT101"]), inner, max_size=3)),
    max_leaves=6)


def _mutate(data, draw):
    """One random change at one random node: replace it, drop a key or item, add a key, or duplicate an item."""
    path = draw(st.sampled_from(list(key_paths(data))))
    parent, node = None, data
    for part in path:
        parent, node = node, node[part]
    action = draw(st.sampled_from(["replace", "drop", "add", "duplicate"]))
    if action == "replace" and path:
        parent[path[-1]] = draw(VALUES)
    elif action == "drop" and path:
        del parent[path[-1]]
    elif action == "add" and isinstance(node, dict):
        node[draw(st.sampled_from(["extra", "id", "notes", "kk_confidence", "min", "CT101", "cost"]))] = draw(VALUES)
    elif action == "duplicate" and isinstance(node, list) and node:
        node.append(copy.deepcopy(node[0]))
    return data


# The kinds read on lint's and score's hot path; each must have a fast check. Others (the
# adjudication worksheet, with oneOf/const/$ref) always go to jsonschema, which is only slower.
HOT_KINDS = ("sidecar", "proposal-output", "corpus-spec", "run-manifest")


def test_the_hot_kinds_have_a_fast_check():
    from corpustools.io.schemastore import _fast_check

    assert [kind for kind in HOT_KINDS if _fast_check(kind) is None] == []


@pytest.mark.parametrize("kind", HOT_KINDS)
@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_the_fast_check_and_jsonschema_agree(kind, data):
    from corpustools.io.schemastore import _fast_check, _validator

    document = copy.deepcopy(VALID[kind])
    for _ in range(data.draw(st.integers(0, 3))):
        document = _mutate(document, data.draw)
    fast = _fast_check(kind)
    assert fast(document) == (not list(_validator(kind).iter_errors(document))), document


@pytest.mark.parametrize("kind", HOT_KINDS)
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_the_errors_worded_without_jsonschema_are_jsonschemas(kind, data):
    """corpustools.io.schemaerrors finds the errors jsonschema finds, each worded as jsonschema
    words it: the same lines (validate) and the same unknown keys (unexpected_keys) either way."""
    from corpustools.io.schemacheck import Unsupported
    from corpustools.io.schemastore import _validator, _worded, collect_errors, collect_unexpected

    document = copy.deepcopy(VALID[kind])
    for _ in range(data.draw(st.integers(1, 3))):
        document = _mutate(document, data.draw)
    worded, reference = _worded(kind), _validator(kind)
    try:
        errors, unexpected = collect_errors(worded, document), collect_unexpected(worded, document)
    except Unsupported:  # a check only jsonschema makes (uniqueItems of values not all strings): it is asked
        return
    assert errors == collect_errors(reference, document), document
    assert sorted(unexpected, key=repr) == sorted(collect_unexpected(reference, document), key=repr), document


def test_every_shipped_schema_has_its_errors_worded_or_goes_to_jsonschema():
    from corpustools.io.schemastore import SCHEMA_KINDS, _worded

    assert [kind for kind in HOT_KINDS if _worded(kind) is None] == []
    for kind in SCHEMA_KINDS:  # the others: jsonschema words them, the same errors as before
        assert validate(kind, []) != [], kind


def test_valid_documents_are_checked_without_importing_jsonschema(tmp_path):
    # lint and score of a valid corpus never need jsonschema's 30-odd ms of imports.
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1] / "fixtures" / "prompt-eval"
    program = ("import sys; from corpustools.cli import main; "
               f"main(['lint', {str(root)!r}]); main(['score', {str(root)!r}, {str(root / 'runs' / 'v5-run1')!r}]); "
               "sys.stdout.flush(); print('jsonschema' in sys.modules, file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path)
    assert result.stderr.strip().splitlines()[-1] == "False", result.stderr[-2000:]
    assert validate("sidecar", {"fixture_id": ""}) != []  # invalid: worded by corpustools.io.schemaerrors


def test_an_invalid_document_is_worded_without_importing_jsonschema(tmp_path):
    # score of a run holding an invalid result: its error, as jsonschema words it, without its imports
    import subprocess
    import sys

    program = ("import sys; from corpustools.io.schemastore import validate; "
               "print([str(e) for e in validate('proposal-output', {'practice': [{'type': 'map'}], 'notes': 1})]); "
               "print('jsonschema' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path, check=True)
    errors, imported = result.stdout.strip().splitlines()
    assert imported == "False"
    assert errors == str([str(e) for e in validate("proposal-output", {"practice": [{"type": "map"}], "notes": 1})])
    assert "/: 'map' is a required property" in errors and "/notes: unknown key 'notes'" in errors
