"""A corpus's own output schema (corpus.yaml's `output.schema`) can never make a command fetch,
read outside the corpus, hang or crash (issue 31, items 1-4; docs/security.md).

Each reproduction of the issue is made here on the triage corpus of tests/support/triage.py, as a
user or an attacker would: a `$ref` to a server that answers, to `file:` URIs of a FIFO and of
/dev/zero, out of the corpus, a backtracking pattern, an ECMA-262 pattern Python refuses, a cycle
of `$ref`s, a `$ref` to nothing. Every refused schema is one CT003 line from lint naming corpus.yaml's
`output.schema`, the schema file's line and the `$ref` or pattern's pointer, and the same line
from score, compare, adjudicate and the Python API, before any result is read.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from corpustools import api
from tests.support.network import ConnectionRefusedByTest, guard_connections, schema_server
from tests.support.score import run_cli as run
from tests.support.triage import BILLING, GOLD, OUTAGE, SCHEMA, write_files, write_run, write_triage

pytestmark = pytest.mark.usefixtures("in_tmp")

# Where corpus.yaml's `schema: output.schema.json` is (tests/support/triage.py's SPEC).
SCHEMA_KEY = "c/corpus.yaml:12:3"


def schema_with(**changes) -> dict:
    """The triage schema with top-level keys replaced (None removes one); `queue=...` sets the
    `queue` property's schema."""
    schema = json.loads(json.dumps(SCHEMA))
    for key, value in changes.items():
        if key in schema["properties"]:
            schema["properties"][key] = value
        elif value is None:
            schema.pop(key, None)
        else:
            schema[key] = value
    return schema


def corpus_with(schema: dict, **files) -> None:
    """The triage corpus under c/ with `schema` as its output schema (and `files` beside it), and a
    run of its gold outputs under run/."""
    write_triage("c", {"output.schema.json": json.dumps(schema, indent=2) + "\n", **files})
    write_run("run", GOLD)


def lint_line(capsys) -> str:
    code, out, err = run(capsys, "lint", "c")
    assert (code, err) == (1, ""), (out, err)
    lines = out.splitlines()
    assert len(lines) == 2 and lines[1].startswith("Found 1 error"), out
    return lines[0]


def refused(capsys, *argv) -> str:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "") and err.count("\n") == 1, (code, out, err)
    assert "no result can be read under a broken output contract" in err, err
    return err


COMMANDS = {
    "score": ("score", "c", "run"),
    "compare": ("compare", "c", "--base", "run", "--candidate", "run"),
    "adjudicate": ("adjudicate", "c", "run", "--out", "sheet.yaml"),
}


def assert_refused_everywhere(capsys, line: str) -> None:
    """lint says `line` (a CT003 at output.schema); score, compare, adjudicate and api.score refuse
    with the same words, and read no result."""
    assert lint_line(capsys) == line
    message = line.split(" CT003 [error] ", 1)[1]
    for command, argv in COMMANDS.items():
        err = refused(capsys, *argv)
        assert err.startswith(f"corpustools {command}: {SCHEMA_KEY}: {message}; "), err
    with pytest.raises(api.InputError) as raised:
        api.score("c", "run")
    assert str(raised.value).startswith(f"{SCHEMA_KEY}: {message}")
    assert not Path("sheet.yaml").exists()


# --- 1. never a fetch ----------------------------------------------------------------------------

def test_the_guard_and_the_server_would_both_see_a_fetch(monkeypatch):
    with schema_server() as server:
        with urllib.request.urlopen(server.url("x.json"), timeout=10) as answer:  # noqa: S310 (the test's own server)
            assert json.load(answer) == {"type": "string"}
        assert server.requests == ["/x.json"]
        attempts = guard_connections(monkeypatch)
        with pytest.raises(urllib.error.URLError) as raised:
            urllib.request.urlopen(server.url("y.json"), timeout=10)  # noqa: S310
        assert isinstance(raised.value.reason, ConnectionRefusedByTest)
        assert attempts and server.requests == ["/x.json"]


