"""The fuzz pass over every surface a corpus author or a model controls (issue 31, "Done when";
docs/security.md, "The fuzz pass"): corpus.yaml contracts, output schemas (patterns, `$ref`s),
sessions, sidecars (any-of entries, forbidden combinations, expected_fields, item_fields) and the
results of every contract kind (the built-in proposals, JSON object items, JSON string items, a
JSON answer of fields only, a text answer). Each example is a whole corpus and one run; lint, score
and every report format of both run in-process, and the example fails on anything but a report or
a CorpustoolsError (one line for the user): an exception, a rule crash (`internal error`), a report
that is not strict JSON, a run over TIME_LIMIT seconds, or memory past the process's limit.

One generator per surface, each a hypothesis strategy of the files it writes, in SURFACES: a new
surface (a new contract key, a new sidecar key) is a new generator there, drawn by `examples()`.
Most of what they draw is valid (so scoring and every rule get past the readers), some is
hostile: patterns that backtrack, `$ref`s out of the document, NaN and 1e400 in results, deep
nesting, invisible characters, unknown keys.

`python -m tests.support.fuzzing --examples N [--random] [--shrink]` runs N examples and prints one
JSON summary line (examples, failures, the slowest example's CPU seconds, peak RSS); tests/test_fuzz_surfaces.py
runs it in a subprocess whose address space is limited to MEMORY_LIMIT bytes.
"""

from __future__ import annotations

import argparse
import json
import resource
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

TIME_LIMIT = 10  # CPU seconds: no example may take longer (lint, score and every report format of both)
WAIT_LIMIT = 60  # seconds on the clock: an example that waits (on a FIFO, a socket) rather than works
MEMORY_LIMIT = 1 << 30  # bytes of address space for the whole fuzzing process: no example gets past 1 GiB

# -- the contract ----------------------------------------------------------------------------------

KINDS = ("builtin", "json-objects", "json-strings", "json-fields", "text")
TYPE_NAMES = ("fact", "action", "medication", "note")
FIELD_NAMES = ("title", "statement", "name", "dose", "owner", "tags")
POINTERS = ("/queue", "/priority", "/escalate", "/meta/score")
WORDS = ("queue", "worker", "refund", "business days", "dose", "5 mg", "2.5 mg", "amlodipine", "invoice",
         "march", "cron", "hook", "signups", "expired", "the", "of", "Ünïcödé", "naïve café", "10mg", "1,000",
         "4.400", "o'clock", "don't", "AKIA", "a\u200bb", "\u202eevil", "x" * 60, "", " ", "-", "*", "`code`")


@dataclass(frozen=True)
class ItemType:
    name: str
    at: str
    match: tuple[str, ...] = ()  # empty: the array holds strings
    forbid: tuple[str, ...] = ()
    title: str | None = None
    taught_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Contract:
    """What one example's corpus.yaml declares, as the other generators need it."""

    kind: str
    types: tuple[ItemType, ...] = ()
    fields: tuple[str, ...] = ()
    schema: bool = False
    roles: tuple[tuple[str, str], ...] = (("USER", "user"), ("AGENT", "agent"))
    frontmatter: tuple[str, ...] = ("schema_version", "session_id", "harness", "captured_at")
    fixtures: tuple[tuple[str, str], ...] = ()  # (fixture id, its category's expect)
    spec: str = ""  # corpus.yaml's text

    @property
    def type_names(self) -> tuple[str, ...]:
        if self.kind == "builtin":
            return ("practice", "map")
        if self.kind == "text":
            return ("answer",)
        return tuple(t.name for t in self.types)


def _yaml(value) -> str:
    return json.dumps(value, ensure_ascii=False)  # JSON is YAML: every scalar and flow value quoted safely


