"""`lint --format sarif` and `--format github` as code scanning and GitHub Actions read them: valid
SARIF 2.1.0, paths relative to the repository root (not to where lint ran), each rule's long help
once, and nothing that depends on the machine (no absolute path).

tests/data/sarif-schema-2.1.0.json is the OASIS SARIF 2.1.0 schema (errata01, draft-04), vendored
so the test runs offline.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from corpustools.cli import main
from corpustools.io.paths import repository_root
from corpustools.lint.registry import rule_modules
from corpustools.lint.ruledoc import rule_body
from corpustools.lint.secrets.redaction import redact_secrets

SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"


def lint(capsys, *argv) -> tuple[int, str]:
    code = main(["lint", *map(str, argv)])
    return code, capsys.readouterr().out


def without_a_sidecar(root: Path) -> str:
    """Delete one sidecar (CT201 at its session, 1:1); -> the session's path relative to `root`."""
    sidecar = sorted((root / "expected").glob("*.yaml"))[0]
    sidecar.unlink()
    return f"sessions/{sidecar.stem}.md"


def sarif_uris(out: str) -> list[tuple[str, str]]:
    results = json.loads(out)["runs"][0]["results"]
    return [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"]) for r in results]


def assert_valid_sarif(out: str) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(json.loads(out)), key=str)
    assert not errors, errors[0].message


def test_sarif_paths_are_relative_to_the_repository_root_wherever_lint_runs(make_corpus, tmp_path, capsys,
                                                                            monkeypatch):
    (tmp_path / ".git").mkdir()
    session = without_a_sidecar(make_corpus(name="fixtures/tiny"))
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path / "docs")
    code, out = lint(capsys, "../fixtures/tiny", "--format", "sarif")
    assert code == 1
    assert sarif_uris(out) == [(f"fixtures/tiny/{session}", "%SRCROOT%")]
    assert str(tmp_path) not in out  # the same log on every machine
    assert json.loads(out)["runs"][0]["originalUriBaseIds"] == {"%SRCROOT%": {"description": {"text": (
        "The repository root: the nearest folder holding .git, at or above the folder corpustools lint "
        "ran in (that folder itself outside a repository).")}}}
    assert_valid_sarif(out)
    monkeypatch.chdir(tmp_path / "fixtures" / "tiny" / "sessions")
    assert sarif_uris(lint(capsys, "..", "--format", "sarif")[1]) == [(f"fixtures/tiny/{session}", "%SRCROOT%")]


def test_github_annotations_name_files_from_the_repository_root_and_text_keeps_its_paths(
        make_corpus, tmp_path, capsys, monkeypatch):
    (tmp_path / ".git").write_text("gitdir: /elsewhere/.git/worktrees/x\n")  # a worktree's .git is a file
    session = without_a_sidecar(make_corpus(name="fixtures/tiny"))
    monkeypatch.chdir(tmp_path / "fixtures")
    out = lint(capsys, "tiny", "--format", "github")[1]
    assert out.startswith(f"::error file=fixtures/tiny/{session},line=1,col=1,title=CT201 sidecar-missing::")
    assert lint(capsys, "tiny", "-q")[1].startswith(f"tiny/{session}:1:1: CT201 [error]")
    assert json.loads(lint(capsys, "tiny", "--format", "json")[1])[0]["path"] == f"tiny/{session}"


def test_outside_a_repository_paths_are_relative_to_the_working_folder(make_corpus, tmp_path, capsys,
                                                                       monkeypatch):
    assert repository_root(str(tmp_path)) == str(tmp_path)  # no .git above pytest's temporary folder
    session = without_a_sidecar(make_corpus(name="corpus"))
    monkeypatch.chdir(tmp_path)
    assert sarif_uris(lint(capsys, "corpus", "--format", "sarif")[1]) == [(f"corpus/{session}", "%SRCROOT%")]


def test_a_corpus_outside_the_repository_keeps_its_dot_dot_path(make_corpus, tmp_path, capsys, monkeypatch):
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    session = without_a_sidecar(make_corpus(name="other"))
    monkeypatch.chdir(tmp_path / "repo")
    out = lint(capsys, "../other", "--format", "sarif")[1]
    assert sarif_uris(out) == [(f"../other/{session}", "%SRCROOT%")]
    assert_valid_sarif(out)
    assert lint(capsys, "../other", "--format", "github")[1].startswith(f"::error file=../other/{session},")


def test_sarif_uris_are_percent_encoded(make_corpus, tmp_path, capsys, monkeypatch):
    session = without_a_sidecar(make_corpus(name="my corpus #1 \u00fc"))
    monkeypatch.chdir(tmp_path)
    out = lint(capsys, "my corpus #1 \u00fc", "--format", "sarif")[1]
    assert sarif_uris(out) == [(f"my%20corpus%20%231%20%C3%BC/{session}", "%SRCROOT%")]
    assert_valid_sarif(out)


def test_each_rules_long_help_appears_once_and_the_log_is_valid(make_corpus, tmp_path, capsys, monkeypatch):
    make_corpus(name="clean")
    monkeypatch.chdir(tmp_path)
    code, out = lint(capsys, "clean", "--format", "sarif")
    assert code == 0
    assert_valid_sarif(out)
    rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.CODE for r in rule_modules()]
    for module, rule in zip(rule_modules(), rules, strict=True):
        assert rule["help"]["markdown"] == redact_secrets(rule_body(module))  # an example key is cut too
        assert out.count(json.dumps(redact_secrets(rule_body(module)), ensure_ascii=False)) == 1, module.CODE
        assert rule["help"]["text"] == f"corpustools lint --explain {module.CODE}"
        assert rule["shortDescription"] == rule["fullDescription"]


@pytest.mark.parametrize("path, root", [("a/b/c", "a"), ("a/b", "a"), ("x/y", "x/y")])
def test_repository_root_is_the_nearest_folder_holding_dot_git(tmp_path, path, root):
    (tmp_path / path).mkdir(parents=True)
    (tmp_path / "a" / ".git").mkdir(parents=True)
    assert repository_root(str(tmp_path / path)) == str(tmp_path / root)
