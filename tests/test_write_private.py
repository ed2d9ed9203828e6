"""io/writing.write_private, the writer of lint's cache entries: bytes or chunks of bytes written as
they come (an entry is never whole in memory), 0600, renamed over the old file in one step, never
through a link, and on any error (the file system's or the chunks' producer's) the old file kept and
no temporary file left.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from corpustools.io import writing
from corpustools.io.writing import write_private
from corpustools.lint import cache as lint_cache


def _mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.mark.parametrize("data", [b"one whole entry\n", [b"one ", b"", b"whole ", b"entry\n"],
                                  (chunk for chunk in (b"one whole", b" entry\n"))])
def test_bytes_or_chunks_replace_the_file_privately(tmp_path, data):
    path = tmp_path / "entry.json"
    path.write_bytes(b"the old entry")
    path.chmod(0o644)
    write_private(str(path), data)
    assert path.read_bytes() == b"one whole entry\n"
    assert _mode(path) == 0o600  # whatever the old file's mode was
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entry.json"]


def test_an_error_while_producing_the_chunks_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "entry.json"
    path.write_bytes(b"the old entry")

    def failing():
        yield b"half of a new "
        raise RuntimeError("the producer failed")

    with pytest.raises(RuntimeError, match="the producer failed"):
        write_private(str(path), failing())
    assert path.read_bytes() == b"the old entry"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entry.json"]


def test_a_full_disk_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "entry.json"
    path.write_bytes(b"the old entry")
    calls = []

    def chunks():
        for n in range(3):
            calls.append(n)
            yield b"x" * 10

    real_open = open

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(writing, "open", lambda fd, *a, **k: Full(real_open(fd, *a, **k)), raising=False)
    with pytest.raises(OSError, match="No space left"):
        write_private(str(path), chunks())
    assert calls == [0]  # stopped at the first failed write: the rest is never produced
    assert path.read_bytes() == b"the old entry"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entry.json"]


def test_never_through_a_link(tmp_path, monkeypatch):
    """A link at the entry's name is replaced, never written through; a link planted at the
    temporary file's name stops the write (O_EXCL | O_NOFOLLOW), nothing written anywhere."""
    outside = tmp_path / "outside"
    outside.write_bytes(b"not the cache's")
    path = tmp_path / "entry.json"
    path.symlink_to(outside)
    write_private(str(path), [b"new ", b"entry"])
    assert outside.read_bytes() == b"not the cache's"
    assert not path.is_symlink() and path.read_bytes() == b"new entry"

    monkeypatch.setattr(writing.os, "urandom", lambda n: b"\x01" * n)
    planted = tmp_path / f".entry.json.{'01' * 6}.tmp"
    planted.symlink_to(outside)
    with pytest.raises(OSError):
        write_private(str(path), [b"newer ", b"entry"])
    assert outside.read_bytes() == b"not the cache's"
    assert path.read_bytes() == b"new entry"
    assert planted.is_symlink()  # the planted link is not ours to remove


ENTRY = {"format": lint_cache.FORMAT, "code": "0" * 64,
         "files": {f"{n:064x}": [["CT501", n, 2, "an AWS key \u00e9", "f" * 64]] for n in range(40)},
         "rules": {"CT610": "a" * 64}, "fixtures": {},
         "skeletons": {f"{n:064x}": [["user", [[n, 1, "the * id is wrong", 4, 3]]], [None, []]] for n in range(40)}}


@pytest.mark.parametrize("chunk", [1, 64, 2**20])
def test_an_entry_is_written_in_chunks_as_json_dumps_would_write_it(monkeypatch, chunk):
    monkeypatch.setattr(lint_cache, "_CHUNK_CHARACTERS", chunk)
    chunks = list(lint_cache._entry_chunks(ENTRY, None))
    whole = json.dumps(ENTRY, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    assert b"".join(chunks) == whole
    assert len(chunks) > 10 if chunk < 1000 else len(chunks) == 1
    assert max(map(len, chunks)) < chunk + 300  # never much more than a chunk at a time


@pytest.mark.parametrize("chunk", [64, 2**20])
def test_an_entry_over_the_cap_stops_being_written_and_leaves_nothing(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(lint_cache, "_CHUNK_CHARACTERS", chunk)
    size = len(json.dumps(ENTRY, separators=(",", ":")))
    path = tmp_path / "entry.json"
    path.write_bytes(b"the old entry")
    with pytest.raises(lint_cache._TooLarge):
        write_private(str(path), lint_cache._entry_chunks(ENTRY, size - 1))
    assert path.read_bytes() == b"the old entry"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entry.json"]
    write_private(str(path), lint_cache._entry_chunks(ENTRY, size))
    assert json.loads(path.read_bytes()) == ENTRY
