"""`corpustools init DIR`: a new corpus that lints clean, scores its own gold and validates."""

from __future__ import annotations

import json
import os

import pytest

from corpustools.cli import main
from corpustools.io.yamlload import parse_yaml
from corpustools.scaffold import ADMIT_ID, KINDS, MAP_ID, REJECT_ID, SUBSET_ID

FIXTURES = (ADMIT_ID, MAP_ID, SUBSET_ID, REJECT_ID)
# Each kind of scaffold (`--output`): its fixtures, and what its gold scores to (points matched).
KIND_FIXTURES = {kind: tuple(fixture for fixture, _ in spec.fixtures) for kind, spec in KINDS.items()}

pytestmark = pytest.mark.usefixtures("in_tmp")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _files(folder):
    return sorted(os.path.relpath(os.path.join(here, name), folder).replace(os.sep, "/")
                  for here, _dirs, names in os.walk(folder) for name in names)


def test_init_writes_one_fixture_per_expect_kind(tmp_path, capsys):
    code, out, err = run(capsys, "init", "new-corpus")
    assert (code, out) == (0, "")
    assert err == "wrote new-corpus (15 files; next: corpustools lint new-corpus)\n"
    assert _files(tmp_path / "new-corpus") == sorted(["README.md", "corpus.yaml", "prompt/my-extraction-prompt.v1.md"] + [
        f"{folder}/{fixture}{suffix}" for fixture in FIXTURES
        for folder, suffix in (("expected", ".yaml"), ("gold", ".json"), ("sessions", ".md"))])
    spec = parse_yaml((tmp_path / "new-corpus/corpus.yaml").read_text(), "corpus.yaml").data
    assert spec["name"] == "new-corpus"
    # every value of `expect` the corpus format knows, once
    assert [c["expect"] for c in spec["categories"]] == ["practice", "map", "subset", "empty"]
    assert [c["count"] for c in spec["categories"]] == [1, 1, 1, 1]
    admit = parse_yaml((tmp_path / f"new-corpus/expected/{ADMIT_ID}.yaml").read_text(), "x").data
    assert len(admit["expected_points"]) == 1 and admit["expected_points"][0]["must_not_match"]
    readme = (tmp_path / "new-corpus/README.md").read_text()
    assert all(step in readme for step in ("corpustools lint new-corpus", "corpustools render", "corpustools run init",
                                           "corpustools score new-corpus"))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_spec_comments_explain_every_top_level_key(tmp_path, capsys, kind):
    run(capsys, "init", "c", "--output", kind)
    text = (tmp_path / "c/corpus.yaml").read_text()
    spec = parse_yaml(text, "corpus.yaml").data
    lines = text.splitlines()
    for key in spec:
        at = lines.index(next(line for line in lines if line.startswith(f"{key}:")))
        assert lines[at - 1].startswith("# "), key  # each key is introduced by a comment
    assert "# lint:" in text  # the optional lint section is shown, commented out
    assert "opens_with: user" in text and "agent (a front desk" in text  # who opens a session: said, not asked


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_spec_shows_per_point_ignores_and_an_agreement_threshold_that_lint_accepts(tmp_path, capsys, kind):
    # issue 33's per-point suppression and issue 32's pre-registered threshold are where a newcomer
    # reads the keys: said in the comments, and the threshold block works once uncommented
    run(capsys, "init", "c", "--output", kind)
    spec = tmp_path / "c/corpus.yaml"
    text = spec.read_text()
    assert "`per_point_ignores` (one labelled point)" in text
    block = "# agreement:\n#   statistic: ac1          # ac1 | kappa | alpha | percent\n"
    assert block in text
    spec.write_text(text.replace(block, block.replace("# agreement:", "agreement:").replace("#   statistic", "  statistic"))
                    .replace("#   min: 0.80", "  min: 0.80").replace("#   levels: [verdicts, points]", "  levels: [verdicts, points]"))
    assert "\nagreement:\n  statistic: ac1" in spec.read_text()
    assert run(capsys, "lint", "--strict", "c") == (0, "All checks passed.\n", "")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_uncommenting_opens_with_keeps_the_scaffold_clean(tmp_path, capsys, kind):
    run(capsys, "init", "c", "--output", kind)
    spec = tmp_path / "c/corpus.yaml"
    text = spec.read_text()
    uncommented = text.replace("  # opens_with: user\n", "  opens_with: user\n") if kind == "items" else text.replace(
        "# session:\n#   opens_with: user\n", "session:\n  opens_with: user\n")
    assert uncommented != text
    spec.write_text(uncommented)
    assert run(capsys, "lint", "--strict", "c") == (0, "All checks passed.\n", "")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_of_scaffold_lints_clean_with_strict(tmp_path, capsys, kind):
    run(capsys, "init", "c", "--output", kind)
    assert run(capsys, "lint", "--strict", "c") == (0, "All checks passed.\n", "")