@pytest.mark.parametrize("where", ["a $ref", "a relative $ref under an http $id"])
def test_a_remote_ref_is_refused_by_every_command_and_nothing_is_fetched(capsys, monkeypatch, where):
    with schema_server() as server:
        if where == "a $ref":
            schema = schema_with(queue={"$ref": server.url("queue.json")})
            line, ref = 13, server.url("queue.json")
        else:
            schema = schema_with(queue={"$ref": "queue.json"}, **{"$id": server.url("root.json")})
            line, ref = 13, "queue.json"
        corpus_with(schema)
        attempts = guard_connections(monkeypatch)
        why = ("is not followed: corpustools never fetches a schema" if where == "a $ref"
               else f"resolves to {server.url('queue.json')}, not a file inside the corpus: not followed")
        assert_refused_everywhere(capsys, f"{SCHEMA_KEY}: CT003 [error] /output/schema: output.schema.json:{line}:7: "
                                          f"/properties/queue/$ref: {ref!r} {why}; a $ref names a place in this "
                                          "schema (#/$defs/...) or a schema file inside the corpus by a relative path")
        assert attempts == [] and server.requests == []


def test_score_in_its_own_process_sends_the_server_nothing(tmp_path):
    with schema_server() as server:
        corpus_with(schema_with(queue={"$ref": server.url("queue.json")}))
        done = subprocess.run([sys.executable, "-m", "corpustools", "score", "c", "run"], capture_output=True,
                              text=True, timeout=120, check=False)
        assert done.returncode == 2 and done.stdout == "", done
        assert "is not followed: corpustools never fetches a schema" in done.stderr
        assert server.requests == []


# --- 2. never a read outside the corpus ----------------------------------------------------------

