"""`corpustools lint --fix`, `--diff` and `--unsafe-fixes` (issue 25), as a user sees them.

Every fixable rule: its defect is planted in a generated corpus (bench/corpusgen.py) whose files
also carry comments, `--fix` runs, the finding is gone and the file is byte for byte what it was
before the defect (or differs on the fixed line only, for a new session id): the diff is minimal
and every comment survives. `--diff` applied with `patch -p1` gives the `--fix` result; a corpus
with nothing to fix is byte-identical after `--fix`; a read-only tree gets every fix reported as
not written and exit 2.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.support.bench import lint_json, run_main, tree_digest, write_generated

REPO = Path(__file__).resolve().parent.parent
SIDECAR, SESSION, OTHER_SESSION = "expected/admit-gotcha-01.yaml", "sessions/admit-gotcha-01.md", "sessions/admit-gotcha-02.md"
SUMMARY = re.compile(r"^Fixed (\d+) findings? \((\d+) remaining\)\.$", re.MULTILINE)


def _commented(corpus: Path) -> None:
    """Comments a person would leave, in the files the planted defects go to: the base to return to."""
    sidecar = corpus / SIDECAR
    text = sidecar.read_text()
    text = text.replace("expected_points:\n", "# reviewed by hand\nexpected_points:  # one point\n", 1)
    first_term = re.search(r"^      - (\S+)$", text, re.MULTILINE)
    assert first_term is not None
    text = text.replace(first_term.group(0), first_term.group(0) + "   # the key term", 1)
    sidecar.write_text(text)
    session = corpus / SESSION
    session.write_text(session.read_text().replace("harness:", "# captured by hand\nharness:", 1))
    spec = corpus / "corpus.yaml"
    spec.write_text(spec.read_text().replace("corpus_version: 1", "corpus_version: 1  # bump on every edit", 1))


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    out = write_generated(tmp_path_factory.mktemp("generated"), 20)
    _commented(out / "corpus")
    return out


@pytest.fixture
def corpus(generated, tmp_path) -> Path:
    """A fresh copy of the commented generated corpus (with its prompt, KB and provenance record)."""
    shutil.copytree(generated, tmp_path / "out", symlinks=True)
    return tmp_path / "out" / "corpus"


def _first_term(text: str) -> str:
    found = re.search(r"^      - (\S+)   # the key term$", text, re.MULTILINE)
    assert found is not None
    return found.group(1)


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def _codes(corpus: Path) -> set[str]:
    _, diagnostics, _ = lint_json(str(corpus))
    return {d["code"] for d in diagnostics}


# Each planter breaks the commented corpus so that its rule fires, and returns the file the fix
# must restore byte for byte.
def _crlf(relative):
    def plant(corpus):
        path = corpus / relative
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
        return relative
    return plant


def _bom(relative):
    def plant(corpus):
        path = corpus / relative
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
        return relative
    return plant


plant_ct001_crlf, plant_ct001_bom = _crlf(SESSION), _bom(SESSION)
plant_ct002_crlf, plant_ct002_bom = _crlf(SIDECAR), _bom(SIDECAR)
plant_ct003_bom = _bom("corpus.yaml")


def plant_ct003_key(corpus):
    _replace(corpus / "corpus.yaml", "corpus_version:", "corpus_verison:")
    return "corpus.yaml"


def plant_ct004(corpus):
    _replace(corpus / SESSION, "session_id:", "sesion_id:")
    return SESSION


def plant_ct005(corpus):
    _replace(corpus / SIDECAR, "must_match_all:", "must_match:")
    return SIDECAR


def plant_ct203(corpus):
    _replace(corpus / SIDECAR, "fixture_id: admit-gotcha-01", "fixture_id: admit-gotcha-07")
    return SIDECAR


def plant_ct205(corpus):
    (corpus / SIDECAR).rename(corpus / SIDECAR.replace(".yaml", ".yml"))
    return SIDECAR


def plant_ct603(corpus):
    term = _first_term((corpus / SIDECAR).read_text())
    _replace(corpus / SIDECAR, f"- {term}   #", f"- {term.upper()}   #")
    return SIDECAR


def plant_ct606(corpus):
    term = _first_term((corpus / SIDECAR).read_text())
    _replace(corpus / SIDECAR, f"- {term}   # the key term\n", f"- {term}   # the key term\n      - '--'\n")
    return SIDECAR


def plant_ct608(corpus):
    term = _first_term((corpus / SIDECAR).read_text())
    _replace(corpus / SIDECAR, "max_unexpected_proposals:",
             f"    must_not_match:\n      - zephyrine\n      - {term}\nmax_unexpected_proposals:")
    return SIDECAR


def plant_ct613(corpus):
    term = _first_term((corpus / SIDECAR).read_text())
    _replace(corpus / SIDECAR, f"- {term}   #", f"- {term}'s   #")
    return SIDECAR


SAFE_CASES = {
    "CT001-crlf": ("CT001", plant_ct001_crlf), "CT001-bom": ("CT001", plant_ct001_bom),
    "CT002-crlf": ("CT002", plant_ct002_crlf), "CT002-bom": ("CT002", plant_ct002_bom),
    "CT003-bom": ("CT003", plant_ct003_bom), "CT203": ("CT203", plant_ct203), "CT205": ("CT205", plant_ct205),
    "CT603": ("CT603", plant_ct603), "CT613": ("CT613", plant_ct613),
}
UNSAFE_CASES = {
    "CT003-key": ("CT003", plant_ct003_key), "CT004": ("CT004", plant_ct004), "CT005": ("CT005", plant_ct005),
    "CT606": ("CT606", plant_ct606),
}


@pytest.mark.parametrize("case", sorted(SAFE_CASES))
def test_a_safe_fix_restores_the_file_byte_for_byte(corpus, case):
    code, plant = SAFE_CASES[case]
    before = tree_digest(corpus)
    relative = plant(corpus)
    assert code in _codes(corpus)

    status, out, err = run_main("lint", "--fix", str(corpus))

    assert code not in _codes(corpus), out + err
    assert tree_digest(corpus) == before, err  # the defect gone, nothing else touched: comments too
    assert f"{code} fixed: " in err and relative.split("/")[-1].split(".")[0] in err
    assert SUMMARY.search(out) and int(SUMMARY.search(out).group(1)) >= 1, out
    assert status == 0, out + err


@pytest.mark.parametrize("case", sorted(UNSAFE_CASES))
def test_an_unsafe_fix_runs_only_with_unsafe_fixes(corpus, case):
    code, plant = UNSAFE_CASES[case]
    before = tree_digest(corpus)
    plant(corpus)
    planted = tree_digest(corpus)

    status, out, err = run_main("lint", "--fix", str(corpus))
    assert tree_digest(corpus) == planted and code in _codes(corpus)
    assert "has an unsafe fix (add --unsafe-fixes to apply)" in err
    assert status == 1

    status, out, err = run_main("lint", "--fix", "--unsafe-fixes", str(corpus))
    assert code not in _codes(corpus), out + err
    assert tree_digest(corpus) == before, err
    assert f"{code} fixed (unsafe fix): " in err


def test_ct608_drops_the_conflicting_forbidden_term_and_only_its_line(corpus):
    base = (corpus / SIDECAR).read_text()
    plant_ct608(corpus)
    assert "CT608" in _codes(corpus)
    run_main("lint", "--fix", "--unsafe-fixes", "--select", "CT608", str(corpus))
    term = _first_term(base)
    assert (corpus / SIDECAR).read_text() == base.replace(
        "max_unexpected_proposals:", "    must_not_match:\n      - zephyrine\nmax_unexpected_proposals:")
    assert term not in (corpus / SIDECAR).read_text().split("must_not_match")[1]


def test_the_only_forbidden_term_leaves_an_empty_list_and_keeps_the_key_comment(corpus):
    term = _first_term((corpus / SIDECAR).read_text())
    _replace(corpus / SIDECAR, "max_unexpected_proposals:",
             f"    must_not_match:  # guards\n      - {term}\nmax_unexpected_proposals:")
    run_main("lint", "--fix", "--unsafe-fixes", "--select", "CT608", str(corpus))
    assert "    must_not_match: []  # guards\nmax_unexpected_proposals:" in (corpus / SIDECAR).read_text()
    assert "CT608" not in _codes(corpus) and "CT005" not in _codes(corpus)


def test_ct614_writes_the_term_as_the_entry_of_its_forms_and_only_that_line(corpus):
    """The plural as the term while the session also says the singular: the unsafe fix writes the
    entry listing both, keeping the line's comment; nothing else in the sidecar changes."""
    base = (corpus / SIDECAR).read_text()
    term = _first_term(base)
    _replace(corpus / SIDECAR, f"- {term}   #", f"- {term}s   #")
    session = corpus / SESSION
    session.write_text(session.read_text().rstrip("\n") + f" Stack the {term}s by the other {term}.\n")
    assert "CT614" in _codes(corpus)

    status, out, err = run_main("lint", "--fix", "--select", "CT614", str(corpus))
    assert "has an unsafe fix (add --unsafe-fixes to apply)" in err and "CT614" in _codes(corpus)

    status, out, err = run_main("lint", "--fix", "--unsafe-fixes", "--select", "CT614", str(corpus))
    assert (corpus / SIDECAR).read_text() == base.replace(f"- {term}   #", f"- [{term}s, {term}]   #")
    assert "CT614 fixed (unsafe fix): " in err and f"written as the entry [{term}s, {term}]" in err
    assert "CT614" not in _codes(corpus) and status == 0