@st.composite
def item_types(draw, *, strings: bool) -> tuple[ItemType, ...]:
    names = draw(st.lists(st.sampled_from(TYPE_NAMES), min_size=1, max_size=2, unique=True))
    types = []
    for name in names:
        at = draw(st.sampled_from([f"/{name}s", f"/items/{name}", f"/{name}~1list", "/"]))
        if strings:
            types.append(ItemType(name, at))
            continue
        match = tuple(draw(st.lists(st.sampled_from(FIELD_NAMES), min_size=1, max_size=3, unique=True)))
        forbid = tuple(draw(st.lists(st.sampled_from(FIELD_NAMES), max_size=3, unique=True))) or match
        title = draw(st.sampled_from([None, *match]))
        taught = tuple(draw(st.lists(st.sampled_from(["user", "agent"]), max_size=2, unique=True)))
        types.append(ItemType(name, at, match, forbid, title, taught))
    return tuple(types)


def _output_yaml(contract: Contract, extra: str) -> str:
    if contract.kind == "builtin":
        return ""
    if contract.kind == "text":
        return "output:\n  format: text\n  empty: ['', none, n/a]\n" + extra
    lines = ["output:", "  format: json"]
    if contract.schema:
        lines.append("  schema: output.schema.json")
    lines.append("  items:" + (" []" if not contract.types else ""))
    for t in contract.types:
        lines += [f"    - type: {t.name}", f"      at: {_yaml(t.at)}"]
        if t.match:
            lines += [f"      match: {_yaml(list(t.match))}", f"      forbid: {_yaml(list(t.forbid))}"]
            if t.title:
                lines.append(f"      title: {t.title}")
        if t.taught_by:
            lines.append(f"      taught_by: {_yaml(list(t.taught_by))}")
    if contract.fields:
        lines.append(f"  fields: {_yaml(list(contract.fields))}")
    return "\n".join(lines) + "\n" + extra


# Mistakes an author makes in corpus.yaml: each must be one line (CT003 or a config error), never more.
SPEC_MISTAKES = ("  fomat: json\n", "  matching: fuzzy\n", "  empty: [x]\n", "  fields: [queue]\n",
                 "  items: {type: fact}\n", "  schema: \"out\\0.json\"\n", "  schema: ../../etc/passwd\n",
                 "  schema: /dev/zero\n")
LINT_SECTIONS = ("", "", "lint:\n  max_findings_per_file: 0\n", "lint:\n  max_findings_per_file: 1\n",
                 "lint:\n  ignore: [CT403, term-brittle]\n  severity: {term-count: error}\n",
                 "lint:\n  rules:\n    CT605: {generic_words: [use]}\n    template-near: {threshold: 90}\n",
                 "lint:\n  prompt: \"p\\0.md\"\n", "lint:\n  secrets:\n    allow:\n      - fingerprint: " + "a" * 64
                 + "\n        reason: fuzz\n", "lint:\n  per_file_ignores:\n    - files: ['sessions/*']\n"
                 "      codes: [CT602]\n      reason: fuzz\n", "lint:\n  max_findings_per_file: -3\n")


@st.composite
def contracts(draw) -> Contract:
    """corpus.yaml: a contract of one of KINDS, a session format, two or three categories of one
    fixture each, sometimes a `lint:` section and sometimes a mistake."""
    kind = draw(st.sampled_from(KINDS))
    types: tuple[ItemType, ...] = ()
    if kind in ("json-objects", "json-strings"):
        types = draw(item_types(strings=kind == "json-strings"))
    fields = tuple(draw(st.lists(st.sampled_from(POINTERS), unique=True, max_size=3))) if kind.startswith("json") else ()
    if kind == "json-fields" and not fields:
        fields = ("/queue",)
    schema = kind.startswith("json") and draw(st.integers(0, 2)) > 0
    roles = draw(st.sampled_from([(("USER", "user"), ("AGENT", "agent")), (("PM", "user"), ("DEV", "agent")),
                                  (("CUSTOMER", "user"), ("AGENT", "agent"), ("BOT", "agent"))]))
    frontmatter = draw(st.sampled_from([("schema_version", "session_id", "harness", "captured_at"),
                                        ("session_id", "captured_at"), ("session_id",)]))
    names = (("practice", "map") if kind == "builtin" else ("answer",) if kind == "text"
             else tuple(t.name for t in types))
    expects = draw(st.lists(st.sampled_from([*names, "empty", "subset"]), min_size=2, max_size=3))
    categories = [(f"cat{index}-{expect}", expect) for index, expect in enumerate(expects)]
    fixtures = tuple((f"{category}-01", expect) for category, expect in categories)
    contract = Contract(kind, types, fields, schema, roles, frontmatter, fixtures)
    mistake = draw(st.sampled_from(SPEC_MISTAKES)) if kind != "builtin" and draw(st.integers(0, 4)) == 0 else ""
    session = (f"session:\n  roles: {{{', '.join(f'{tag}: {who}' for tag, who in roles)}}}\n"
               f"  frontmatter: {_yaml(list(frontmatter))}\n")
    spec = ("corpus_version: 1\nname: fuzz\nprompt_under_eval:\n  name: p\n  version: 1\nharnesses: [claude]\n"
            f"turns:\n  min: {draw(st.integers(1, 3))}\n  max: {draw(st.integers(3, 30))}\n"
            + _output_yaml(contract, mistake) + session + "categories:\n"
            + "".join(f"  - id: {category}\n    count: 1\n    expect: {expect}\n    tests: fuzz {expect}\n"
                      for category, expect in categories)
            + draw(st.sampled_from(LINT_SECTIONS)))
    return Contract(kind, types, fields, schema, roles, frontmatter, fixtures, spec)


