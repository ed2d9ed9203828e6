"""The layers of docs/architecture.md, held by the package's own imports (read with ast, not run).

    cli, __main__        may import anything
    commands/            parse, call, print: corpustools.api, commands/options, io.errors (to raise),
                         and io.positions.printable and io.writing's emit, say_wrote and
                         STANDARD_OUTPUT (to print); no feature, no model, nothing else of io
    api                  io, model and the features; a package or module that declares `__all__`
                         (its public API) only through the names there: `from corpustools.score
                         import score_report`, `corpustools.score.report` (score's `__all__` names
                         `report`), `lint.lint_paths` after `from corpustools import lint`
    features             io, model, other features: lint/, score/, calibrate/, reporting/, render,
                         manifest, provenance, validation, scaffold; never another feature's
                         `report/` (a family's reports are for commands and api)
    model/               io and model only
    io/                  io only

Every public package declares `__all__`: the package root, io, model and each feature package, and
every subpackage a public `__all__` names. A module anywhere may read `corpustools.__version__`.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import corpustools
from tests.support.recipes import COMMAND, FORMAT

PACKAGE = Path(corpustools.__file__).parent
FEATURE_PACKAGES = ("lint", "score", "calibrate", "reporting", "interop", "provenance", "validation")
# every top-level module but the entry points and the API is a feature (docs/architecture.md)
FEATURE_MODULES = tuple(sorted(path.stem for path in PACKAGE.glob("*.py")
                               if path.stem not in ("__init__", "__main__", "cli", "api")))
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"

LOWER = {
    "io": {"io"},
    "model": {"io", "model"},
    "feature": {"io", "model", "feature"},
    "commands": {"api", "io", "commands"},
    "api": {"io", "model", "feature"},
}
# What a command may import of io: how it raises (any error) and how it prints (these names only).
COMMAND_IO = {"corpustools.io.errors": None, "corpustools.io.positions": {"printable"},
              "corpustools.io.writing": {"emit", "say_wrote", "STANDARD_OUTPUT"}}
COMMAND_CHECKLIST = """A command parses, calls corpustools.api and prints (docs/architecture.md, "The layers"):
  - parse with argparse and commands/options.py; raise corpustools.io.errors for bad usage;
  - call corpustools.api for everything else: reading, scoring, writing a corpus's or a run's files,
    --format's choices (api.formatters(family)) and the report's text (api.format_report);
  - print what it returns with io.positions.printable, and io.writing's emit (standard output or
    --output), say_wrote and STANDARD_OUTPUT.
  What the command needs that the API lacks becomes a function of corpustools/api.py (calling the
  feature through its __all__, in __all__ there, documented in docs/python-api.md's "What the
  command line calls"), never an import of the feature in commands/."""
CHECKLIST = """Where a module may import from (docs/architecture.md, "The layers"):
  - io/ imports only io; model/ only io and model; a feature io, model and other features (never
    another feature's report/ subpackage);
  - commands/ and api.py reach a package or module that declares __all__ only through the names
    in it: add the name to that __all__ (and to docs/python-api.md when api exports it), or import
    what the package exports instead of its internal module."""


def layer(top: str) -> str:
    """The layer of a top-level name of the package (`io`, `lint`, `cli.py` without `.py`)."""
    if top in ("io", "model", "commands", "api"):
        return top
    if top in ("cli", "__main__"):
        return "cli"
    return "feature"


def public_names(dotted: str) -> list[str] | None:
    """The `__all__` of the corpustools module or package `dotted`; None when it declares none."""
    names = getattr(importlib.import_module(dotted), "__all__", None)
    return None if names is None else list(names)


def imported(source: str) -> list[tuple[int, str, str | None]]:
    """(line, dotted module, name imported from it or None) of every corpustools import in `source`;
    `from corpustools import lint` is (line, "corpustools.lint", None)."""
    found: list[tuple[int, str, str | None]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, None) for alias in node.names if alias.name.startswith("corpustools")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "corpustools":
            if node.module == "corpustools":
                found += [(node.lineno, f"corpustools.{alias.name}", None) for alias in node.names]
            else:
                found += [(node.lineno, node.module, alias.name) for alias in node.names]
    return found


def attribute_uses(source: str) -> list[tuple[int, str, str]]:
    """(line, dotted module, attribute) for `lint.X` where `from corpustools import lint` bound `lint`."""
    tree = ast.parse(source)
    bound = {alias.asname or alias.name: f"corpustools.{alias.name}" for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.module == "corpustools" for alias in node.names}
    return [(node.lineno, bound[node.value.id], node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound]


def outside_public_api(dotted: str, name: str | None) -> str | None:
    """Why importing `name` from `dotted` (or `dotted` itself) is not through a public API, or None.
    Each package on the way down must name the next part in its `__all__`, and `name` must be in
    the `__all__` of `dotted` when it declares one (a submodule of it counts as named there)."""
    parts = dotted.split(".")
    for depth in range(2, len(parts) + 1):
        parent, child = ".".join(parts[:depth - 1]), parts[depth - 1]
        listed = public_names(parent)
        if depth > 2 and listed is not None and child not in listed:
            return f"{parent}.__all__ does not name {child}"
    listed = public_names(dotted) if name is not None else None
    if listed is not None and name not in listed and name != "__version__":
        return f"{dotted}.__all__ does not name {name}"
    return None


def violations(relative: str, source: str) -> list[str]:
    """Each import of the module at `relative` (a POSIX path under corpustools/) that breaks a layer."""
    importer = layer(relative.split("/")[0].removesuffix(".py"))
    if importer == "cli":
        return []
    own = relative.split("/")[0]
    found = []
    for line, dotted, name in imported(source):
        parts = dotted.split(".")
        if len(parts) < 2 or parts[1] == "__version__":
            continue
        target = layer(parts[1])
        where = f"corpustools/{relative}:{line}: {importer} imports {dotted}" + (f".{name}" if name else "")
        if target not in LOWER[importer]:
            found.append(f"{where} ({importer} may import only {', '.join(sorted(LOWER[importer]))})")
        elif importer == "commands" and target == "io" and not _printing(dotted, name):
            found.append(f"{where} (a command imports of io only errors, positions.printable and writing's "
                         "emit, say_wrote and STANDARD_OUTPUT)")
        elif importer in ("commands", "api") and target == "feature":
            why = outside_public_api(dotted, name)
            if why:
                found.append(f"{where}: not its public API ({why})")
        elif importer == "feature" and parts[1] != own and "report" in parts[2:]:
            found.append(f"{where}: another feature's report (reports are for commands and api)")
    if importer in ("commands", "api"):
        for line, dotted, attribute in attribute_uses(source):
            listed = public_names(dotted) if layer(dotted.split(".")[1]) == "feature" else None
            if listed is not None and attribute not in listed:
                found.append(f"corpustools/{relative}:{line}: {importer} uses {dotted}.{attribute}: not its public "
                             f"API ({dotted}.__all__ does not name {attribute})")
    return found


def _printing(dotted: str, name: str | None) -> bool:
    """Whether a command may import `name` from the io module `dotted` (COMMAND_IO)."""
    if dotted not in COMMAND_IO:
        return False
    allowed = COMMAND_IO[dotted]
    return allowed is None or name in allowed


def test_every_import_keeps_to_the_layers():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += violations(path.relative_to(PACKAGE).as_posix(), path.read_text(encoding="utf-8"))
    by_commands = [line for line in found if line.startswith("corpustools/commands/")]
    assert found == [], "\n".join(found + [CHECKLIST] + ([COMMAND_CHECKLIST, COMMAND] if by_commands else []))


def test_a_command_that_reaches_past_the_api_is_named():
    """Commands parse, call corpustools.api and print: a feature, the model or io's other modules are the API's."""
    assert violations("commands/lint.py", "from corpustools.lint import lint_paths\n") == [
        "corpustools/commands/lint.py:1: commands imports corpustools.lint.lint_paths (commands may import only api, "
        "commands, io)"]
    assert violations("commands/run.py", "from corpustools.model.corpus import require_corpus\n") != []
    assert violations("commands/adjudicate.py", "from corpustools.io.writing import write_text\n") == [
        "corpustools/commands/adjudicate.py:1: commands imports corpustools.io.writing.write_text (a command imports "
        "of io only errors, positions.printable and writing's emit, say_wrote and STANDARD_OUTPUT)"]
    assert violations("commands/score.py", "from corpustools import api\nfrom corpustools.io.errors import UsageError\n"
                      "from corpustools.io.writing import emit, say_wrote\nfrom corpustools.io.positions import "
                      "printable\nfrom corpustools.commands.options import path\n") == []


def unnamed_features(diagram: str, packages: tuple[str, ...], modules: tuple[str, ...]) -> list[str]:
    """The feature packages (`lint/`) and modules (`render`) the layer diagram does not name."""
    words = set(re.findall(r"[a-z_]+/?", diagram))
    return ([f"corpustools/{name}/ is not in docs/architecture.md's layer diagram" for name in packages
             if f"{name}/" not in words]
            + [f"corpustools/{name}.py is not in docs/architecture.md's layer diagram" for name in modules
               if name not in words])


def test_the_layer_diagram_names_every_feature():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    diagram = text[text.index("## The layers"):].split("```")[1]
    packages = tuple(sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()
                            and layer(p.name) == "feature" and p.name not in ("schemas", "new_corpus")))
    assert set(FEATURE_PACKAGES) <= set(packages)
    gaps = unnamed_features(diagram, packages, FEATURE_MODULES)
    assert gaps == [], "\n".join(gaps + [COMMAND])


def test_a_feature_left_out_of_the_diagram_is_named_with_the_recipe():
    assert unnamed_features("features  lint/  render", ("lint", "score"), ("render", "stats")) == [
        "corpustools/score/ is not in docs/architecture.md's layer diagram",
        "corpustools/stats.py is not in docs/architecture.md's layer diagram"]


def test_the_layers_are_folders_a_newcomer_sees():
    assert {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()} >= {
        "io", "model", "lint", "score", "calibrate", "reporting", "commands", "schemas"}


def test_every_public_package_declares_its_public_api():
    """The root, io, model and every feature package declare `__all__`, and so does every
    subpackage one of them names; every name listed is there."""
    public = ["corpustools", "corpustools.api", "corpustools.io", "corpustools.model",
              *(f"corpustools.{name}" for name in FEATURE_PACKAGES + FEATURE_MODULES)]
    missing, absent, seen = [], [], set()
    while public:
        dotted = public.pop()
        if dotted in seen:
            continue
        seen.add(dotted)
        module = importlib.import_module(dotted)
        names = public_names(dotted)
        if names is None:
            missing.append(dotted)
            continue
        for name in names:
            if not hasattr(module, name):
                try:
                    importlib.import_module(f"{dotted}.{name}")
                except ModuleNotFoundError:
                    absent.append(f"{dotted}.{name}")
                    continue
            if hasattr(module, "__path__") and (Path(module.__path__[0]) / name / "__init__.py").is_file():
                public.append(f"{dotted}.{name}")
    assert (missing, absent) == ([], []), "\n".join(
        [f"{name} declares no __all__" for name in missing] + [f"{name} is in an __all__ but not there" for name in absent]
        + [CHECKLIST])
    assert {"corpustools.score.report", "corpustools.score.report.compare", "corpustools.calibrate.report"} <= seen


def test_a_lower_layer_importing_a_higher_one_is_named():
    assert violations("io/writing.py", "from corpustools.model.corpus import GOLD_DIR\n") == [
        "corpustools/io/writing.py:1: io imports corpustools.model.corpus.GOLD_DIR (io may import only io)"]
    assert violations("model/spec.py", "import corpustools.score.match\n") == [
        "corpustools/model/spec.py:1: model imports corpustools.score.match (model may import only io, model)"]
    assert violations("render.py", "from corpustools import cli\n") == [
        "corpustools/render.py:1: feature imports corpustools.cli (feature may import only feature, io, model)"]
    assert violations("lint/engine.py", "from corpustools.commands.options import add_report_options\n") != []
    assert violations("api.py", "from corpustools.commands import lint\n") != []


def test_the_api_reaches_a_feature_only_through_its_public_api():
    assert violations("api.py", "from corpustools.lint.engine import lint_paths\n") == [
        "corpustools/api.py:1: api imports corpustools.lint.engine.lint_paths: not its public API "
        "(corpustools.lint.__all__ does not name engine)"]
    assert violations("api.py", "from corpustools.score.match import score_fixture\n") != []
    assert violations("api.py", "from corpustools.score import point_score\n") == [
        "corpustools/api.py:1: api imports corpustools.score.point_score: not its public API "
        "(corpustools.score.__all__ does not name point_score)"]
    assert violations("api.py", "from corpustools import lint\nlint.kept_problems()\n") == [
        "corpustools/api.py:2: api uses corpustools.lint.kept_problems: not its public API "
        "(corpustools.lint.__all__ does not name kept_problems)"]
    assert violations("api.py", "from corpustools import lint\nfrom corpustools.lint import Selection\n"
                      "from corpustools.score import open_corpus\nfrom corpustools.score.report import FORMATTERS\n"
                      "from corpustools import __version__\nlint.lint_paths()\n") == []


def test_a_feature_never_reaches_into_another_features_reports():
    assert violations("calibrate/report/html.py", "from corpustools.score.report.html import corpus_header\n") != []
    assert violations("calibrate/report/html.py", "from corpustools.reporting.page import page\n") == []
    assert violations("score/report/compare/text.py", "from corpustools.score.report.text import run_summary\n") == []


def test_the_top_of_the_tree_may_import_anything():
    assert violations("cli.py", "from corpustools.lint.engine import lint_paths\n") == []


# Packages whose docstring need not name their files, and why: another list names them.
UNLISTED = {
    "commands": "one module per subcommand: COMMANDS in commands/__init__.py lists them",
    "lint/rules": "one module per rule: REGISTERED in lint/registry.py lists them",
    "schemas": "data: io/schemastore.py's SCHEMA_KINDS names them",
}
LISTED = re.compile(r"^\s*- (\w+(?:\.py|/))", re.MULTILINE)
NAMED = re.compile(r"(?<![\w.])(\w+\.py|\w+/)")
DOCSTRING_CHECKLIST = """A package's docstring lists its files (docs/architecture.md, "Where things live"): a line
`- name.py   what it holds` (`- name/` for a subpackage) for each module and subpackage, and none
for a file that is gone; a module may instead be named inside another's line (`html_fixture.py:
one fixture's row`). Moving, adding or removing a module updates the list in the same commit."""


def package_files(folder: Path) -> set[str]:
    """The modules (`name.py`, but __init__.py) and subpackages (`name/`) of the package at `folder`."""
    return ({f.name for f in folder.glob("*.py") if f.name != "__init__.py"}
            | {f"{d.name}/" for d in folder.iterdir() if (d / "__init__.py").is_file()})


def docstring_gaps(package: str, docstring: str, files: set[str]) -> list[str]:
    """What the docstring of `package` (`score/report`) lists that is not there, and what is there
    that it does not name."""
    listed, named = set(LISTED.findall(docstring)), set(NAMED.findall(docstring))
    where = f"corpustools/{package}/__init__.py" if package else "corpustools/__init__.py"
    if not listed:
        return [f"{where}: its docstring lists none of its files (a `- name.py  what it holds` line each)"]
    return ([f"{where}: its docstring lists {name}, which is not in the package" for name in sorted(listed - files)]
            + [f"{where}: its docstring does not name {name}" for name in sorted(files - named)])


def test_every_package_docstring_lists_the_package_files():
    gaps = []
    for init in sorted(PACKAGE.rglob("__init__.py")):
        package = init.parent.relative_to(PACKAGE).as_posix().removeprefix(".")
        if package in UNLISTED or package.split("/")[0] == "new_corpus":
            continue
        docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        gaps += docstring_gaps(package, docstring, package_files(init.parent))
    assert gaps == [], "\n".join(gaps + [DOCSTRING_CHECKLIST, FORMAT])


def test_a_stale_package_docstring_is_named():
    docstring = "Reports.\n\n- text.py   the default\n- html.py   a page (html_fixture.py: a row)\n- gone.py   moved\n"
    assert docstring_gaps("score/report", docstring, {"text.py", "html.py", "html_fixture.py", "tsv.py"}) == [
        "corpustools/score/report/__init__.py: its docstring lists gone.py, which is not in the package",
        "corpustools/score/report/__init__.py: its docstring does not name tsv.py"]
    assert docstring_gaps("io", "The I/O layer.", {"lazy.py"}) == [
        "corpustools/io/__init__.py: its docstring lists none of its files (a `- name.py  what it holds` line each)"]


# --- imports inside functions ---------------------------------------------------------------------

# A module that says its one reason once, above its functions, instead of on every line.
REASON_SAID_ONCE = {"api.py": "# Why every function below imports its feature inside it"}
PRAGMA = re.compile(r"\s*(?:noqa\b[:\s\w,]*|type:\s*ignore\b(?:\[[\w, -]*\])?)\s*")
IMPORT_CHECKLIST = """An import inside a function (docs/architecture.md, "Imports inside functions"):
  - move it to the top of the module when every command that reaches the function loads that module
    at start-up anyway (`python -X importtime -m corpustools lint fixtures/prompt-eval`, `score ...`,
    `--help`) and the move makes no import cycle;
  - else keep it, with a one-line reason on its line saying what it defers and why, e.g.
    `import re2  # re2: only a user schema's patterns` (a reason that is true: a reviewer checks);
  - or load it through corpustools.io.lazy (LazyFunction, format_table, lazy_names): a table of
    functions or a package's names imported on first use."""


def imports_inside_functions(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement in the body of a function or method of `tree` (nested ones too)."""
    found: list[ast.Import | ast.ImportFrom] = []
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [node for statement in function.body for node in ast.walk(statement)
                      if isinstance(node, (ast.Import, ast.ImportFrom))]
    return sorted(set(found), key=lambda node: node.lineno)  # a nested function's are walked twice


def has_reason(line: str) -> bool:
    """Whether the line's comment says something: a pragma (`noqa`, `type: ignore`) is no reason."""
    _, hash_sign, comment = line.partition("#")
    return bool(hash_sign) and PRAGMA.sub("", comment).strip() != ""


def unreasoned_imports(relative: str, source: str) -> list[str]:
    """`corpustools/<relative>:<line>: <import>` for each import inside a function of `source` with no
    reason on its lines."""
    lines = source.splitlines()
    return [f"corpustools/{relative}:{node.lineno}: `{ast.unparse(node)}` is inside a function without a reason"
            for node in imports_inside_functions(ast.parse(source))
            if not any(has_reason(line) for line in lines[node.lineno - 1:node.end_lineno])]


def test_every_import_inside_a_function_says_why():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        source = path.read_text(encoding="utf-8")
        if REASON_SAID_ONCE.get(relative, "\0") in source:
            continue
        found += unreasoned_imports(relative, source)
    assert found == [], "\n".join(found + [IMPORT_CHECKLIST])


def test_an_import_inside_a_function_without_a_reason_is_named():
    source = ("import os\n\n\ndef f():\n    import re2  # re2: only a schema's patterns\n"
              "    import json\n    import yaml  # noqa: F401\n\n\nclass C:\n    def g(self):\n"
              "        def inner():\n            from corpustools.io import (  # paths: only here\n"
              "                paths,\n            )\n            from x import y\n        return inner\n")
    assert unreasoned_imports("m.py", source) == [
        "corpustools/m.py:6: `import json` is inside a function without a reason",
        "corpustools/m.py:7: `import yaml` is inside a function without a reason",
        "corpustools/m.py:16: `from x import y` is inside a function without a reason"]


def test_the_module_that_says_its_reason_once_still_says_it():
    for relative, reason in REASON_SAID_ONCE.items():
        assert reason in (PACKAGE / relative).read_text(encoding="utf-8"), \
            f"corpustools/{relative} no longer says {reason!r}: say it again, or a reason on each import's line"