@pytest.mark.parametrize("kind, points, phantoms", [("kenkeep", 3, 0), ("items", 3, 0), ("text", 2, None)])
def test_each_kind_of_scaffold_scores_its_own_gold(tmp_path, capsys, kind, points, phantoms):
    run(capsys, "init", "c", "--output", kind)
    code, out, err = run(capsys, "score", "c", "c/gold", "--format", "json")
    report = json.loads(out)
    assert code == 0
    assert [(f["id"], f["verdict"]) for f in report["fixtures"]] == [(f, "PASS") for f in sorted(KIND_FIXTURES[kind])]
    assert report["aggregate"]["phantoms"] == phantoms and report["aggregate"]["points_matched"] == points
    assert report["aggregate"]["precision"]["rate"] == 1.0


def test_the_items_scaffold_declares_its_answer_and_pins_its_scalar_fields(tmp_path, capsys):
    run(capsys, "init", "c", "--output", "items")
    spec = parse_yaml((tmp_path / "c/corpus.yaml").read_text(), "corpus.yaml").data
    assert [item["type"] for item in spec["output"]["items"]] == ["action", "decision"]
    assert spec["session"]["roles"] == {"PM": "user", "DEV": "agent"}
    assert [c["expect"] for c in spec["categories"]] == ["action", "decision", "subset", "empty"]
    report = json.loads(run(capsys, "score", "c", "c/gold", "--format", "json")[1])
    assert [(f["field"], f["matched"], f["pinned"]) for f in report["aggregate"]["fields"]] == [
        ("/meeting_type", 4, 4), ("/needs_followup", 4, 4)]
    # a wrong classification fails the fixture, a wrong owner misses the point
    gold = json.loads((tmp_path / "c/gold/assign-action-01.json").read_text())
    (tmp_path / "run").mkdir()
    for name in KIND_FIXTURES["items"]:
        (tmp_path / "run" / f"{name}.json").write_text((tmp_path / "c/gold" / f"{name}.json").read_text())
    gold["meeting_type"], gold["actions"][0]["owner"] = "status", "Tom"
    (tmp_path / "run/assign-action-01.json").write_text(json.dumps(gold))
    report = json.loads(run(capsys, "score", "c", "run", "--format", "json")[1])
    assert report["fixtures"][0]["reasons"] == ["missed-point:priya-owns-logo-fix", "field-mismatch:/meeting_type"]


def test_the_text_scaffold_saves_answers_as_text(tmp_path, capsys):
    run(capsys, "init", "c", "--output", "text")
    assert sorted(os.listdir(tmp_path / "c/gold")) == [f"{f}.txt" for f in sorted(KIND_FIXTURES["text"])]
    assert (tmp_path / "c/gold/reject-noise-01.txt").read_text() == "none\n"  # an empty answer, as declared