def run_score(timeout: float = 60) -> subprocess.CompletedProcess:
    """score in a process of its own: a read that hangs ends the test instead of the suite."""
    return subprocess.run([sys.executable, "-m", "corpustools", "score", "c", "run"], capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.mark.parametrize("target", ["fifo", "/dev/zero", "outside"])
def test_a_file_uri_is_refused_before_it_is_opened(tmp_path, target):
    if target == "fifo":
        os.mkfifo(tmp_path / "pipe.json")
        path = tmp_path / "pipe.json"
    elif target == "outside":
        path = tmp_path / "secret.json"
        path.write_text('{"type": "string"}')
    else:
        path = Path("/dev/zero")
    corpus_with(schema_with(queue={"$ref": path.as_uri()}))
    done = run_score()
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr == (f"corpustools score: {SCHEMA_KEY}: /output/schema: output.schema.json:13:7: "
                           f"/properties/queue/$ref: {path.as_uri()!r} is not followed: corpustools never fetches a "
                           "schema; a $ref names a place in this schema (#/$defs/...) or a schema file inside the "
                           "corpus by a relative path; no result can be read under a broken output contract "
                           "(corpustools lint names every problem)\n")


@pytest.mark.parametrize("ref, why", [
    ("../secret.json", "resolves to {uri}, not a file inside the corpus: not followed"),
    ("/etc/passwd", "is not followed: corpustools never fetches a schema"),
    ("//example.com/x.json", "is not followed: corpustools never fetches a schema"),
])
def test_a_relative_ref_reaching_outside_the_corpus_is_refused(capsys, tmp_path, ref, why):
    (tmp_path / "secret.json").write_text('{"type": "string"}')
    corpus_with(schema_with(queue={"$ref": ref}))
    why = why.format(uri=(tmp_path / "secret.json").as_uri())
    assert lint_line(capsys) == (f"{SCHEMA_KEY}: CT003 [error] /output/schema: output.schema.json:13:7: "
                                 f"/properties/queue/$ref: {ref!r} {why}; a $ref names a place in this schema "
                                 "(#/$defs/...) or a schema file inside the corpus by a relative path")


@pytest.mark.parametrize("kind, why", [
    ("fifo", "is a FIFO (named pipe), not a regular file; not read"),
    ("link", "is a symbolic link to '../secret.json'; links are not followed"),
    ("missing", "no such file"),
    ("huge", "file is 8388609 bytes, over the 8388608 byte limit; not read"),
])
def test_a_schema_file_in_the_corpus_is_read_like_every_corpus_file(tmp_path, kind, why):
    corpus_with(schema_with(queue={"$ref": "defs/queue.json"}))
    (tmp_path / "c/defs").mkdir()
    target = tmp_path / "c/defs/queue.json"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "link":
        (tmp_path / "c/secret.json").write_text('{"type": "string"}')
        target.symlink_to("../secret.json")
    elif kind == "huge":
        target.write_bytes(b" " * (8 * 1024 * 1024 + 1))
    done = run_score()
    assert done.returncode == 2, done
    assert done.stderr.startswith(f"corpustools score: {SCHEMA_KEY}: /output/schema: output.schema.json:13:7: "
                                  f"/properties/queue/$ref: 'defs/queue.json' cannot be read: defs/queue.json: "
                                  f"{why}; no result"), done.stderr


def test_a_ref_through_a_linked_folder_is_refused(capsys, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/queue.json").write_text('{"type": "string"}')
    corpus_with(schema_with(queue={"$ref": "defs/queue.json"}))
    (tmp_path / "c/defs").symlink_to(tmp_path / "elsewhere")
    out = run(capsys, "lint", "c")[1]
    assert out.startswith(f"{SCHEMA_KEY}: CT003 [error] /output/schema: output.schema.json:13:7: /properties/queue/"
                          f"$ref: 'defs/queue.json' resolves to {(tmp_path / 'c/defs/queue.json').as_uri()}, not a file "
                          "inside the corpus: not followed"), out


def test_refs_to_schema_files_inside_the_corpus_are_followed_and_judge_results(capsys):
    """The allowed kinds: a pointer, an anchor, an embedded $id, a relative file, and that file's
    own relative $ref to a third file; a recursive schema (a tree) is no cycle."""
    corpus_with(schema_with(
        queue={"$ref": "defs/queue.json"},
        priority={"$ref": "#level"},
        escalate={"$ref": "flag.json"},
        kb_facts={"type": "array", "items": {"$ref": "#/$defs/fact"}},
        **{"$defs": {"fact": {"type": "string", "minLength": 1},
                     "level": {"$anchor": "level", "enum": ["low", "normal", "high", "urgent"]},
                     "flag": {"$id": "flag.json", "type": "boolean"},
                     "tree": {"type": "object", "properties": {"children": {"type": "array",
                                                                            "items": {"$ref": "#/$defs/tree"}}}}}}),
        **{"defs/queue.json": json.dumps({"$ref": "names.json"}), "defs/names.json": json.dumps(
            {"enum": ["billing", "technical", "account"]})})
    assert run(capsys, "lint", "c", "--strict") == (0, "All checks passed.\n", "")
    code, out, err = run(capsys, "score", "c", "run", "--format", "json")
    assert code == 0, err
    assert [f["verdict"] for f in json.loads(out)["fixtures"]] == ["PASS", "PASS"]
    # the referenced file judges: a queue it does not list is an invalid result
    write_run("run", {BILLING: {**GOLD[BILLING], "queue": "refunds"}, OUTAGE: GOLD[OUTAGE]})
    billing = json.loads(run(capsys, "score", "c", "run", "--format", "json")[1])["fixtures"][0]
    assert billing["reasons"] == [f"invalid-result:run/{BILLING}.json: /queue: 'refunds' is not one of "
                                  "['billing', 'technical', 'account']"]


def test_a_change_to_a_referenced_file_changes_the_contract(capsys):
    from corpustools.model.corpus import load_scoring_corpus

    corpus_with(schema_with(queue={"$ref": "defs/queue.json"}), **{"defs/queue.json": '{"type": "string"}'})
    before = load_scoring_corpus("c").contract
    write_files("c", {"defs/queue.json": '{"enum": ["billing", "technical", "account"]}'})
    after = load_scoring_corpus("c").contract
    assert before is not None and after is not None and before.sha256 != after.sha256


# --- 3. patterns in linear time --------------------------------------------------------------------

BACKTRACKING = r"^([a-z]+ ?)+$"  # "lowercase words": exponential in Python's re on a near miss
NEAR_MISS = "a" * 119 + "!"  # 120 bytes


def test_the_issues_backtracking_pattern_fails_the_one_result_at_once(capsys):
    """The reproduction: minutes under Python's re; RE2 answers at once (the timeout only keeps a
    regression from hanging the suite: bench/ holds no target for this)."""
    schema = schema_with(kb_facts={"type": "array", "items": {"type": "string", "pattern": BACKTRACKING}})
    corpus_with(schema)
    write_run("run", {BILLING: {**GOLD[BILLING], "kb_facts": [NEAR_MISS]}, OUTAGE: GOLD[OUTAGE]})
    done = subprocess.run([sys.executable, "-m", "corpustools", "score", "c", "run", "--format", "json"],
                          capture_output=True, text=True, timeout=60, check=False)
    billing = json.loads(done.stdout)["fixtures"][0]
    assert billing["reasons"] == [f"invalid-result:run/{BILLING}.json: /kb_facts/0: {NEAR_MISS!r} does not match "
                                  f"{BACKTRACKING!r}"]


@pytest.mark.parametrize("keyword", ["pattern", "patternProperties", "additionalProperties", "unevaluatedProperties"])
def test_no_schema_pattern_is_ever_given_to_pythons_re(capsys, monkeypatch, keyword):
    """Every keyword jsonschema evaluates a pattern for goes to RE2: Python's re is never asked to
    compile or search the corpus's pattern (the fast check's included)."""
    words = {"patternProperties": {BACKTRACKING: {"type": "string"}}}
    schemas = {
        "pattern": schema_with(kb_facts={"type": "array", "items": {"type": "string", "pattern": BACKTRACKING}}),
        "patternProperties": schema_with(additionalProperties=None, **words),
        "additionalProperties": schema_with(**words),  # additionalProperties: false beside patternProperties
        "unevaluatedProperties": schema_with(additionalProperties=None, unevaluatedProperties=False,
                                             allOf=[words]),
    }
    corpus_with(schemas[keyword])
    write_run("run", {BILLING: {**GOLD[BILLING], "kb_facts": [NEAR_MISS], NEAR_MISS: 1}, OUTAGE: GOLD[OUTAGE]})
    given: list[str] = []
    for name in ("compile", "search", "match", "fullmatch"):
        original = getattr(re, name)

        def spy(pattern, *args, _original=original, **kwargs):
            if isinstance(pattern, str) and BACKTRACKING in pattern:
                given.append(pattern)
                raise AssertionError("a schema pattern went to Python's re")
            return _original(pattern, *args, **kwargs)
        monkeypatch.setattr(re, name, spy)
    code, out, err = run(capsys, "score", "c", "run", "--format", "json")
    assert (code, given) == (0, []), err
    assert json.loads(out)["fixtures"][0]["status"] == "invalid-result"


def test_an_ecma_pattern_python_refuses_is_evaluated(capsys):
    corpus_with(schema_with(kb_facts={"type": "array", "items": {"type": "string", "pattern": r"^\p{Lu}\p{L}"}}))
    assert run(capsys, "lint", "c", "--strict") == (0, "All checks passed.\n", "")
    write_run("run", {BILLING: {**GOLD[BILLING], "kb_facts": ["élan: a refund takes days"]}, OUTAGE: GOLD[OUTAGE]})
    billing = json.loads(run(capsys, "score", "c", "run", "--format", "json")[1])["fixtures"][0]
    assert billing["reasons"] == [f"invalid-result:run/{BILLING}.json: /kb_facts/0: 'élan: a refund takes days' "
                                  "does not match '^\\\\p{Lu}\\\\p{L}'"]


@pytest.mark.parametrize("pattern, translated", [
    (r"^\u00e9$", r"^\x{00E9}$"),
    (r"[\u0041-\u005A]", r"[\x{0041}-\x{005A}]"),
    (r"\uD83D\uDE00", r"\x{1F600}"),
    (r"\u{1F600}", r"\x{1F600}"),
    (r"\cJ", r"\x{0A}"),
    (r"\\u0041", r"\\u0041"),  # an escaped backslash, then the letters u0041
    (r"\d+\.\w", r"\d+\.\w"),
])
def test_ecma_escapes_are_spelled_for_re2(pattern, translated):
    from corpustools.io.schemaregex import to_re2

    assert to_re2(pattern) == translated


@pytest.mark.parametrize("schema_change, pointer, pattern, why", [
    ({"kb_facts": {"type": "array", "items": {"type": "string", "pattern": r"(\w+) \1"}}},
     "/properties/kb_facts/items/pattern", r"(\w+) \1", r"invalid escape sequence: \1"),
    ({"queue": {"type": "string", "pattern": "^(?!spam)"}}, "/properties/queue/pattern", "^(?!spam)",
     "invalid perl operator: (?!"),
    ({"patternProperties": {"(?<=x)y": {}}}, "/patternProperties/(?<=x)y", "(?<=x)y", "invalid perl operator: (?<="),
])
def test_a_pattern_re2_cannot_evaluate_is_a_contract_error(capsys, schema_change, pointer, pattern, why):
    corpus_with(schema_with(**schema_change))
    line = lint_line(capsys)
    assert re.fullmatch(re.escape(f"{SCHEMA_KEY}: CT003 [error] /output/schema: output.schema.json:") + r"\d+:\d+: "
                        + re.escape(f"{pointer}: pattern {pattern!r} cannot be evaluated by RE2, the linear-time "
                                    f"engine schema patterns run in ({why}); write it in RE2's syntax, without "
                                    "backreferences or lookaround (docs/contracts.md, The schema file)"),
                        line), line
    assert refused(capsys, "score", "c", "run").startswith(f"corpustools score: {SCHEMA_KEY}: /output/schema: ")


# --- bounded work: a schema that multiplies its own work fails the one result ------------------------

def doubling_in_place(depth: int) -> dict:
    """Each level checks the value against the next one twice: 2^depth checks of one value."""
    defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]} for i in range(depth)}
    return {**defs, f"d{depth}": {"type": "string"}}


