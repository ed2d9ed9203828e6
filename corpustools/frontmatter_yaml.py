"""A python-frontmatter handler backed by our YAML dialect (corpustools.yamlload), so sessions and
sidecars are read alike (python-frontmatter would otherwise use PyYAML's YAML 1.1 constructor)."""

from __future__ import annotations

from frontmatter.default_handlers import BaseHandler

from corpustools.session import FM_BOUNDARY
from corpustools.yamlload import parse_yaml


class CorpusYAMLHandler(BaseHandler):
    FM_BOUNDARY = FM_BOUNDARY  # the session reader's boundary, so both split alike
    START_DELIMITER = END_DELIMITER = "---"

    def load(self, fm: str, **kwargs):
        return parse_yaml(fm, kwargs.get("path", "<frontmatter>")).data

    # No export: nothing here writes frontmatter, and PyYAML's dumper would write YAML 1.1
    # (`0o17` unquoted, which YAML 1.2 reads as a number).
