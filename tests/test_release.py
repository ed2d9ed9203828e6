"""Releases: the tag `vX.Y.Z` a hook's `rev:` names is the package version, which pyproject.toml,
`corpustools --version` and CHANGELOG.md all agree on."""

from __future__ import annotations

import re
from pathlib import Path

from corpustools import __version__

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_version_is_the_package_version_and_has_a_changelog_entry():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'^version = "([^"]+)"$', pyproject, re.MULTILINE).group(1)
    assert version == __version__
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", version)  # the tag is v + this
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"\n## {version}\n" in changelog