@pytest.mark.parametrize("code", ["CT102", "CT103"])
def test_a_duplicated_or_counted_session_id_gets_a_new_random_uuid(corpus, code):
    session, other = corpus / SESSION, corpus / OTHER_SESSION
    base = session.read_text()
    old_id = re.search(r"^session_id: (\S+)$", base, re.MULTILINE).group(1)
    if code == "CT102":  # the second of two sessions sharing an id gets the new one
        kept = re.search(r"^session_id: (\S+)$", other.read_text(), re.MULTILINE).group(1)
        _replace(other, kept, old_id)
        changed, base_changed = other, other.read_text()
    else:
        _replace(session, old_id, "10000000-0000-4000-8000-000000000001")
        changed, base_changed = session, session.read_text()
    assert code in _codes(corpus)

    status, out, err = run_main("lint", "--fix", "--unsafe-fixes", "--select", code, str(corpus))

    assert code not in _codes(corpus), err
    lines_before, lines_after = base_changed.split("\n"), changed.read_text().split("\n")
    differing = [i for i, (a, b) in enumerate(zip(lines_before, lines_after, strict=True)) if a != b]
    assert len(differing) == 1 and lines_after[differing[0]].startswith("session_id: ")
    new_id = lines_after[differing[0]].removeprefix("session_id: ")
    assert uuid.UUID(new_id).version == 4 and new_id == new_id.lower()
    assert "identity changed" in err and "provenance record drifts" in err
    if code == "CT102":
        assert session.read_text() == base  # the first keeps its id