@pytest.mark.parametrize("fixture, kind, text, reasons", [
    (MAP_ID, "map", "The refund.created handler is in the registry; verify.py checks signatures.",
     ["forbidden-match:webhook-registry-and-verify:refund"]),
    (SUBSET_ID, "practice", "For OPS-212, every report query takes a date range.",
     ["forbidden-match:report-queries-take-a-date-range:ops-212"]),
    (SUBSET_ID, "practice", "Report queries should be fast.",  # a miss, and a phantom past the budget of 0
     ["missed-point:report-queries-take-a-date-range", "phantom-over-budget:1>0"]),
])
def test_the_scaffold_labels_fail_what_they_say_must_not_survive(tmp_path, capsys, fixture, kind, text, reasons):
    run(capsys, "init", "c")
    (tmp_path / "run").mkdir()
    for name in FIXTURES:
        (tmp_path / "run" / f"{name}.json").write_text((tmp_path / "c/gold" / f"{name}.json").read_text())
    output = {"practice": [], "map": []}
    output[kind] = [{"type": kind, "tags": ["x"], "title": "Extracted", "description": "An extracted point.",
                     "body": text, "kk_confidence": "high"}]
    (tmp_path / "run" / f"{fixture}.json").write_text(json.dumps(output))
    report = json.loads(run(capsys, "score", "c", "run", "--format", "json")[1])
    verdicts = {f["id"]: (f["verdict"], f["reasons"]) for f in report["fixtures"]}
    assert verdicts[fixture] == ("FAIL", reasons)
    assert all(verdict == "PASS" for name, (verdict, _) in verdicts.items() if name != fixture)


def test_the_scaffold_validates(tmp_path, capsys):
    run(capsys, "init", "c")
    assert run(capsys, "validate", "corpus-spec", "c/corpus.yaml")[0] == 0
    assert run(capsys, "validate", "sidecar", *(f"c/expected/{f}.yaml" for f in FIXTURES))[0] == 0
    assert run(capsys, "validate", "proposal-output", *(f"c/gold/{f}.json" for f in FIXTURES))[0] == 0


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_init_is_byte_identical_for_the_same_name(tmp_path, capsys, monkeypatch, kind):
    for side in ("a", "b"):
        (tmp_path / side).mkdir()
        monkeypatch.chdir(tmp_path / side)
        run(capsys, "init", "c", "--output", kind)
    assert _files(tmp_path / "a/c") == _files(tmp_path / "b/c")
    for relative in _files(tmp_path / "a/c"):
        assert (tmp_path / "a/c" / relative).read_bytes() == (tmp_path / "b/c" / relative).read_bytes()


