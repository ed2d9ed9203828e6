"""Screenshots of every HTML page corpustools writes, for docs/screenshots/ (docs/html-report.md).

    python tools/screenshots.py [FOLDER]        # default: docs/screenshots

Writes each page of the shipped corpus (score of one run, of two runs, the history section, a
comparison of two runs a side, a calibration of four runs) and photographs its first screen at
700 and 1,400 px wide (900 px high) with Debian's Chromium (/usr/bin/chromium) driven by
Playwright, offline. The page list is the one tests/test_html_browser.py checks. Run it after a
change to the pages, look at every picture, and commit them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "fixtures" / "prompt-eval"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-dev-shm-usage"]
WIDTHS = (700, 1400)
HEIGHT = 900


CORPUS = "fixtures/prompt-eval"  # as a user in a clone types it: the pages show the paths as given
RUNS = f"{CORPUS}/runs"
HELD_OUT = f"{CORPUS}/calibration/held-out-corpus-v4"


def history_of_four() -> str:
    """A history table of four scorings (one run, two runs, two runs, one run), as --append-history writes it."""
    from corpustools.cli import main

    for runs in (["v5-run6"], ["v5-run6", "v5-run7"], ["v8-run5", "v8-run6"], ["v8-run5"]):
        assert main(["score", CORPUS, *(f"{RUNS}/{r}" for r in runs), "--append-history", "history.md",
                     "--output", "scored.txt"]) == 0
    return "history.md"


def pages() -> dict[str, list[str]]:
    """Page name -> the command that writes it (without --format html --output)."""
    pairs = [a for run in ("v5-run6", "v5-run7", "v8-run5", "v8-run6")
             for a in (f"{RUNS}/{run}", "--verdicts", f"{HELD_OUT}/{run}.yaml")]
    return {
        "score-one-run": ["score", CORPUS, f"{RUNS}/v5-run6"],
        "score-two-runs": ["score", CORPUS, f"{RUNS}/v5-run6", f"{RUNS}/v5-run7"],
        "score-history": ["score", CORPUS, f"{RUNS}/v8-run6", "--history", history_of_four()],
        "compare-one-run": ["compare", CORPUS, "--base", f"{RUNS}/v5-run6", "--candidate", f"{RUNS}/v8-run5"],
        "compare-two-runs": ["compare", CORPUS, "--base", f"{RUNS}/v5-run6", "--base", f"{RUNS}/v5-run7",
                             "--candidate", f"{RUNS}/v8-run5", "--candidate", f"{RUNS}/v8-run6"],
        "calibrate": ["calibrate", CORPUS, *pairs],
    }


@contextlib.contextmanager
def working_folder(path: Path):
    """Run the block in `path`, then return (contextlib.chdir, before Python 3.11)."""
    previous = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(previous)


def render_pages(folder: Path) -> dict[str, Path]:
    """Write every page into `folder` (absolute), from a copy of the shipped corpus there, each
    command run in `folder` with relative paths; page name -> its file."""
    from corpustools.cli import main

    shutil.copytree(SHIPPED, folder / CORPUS, ignore=shutil.ignore_patterns("history"))
    written = {}
    with working_folder(folder):
        for name, argv in pages().items():
            written[name] = folder / f"{name}.html"
            assert main([*argv, "--format", "html", "--output", f"{name}.html"]) == 0, name
    return written


# What each picture shows: the first screen, or the screen starting at this section.
SHOWN = {"score-one-run": None, "score-two-runs": None, "score-history": "History", "compare-two-runs": None,
         "calibrate": None}


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    target = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        written = render_pages(Path(scratch).resolve())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, section in SHOWN.items():
            for width in WIDTHS:
                context = browser.new_context(offline=True, viewport={"width": width, "height": HEIGHT})
                page = context.new_page()
                page.goto(written[name].as_uri())
                if section:
                    page.locator("h2", has_text=section).first.evaluate("e => e.scrollIntoView()")
                picture = target / f"{name}-{width}.png"
                page.screenshot(path=str(picture))
                print(f"wrote {picture}", file=sys.stderr)
                context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