def test_a_fix_uncovers_the_next_one_in_a_later_pass(corpus):
    # A CRLF sidecar does not parse, so its capital term is found only once the line endings are fixed.
    base = (corpus / SIDECAR).read_bytes()
    plant_ct603(corpus)
    plant_ct002_crlf(corpus)
    assert "CT603" not in _codes(corpus)
    status, out, err = run_main("lint", "--fix", str(corpus))
    assert (corpus / SIDECAR).read_bytes() == base
    assert "CT002 fixed" in err and "CT603 fixed" in err
    assert SUMMARY.search(out).group(1) == "2"


def test_diff_writes_nothing_and_applies_with_patch_to_give_the_fix_result(corpus, tmp_path):
    if shutil.which("patch") is None:
        pytest.skip("patch is not installed")
    for plant in (plant_ct603, plant_ct002_bom, plant_ct203, plant_ct001_crlf):
        plant(corpus)
    plant_ct205(corpus)  # after the others: it renames the sidecar they broke
    copies = {name: tmp_path / name for name in ("diffed", "fixed")}
    for copy in copies.values():
        shutil.copytree(corpus.parent, copy, symlinks=True)
    planted = tree_digest(corpus.parent)

    cwd = os.getcwd()
    try:
        os.chdir(copies["diffed"])  # no .git above tmp_path: paths are relative to the working folder
        status, diff, err = run_main("lint", "--diff", "corpus")
    finally:
        os.chdir(cwd)
    assert status == 1 and "Would fix 5 findings." in err
    assert tree_digest(copies["diffed"]) == planted  # --diff wrote nothing
    assert "diff --git a/corpus/expected/admit-gotcha-01.yml b/corpus/expected/admit-gotcha-01.yaml\n" in diff
    assert "rename from corpus/expected/admit-gotcha-01.yml\n" in diff

    applied = subprocess.run(["patch", "-p1", "--batch"], input=diff.encode(), cwd=copies["diffed"],
                             capture_output=True, timeout=60)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    status, out, err = run_main("lint", "--fix", str(copies["fixed"] / "corpus"))
    assert tree_digest(copies["diffed"]) == tree_digest(copies["fixed"]) != planted
    assert run_main("lint", "--diff", str(copies["fixed"] / "corpus"))[:2] == (0, "")


