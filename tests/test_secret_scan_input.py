"""The secret scan sees every byte: files the loader refuses (CRLF, BOM, a stray byte, a NUL, over
the size cap, not a regular file) are still scanned leniently, what could not be read in full is
CT508 (never suppressible), and secrets disguised with invisible or look-alike characters are
found in a folded view and reported at their original line and column."""

from __future__ import annotations

import os

import pytest

from corpustools.io import textfile
from corpustools.lint.secrets import source
from tests.support.corpus import sidecar_text
from tests.support.lint import lint_run, messages
from tests.support.scan_input import AWS_ID, GOLD, SESSION, SIDECAR, session_bytes, where
from tests.support.secrets_cases import B64


@pytest.mark.parametrize("newline,bom,extra,why", [
    ("\r\n", False, b"", None),
    ("\r", False, b"", None),
    ("\n", True, b"", None),
    ("\n", False, b"\x00", None),
    ("\n", False, b"\xff", "byte 0xff is not UTF-8"),
], ids=["crlf", "cr", "bom", "nul", "stray-byte"])
def test_a_session_the_loader_refuses_is_still_scanned(make_corpus, newline, bom, extra, why):
    root = make_corpus({SESSION: session_bytes(f"The key @@is {AWS_ID} here.", newline=newline, bom=bom,
                                               extra=extra)})
    run = lint_run(root, ignore={"CT001"})
    assert where(run, "CT501") == [(SESSION, 8, 13 if extra else 12)]
    if why is None:
        assert where(run, "CT508") == []
    else:
        assert where(run, "CT508") == [(SESSION, 8, 9)]
        assert why in messages(run, "CT508")[0]


def test_sidecar_and_gold_with_bad_bytes_are_scanned_and_reported(make_corpus):
    sidecar = (sidecar_text() + f"notes2: caf\xe9 {AWS_ID}\n").encode("latin-1")
    root = make_corpus({SIDECAR: sidecar, GOLD: b'{"a": "\xff", "b": "' + AWS_ID.encode() + b'"}\r\n'})
    run = lint_run(root, select=frozenset({"CT501"}))
    assert [path for path, _, _ in where(run, "CT501")] == [SIDECAR, GOLD]
    assert [path for path, _, _ in where(run, "CT508")] == [SIDECAR, GOLD]


def test_a_file_over_the_size_cap_is_scanned_up_to_the_cap_and_reported(make_corpus, monkeypatch):
    cap = 64 * 1024  # the real 8 MiB cap works the same, only slower
    monkeypatch.setattr(textfile, "MAX_FILE_BYTES", cap)
    monkeypatch.setattr(source, "MAX_FILE_BYTES", cap)
    big = session_bytes(f"The key is {AWS_ID} here.") + b"x" * (cap + 10)
    root = make_corpus({SESSION: big})
    run = lint_run(root)
    assert where(run, "CT501") == [(SESSION, 8, 12)]
    assert where(run, "CT508") == [(SESSION, 1, 1)]
    assert "over the" in messages(run, "CT508")[0]


# --- disguised secrets --------------------------------------------------------------------------

ZWSP, SHY, WJ, ZWNJ, BOM = "\u200b", "\u00ad", "\u2060", "\u200c", "\ufeff"
FULLWIDTH_AKIA = "".join(chr(ord(c) + 0xFEE0) for c in "AKIA")
DISGUISED = [
    # (code, text, where the finding starts in the original text)
    *[("CT501", f"key AKIA{c}IOSFODNN7EXAMPLE here", "AKIA") for c in (ZWSP, SHY, WJ, ZWNJ, BOM)],
    ("CT501", f"key {FULLWIDTH_AKIA}IOSFODNN7EXAMPLE here", FULLWIDTH_AKIA),
    ("CT501", "key \u0410KIAIOSFODNN7EXAMPLE here", "\u0410KIA"),
    ("CT501", f"key {ZWSP}{ZWSP}AKIAIOSF{ZWSP}ODNN7EXAMPLE here", "AKIA"),
    ("CT501", f"-----BEGIN RSA PRIV{ZWSP}ATE KEY----- {B64}", "-----"),
    ("CT501", f"gh\u200dp_{'a7Kq2Zp9Lm4Xw8Rt3Vb6Nc5Hy1Jd0Fga7Kq'}", "gh"),
    ("CT502", f"pass{ZWSP}word=Hunter22x", "pass"),
    ("CT502", "password\uff1dHunter22x", "password"),
    ("CT502", "p\u0430ssword: Hunter22x", "p\u0430ss"),
    ("CT503", "mysql\uff1a//fern:Tr0ub4dor@db/fern", "mysql"),
    ("CT504", f"Open catalog.fern{ZWSP}library.org now", "catalog"),
    ("CT504", "Open www\uff0efern.de now", "www"),
    ("CT505", "Redis on \uff11\uff10.20.0.7 now", "\uff11"),
    ("CT505", f"Redis on 10.20{ZWSP}.0.7 now", "10"),
    ("CT506", "Mail maria\uff20fernlibrary.org now", "maria"),
    ("CT506", f"Mail maria@fern{SHY}library.org now", "maria"),
    ("CT507", "Call +44\u00a020\u00a07946\u00a00958 now", "+44"),
    ("CT507", "Call \uff10\uff12\uff10 7946 0958 now", "\uff10"),
    ("CT507", f"Call 020 79{ZWSP}46 0958 now", "020"),
]


def test_disguised_secrets_are_found_at_their_original_column(make_corpus):
    root = make_corpus({SESSION: session_bytes("@@", extra="\n".join(text for _, text, _ in DISGUISED).encode())})
    run = lint_run(root)
    found = {(d.line, d.code): d.col for d in run.diagnostics}
    missing = [(code, text, found.get((8 + i, code))) for i, (code, text, start) in enumerate(DISGUISED)
               if found.get((8 + i, code)) != text.index(start) + 1]
    assert missing == []



def test_the_shipped_confusables_table_maps_named_characters_to_one_ascii_character():
    """confusables.txt (written by tools/make_confusables.py) is what fold reads: each line's name
    is its code point's, each target one ASCII character, and NFKC leaves every key alone."""
    import unicodedata

    from corpustools.lint.secrets import fold

    path = os.path.join(os.path.dirname(fold.__file__), "confusables.txt")
    with open(path, encoding="utf-8") as handle:
        rows = [line.rstrip("\n").split(" ", 2) for line in handle if not line.startswith("#")]
    assert len(rows) == len(fold.CONFUSABLES) > 400
    wrong = [row for row in rows if unicodedata.name(chr(int(row[0][2:], 16))) != row[2]
             or len(row[1]) != 1 or not row[1].isascii() or fold.CONFUSABLES[int(row[0][2:], 16)] != ord(row[1])
             or unicodedata.normalize("NFKC", chr(int(row[0][2:], 16))) != chr(int(row[0][2:], 16))]
    assert wrong == []
    assert fold.fold("\u0430\u0455\u0440 \u0391\u039a") == "asp AK"  # Cyrillic a, dze, er; Greek Alpha, Kappa
