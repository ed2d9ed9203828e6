"""A python-frontmatter handler backed by our ruamel.yaml dialect, so sessions and sidecars are
read by one YAML parser (python-frontmatter would otherwise use PyYAML's YAML 1.1)."""

from __future__ import annotations

from frontmatter.default_handlers import BaseHandler

from corpustools.session import FM_BOUNDARY
from corpustools.yamlload import parse_yaml


class RuamelYAMLHandler(BaseHandler):
    FM_BOUNDARY = FM_BOUNDARY  # the session reader's boundary, so both split alike
    START_DELIMITER = END_DELIMITER = "---"

    def load(self, fm: str, **kwargs):
        return parse_yaml(fm, kwargs.get("path", "<frontmatter>")).data

    def export(self, metadata, **kwargs) -> str:
        import io

        from ruamel.yaml import YAML

        out = io.StringIO()
        YAML(typ="safe", pure=True).dump(dict(metadata), out)
        return out.getvalue().strip()