def test_diff_paths_are_relative_to_the_repository_root(corpus):
    (corpus.parent / ".git").mkdir()  # the root of a repository holding the corpus
    plant_ct603(corpus)
    cwd = os.getcwd()
    try:
        os.chdir(corpus / "expected")
        status, diff, _ = run_main("lint", "--diff", "..")
    finally:
        os.chdir(cwd)
    assert status == 1
    assert diff.startswith(f"diff --git a/corpus/{SIDECAR} b/corpus/{SIDECAR}\n--- a/corpus/{SIDECAR}\n"), diff


def test_fix_respects_select_ignore_and_the_corpus_configuration(corpus):
    plant_ct603(corpus)
    plant_ct203(corpus)
    planted = (corpus / SIDECAR).read_text()
    run_main("lint", "--fix", "--ignore", "CT603,CT203", str(corpus))
    assert (corpus / SIDECAR).read_text() == planted
    run_main("lint", "--fix", "--select", "CT203", str(corpus))
    assert {"CT603"} <= _codes(corpus) and "CT203" not in _codes(corpus)

    _replace(corpus / "corpus.yaml", "lint:\n", "lint:\n  ignore: [term-case]\n")
    status, out, err = run_main("lint", "--fix", str(corpus))
    assert "CT603" not in err and re.search(r"[A-Z]{3}", (corpus / SIDECAR).read_text().split("must_match_all")[1])
    _replace(corpus / "corpus.yaml", "  ignore: [term-case]\n",
             f"  per_file_ignores:\n    - files: [{SIDECAR}]\n      codes: [CT603]\n      reason: case matters here\n")
    status, out, err = run_main("lint", "--fix", str(corpus))
    assert "CT603" not in err and re.search(r"[A-Z]{3}", (corpus / SIDECAR).read_text().split("must_match_all")[1])


def test_a_path_inside_the_corpus_fixes_only_that_path(corpus):
    plant_ct603(corpus)
    other = corpus / "expected" / "admit-gotcha-02.yaml"
    _replace(other, "must_match_all:\n      - ", "must_match_all:\n      - X")
    planted_other = other.read_text()
    run_main("lint", "--fix", str(corpus / SIDECAR))
    assert other.read_text() == planted_other and "CT603" in _codes(corpus)
    assert not re.search(r"- [A-Z]+   #", (corpus / SIDECAR).read_text())