# -- the output schema -----------------------------------------------------------------------------

PATTERNS = ("^[a-z ]+$", "^([a-z]+ ?)+$", "(a|aa)+$", "^(a+)+b", r"\p{L}+", r"^\p{Lu}", r"(\w+) \1", "(?=a)b",
            "[", r"\d{3}", "^.{0,40}$", r"\p{L}{400}!", "", "(?i)refund")
REFS = ("#/$defs/text", "#/$defs/nope", "#/$defs/a", "#", "other.schema.json", "other.schema.json#/$defs/x",
        "../outside.json", "http://127.0.0.1:9/x.json", "https://example.com/s.json", "file:///dev/zero",
        "urn:x:y", "sub/../other.schema.json")


@st.composite
def strings_schema(draw) -> dict:
    """A string's schema: plain, a pattern, a `$ref`, or both."""
    choice = draw(st.integers(0, 4))
    if choice == 0:
        return {"type": "string"}
    if choice == 1:
        return {"type": "string", "pattern": draw(st.sampled_from(PATTERNS))}
    if choice == 2:
        return {"$ref": draw(st.sampled_from(REFS))}
    if choice == 3:
        return {"type": "string", "format": "regex"}
    return {"type": "string", "patternProperties": {draw(st.sampled_from(PATTERNS)): {"type": "string"}}}


def _at(document: dict, pointer: str, value) -> None:
    """Put `value` at the RFC 6901 `pointer` in `document`, making objects on the way."""
    parts = [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]
    if not parts or parts == [""]:
        return
    for part in parts[:-1]:
        node = document.setdefault("properties", {}).setdefault(part, {"type": "object"})
        document = node
    document.setdefault("properties", {})[parts[-1]] = value


@st.composite
def schemas(draw, contract: Contract) -> dict[str, str]:
    """output.schema.json (and other.schema.json it may refer to), when the contract declares one."""
    if not contract.schema:
        return {}
    root: dict = {"$schema": draw(st.sampled_from(["https://json-schema.org/draft/2020-12/schema",
                                                   "http://json-schema.org/draft-07/schema#"])),
                  "type": "object"}
    if draw(st.booleans()):
        root["$id"] = draw(st.sampled_from(["https://example.com/root.json", "output.schema.json", "urn:fuzz"]))
    defs = {"text": {"type": "string", "maxLength": 2000}, "a": {"$ref": draw(st.sampled_from(["#/$defs/b", "#/$defs/text"]))},
            "b": {"$ref": "#/$defs/a"} if draw(st.booleans()) else {"type": "string"}}
    root["$defs"] = defs
    for t in contract.types:
        item = ({"type": "object", "properties": {name: draw(strings_schema()) for name in t.match}}
                if t.match else draw(strings_schema()))
        _at(root, t.at, {"type": "array", "items": item})
    for pointer in contract.fields:
        _at(root, pointer, draw(st.sampled_from([{"enum": ["billing", "technical"]}, {"type": "boolean"},
                                                 {"type": "number"}, draw(strings_schema())])))
    files = {"output.schema.json": json.dumps(root, indent=1)}
    if draw(st.booleans()):
        files["other.schema.json"] = json.dumps({"$defs": {"x": draw(strings_schema())}, "type": "string"})
    return files


