"""Helpers for the scorer's tests: proposal outputs, result folders and sidecar points.

The corpus itself comes from the `make_corpus` fixture (tests/support/corpus.py): admit-convention-01
expects the practice point `expire-via-queue` with terms "queue worker" and "expired signups";
reject-noise-01 expects empty output.
"""

from __future__ import annotations

import json
from pathlib import Path

from corpustools.cli import main
from tests.support.corpus import ADMIT_ID, REJECT_ID, sidecar_text

EMPTY: dict[str, list] = {"practice": [], "map": []}


def proposal(title: str, body: str = "", *, type: str = "practice", description: str = "A short description.",
             tags=("newsletter",), confidence: str = "high") -> dict:
    return {"type": type, "tags": list(tags), "title": title, "description": description, "body": body,
            "kk_confidence": confidence}


def output(practice=(), map=()) -> dict:
    return {"practice": list(practice), "map": list(map)}


# A faithful output for the conftest admit fixture: one practice that matches its one point.
GOOD_ADMIT = output([proposal("Expired signups go through the queue worker",
                              "Never delete expired signups directly; the cron hook enqueues them and the "
                              "queue worker calls the mailing vendor's unsubscribe.")])


def write_results(folder, outputs: dict) -> Path:
    """Write `<folder>/<name>.json` per entry: a dict is dumped as JSON, str/bytes written as is."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for fixture_id, content in outputs.items():
        path = folder / f"{fixture_id}.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_text(json.dumps(content, indent=2), encoding="utf-8")
    return folder


def good_results(folder) -> Path:
    """A run where both conftest fixtures pass."""
    return write_results(folder, {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})


def points_yaml(*points) -> str:
    """expected_points YAML for sidecar_text: each point is (id, type, terms[, forbidden])."""
    text = ""
    for point in points:
        point_id, kind, terms = point[:3]
        forbidden = point[3] if len(point) > 3 else ()
        text += f"\n  - id: {point_id}\n    type: {kind}\n    must_match_all:\n"
        text += "".join(f"      - {json.dumps(t)}\n" for t in terms)
        if forbidden:
            text += "    must_not_match:\n" + "".join(f"      - {json.dumps(t)}\n" for t in forbidden)
    return text or " []\n"


def admit_sidecar(*points, max_unexpected: int = 0, expect_empty: bool = False) -> str:
    return sidecar_text(ADMIT_ID, "admit-convention", points=points_yaml(*points), max_unexpected=max_unexpected,
                        expect_empty=expect_empty)


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def fixture(report, fixture_id: str = ADMIT_ID, run: int = 0):
    """The FixtureScore of `fixture_id` in a ScoreReport."""
    return next(f for f in report.runs[run].fixtures if f.id == fixture_id)


def texts(values) -> tuple[str, ...]:
    """Reasons or advisories as a report prints them."""
    return tuple(str(v) for v in values)