def test_a_fix_that_cannot_be_made_safely_is_skipped_with_one_line(corpus):
    plant_ct205(corpus)
    (corpus / SIDECAR).write_text((corpus / SIDECAR.replace(".yaml", ".yml")).read_text())  # the target exists
    text = (corpus / SIDECAR).read_text()
    terms = re.search(r"    must_match_all:\n(      - .*\n)+", text)
    (corpus / SIDECAR).write_text(text.replace(terms.group(0), "    must_match_all:\n      - '--'\n"))
    planted = tree_digest(corpus)

    status, out, err = run_main("lint", "--fix", "--unsafe-fixes", str(corpus))

    assert tree_digest(corpus) == planted
    skipped = [line for line in err.splitlines() if " fix skipped: " in line]
    assert f"corpus/{SIDECAR.replace('.yaml', '.yml')}:1:1: CT205 fix skipped: admit-gotcha-01.yaml exists; merge " \
           "the two by hand" in "\n".join(skipped)
    assert "CT606 fix skipped: '--' is its point's only must_match_all term; rewrite the point by hand" in err
    assert len(skipped) == 2, err
    assert status == 1 and SUMMARY.search(out).group(1) == "0"


@pytest.mark.parametrize("which", ["shipped", "scaffold", "generated"])
def test_a_corpus_with_nothing_to_fix_is_byte_identical(which, tmp_path):
    if which == "shipped":
        root = tmp_path / "fixtures" / "prompt-eval"
        shutil.copytree(REPO / "fixtures" / "prompt-eval", root)
        shutil.copytree(REPO / "authoring", tmp_path / "authoring")
    elif which == "scaffold":
        root = tmp_path / "new"
        assert run_main("init", str(root))[0] == 0
    else:
        root = write_generated(tmp_path / "out", 20) / "corpus"
    before = tree_digest(tmp_path)
    status, out, err = run_main("lint", "--fix", "--unsafe-fixes", str(root))
    assert (status, err) == (0, "")
    assert out.endswith("Fixed 0 findings (0 remaining).\n")
    assert tree_digest(tmp_path) == before
    assert run_main("lint", "--diff", "--unsafe-fixes", str(root)) == (0, "", "Would fix 0 findings.\n")


def test_option_misuse_is_a_usage_error(corpus):
    assert run_main("lint", "--unsafe-fixes", str(corpus))[0] == 2
    status, _, err = run_main("lint", "--diff", "--format", "json", str(corpus))
    assert status == 2 and "--diff prints a unified diff" in err


def test_fix_reports_remaining_findings_in_the_chosen_format(corpus):
    import json

    plant_ct603(corpus)
    status, out, err = run_main("lint", "--fix", "--format", "json", str(corpus))
    remaining = json.loads(out)
    assert all(d["code"] != "CT603" for d in remaining)
    assert f"Fixed 1 finding ({len(remaining)} remaining).\n" in err  # one finding: singular