# Both recurse into the value twice per level of nesting: 2^depth checks of a nested answer. The
# second uses only what the fast structural check compiles (it follows $refs too).
DOUBLING_DESCENT = {"anyOf": [{"type": "array", "items": {"$ref": "#/properties/kb_facts"}, "maxItems": 1},
                              {"type": "array", "items": {"$ref": "#/properties/kb_facts"}}, {"type": "string"}]}
FAST_DOUBLING = {"$defs": {"a": {"$ref": "#/$defs/b", "items": {"$ref": "#/$defs/a"}},
                           "b": {"items": {"$ref": "#/$defs/a"}}}}


@pytest.mark.parametrize("changes, field", [
    ({"queue": {"$ref": "#/$defs/d0"}, "$defs": doubling_in_place(40)}, "queue"),
    ({"kb_facts": DOUBLING_DESCENT}, "kb_facts"),
    ({"kb_facts": {"$ref": "#/$defs/a"}, **FAST_DOUBLING}, "kb_facts"),
])
def test_a_schema_that_multiplies_its_work_fails_the_one_result_within_a_bound(capsys, changes, field):
    corpus_with(schema_with(**changes))
    assert run(capsys, "lint", "c", "--strict") == (0, "All checks passed.\n", "")  # nothing wrong with it as such
    nested = "A refund takes five business days."
    for _ in range(40):
        nested = [nested, "and more"] if field == "kb_facts" else nested
    write_run("run", {BILLING: {**GOLD[BILLING], field: nested}, OUTAGE: GOLD[OUTAGE]})
    done = subprocess.run([sys.executable, "-m", "corpustools", "score", "c", "run", "--format", "json"],
                          capture_output=True, text=True, timeout=120, check=False)
    billing, outage = json.loads(done.stdout)["fixtures"]
    # every result's queue is checked 2^40 times over; only the nested answer is, for kb_facts
    assert billing["status"] == "invalid-result" and outage["status"] == ("ok" if field == "kb_facts" else
                                                                          "invalid-result")
    assert re.fullmatch(rf"invalid-result:run/{BILLING}.json: /: schema check exceeded its limit \([0-9,]+ keyword "
                        r"evaluations for a result of [0-9,]+ JSON values\): the schema checks values against the "
                        r"same subschemas over and over \(the same \$ref under allOf/anyOf/oneOf, nested\); "
                        r"simplify it", billing["reasons"][0]), billing["reasons"]