# -- sessions --------------------------------------------------------------------------------------

UUIDS = ("3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d", "b7e4d2a9-1c3f-4a8e-9d5b-0e6f2c7a1b84",
         "6f1c2a94-3b7e-4d58-9a21-c4e8b07d5f36", "not-a-uuid", "00000000-0000-0000-0000-000000000000")
text_pieces = st.one_of(st.sampled_from(WORDS), st.text(min_size=0, max_size=40))


@st.composite
def sessions(draw, contract: Contract, index: int) -> str:
    """A session: the contract's frontmatter and role tags, turns of words the sidecars use (so
    labels can be won), random text, sometimes a tag it does not declare or a very long line."""
    values = {"schema_version": "1", "session_id": UUIDS[index] if draw(st.integers(0, 5)) else draw(st.sampled_from(UUIDS)),
              "harness": "claude", "captured_at": "'2026-01-05T10:00:00Z'"}
    head = "".join(f"{key}: {values[key]}\n" for key in contract.frontmatter)
    tags = [tag for tag, _ in contract.roles] + (["STRANGER"] if draw(st.integers(0, 9)) == 0 else [])
    turns = draw(st.lists(st.tuples(st.sampled_from(tags), st.lists(text_pieces, min_size=1, max_size=8)),
                          min_size=1, max_size=8))
    body = "".join(f"[{tag}]: {' '.join(words)}\n" for tag, words in turns)
    if draw(st.integers(0, 9)) == 0:
        body += f"[{tags[0]}]: " + draw(st.sampled_from(["a\u200b", "x", "é ", "\u202e"])) * draw(st.integers(1_000, 20_000)) + "\n"
    return f"---\n{head}---\n" + body.replace("\r", " ")


# -- sidecars --------------------------------------------------------------------------------------

terms = st.sampled_from(WORDS)
any_of = st.one_of(terms, st.lists(terms, min_size=1, max_size=3))
scalars = st.one_of(st.sampled_from(["billing", "5 mg", "2.5 mg", "", "Needs-Review"]), st.booleans(), st.none(),
                    st.integers(-3, 10**6), st.sampled_from([2.0, 0.1, 1e300]))
values = st.one_of(scalars, st.lists(scalars, min_size=1, max_size=3))


@st.composite
def points(draw, contract: Contract, type_names: tuple[str, ...]) -> list[dict]:
    found = []
    for index in range(draw(st.integers(0, 3))):
        point: dict = {"id": draw(st.sampled_from([f"p{index}", "same", "ID with space"])),
                       "type": draw(st.sampled_from([*type_names, "unknown"]))}
        if draw(st.integers(0, 5)):
            point["must_match_all"] = draw(st.lists(any_of, min_size=1, max_size=4))
        if draw(st.booleans()):
            point["must_not_match"] = draw(st.lists(any_of, min_size=1, max_size=3))  # a list: a combination
        item = next((t for t in contract.types if t.name == point["type"]), None)
        if draw(st.integers(0, 2)) == 0 or "must_match_all" not in point:
            keys = list(item.match) if item and item.match else list(FIELD_NAMES[:2])
            point["item_fields"] = draw(st.dictionaries(st.sampled_from([*keys, "dosage"]), values, min_size=1,
                                                        max_size=2))
        if draw(st.booleans()):
            point["notes"] = "fuzz"
        found.append(point)
    return found


