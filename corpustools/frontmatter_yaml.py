"""A python-frontmatter handler backed by our ruamel.yaml dialect, so sessions and sidecars are
read by one YAML parser (python-frontmatter would otherwise use PyYAML's YAML 1.1)."""

from __future__ import annotations

import re

from frontmatter.default_handlers import BaseHandler

from corpustools.yamlload import parse_yaml


class RuamelYAMLHandler(BaseHandler):
    # Only spaces and tabs may trail the boundary: `\s*` would swallow the blank lines after it
    # and shift every body line number.
    FM_BOUNDARY = re.compile(r"^-{3,}[ \t]*$", re.MULTILINE)
    START_DELIMITER = END_DELIMITER = "---"

    def load(self, fm: str, **kwargs):
        return parse_yaml(fm, kwargs.get("path", "<frontmatter>")).data

    def export(self, metadata, **kwargs) -> str:
        import io

        from ruamel.yaml import YAML

        out = io.StringIO()
        YAML(typ="safe", pure=True).dump(dict(metadata), out)
        return out.getvalue().strip()
