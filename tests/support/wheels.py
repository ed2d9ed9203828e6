"""A wheelhouse made from the test environment itself, so pip can install corpustools and its
dependencies with no package index (PIP_NO_INDEX): the pre-commit tests build the hook's
environment from it.

An installed distribution (`site-packages/<pkg>/` plus `<name>.dist-info/` with its RECORD) is an
unpacked wheel; `repack` zips it back, with a fresh RECORD. Scripts and data outside
site-packages are left out: pip writes console scripts again from entry_points.txt.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import re
import zipfile
from pathlib import Path

from packaging.requirements import Requirement

# Installed by pip, or written at install time: not part of a wheel.
_INSTALL_ONLY = ("INSTALLER", "RECORD", "REQUESTED", "direct_url.json")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def dependency_closure(name: str) -> list[str]:
    """`name`'s runtime requirements, transitively, as installed here (extras not followed)."""
    seen: dict[str, str] = {}
    todo = [name]
    while todo:
        current = importlib.metadata.distribution(todo.pop())
        for line in current.requires or ():
            requirement = Requirement(line)
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
            key = _norm(requirement.name)
            if key not in seen:
                seen[key] = requirement.name
                todo.append(requirement.name)
    return sorted(seen.values(), key=_norm)


def repack(name: str, folder: Path) -> Path:
    """The installed distribution `name` as a wheel in `folder`."""
    dist = importlib.metadata.distribution(name)
    tag = next(line.split(":", 1)[1].strip() for line in (dist.read_text("WHEEL") or "").splitlines()
               if line.startswith("Tag:"))
    wheel = folder / f"{_norm(dist.metadata['Name'])}-{dist.version}-{tag}.whl"
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for entry in dist.files or ():
            path = entry.as_posix()
            if path.startswith("..") or "__pycache__" in path or (".dist-info/" in path and
                                                                 path.rsplit("/", 1)[1] in _INSTALL_ONLY):
                continue
            data = Path(str(dist.locate_file(entry))).read_bytes()
            archive.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{path},sha256={digest},{len(data)}")
        info = next(str(e.parent) for e in dist.files or () if e.name == "METADATA")
        archive.writestr(f"{info}/RECORD", "\n".join(record + [f"{info}/RECORD,,"]) + "\n")
    return wheel


def wheelhouse(folder: Path, names: list[str]) -> Path:
    """`folder` holding a wheel of each installed distribution in `names`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        repack(name, folder)
    return folder