@st.composite
def sidecars(draw, contract: Contract, index: int) -> str:
    """A sidecar of one fixture: expected and optional points of the contract's types (any-of
    entries, forbidden combinations, item_fields), expected_fields, sometimes not what the
    category expects, sometimes a wrong key or type."""
    fixture_id, expect = contract.fixtures[index]
    types = contract.type_names
    data: dict = {"fixture_id": fixture_id, "category": fixture_id.removesuffix("-01"),
                  "expect_empty": expect == "empty" if draw(st.integers(0, 5)) else draw(st.booleans()),
                  "expected_points": [] if expect == "empty" else draw(points(contract, types)),
                  "max_unexpected_proposals": draw(st.integers(0, 3)), "notes": "fuzz"}
    if draw(st.booleans()):
        data["optional_points"] = draw(points(contract, types))
    if contract.fields or draw(st.integers(0, 5)) == 0:
        data["expected_fields"] = draw(st.dictionaries(st.sampled_from([*contract.fields, "/nope"]), values,
                                                       max_size=3))
    if draw(st.integers(0, 9)) == 0:
        data[draw(st.sampled_from(["expected_point", "max_unexpected_proposals", "fixture_id"]))] = [1, {"x": None}]
    return json.dumps(data, ensure_ascii=False, indent=1)  # JSON is YAML


# -- results ---------------------------------------------------------------------------------------

HOSTILE_JSON = ('{"a": NaN}', '{"queue": Infinity}', '{"queue": 1e400}', "[" * 2_000 + "]" * 2_000,
                '{"a": "\\ud800"}', "", "null", "[]", '"x"', '{"practice": [], "map": [], "practice": [1]}',
                "\ufeff{}", '{"x": 1}\n{"y": 2}')
strings = st.one_of(st.sampled_from(WORDS), st.text(max_size=30),
                    st.builds(lambda word, count: word * count, st.sampled_from(["a", "ab ", "a1"]), st.integers(1, 200)))


def _put(document: dict, pointer: str, value) -> None:
    parts = [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]
    if not parts or parts == [""]:
        return
    for part in parts[:-1]:
        nested = document.setdefault(part, {})
        if not isinstance(nested, dict):
            return
        document = nested
    document[parts[-1]] = value


def _first_terms(point: dict) -> list[str]:
    entries = point.get("must_match_all")
    if not isinstance(entries, list):
        return []
    return [entry if isinstance(entry, str) else str(entry[0]) for entry in entries if entry]


def gold(contract: Contract, sidecar: str) -> str | None:
    """A result that holds every expected point of `sidecar` (its first alternatives, its
    item_fields), so that examples reach a PASS too; None when the sidecar is not the JSON drawn."""
    try:
        data = json.loads(sidecar)
        wanted = [point for point in data.get("expected_points", []) if isinstance(point, dict)]
    except (ValueError, AttributeError):
        return None
    if contract.kind == "text":
        return " ".join(term for point in wanted for term in _first_terms(point)) or "none"
    document: dict = {name: [] for name in ("practice", "map")} if contract.kind == "builtin" else {}
    by_type: dict[str, list] = {}
    for point in wanted:
        said = " ".join(_first_terms(point))
        item_type = next((t for t in contract.types if t.name == point.get("type")), None)
        if contract.kind == "builtin" and point.get("type") in document:
            by_type.setdefault(point["type"], []).append(
                {"type": point["type"], "tags": [], "title": said, "description": said, "body": said,
                 "kk_confidence": "high"})
        elif item_type is not None and item_type.match:
            item = {name: said for name in item_type.match}
            fields = point.get("item_fields")
            if isinstance(fields, dict):
                item.update({key: value[0] if isinstance(value, list) else value for key, value in fields.items()})
            by_type.setdefault(item_type.name, []).append(item)
        elif item_type is not None:
            by_type.setdefault(item_type.name, []).append(said)
    for name, items in by_type.items():
        if contract.kind == "builtin":
            document[name] = items
        else:
            _put(document, next(t.at for t in contract.types if t.name == name), items)
    for pointer, value in (data.get("expected_fields") or {}).items():
        _put(document, pointer, value[0] if isinstance(value, list) else value)
    return json.dumps(document, ensure_ascii=False)


