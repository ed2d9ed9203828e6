"""promptfoo's `eval -o results.json` (results version 3), read as a run; and the
`promptfooconfig.yaml` that runs a corpus through promptfoo (docs/interop.md: every field).

Reading: the fixture of a result is its test's `metadata.fixture_id`, then `vars.fixture_id`,
then its `description`, never its position (promptfoo writes results in no fixed order). The
answer is `response.output`, byte for byte: promptfoo keeps other copies (`testCase.providerOutput`,
`config.tests[].providerOutput`) re-serialized, and those are never read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence

from corpustools.interop.logs import Answer, ToolRun, add_cost, as_text, mapping, read_log_json
from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.schemastore import schema_text
from corpustools.io.yamlwrite import flow_json, inline_scalar, scalar_lines
from corpustools.manifest import read_manifest
from corpustools.model.contract import ABSENT, JSON_FORMAT, pointer_tokens, resolve
from corpustools.reporting.formatting import plural

RESULTS_VERSION = 3
TOOL = "promptfoo"
# failureReason: 0 none, 1 an assertion failed (the answer is there), 2 an error (no answer)
_ERROR = 2


def _made_by(document: Mapping) -> str:
    version = mapping(document.get("metadata")).get("promptfooVersion")
    return f"promptfoo {version}" if isinstance(version, str) and version else "an older promptfoo (its version is not recorded)"


def _results(document, path: str) -> Mapping:
    """The `results` object of a results file; InputError when the file is no promptfoo results
    file, or one of another version."""
    if not isinstance(document, dict) or not isinstance(document.get("results"), dict):
        raise InputError(Pos(path), "not a promptfoo results file (no 'results' object; write one with "
                                    "`promptfoo eval -o results.json`)")
    results = document["results"]
    version = results.get("version")
    if version != RESULTS_VERSION:
        raise InputError(Pos(path), f"promptfoo results version {version!r}, made by {_made_by(document)}; corpustools "
                                    f"reads version {RESULTS_VERSION}: run the eval again with a current promptfoo")
    if not isinstance(results.get("results"), list) or not isinstance(results.get("prompts"), list):
        raise InputError(Pos(path), "not a promptfoo results file: results.results and results.prompts must be arrays")
    return results


def column_name(prompt: Mapping) -> str:
    """A column as promptfoo's table heads it: `[provider] prompt label`."""
    return f"[{prompt.get('provider', '')}] {prompt.get('label') or prompt.get('raw') or prompt.get('id') or ''}"