def test_init_into_an_existing_empty_folder(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert run(capsys, "init", "empty")[0] == 0


def test_init_refuses_a_non_empty_folder_a_file_and_a_link(tmp_path, capsys):
    (tmp_path / "full").mkdir()
    (tmp_path / "full/notes.txt").write_text("mine\n")
    assert run(capsys, "init", "full") == (
        2, "", "corpustools init: full: is not empty; init writes only into a new or empty folder\n")
    assert _files(tmp_path / "full") == ["notes.txt"] and (tmp_path / "full/notes.txt").read_text() == "mine\n"
    (tmp_path / "file").write_text("x\n")
    assert run(capsys, "init", "file")[0] == 2 and (tmp_path / "file").read_text() == "x\n"
    (tmp_path / "target").mkdir()
    os.symlink("target", tmp_path / "link")
    code, _, err = run(capsys, "init", "link")
    assert code == 2 and "symbolic link" in err and not os.listdir(tmp_path / "target")


def test_init_never_writes_into_another_corpus_files(tmp_path, capsys):
    run(capsys, "init", "c")
    code, _, err = run(capsys, "init", "c/sessions/nested")
    assert code == 2 and err.count("\n") == 1 and "corpustools never writes there" in err
    assert not os.path.exists(tmp_path / "c/sessions/nested/README.md")


def test_the_files_init_copies_are_no_corpus_that_lint_finds():
    """corpustools/new_corpus/ holds what init writes, laid out so that `corpustools lint` run in
    the repository (or over an installed package) never takes it for a corpus."""
    from corpustools import scaffold
    from corpustools.model.locate import corpus_root_of, discover_corpora

    package = os.path.dirname(scaffold.__file__)
    templates = os.path.join(package, scaffold.TEMPLATES)
    assert sorted(os.listdir(templates)) == sorted(KINDS)
    for kind, spec in KINDS.items():
        listed = set(os.listdir(os.path.join(templates, kind)))
        assert {"README.md.in", "corpus.yaml.in", *spec.files} <= listed and "corpus.yaml" not in listed
    assert discover_corpora(package) == []
    assert corpus_root_of(os.path.join(templates, "kenkeep", ADMIT_ID, "session.md")) is None


# --- the starter prompt and the run loop ---------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(KINDS))
def test_init_writes_a_starter_prompt_whose_answer_shape_is_the_contracts(tmp_path, capsys, kind):
    from corpustools.scaffold import starter_prompt

    run(capsys, "init", "c", "--output", kind)
    prompt = tmp_path / "c" / starter_prompt(kind)
    text = prompt.read_text()
    spec = parse_yaml((tmp_path / "c/corpus.yaml").read_text(), "corpus.yaml").data
    assert prompt.name == f"{spec['prompt_under_eval']['name']}.v{spec['prompt_under_eval']['version']}.md"
    assert text.startswith("Version: 1\n") and "\n[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n" in text
    # the answer it shows (its one indented example) is valid under the corpus's own contract
    example = next(line.strip() for line in text.splitlines() if line.startswith("    "))
    suffix = ".txt" if kind == "text" else ".json"
    fixture = KIND_FIXTURES[kind][0]
    (tmp_path / "answers").mkdir()
    (tmp_path / "answers" / f"{fixture}{suffix}").write_text(example + "\n")
    code, out, _ = run(capsys, "validate", "result", "c", f"answers/{fixture}{suffix}")
    assert (code, out.splitlines()[-1]) == (0, f"answers/{fixture}{suffix}: valid"), out
    # lint reads it as the prompt under evaluation, and the scaffold stays clean
    assert run(capsys, "lint", "--strict", "c", "--prompt", prompt) == (0, "All checks passed.\n", "")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_scaffold_readme_says_the_run_loop_in_five_lines_that_run(tmp_path, capsys, kind):
    from corpustools.scaffold import starter_prompt

    run(capsys, "init", "c", "--output", kind)
    readme = (tmp_path / "c/README.md").read_text()
    loop = readme[readme.index("The run loop"):].split("\n\n")[1].splitlines()
    assert [line.split(":")[0] for line in loop] == ["1. Render", "2. Run", "3. Save", "4. Run init", "5. Score"]
    commands = [next((part for part in line.split("`") if part.startswith("corpustools ")), "") for line in loop]
    prompt = f"c/{starter_prompt(kind)}"
    assert commands[0] == f"corpustools render c --all --out rendered --prompt {prompt}"
    # each command as printed, the model's part played by the gold answers
    assert run(capsys, *commands[0].split()[1:])[0] == 0
    suffix = ".txt" if kind == "text" else ".json"
    assert sorted(p.stem for p in (tmp_path / "rendered").iterdir()) == sorted(KIND_FIXTURES[kind])
    (tmp_path / "runs/run1").mkdir(parents=True)
    for gold in (tmp_path / "c/gold").iterdir():
        (tmp_path / "runs/run1" / gold.name).write_bytes(gold.read_bytes())
    init = commands[3].replace("MODEL", "m").replace("--temperature T", "--temperature 0")
    assert run(capsys, *init.split()[1:])[0] == 0
    score = commands[4].split()
    code, out, _ = run(capsys, *score[1:])
    assert code == 0 and out.splitlines()[-1].startswith(f"{len(KIND_FIXTURES[kind])}/{len(KIND_FIXTURES[kind])} "
                                                         "fixtures passed")
    assert f"runs/run1/<fixture_id>{suffix}" in readme
