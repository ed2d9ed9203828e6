"""A session with a line of one's choosing written as raw bytes (newlines, a byte-order mark, stray
bytes), for the tests of what the secret scan reads (tests/test_secret_scan_input.py, CT407 and
CT508 in tests/rules/); paths as (path inside the corpus, line, col)."""

from __future__ import annotations

from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, session_text

AWS_ID = "AKIA" + "IOSFODNN7EXAMPLE"


SESSION = f"sessions/{ADMIT_ID}.md"


SIDECAR = f"expected/{ADMIT_ID}.yaml"


GOLD = f"gold/{ADMIT_ID}.json"


def session_bytes(line: str, *, newline: str = "\n", bom: bool = False, extra: bytes = b"") -> bytes:
    """The admit session with `line` as body line 2 (file line 8), written with `newline`."""
    body = [f"[USER]: {ADMIT_TURNS[0][1]}", line] + [f"[{t}]: {x}" for t, x in ADMIT_TURNS[1:]]
    text = session_text(ADMIT_UUID, body="".join(b + "\n" for b in body))
    data = text.replace("\n", newline).encode("utf-8")
    return (b"\xef\xbb\xbf" if bom else b"") + data.replace(b"@@", extra)


def where(run, code: str) -> list[tuple[str, int, int]]:
    """(path inside the corpus, line, col) of every diagnostic of `code`, sorted."""
    return [(d.path.split("/corpus/", 1)[1], d.line, d.col) for d in run.diagnostics if d.code == code]