@st.composite
def results(draw, contract: Contract, sidecar: str) -> str | None:
    """One fixture's result for the contract's kind (None: no file): often the sidecar's gold,
    else what the contract reads with words the labels use; sometimes another shape, or JSON a
    strict reader refuses."""
    roll = draw(st.integers(0, 19))
    if roll == 0:
        return None
    if roll == 1:
        return draw(st.sampled_from(HOSTILE_JSON))
    if roll < 8 and (answer := gold(contract, sidecar)) is not None:
        return answer
    if contract.kind == "text":
        return draw(st.sampled_from(["", "none", "N/A"])) if roll == 2 else " ".join(draw(st.lists(strings, max_size=12)))
    document: dict = {}
    if contract.kind == "builtin":
        for name in ("practice", "map"):
            document[name] = [{"type": name, "tags": draw(st.lists(st.sampled_from(WORDS), max_size=3)),
                               "title": draw(strings), "description": draw(strings), "body": draw(strings),
                               "kk_confidence": draw(st.sampled_from(["low", "medium", "high", "sure"]))}
                              for _ in range(draw(st.integers(0, 2)))]
    for t in contract.types:
        if t.match:
            items = [{name: draw(st.one_of(strings, st.lists(strings, max_size=2), scalars))
                      for name in draw(st.lists(st.sampled_from(FIELD_NAMES), max_size=4, unique=True))}
                     for _ in range(draw(st.integers(0, 3)))]
        else:
            items = draw(st.lists(st.one_of(strings, scalars), max_size=3))
        _put(document, t.at, items)
    for pointer in contract.fields:
        if draw(st.integers(0, 4)):
            _put(document, pointer, draw(st.one_of(scalars, strings, st.lists(scalars, max_size=2))))
    text = json.dumps(document, ensure_ascii=draw(st.booleans()))
    return text if draw(st.integers(0, 9)) else text.replace("}", "", 1)


# -- one example: a corpus and a run -----------------------------------------------------------------

@dataclass
class Example:
    corpus: dict[str, str] = field(default_factory=dict)  # relative POSIX path -> text
    run: dict[str, str] = field(default_factory=dict)
    contract: Contract | None = None


# Every surface, in the order an example is drawn: name -> (strategy of the files it adds). A new
# surface (a contract key, a sidecar key, a file kind) is one more generator here.
SURFACES: dict[str, Callable[[Contract], st.SearchStrategy[dict[str, str]]]] = {
    "schema": schemas,
    "sessions": lambda contract: st.tuples(*[sessions(contract, index) for index in range(len(contract.fixtures))]).map(
        lambda texts: {f"sessions/{fixture}.md": text for (fixture, _), text in zip(contract.fixtures, texts, strict=True)}),
    "sidecars": lambda contract: st.tuples(*[sidecars(contract, index) for index in range(len(contract.fixtures))]).map(
        lambda texts: {f"expected/{fixture}.yaml": text for (fixture, _), text in zip(contract.fixtures, texts, strict=True)}),
}


@st.composite
def examples(draw) -> Example:
    contract = draw(contracts())
    example = Example({"corpus.yaml": contract.spec}, contract=contract)
    for strategy in SURFACES.values():
        example.corpus.update(draw(strategy(contract)))
    suffix = ".txt" if contract.kind == "text" else ".json"
    for fixture, _ in contract.fixtures:
        result = draw(results(contract, example.corpus.get(f"expected/{fixture}.yaml", "")))
        if result is not None:
            example.run[f"{fixture}{suffix}"] = result
    return example


# -- running one -----------------------------------------------------------------------------------

class TimeLimit(Exception):
    """An example ran past TIME_LIMIT seconds of CPU or WAIT_LIMIT seconds on the clock."""


def _strict_json(text: str) -> None:
    def refuse(constant: str):
        raise ValueError(f"non-standard JSON number {constant}")
    json.loads(text, parse_constant=refuse)


