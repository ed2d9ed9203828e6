"""Samples for the label rules (CT601-CT614, tests/rules/): the shared valid corpus
(tests/support/corpus.py) with the admit sidecar's points changed. Its session says "expired
signups" and "queue worker" in user turns and "delete query" only in an agent turn. Line 8 of the
sidecar is the first must_match_all term, line 8 + len(must_match_all) + 1 the first must_not_match
term; diagnostics print paths relative to the working folder (the tests run `in_tmp`)."""

from __future__ import annotations

import json

from tests.support.corpus import ADMIT_ID, sidecar_text
from tests.support.lint import lint_run, where

SIDECAR = f"expected/{ADMIT_ID}.yaml"
SHOWN = f"corpus/{SIDECAR}"
GOOD_LINES = 6  # with_optional's GOOD point and the optional_points key: a failing point 6 lines lower


def point(point_id: str, kind: str, must_match_all, must_not_match=None) -> str:
    """The YAML of one expected point, as an item of the sidecar's `expected_points` list."""
    text = f"\n  - id: {point_id}\n    type: {kind}\n    must_match_all:\n"
    text += "".join(f"      - {json.dumps(term)}\n" for term in must_match_all)
    if must_not_match is not None:
        text += "    must_not_match:\n" + "".join(f"      - {json.dumps(term)}\n" for term in must_not_match)
    return text.rstrip("\n")


GOOD = point("good", "practice", ["queue worker", "expired signups"])  # lines 5-9; optional_points: line 10


def labels(*points: str) -> dict:
    """Overrides giving the admit sidecar these points (line 5 is the first point's `- id:`)."""
    return {SIDECAR: sidecar_text(points="".join(points) + "\n")}


def with_optional(*points: str) -> dict:
    """The admit sidecar with the GOOD expected point and these optional points (first `- id:` on line 11)."""
    return {SIDECAR: sidecar_text(points=GOOD + "\n", optional="".join(points) + "\n")}


def found(make_corpus, code, *points, spec=None):
    """The lint run of `code` alone on the corpus whose admit sidecar has these points."""
    overrides = labels(*points)
    if spec is not None:
        overrides["corpus.yaml"] = spec
    run = lint_run(make_corpus(overrides), select=frozenset({code}))
    assert run.crashes == ()
    return run


def at(positions) -> list[tuple[str, int, int]]:
    """(line, col) pairs of the admit sidecar as `where` shows them."""
    return [(SHOWN, line, col) for line, col in positions]


def single(failing) -> list:
    """The failing samples of one point: each is checked again as an optional point."""
    return [(points[0], expected) for points, expected in failing if len(points) == 1]


def optional_found_at(make_corpus, code, failing_point) -> list[tuple[str, int, int]]:
    """Where `code` reports `failing_point` given as an optional point (below GOOD)."""
    run = lint_run(make_corpus(with_optional(failing_point)), select=frozenset({code}))
    assert run.crashes == ()
    return where(run, code)
