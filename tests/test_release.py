"""Releases: the tag `vX.Y.Z` a hook's `rev:` names is the package version, which pyproject.toml,
`corpustools --version` and CHANGELOG.md all agree on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from corpustools import __version__

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_version_is_the_package_version_and_has_a_changelog_entry():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'^version = "([^"]+)"$', pyproject, re.MULTILINE).group(1)
    assert version == __version__
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", version)  # the tag is v + this
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"\n## {version}\n" in changelog


def test_every_data_file_in_the_package_is_declared_package_data():
    """A file the package reads at run time (a schema, the confusables table) that pyproject.toml's
    package-data does not name would be missing from an installed wheel."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    # package-data: {"corpustools.schemas": ["*.json"]}: globs relative to the package's folder
    declared = [(ROOT / owner.replace(".", "/"), pattern)
                for owner, patterns in pyproject["tool"]["setuptools"]["package-data"].items() for pattern in patterns]
    shipped = {path for folder, pattern in declared for path in folder.glob(pattern)}
    data = {path for path in (ROOT / "corpustools").rglob("*")
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts}
    assert sorted(str(path.relative_to(ROOT)) for path in data - shipped) == []