def run_example(example: Example, scratch: Path) -> list[str]:
    """Lint and score `example` in-process, every report format of both; what went wrong (empty:
    nothing), each problem one string (a traceback for an exception)."""
    from corpustools import api
    from corpustools.io.errors import CorpustoolsError

    root, run = scratch / "corpus", scratch / "run"
    for base, files in ((root, example.corpus), (run, example.run)):
        base.mkdir(parents=True)
        for relative, text in files.items():
            path = base / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", errors="surrogatepass", newline="\n")
    (root / "sessions").mkdir(exist_ok=True)
    (root / "expected").mkdir(exist_ok=True)
    problems = []
    for what, make in (("lint", lambda: api.lint([root], whole_corpus=True)), ("score", lambda: api.score(root, [run]))):
        try:
            report = make()
        except CorpustoolsError:  # one line for the user: what bad input is owed
            continue
        except Exception:  # noqa: BLE001 - anything else is the bug this pass looks for
            problems.append(f"{what}: {traceback.format_exc()}")
            continue
        crashes = getattr(getattr(report, "run", None), "crashes", ())
        problems += [f"{what}: {crash}" for crash in crashes]
        for fmt in api.report_formats(report):
            try:
                text = api.format_report(report, fmt)
                if fmt.startswith("json") or fmt == "sarif":
                    _strict_json(text)
            except Exception:  # noqa: BLE001
                problems.append(f"{what} --format {fmt}: {traceback.format_exc()}")
    return problems


def _over_cpu(_signum, _frame):
    raise TimeLimit(f"over {TIME_LIMIT} s of CPU")


def _over_clock(_signum, _frame):
    raise TimeLimit(f"over {WAIT_LIMIT} s on the clock")


@dataclass
class Tally:
    examples: int = 0
    slowest: float = 0.0  # CPU seconds of the slowest example
    slowest_kind: str = ""
    failures: list[dict] = field(default_factory=list)


def check(example: Example, tally: Tally) -> None:
    """Run one example under the time limits (CPU time: a loaded machine does not make an example
    fail; the clock only for one that waits); record and raise on any problem."""
    started = time.process_time()
    signal.signal(signal.SIGPROF, _over_cpu)
    signal.signal(signal.SIGALRM, _over_clock)
    signal.setitimer(signal.ITIMER_PROF, TIME_LIMIT)
    signal.setitimer(signal.ITIMER_REAL, WAIT_LIMIT)
    try:
        with tempfile.TemporaryDirectory(prefix="corpustools-fuzz-") as scratch:
            problems = run_example(example, Path(scratch))
    except TimeLimit as limit:
        problems = [f"time: {limit}"]
    except MemoryError:
        problems = [f"memory: over the {MEMORY_LIMIT} byte address-space limit"]
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
    elapsed = time.process_time() - started
    tally.examples += 1
    if elapsed > tally.slowest:
        kind = example.contract.kind if example.contract else "?"
        tally.slowest, tally.slowest_kind = elapsed, f"{kind}, {sum(map(len, example.corpus.values()))} bytes of corpus"
    if problems:
        tally.failures.append({"problems": problems, "corpus": example.corpus, "run": example.run,
                               "cpu_seconds": round(elapsed, 2)})
        raise AssertionError("\n".join(problems))


def fuzz(count: int, *, derandomize: bool = True, shrink: bool = False,
         observe: Callable[[Example], None] | None = None) -> Tally:
    """`count` examples through `check`; the first failure stops the pass (shrunk with `shrink`).
    Derandomized, the examples are the same every time (`observe` sees each before it runs)."""
    tally = Tally()
    phases = [Phase.explicit, Phase.generate] + ([Phase.shrink] if shrink else [])

    @settings(max_examples=count, derandomize=derandomize, database=None, deadline=None, phases=phases,
              suppress_health_check=list(HealthCheck))
    @given(examples())
    def one(example: Example) -> None:
        if observe is not None:
            observe(example)
        check(example, tally)

    try:
        one()
    except AssertionError:
        pass  # the failure is in the tally
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.fuzzing")
    parser.add_argument("--examples", type=int, default=25)
    parser.add_argument("--random", action="store_true", help="a new random pass (default: the same examples each time)")
    parser.add_argument("--shrink", action="store_true", help="shrink a failing example to a smaller one")
    args = parser.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    tally = fuzz(args.examples, derandomize=not args.random, shrink=args.shrink)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: kilobytes
    print(json.dumps({"examples": tally.examples, "slowest_cpu_seconds": round(tally.slowest, 2),
                      "slowest": tally.slowest_kind,
                      "peak_rss_bytes": peak, "failures": tally.failures[:1]}, ensure_ascii=False, default=str))
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
