"""The layers of docs/architecture.md, held by the package's own imports (read with ast, not run).

    cli, __main__        may import anything
    commands/            io, model, features; lint only through `corpustools.lint` (its
                         __init__), score and calibrate only through their entry modules
    features             io, model, other features: lint/, score/, calibrate/, render, manifest,
                         provenance, validation, scaffold
    model/               io and model only
    io/                  io only

A module anywhere may read `corpustools.__version__`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import corpustools

PACKAGE = Path(corpustools.__file__).parent

LOWER = {
    "io": {"io"},
    "model": {"io", "model"},
    "feature": {"io", "model", "feature"},
    "commands": {"io", "model", "feature", "commands"},
}
# What commands/ may import from the feature packages: lint's public API (corpustools/lint/__init__)
# and, for score and calibrate, the modules that run them and format their reports. Their
# matching, aggregation, evidence and page-building modules stay internal.
COMMAND_API = {
    "lint": {"corpustools.lint"},
    "score": {f"corpustools.score.{name}" for name in (
        "scoring", "compare", "history", "thresholds", "report.json", "report.markdown", "report.text",
        "report.html", "report.compare.markdown", "report.compare.text", "report.compare.html", "report.compare.json")},
    "calibrate": {f"corpustools.calibrate.{name}" for name in (
        "calibration", "worksheet", "report.markdown", "report.text", "report.json", "report.html")},
}


def layer(top: str) -> str:
    """The layer of a top-level name of the package (`io`, `lint`, `cli.py` without `.py`)."""
    if top in ("io", "model", "commands"):
        return top
    if top in ("cli", "__main__"):
        return "cli"
    return "feature"


def imported_modules(source: str) -> list[tuple[int, str]]:
    """(line, dotted name) of every corpustools module or name `source` imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name.startswith("corpustools")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "corpustools":
            if node.module == "corpustools":  # from corpustools import lint, __version__
                found += [(node.lineno, f"corpustools.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, node.module))
    return found


def violations(relative: str, source: str) -> list[str]:
    """Each import of the module at `relative` (a POSIX path under corpustools/) that breaks a layer."""
    importer = layer(relative.split("/")[0].removesuffix(".py"))
    if importer == "cli":
        return []
    found = []
    for line, name in imported_modules(source):
        parts = name.split(".")
        if len(parts) < 2 or parts[1] == "__version__":
            continue
        target = layer(parts[1])
        where = f"corpustools/{relative}:{line}: {importer} imports {name}"
        if target not in LOWER[importer]:
            found.append(f"{where} ({importer} may import only {', '.join(sorted(LOWER[importer]))})")
        elif importer == "commands" and parts[1] in COMMAND_API and name not in COMMAND_API[parts[1]]:
            found.append(f"{where}, an internal module of {parts[1]} (commands use its public API)")
    return found


def test_every_import_keeps_to_the_layers():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += violations(path.relative_to(PACKAGE).as_posix(), path.read_text(encoding="utf-8"))
    assert found == []


def test_the_layers_are_folders_a_newcomer_sees():
    assert {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()} >= {
        "io", "model", "lint", "score", "calibrate", "commands", "schemas"}


def test_a_lower_layer_importing_a_higher_one_is_named():
    assert violations("io/writing.py", "from corpustools.model.corpus import GOLD_DIR\n") == [
        "corpustools/io/writing.py:1: io imports corpustools.model.corpus (io may import only io)"]
    assert violations("model/spec.py", "import corpustools.score.match\n") == [
        "corpustools/model/spec.py:1: model imports corpustools.score.match (model may import only io, model)"]
    assert violations("render.py", "from corpustools import cli\n") == [
        "corpustools/render.py:1: feature imports corpustools.cli (feature may import only feature, io, model)"]
    assert violations("lint/engine.py", "from corpustools.commands.options import add_report_options\n") != []


def test_commands_reach_lint_score_and_calibrate_only_through_their_public_api():
    assert violations("commands/lint.py", "from corpustools.lint.engine import lint_paths\n") == [
        "corpustools/commands/lint.py:1: commands imports corpustools.lint.engine, an internal module of "
        "lint (commands use its public API)"]
    assert violations("commands/score.py", "from corpustools.score.match import score_fixture\n") != []
    assert violations("commands/lint.py", "from corpustools import lint\nfrom corpustools.lint import Selection\n"
                      "from corpustools.score.scoring import open_corpus\nfrom corpustools import __version__\n") == []


def test_the_top_of_the_tree_may_import_anything():
    assert violations("cli.py", "from corpustools.lint.engine import lint_paths\n") == []