def _pick_column(prompts: list, column: str | None, path: str) -> int:
    """The index of the column (prompt x provider) to import; InputError when there are several
    and --column names none of them."""
    names = [column_name(mapping(p)) for p in prompts]
    if not names:
        raise InputError(Pos(path), "the results hold no prompt (results.prompts is empty)")
    listing = "; ".join(names)
    if column is None:
        if len(names) == 1:
            return 0
        raise InputError(Pos(path), f"{len(names)} columns (prompt x provider): pick one with --column LABEL: {listing}")
    for matches in (lambda p, n: n == column,
                    lambda p, n: column in (p.get("label"), p.get("id")),
                    lambda p, n: column == p.get("provider")):
        found = [i for i, (p, n) in enumerate(zip(prompts, names, strict=True)) if matches(mapping(p), n)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise InputError(Pos(path), f"--column {column!r} names {len(found)} columns; give the whole column name: "
                                        f"{listing}")
    raise InputError(Pos(path), f"--column {column!r} names no column; the columns are: {listing}")


def _fixture_id(result: Mapping) -> str | None:
    case = mapping(result.get("testCase"))
    for value in (mapping(case.get("metadata")).get("fixture_id"), mapping(case.get("vars")).get("fixture_id"),
                  mapping(result.get("vars")).get("fixture_id"), case.get("description"), result.get("description")):
        if isinstance(value, str) and value:
            return value
    return None


def _prompt_seen(result: Mapping) -> str | None:
    """The prompt promptfoo sent: `prompt.raw`; the last user message of a chat prompt."""
    raw = mapping(result.get("prompt")).get("raw")
    if not isinstance(raw, str):
        return None
    if raw.lstrip().startswith("["):
        try:
            messages = json.loads(raw)
        except ValueError:
            return raw
        users = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role") == "user"] \
            if isinstance(messages, list) else []
        if users and isinstance(users[-1], str):
            return users[-1]
    return raw


def _cost(results: Sequence[Mapping]) -> dict[str, int | float]:
    """Tokens and dollars summed over the answers that report them (run.yaml's `cost`)."""
    sums: dict[str, int | float] = {}
    for result in results:
        response = mapping(result.get("response"))
        usage = mapping(response.get("tokenUsage")) or mapping(result.get("tokenUsage"))
        add_cost(sums, "input_tokens", usage.get("prompt"))
        add_cost(sums, "output_tokens", usage.get("completion"))
        add_cost(sums, "usd", response.get("cost") if "cost" in response else result.get("cost"))
    return sums


def _temperature(document: Mapping, provider: Mapping) -> int | float | str:
    """The provider's configured temperature, else `unknown` (the provider's default applied)."""
    config = mapping(document.get("config"))
    providers = config.get("providers")
    entries = providers if isinstance(providers, list) else [providers] if providers else []
    for key in ("label", "id"):
        wanted = provider.get(key)
        for entry in entries:
            entry = mapping(entry)
            if wanted and entry.get(key) == wanted:
                value = mapping(entry.get("config")).get("temperature")
                return value if isinstance(value, (int, float)) and not isinstance(value, bool) else "unknown"
    return "unknown"


def read_promptfoo_results(path: str, column: str | None = None) -> ToolRun:
    """The run in promptfoo's results file `path` (one column: `column`, or the only one)."""
    document = read_log_json(path, TOOL)
    results = _results(document, path)
    prompts = results["prompts"]
    index = _pick_column(prompts, column, path)
    chosen = [r for r in results["results"] if isinstance(r, dict) and r.get("promptIdx", 0) == index]
    answers = []
    for number, result in enumerate(results["results"]):
        if not isinstance(result, dict) or result.get("promptIdx", 0) != index:
            continue
        where = f"results.results[{number}]"
        fixture_id = _fixture_id(result)
        if fixture_id is None:
            raise InputError(Pos(path), f"{where} (test {result.get('testIdx')}): names no fixture: give each test "
                                        "metadata.fixture_id (or vars.fixture_id, or a description that is the fixture id)")
        response = result.get("response")
        output = mapping(response).get("output") if isinstance(response, dict) else None
        error = result.get("error")
        if result.get("failureReason") == _ERROR or (error and output is None) or output is None:
            why = error if isinstance(error, str) and error else "no response.output"
            answers.append(Answer(fixture_id, where, None, why_none=" ".join(why.split())[:200],
                                  prompt_seen=_prompt_seen(result)))
            continue
        text, as_json = as_text(output)
        answers.append(Answer(fixture_id, where, text, as_json=as_json, prompt_seen=_prompt_seen(result)))
    prompt = mapping(prompts[index])
    provider = mapping(chosen[0].get("provider")) if chosen else {}
    model = provider.get("label") or provider.get("id") or prompt.get("provider") or "unrecorded"
    timestamp = results.get("timestamp") or mapping(document.get("metadata")).get("evaluationCreatedAt")
    identity = ", ".join(part for part in (
        f"evalId {document['evalId']}" if isinstance(document.get("evalId"), str) else "",
        f"column {column_name(prompt)}") if part)
    raw = prompt.get("raw")
    return ToolRun(
        tool=TOOL, path=path, answers=tuple(answers), model=str(model),
        temperature=_temperature(document, provider), harness=_made_by(document) if mapping(
            document.get("metadata")).get("promptfooVersion") else "promptfoo",
        started_at=str(timestamp) if timestamp else "unrecorded", cost=_cost(chosen), identity=identity,
        prompt_name=prompt.get("label") if isinstance(prompt.get("label"), str) else None,
        prompt_text=raw if isinstance(raw, str) and raw.strip() else None)


# --- export: the promptfooconfig.yaml that runs a corpus -----------------------------------------

CONFIG_FILE = "promptfooconfig.yaml"
PROVIDER_TO_SET = "SET-YOUR-PROVIDER"  # fails promptfoo loudly until the user names a model

_HEADER = """\
# promptfoo config for the corpustools corpus {name} ({fixtures}), prompt {prompt} (sha256 {prompt_sha}).
# Written by `corpustools export promptfoo{replay}`.{replayed}
# Run it, then score its results with corpustools, the reference score:
#   promptfoo eval -c {config} -o results.json
#   corpustools import promptfoo results.json --corpus CORPUS --run RUN --prompt PROMPT
#   corpustools score CORPUS RUN
# Each test is one fixture: the prompt as `corpustools render` prints it (vars.rendered), its id in
# metadata.fixture_id. The assertions only approximate corpustools' labels (docs/interop.md):
#   is-json against the output contract's schema (as draft-07 for Ajv: $schema dropped, $refs inlined);
#   a pinned field (expected_fields) by javascript, strings compared in lowercase, punctuation as spaces;
#   an expected point by icontains-all of its terms, or javascript when an entry lists alternatives,
#   or, for a point with item_fields, javascript finding one item with its values and its terms;
#   its forbidden terms by not-icontains-any, or javascript for a combination;
#   a fixture whose right answer is nothing: every item array empty (javascript).
# What does not map, so promptfoo's pass/fail may differ from corpustools' verdict:
#   - the phantom budget (max_unexpected_proposals): proposals no point expects are not counted;
#   - optional points: not asserted (they never fail a fixture in corpustools either);
#   - matching inside one item: corpustools needs a point's terms in one item's match fields and
#     looks for forbidden terms in each item's forbid fields; promptfoo looks in the whole output
#     (but for a point with item_fields);
#   - word-start matching and normalization (NFKC, possessive 's, any punctuation as a space):
#     icontains is a plain case-insensitive substring; item_fields values are compared approximately.
"""



_PARSED = """\
let answer = output;
if (typeof answer === 'string') {
  try {
    answer = JSON.parse(answer);
  } catch (err) {
    return false;
  }
}
"""
_AT = """\
const at = (tokens) => {
  let value = answer;
  for (const token of tokens) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, token)) {
      return undefined;
    }
    value = value[token];
  }
  return value;
};
"""
_TEXT = "const text = (typeof output === 'string' ? output : JSON.stringify(output)).toLowerCase();\n"
# Values compared as corpustools compares expected_fields and item_fields, approximately: a string
# in lowercase, NFKC, a number apart from the word it touches ("5mg" is "5 mg"), any other run of
# punctuation as one space; a number, boolean or null exactly.
_SAME = """\
const norm = (v) => v.normalize('NFKC').toLowerCase()
  .replace(/(\\p{N})(?=\\p{L})|(\\p{L})(?=\\p{N})/gu, '$1$2 ')
  .replace(/[^\\p{L}\\p{N}]+/gu, ' ').trim();
const same = (want, got) => typeof want === 'string'
  ? typeof got === 'string' && norm(want) === norm(got)
  : want === got;
"""


def _js(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _field_check(pointer: str, accepted: tuple) -> str:
    return (_PARSED + _AT + _SAME + f"const value = at({_js(list(pointer_tokens(pointer)))});\n"
            f"return {_js(list(accepted))}.some((want) => same(want, value));")


def _item_check(point, contract) -> str | None:
    """A point with item_fields: some item of its type holds every value and every term entry
    (an alternative of each, in its match fields): the point matched on one item, as corpustools
    matches it. None when the contract does not declare the point's type."""
    declared = contract.item_type(point.type)
    if declared is None:
        return None
    fields = {field.name: list(field.values) for field in point.item_fields}
    entries = [[term.lower() for term in entry.texts] for entry in point.must_match_all]
    return (_PARSED + _AT + _SAME + f"const items = at({_js(list(pointer_tokens(declared.at)))});\n"
            "if (!Array.isArray(items)) {\n  return false;\n}\n"
            f"const fields = {_js(fields)};\nconst entries = {_js(entries)};\n"
            f"const text = (item) => {_js(list(declared.match))}.map((f) => typeof item[f] === 'string' ? item[f]\n"
            "  : JSON.stringify(item[f] ?? '')).join('\\n').toLowerCase();\n"
            "return items.some((item) => item !== null && typeof item === 'object'\n"
            "  && Object.entries(fields).every(([name, values]) => Object.prototype.hasOwnProperty.call(item, name)\n"
            "    && values.some((want) => same(want, item[name])))\n"
            "  && entries.every((alternatives) => alternatives.some((term) => text(item).includes(term))));")


def _empty_check(contract) -> str:
    if contract.format != JSON_FORMAT:
        empty = sorted({e.strip().casefold() for e in contract.empty})
        return f"{_js(empty)}.includes(String(output).trim().toLowerCase())"  # one line: an expression
    arrays = [list(pointer_tokens(item.at)) for item in contract.items]
    return (_PARSED + _AT + f"return {_js(arrays)}.every((tokens) => {{\n"
            "  const items = at(tokens);\n  return Array.isArray(items) && items.length === 0;\n});")


def _assertion(kind: str, value, metric: str) -> list[str]:
    shown = scalar_lines("value", value, 8) if isinstance(value, str) else [f"        value: {flow_json(value)}"]
    return [f"      - type: {kind}", *shown, f"        metric: {inline_scalar(metric)}"]


def _point_assertions(point, contract) -> list[str]:
    lines = []
    wanted = [[term.lower() for term in entry.texts] for entry in point.must_match_all]
    on_item = _item_check(point, contract) if getattr(point, "item_fields", ()) else None
    if on_item is not None:
        lines += _assertion("javascript", on_item, f"point:{point.id}")
    elif any(len(alternatives) > 1 for alternatives in wanted):
        lines += _assertion("javascript", _TEXT + f"return {_js(wanted)}.every((alternatives) => "
                            "alternatives.some((term) => text.includes(term)));", f"point:{point.id}")
    elif wanted:
        lines += _assertion("icontains-all", [alternatives[0] for alternatives in wanted], f"point:{point.id}")
    forbidden = [[term.lower() for term in entry.texts] for entry in point.must_not_match]
    single = [parts[0] for parts in forbidden if len(parts) == 1]
    together = [parts for parts in forbidden if len(parts) > 1]
    if single:
        lines += _assertion("not-icontains-any", single, f"forbidden:{point.id}")
    if together:
        lines += _assertion("javascript", _TEXT + f"return !{_js(together)}.some((parts) => "
                            "parts.every((term) => text.includes(term)));", f"forbidden-together:{point.id}")
    return lines


class _Unresolved(Exception):
    """A `$ref` that cannot be inlined: not a local pointer, to nothing, or to itself."""


def _inlined(node, root, seen: tuple[str, ...] = ()):
    """`node` with every local `$ref` (`#/$defs/x`) replaced by what it points to: promptfoo
    resolves `$ref`s against the whole config file, never against the schema they stand in."""
    if isinstance(node, list):
        return [_inlined(item, root, seen) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        if not ref.startswith("#") or ref in seen:
            raise _Unresolved(ref)
        target = resolve(root, ref[1:]) if ref != "#" else root
        if target is ABSENT:
            raise _Unresolved(ref)
        rest = {key: value for key, value in node.items() if key != "$ref"}
        inlined = _inlined(target, root, (*seen, ref))
        return {**inlined, **_inlined(rest, root, seen)} if isinstance(inlined, dict) else inlined
    return {key: _inlined(value, root, seen) for key, value in node.items() if key not in ("$defs", "definitions")}


def _schema(exported) -> dict | None:
    """The output contract's JSON Schema as promptfoo's Ajv reads it: draft-07 (no $schema, $id),
    every `$ref` inlined; None when there is none, or it refers to itself (is-json then checks
    only that the answer is JSON)."""
    contract = exported.contract
    if contract.builtin_schema is not None:
        schema = json.loads(schema_text(contract.builtin_schema))
    else:
        # the schema file's document (read as a UserSchema where schemas are read that way: its contents)
        schema = getattr(contract.schema, "contents", contract.schema)
    if not isinstance(schema, dict):
        return None
    try:
        inlined = _inlined(schema, schema)
    except _Unresolved:
        return None
    return {key: value for key, value in inlined.items() if key not in ("$schema", "$id")}


def config_yaml(exported, *, replay: str | None = None, answers: dict[str, str] | None = None,
                model: str | None = None) -> str:
    """promptfooconfig.yaml for the exported corpus; with `answers` (the run `replay`'s saved
    outputs) each test carries its answer as providerOutput, and the echo provider, never called,
    stands for `model`."""
    contract = exported.contract
    fixtures = [f for f in exported.fixtures if answers is None or f.fixture_id in answers]
    left_out = [f.fixture_id for f in exported.fixtures if answers is not None and f.fixture_id not in answers]
    lines = _HEADER.format(name=exported.name, fixtures=plural(len(exported.fixtures), "fixture"),
                           prompt=exported.prompt_id, prompt_sha=exported.prompt_sha256[:12], config=CONFIG_FILE,
                           replay=" --replay RUN" if replay else "",
                           replayed=f"\n# Each test answers with the saved output of the run {replay} (providerOutput): promptfoo "
                           "calls no model." if replay else "").rstrip("\n").split("\n")
    if left_out:
        lines.append(f"# Left out: the replayed run has no output for {', '.join(left_out)} (an import scores them "
                     "as missing).")
    if replay is None:
        lines.append(f"# Set providers: to the model to evaluate (promptfoo refuses {PROVIDER_TO_SET}).")
    lines += [*scalar_lines("description", f"corpustools {exported.name}: prompt {exported.prompt_id}", 0),
              "prompts:", f"  - id: {inline_scalar(exported.prompt_id)}", f"    label: {inline_scalar(exported.prompt_id)}",
              "    raw: '{{rendered}}'", "providers:"]
    if replay is None:
        lines.append(f"  - {PROVIDER_TO_SET}")
    else:
        lines += ["  - id: echo", f"    label: {inline_scalar(model or 'corpustools-replay')}"]
    if contract.format == JSON_FORMAT:
        schema = _schema(exported)
        lines += ["defaultTest:", "  assert:", "    - type: is-json"]
        if schema is not None:
            lines.append(f"      value: {flow_json(schema)}")
    lines.append("tests:" if fixtures else "tests: []")
    for fixture in fixtures:
        sidecar = fixture.sidecar
        lines += [f"  - description: {inline_scalar(fixture.fixture_id)}", "    vars:",
                  f"      fixture_id: {inline_scalar(fixture.fixture_id)}", *scalar_lines("rendered", fixture.rendered, 6),
                  "    metadata:", f"      fixture_id: {inline_scalar(fixture.fixture_id)}"]
        if sidecar is not None:
            lines.append(f"      category: {inline_scalar(sidecar.category)}")
        if answers is not None:
            lines += scalar_lines("providerOutput", answers[fixture.fixture_id], 4)
        checks: list[str] = []
        if sidecar is not None:
            for pointer, accepted in sidecar.expected_fields:
                checks += _assertion("javascript", _field_check(pointer, accepted), f"field:{pointer}")
            if sidecar.expect_empty:
                checks += _assertion("javascript", _empty_check(contract), "empty")
            for point in sidecar.points:
                checks += _point_assertions(point, contract)
        if checks:
            lines += ["    assert:", *checks]
    return "\n".join(lines) + "\n"


def _replayed_model(run_folder: str) -> str | None:
    """The model the replayed run's run.yaml records, when it records one."""
    manifest = read_manifest(run_folder).run_manifest
    return manifest.model if manifest is not None and not manifest.unrecorded else None


def export_files(exported, out: str, *, replay: str | None, answers: dict[str, str] | None) -> dict[str, str]:
    """`export promptfoo`: the config at `out`, or promptfooconfig.yaml in the folder `out`."""
    target = os.path.join(out, CONFIG_FILE) if os.path.isdir(out) and not os.path.islink(out) else out
    model = _replayed_model(replay) if replay is not None else None
    return {target: config_yaml(exported, replay=replay, answers=answers, model=model)}