def test_a_pattern_whose_program_is_too_large_is_a_contract_error(capsys):
    """RE2's work is the text's length times the program's size: `\\p{L}{400}!` (478,405
    instructions) takes 16 s on a 100 kB answer."""
    corpus_with(schema_with(queue={"type": "string", "pattern": r"\p{L}{400}!"}))
    assert lint_line(capsys) == (
        f"{SCHEMA_KEY}: CT003 [error] /output/schema: output.schema.json:14:7: /properties/queue/pattern: pattern "
        "'\\\\p{L}{400}!' is too large to evaluate: its RE2 program is over the 2 MiB a pattern may take (a "
        "repetition of a large class, such as \\p{L}{400}?)")
    corpus_with(schema_with(queue={"type": "string", "pattern": r"\p{L}{42}!"}))
    assert re.search(r"pattern '\\\\p\{L\}\{42\}!' is too large to evaluate: its RE2 program has 5[0-9],[0-9]{3} "
                     r"instructions, over the 50,000 a pattern may have", lint_line(capsys))
    many = {f"^x{i}\\p{{L}}{{20}}$": {} for i in range(30)}  # about 24,000 instructions each
    corpus_with(schema_with(patternProperties=many))
    assert "brings the schema's patterns to " in lint_line(capsys)
    corpus_with(schema_with(patternProperties={f"^x{i}$": {} for i in range(257)}))
    assert lint_line(capsys).endswith("/patternProperties/^x256$: pattern '^x256$' is one more than the 256 distinct "
                                      "patterns a schema may have")


