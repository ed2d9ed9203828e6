"""Session files: YAML frontmatter, then a body of role-tagged segments (turns)."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos
from corpustools.io.yamlload import YamlDoc, parse_yaml
from corpustools.model.contract import DEFAULT, Contract

# A frontmatter boundary: `---` (or longer) alone on a line. Only spaces and tabs may trail it:
# `\s*` would swallow the blank lines after it and shift every body line number.
FM_BOUNDARY = re.compile(r"^-{3,}[ \t]*$", re.MULTILINE)

# Any line that looks like a role tag starts a segment; only the contract's declared tags
# (session.roles; USER and AGENT by default), optionally qualified, e.g.
# `[USER /self-review-apply feedback/r2.xml]:`, are known roles. The bound keeps a 1 MB line from
# turning the match into a long scan.
_TAG_LINE = re.compile(r"\[([^\]\n]{1,200})\]:")


@dataclass(frozen=True)
class Segment:
    """A run of body text. `role` is the declared tag it starts with (`USER`) for a turn, None for
    a stray or unknown one; `speaker` is who that tag stands for (user or agent)."""

    tag: str  # the tag's inner text as written; "" for text before the first tag
    role: str | None
    text: str
    pos: Pos  # where the tag (or the stray text) starts
    end_line: int
    speaker: str | None = None


@dataclass(frozen=True)
class Session:
    fixture_id: str
    path: str
    frontmatter: YamlDoc  # its data is a mapping: parse_session refuses any other frontmatter
    # The file's whole text, and where its body starts in it: the body is a suffix of the text the
    # corpus already holds, so it is sliced when asked for instead of kept as a second copy.
    text: str
    body_start: int
    body_line: int  # file line number of the body's first line
    segments: tuple[Segment, ...]

    @property
    def body(self) -> str:
        """The text after the frontmatter (split_frontmatter's body)."""
        return self.text[self.body_start:]

    @property
    def turns(self) -> tuple[Segment, ...]:
        return tuple(s for s in self.segments if s.role is not None)


def split_frontmatter(text: str, path: str) -> tuple[str, str, int]:
    """-> (frontmatter text, body text, file line of the body's first line). The one frontmatter
    split: sessions must have one (InputError otherwise); KB documents may (lint.skeleton)."""
    if not FM_BOUNDARY.match(text) or not text.startswith("---"):
        raise InputError(Pos(path, 1, 1), "frontmatter missing: a session starts with a '---' line")
    parts = FM_BOUNDARY.split(text, 2)
    if len(parts) < 3:
        raise InputError(Pos(path, 1, 1), "frontmatter never closes: no second '---' line")
    _, fm, body = parts
    closing_line = 1 + fm.count("\n")
    if body.startswith("\n"):
        return fm, body[1:], closing_line + 1
    return fm, body, closing_line


def segment_body(body: str, path: str, first_line: int, contract: Contract = DEFAULT) -> tuple[Segment, ...]:
    segments: list[Segment] = []
    tag, role, start = "", None, Pos(path, first_line, 1)
    lines: list[str] = []

    def close(end_line: int) -> None:
        text = "\n".join(lines).strip("\n")
        if tag:
            segments.append(Segment(tag, role, text, start, end_line, contract.speaker(role)))
        elif text.strip():  # stray text before the first tag: point at its first non-blank line
            blank = next(i for i, line in enumerate(lines) if line.strip())
            segments.append(Segment("", None, text, Pos(path, start.line + blank, 1), end_line))

    for offset, line in enumerate(body.split("\n")):
        lineno = first_line + offset
        match = _TAG_LINE.match(line)
        if match:
            close(lineno - 1)
            tag = sys.intern(match.group(1))  # one string per role tag, not one per turn
            role = contract.role_of(tag)
            start = Pos(path, lineno, 1)
            rest = line[match.end():]
            lines = [rest[1:] if rest.startswith(" ") else rest]
        else:
            lines.append(line)
    # The file's final newline ends the last line; it does not start another one.
    close(first_line + body.count("\n") - (1 if body.endswith("\n") else 0))
    return tuple(segments)


def parse_session(text: str, path: str, fixture_id: str, contract: Contract = DEFAULT) -> Session:
    fm_text, body, body_line = split_frontmatter(text, path)
    frontmatter = parse_yaml(fm_text, path)
    if not isinstance(frontmatter.data, dict):
        # fm_text starts right after the opening '---', so its line i is file line i + 1.
        lines = fm_text.split("\n")
        first = next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")), 0)
        raise InputError(Pos(path, first + 1, 1), "frontmatter is not a YAML mapping")
    return Session(fixture_id, path, frontmatter, text, len(text) - len(body), body_line,
                   segment_body(body, path, body_line, contract))