def _read_only_run(top: Path, corpus: Path) -> subprocess.CompletedProcess:
    """--fix on a tree nobody may write: mode bits for a user; for root (who ignores them), `top`
    bind-mounted read-only in a private mount namespace."""
    command = [sys.executable, "-m", "corpustools", "lint", "--fix", str(corpus)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if os.geteuid() != 0:
        for folder, _, files in os.walk(top):
            for name in files:
                os.chmod(os.path.join(folder, name), 0o444)
            os.chmod(folder, 0o555)
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    if shutil.which("unshare") is None:
        pytest.skip("running as root without unshare: cannot make a read-only tree")
    probe = subprocess.run(["unshare", "-m", "mount", "--bind", "-o", "ro", str(top), str(top)], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("running as root without a private mount namespace: cannot make a read-only tree")
    script = 'mount --bind -o ro "$0" "$0" && exec "$@"'
    return subprocess.run(["unshare", "-m", "sh", "-c", script, str(top), *command], capture_output=True, text=True,
                          env=env, timeout=120)


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_fix_on_a_read_only_tree_writes_nothing_and_exits_2(generated):
    import tempfile

    top = Path(tempfile.mkdtemp(prefix="corpustools-readonly-"))
    try:
        shutil.copytree(generated, top / "out")
        corpus = top / "out" / "corpus"
        for planter in (plant_ct603, plant_ct203, plant_ct001_crlf):
            planter(corpus)
        planted = tree_digest(corpus)

        result = _read_only_run(top, corpus)

        assert result.returncode == 2, result.stdout + result.stderr
        not_written = [line for line in result.stderr.splitlines() if " fix not written: " in line]
        assert len(not_written) == 3, result.stderr
        # a file without write permission is refused by its mode (a user's run); a read-only mount
        # fails the write itself (root's run)
        assert all(re.search(r"cannot write|cannot rename|is read-only; not (replaced|renamed)", line)
                   for line in not_written), result.stderr
        assert "Fixed 0 findings (" in result.stdout
        assert tree_digest(corpus) == planted
    finally:
        for folder, _, _ in os.walk(top):
            os.chmod(folder, 0o755)
        shutil.rmtree(top)


def test_lint_never_imports_ruamel_yaml_and_fix_does(corpus):
    probe = ("import sys\nfrom corpustools.cli import main\ncode = main(sys.argv[1:])\n"
             "print('ruamel' in ' '.join(sys.modules), code)")
    plant_ct603(corpus)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    imported = subprocess.run([sys.executable, "-c", "import sys, corpustools.lint; print('ruamel' in ' '.join(sys.modules))"],
                              capture_output=True, text=True, env=env, timeout=120)
    assert imported.stdout.strip() == "False", imported.stderr
    plain = subprocess.run([sys.executable, "-c", probe, "lint", str(corpus)], capture_output=True, text=True,
                           env=env, timeout=120)
    assert plain.stdout.strip().splitlines()[-1] == "False 1", plain.stderr
    fixed = subprocess.run([sys.executable, "-c", probe, "lint", "--fix", str(corpus)], capture_output=True,
                           text=True, env=env, timeout=120)
    assert fixed.stdout.strip().splitlines()[-1] == "True 0", fixed.stderr


def test_the_readme_fix_commands_run_as_written(tmp_path):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Fixing findings", 1)[1].split("\n## ", 1)[0]
    commands = [line.split("#", 1)[0].split() for line in re.findall(r"```sh\n(.+?)\n```", section, re.S)[0].splitlines()]
    assert [c[:3] for c in commands] == [["corpustools", "lint", "--diff"], ["corpustools", "lint", "--fix"],
                                         ["corpustools", "lint", "--fix"]]
    shutil.copytree(REPO / "fixtures" / "prompt-eval", tmp_path / "fixtures" / "prompt-eval")
    shutil.copytree(REPO / "authoring", tmp_path / "authoring")
    before = tree_digest(tmp_path)
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        results = [run_main(*command[1:]) for command in commands]
    finally:
        os.chdir(cwd)
    assert [status for status, _, _ in results] == [0, 0, 0]  # the shipped corpus has nothing to fix
    assert results[0][2] == "Would fix 0 findings.\n" and results[1][1].endswith("Fixed 0 findings (0 remaining).\n")
    assert tree_digest(tmp_path) == before


def test_every_fix_a_rule_declares_has_its_planted_defect_test_here():
    from corpustools.lint import rule_modules
    from corpustools.lint.fixes import rule_fixes

    declared = {(rule.CODE, fix.safe) for rule in rule_modules() for fix in rule_fixes(rule)}
    tested = ({(code, True) for code, _ in SAFE_CASES.values()} | {(code, False) for code, _ in UNSAFE_CASES.values()}
              | {("CT608", False), ("CT102", False), ("CT103", False), ("CT614", False)})  # their own tests above
    assert declared == tested
    docs = (REPO / "docs" / "lint-rules.md").read_text(encoding="utf-8")
    assert "| [CT603](#ct603-term-case) | term-case | error | safe |" in docs
    assert "| [CT102](#ct102-uuid-duplicate) | uuid-duplicate | error | unsafe |" in docs