def test_a_heavy_pattern_on_a_long_answer_fails_the_one_result_with_pattern_check_exceeded(capsys):
    heavy = r"(?:.{1,1000}){1}x|[a-z]{1000}y"  # 10,005 instructions: 20 s on 100 kB where its DFA gives up
    corpus_with(schema_with(kb_facts={"type": "array", "items": {"type": "string", "pattern": heavy}}))
    write_run("run", {BILLING: {**GOLD[BILLING], "kb_facts": ["ab" * 60_000]}, OUTAGE: GOLD[OUTAGE]})
    done = subprocess.run([sys.executable, "-m", "corpustools", "score", "c", "run", "--format", "json"],
                          capture_output=True, text=True, timeout=120, check=False)
    billing, outage = json.loads(done.stdout)["fixtures"]
    assert outage["verdict"] == "PASS"
    assert re.fullmatch(rf"invalid-result:run/{BILLING}.json: /: pattern check exceeded its limit \([0-9,]+ steps "
                        r"of RE2 program for a result of [0-9,]+ characters\): the schema's patterns are large for "
                        r"the text they search; simplify them", billing["reasons"][0]), billing["reasons"]


# --- 4. schemas check_schema accepts but no validator could use ------------------------------------

@pytest.mark.parametrize("changes, line", [
    ({"queue": {"$ref": "#/$defs/a"}, "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}},
     "output.schema.json:35:7: /$defs/a/$ref: '#/$defs/b' closes a cycle of references "
     "(/$defs/a -> /$defs/b -> /$defs/a) that never reaches a value: validating would never end"),
    ({"$ref": "#"}, "output.schema.json:37:3: /$ref: '#' closes a cycle of references (/ -> /) that never reaches "
                    "a value: validating would never end"),
    ({"queue": {"allOf": [{"$ref": "#/properties/queue"}]}},
     "output.schema.json:15:11: /properties/queue/allOf/0/$ref: '#/properties/queue' closes a cycle of references "
     "(/properties/queue -> /properties/queue/allOf/0 -> /properties/queue) that never reaches a value: "
     "validating would never end"),
    ({"queue": {"$ref": "#/$defs/nope"}},
     "output.schema.json:13:7: /properties/queue/$ref: '#/$defs/nope' names nothing: no /$defs/nope in "
     "output.schema.json"),
    ({"queue": {"$ref": "#nope"}},
     "output.schema.json:13:7: /properties/queue/$ref: '#nope' names nothing: no anchor 'nope' in output.schema.json"),
    ({"queue": {"$ref": "defs/missing.json"}},
     "output.schema.json:13:7: /properties/queue/$ref: 'defs/missing.json' cannot be read: defs/missing.json: "
     "no such file"),
])
def test_a_schema_check_schema_accepts_but_no_validator_can_use_is_one_contract_line(capsys, changes, line):
    corpus_with(schema_with(**changes))
    assert_refused_everywhere(capsys, f"{SCHEMA_KEY}: CT003 [error] /output/schema: {line}")


def test_a_cycle_across_schema_files_names_each_file(capsys):
    corpus_with(schema_with(queue={"$ref": "a.json"}), **{"a.json": '{"$ref": "b.json"}', "b.json": '{"$ref": "a.json"}'})
    assert lint_line(capsys) == (
        f"{SCHEMA_KEY}: CT003 [error] /output/schema: a.json:1:2: /$ref: 'b.json' closes a cycle of references "
        "(a.json#/ -> b.json#/ -> a.json#/) that never reaches a value: validating would never end")


def test_an_invalid_referenced_schema_is_named_at_its_line(capsys):
    corpus_with(schema_with(queue={"$ref": "defs/queue.json"}), **{"defs/queue.json": '{\n  "type": "strnig"\n}\n'})
    line = lint_line(capsys)
    assert line.startswith(f"{SCHEMA_KEY}: CT003 [error] /output/schema: defs/queue.json:2:3: is not a valid JSON "
                           "Schema: /type: 'strnig' is not valid under any of the given schemas"), line
