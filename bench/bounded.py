"""bench/bounded.py: bounded work on hostile inputs (issue 31 items 6-8; docs/security.md).

Each case writes one small corpus whose one file is hostile, runs the command as a whole process
(`python -m corpustools ...`) under `/usr/bin/time` when there is one, and prints a Markdown
table: wall and CPU seconds (user + system: steadier on a shared machine), peak resident memory,
bytes of report, exit status. The suite holds
the same inputs to counts of work and output (tests/test_bounded_work.py, tests/test_drift.py);
the times belong here.

Cases:
- `zwsp`: a session line of `a` + U+200B, 250,000 times (1 MB): one CT407 per character (item 6);
  and the other per-character shapes on a 1 MB line (soft hyphens, bidi controls, combining
  marks) and lines dense with distinct secrets the scan must each report (IPv4 addresses, AWS key
  ids, assignments), with `lint --format json`;
- `terms`: a sidecar of 60,000 terms no turn says: 60,000 CT601 findings (item 7), listed in full
  (`lint: max_findings_per_file: 0`) and folded (the default);
- `refresh`: `run init --refresh` on the 2-fixture corpus whose history holds a file of `--blob-mb`
  MB under sessions/, committed once and deleted (item 8; needs git).

    python bench/bounded.py                    # every case
    python bench/bounded.py zwsp terms         # some
    python bench/bounded.py refresh --blob-mb 600
    PYTHONPATH=/tmp/main-src python bench/bounded.py   # another checkout's corpustools (before/after)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MB = 1_000_000


def _line(unit: str, count: int | None = None) -> str:
    """`unit` repeated to 1 MB of UTF-8 (or `count` times)."""
    return unit * (count if count is not None else MB // len(unit.encode("utf-8")))


LINES = {
    "zwsp (a + U+200B)": _line("a\u200b"),
    "soft hyphens (a + U+00AD)": _line("a\u00ad"),
    "bidi controls (a + U+202E)": _line("a\u202e"),
    "combining marks (e + U+0301)": _line("e\u0301"),
    "80,000 distinct IPv4 addresses": "".join(f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255} " for i in range(80_000)),
    "45,000 distinct AWS key ids": "".join(("AKIAZ7Q2M4XK" + f"{i:08d}").translate(str.maketrans("0123456789", "QRSTUVWXYZ"))
                                           + " " for i in range(45_000)),
    "40,000 distinct assignments": "".join(f"password=Xk9vQ2mL{i:06d} " for i in range(40_000)),
}

def write_corpus(root: Path, *, user_line: str | None = None, terms: int = 0, lint: str = "") -> Path:
    """The benchmark's generated 2-fixture corpus (bench/corpusgen.py, seed 0) under `root`, its
    prompt, KB and provenance record beside it, with a last user turn of `user_line` in the first
    session, `terms` more terms no turn says in the first sidecar's first point, and `lint` added
    to its `lint:` settings. Returns the corpus folder."""
    import corpusgen

    files = dict(corpusgen.generate(2, 0).files)
    session, sidecar, spec = ("corpus/sessions/admit-convention-01.md", "corpus/expected/admit-convention-01.yaml",
                              "corpus/corpus.yaml")
    if user_line is not None:
        files[session] += f"[USER]: {user_line}\n".encode()
    if terms:
        added = "".join(f"      - zq{index:05d} term\n" for index in range(terms))
        files[sidecar] = files[sidecar].replace(b"    must_match_all:\n", b"    must_match_all:\n" + added.encode(), 1)
    files[spec] = files[spec].replace(b"\nlint:\n", b"\nlint:\n" + lint.encode(), 1)
    corpusgen.write_tree(str(root), files)
    return root / "corpus"


def measure(argv: list[str], cwd: Path) -> tuple[float, float, int, int, int]:
    """(wall seconds, CPU seconds (user + system; 0 without /usr/bin/time), peak RSS bytes (0
    likewise), bytes written on stdout, exit status) of one process."""
    timer = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)
    command = [sys.executable, "-m", "corpustools", *argv]
    report = cwd / "timing.txt"
    if timer:
        command = [timer, "-o", str(report), "-f", "%U %S %M", *command]
    started = time.monotonic()
    done = subprocess.run(command, cwd=cwd, capture_output=True, check=False)
    wall = time.monotonic() - started
    if done.returncode not in (0, 1):
        print(f"<!-- {' '.join(argv[:3])}: exit {done.returncode}: {done.stderr.decode(errors='replace')[-500:]} -->",
              file=sys.stderr)
    user, system, peak = report.read_text().split()[-3:] if timer and report.exists() else ("0", "0", "0")
    return wall, float(user) + float(system), int(peak) * 1024, len(done.stdout), done.returncode


def row(case: str, figures: tuple[float, float, int, int, int]) -> str:
    wall, cpu, peak, written, status = figures
    return f"| {case} | {wall:.2f} | {cpu:.2f} | {peak / 2**20:.0f} | {written:,} | {status} |"


def bench_lines(scratch: Path) -> list[str]:
    rows: list[str] = []
    for name, line in LINES.items():
        root = write_corpus(scratch / f"line-{len(rows)}", user_line=line)
        rows.append(row(f"lint --format json, one 1 MB line: {name}", measure(["lint", "--format", "json", str(root)], scratch)))
    return rows


def bench_terms(scratch: Path, count: int = 60_000) -> list[str]:
    rows: list[str] = []
    for lint, how in (("  max_findings_per_file: 0\n", "all listed"), ("", "folded (default)")):
        root = write_corpus(scratch / f"terms-{len(rows)}", terms=count, lint=lint)
        rows.append(row(f"lint, a sidecar of {count:,} terms never said: {how}", measure(["lint", str(root)], scratch)))
    return rows


def bench_refresh(scratch: Path, blob_mb: int) -> list[str]:
    if shutil.which("git") is None:
        return ["| run init --refresh | (git is not installed) | | | | |"]
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@example.invalid", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)

    repo = scratch / "repo"
    repo.mkdir()
    git("init", "-q")
    root = write_corpus(repo)
    prompt = repo / "prompt.md"
    git("add", "-A")
    git("commit", "-qm", "v1")
    from corpustools.manifest import CORPUS_KEYS, build_manifest, manifest_yaml

    run = repo / "run"
    run.mkdir()
    manifest, _ = build_manifest(str(root), str(prompt), model="m", temperature="0", harness=None, operator="b",
                                 started_at="2026-03-01T00:00:00Z")
    old = {key: value for key, value in manifest.items() if key not in CORPUS_KEYS[1:]}  # one corpus hash
    (run / "run.yaml").write_text(manifest_yaml(old), encoding="utf-8")
    with open(root / "sessions" / "recording.wav", "wb") as handle:
        for _ in range(blob_mb):
            handle.write(os.urandom(MB))  # incompressible, as a recording is
    git("add", "-A")
    git("commit", "-qm", "a recording")
    (root / "sessions" / "recording.wav").unlink()
    spec = root / "corpus.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("corpus_version: 1", "corpus_version: 2"), encoding="utf-8")
    git("add", "-A")
    git("commit", "-qm", "v2")
    return [row(f"run init --refresh, a {blob_mb} MB file in the history", measure(
        ["run", "init", str(run), "--corpus", str(root), "--refresh"], repo))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", metavar="CASE", help="zwsp, terms or refresh (default: all three)")
    parser.add_argument("--blob-mb", type=int, default=600, help="the size of the file in the history (refresh)")
    args = parser.parse_args(argv)
    cases = args.cases or ["zwsp", "terms", "refresh"]
    if set(cases) - {"zwsp", "terms", "refresh"}:
        parser.error(f"unknown case: {', '.join(sorted(set(cases) - {'zwsp', 'terms', 'refresh'}))}")
    import corpustools

    print(f"corpustools from {os.path.dirname(corpustools.__file__)}\n")
    print("| case | wall s | CPU s | peak RSS MB | report bytes | exit |\n|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="corpustools-bounded-") as folder:
        scratch = Path(folder)
        for case in cases:
            rows = {"zwsp": lambda: bench_lines(scratch), "terms": lambda: bench_terms(scratch),
                    "refresh": lambda: bench_refresh(scratch, args.blob_mb)}[case]()
            print("\n".join(rows), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
