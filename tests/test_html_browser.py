"""The HTML reports in a real browser: Debian's headless Chromium, driven by Playwright (never a
browser Playwright downloads), with the network cut off. The page must load without a console
error or a request, expand a fixture on a click, show the scorer's found/absent/forbidden marks,
filter, and paint a non-blank screenshot. Skipped only when no `chromium` binary exists (.ci/run
installs it). Slow (a browser per module): deselect with `-m "not slow"`."""

import os
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from corpustools.cli import main
from corpustools.score.evidence import forbidden_hits, point_evidence
from corpustools.score.scoring import open_corpus, score_report

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None and os.environ.get("CI"):  # .ci/run installs it: a CI without it must not go green
    pytest.fail("CI: no chromium binary on PATH; the HTML browser tests cannot run", pytrace=False)
if CHROMIUM is None:
    pytest.skip("no chromium binary on PATH (.ci/run installs Debian's chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test dependency: pip install '.[test]'")

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "fixtures" / "prompt-eval"
RUNS = SHIPPED / "runs"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-dev-shm-usage"]


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The shipped corpus as HTML: one run, two runs, a comparison."""
    folder = tmp_path_factory.mktemp("html")
    commands = {
        "single": ["score", SHIPPED, RUNS / "v5-run6", "--append-history", folder / "history.md"],
        "multi": ["score", SHIPPED, RUNS / "v5-run6", RUNS / "v5-run7"],
        "compare": ["compare", SHIPPED, "--base", RUNS / "v5-run6", "--candidate", RUNS / "v8-run5"],
        "calibrate": ["calibrate", SHIPPED, RUNS / "v5-run6", "--verdicts",
                      SHIPPED / "calibration" / "held-out-corpus-v4" / "v5-run6.yaml"],
    }
    for name, argv in commands.items():
        assert main([str(a) for a in argv] + ["--format", "html", "--output", str(folder / f"{name}.html")]) == 0
    return folder


class Visit:
    """A page opened offline; every request and console error it causes is recorded."""

    def __init__(self, browser, path: Path, javascript: bool = True):
        self.context = browser.new_context(offline=True, java_script_enabled=javascript,
                                           viewport={"width": 1100, "height": 800})
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self.refuse)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.url = path.as_uri()
        self.page.goto(self.url)

    def refuse(self, route):
        if route.request.url != self.url:
            self.requests.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    def close(self):
        self.context.close()


@pytest.fixture
def visit(browser):
    opened = []

    def open_page(path, javascript=True):
        opened.append(Visit(browser, path, javascript))
        return opened[-1]

    yield open_page
    for page in opened:
        page.close()


def png_colours(data: bytes) -> int:
    """How many distinct RGB(A) pixels an 8-bit truecolour PNG holds (decoded with zlib, unfiltered)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunk = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
        elif kind == b"IDAT":
            idat += chunk
        at += 12 + length
    assert depth == 8 and colour in (2, 6)
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    previous, colours = bytearray(stride), set[bytes]()
    for row in range(height):
        kind, line = raw[row * (stride + 1)], bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = previous[i], previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        colours.update(bytes(line[i:i + bpp]) for i in range(0, stride, bpp))
        previous = line
    return len(colours)


def test_png_colours_tells_a_blank_image_from_a_drawn_one():
    def png(rows, width):
        body = b"".join(b"\x00" + row for row in rows)
        ihdr = struct.pack(">IIBBBBB", width, len(rows), 8, 2, 0, 0, 0)
        chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + b"\0\0\0\0"  # noqa: E731
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(body)) + chunk(b"IEND", b"")

    assert png_colours(png([b"\xff" * 6] * 2, 2)) == 1
    assert png_colours(png([b"\xff\xff\xff\x00\x00\x00", b"\x10\x20\x30" * 2], 2)) == 3


def test_single_run_report_loads_offline_expands_and_marks_the_scorers_terms(visit, reports, tmp_path):
    page = visit(reports / "single.html")
    fixture_id = "admit-map-vocab-01"  # fails on forbidden terms; points partly found in some proposals
    details = page.page.locator(f"#fixture-{fixture_id}")
    assert details.get_attribute("open") is None
    details.locator("> summary").click()
    assert details.get_attribute("open") == ""
    assert details.locator(".term.found").first.is_visible()

    report = score_report(str(SHIPPED), [str(RUNS / "v5-run6")])
    fixture = next(f for f in report.runs[0].fixtures if f.id == fixture_id)
    sidecar = open_corpus(str(SHIPPED)).corpus.sidecars[fixture_id]
    shown = details.locator(".point .term").evaluate_all(
        "els => els.map(e => [e.closest('.point').dataset.point, e.closest('.proposal').dataset.proposal,"
        " e.dataset.term, e.classList.contains('found')])")
    expected = [[p.point_id, e.proposal, t.term, t.found] for p in point_evidence(sidecar, fixture.proposals)
                for e in p.proposals for t in e.terms]
    assert shown == expected and any(not found for *_, found in shown) and any(found for *_, found in shown)
    marks = details.locator("mark.forbidden").evaluate_all(
        "els => els.map(e => [e.closest('.output').dataset.proposal, e.dataset.term])")
    hits = forbidden_hits(sidecar, fixture.proposals)
    assert marks and {tuple(m) for m in marks} == {(h.proposal, h.term) for h in hits}

    shot = tmp_path / "single.png"
    details.screenshot(path=str(shot))
    assert png_colours(shot.read_bytes()) > 50
    assert page.page.locator("table.history svg.bar").count() == 3  # pass rate, recall, phantoms of one row
    # the wide history table scrolls inside its own box; the page never scrolls sideways
    assert page.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.errors == [] and page.requests == []


def test_filters_hide_fixtures_that_do_not_match(visit, reports):
    page = visit(reports / "single.html")
    assert page.page.locator("#filters").is_visible()
    page.page.select_option("#filter-verdict", "FAIL")
    visible = page.page.locator("details.fixture:visible")
    verdicts = visible.evaluate_all("els => els.map(e => e.dataset.verdict)")
    assert verdicts and set(verdicts) == {"FAIL"}
    page.page.select_option("#filter-reason", "forbidden-match")
    reasons = page.page.locator("details.fixture:visible").evaluate_all("els => els.map(e => e.dataset.reason)")
    assert 0 < len(reasons) < len(verdicts) and all("forbidden-match" in r.split() for r in reasons)
    assert page.page.locator("#filter-count").inner_text() == f"{len(reasons)} shown"
    assert page.errors == [] and page.requests == []


def test_without_javascript_every_fixture_still_opens(visit, reports):
    page = visit(reports / "multi.html", javascript=False)
    assert not page.page.locator("#filters").is_visible()
    assert page.page.locator("details.fixture:visible").count() == 24
    details = page.page.locator("details.fixture").first
    details.locator("> summary").click()
    assert details.locator('.evidence[data-run="2"]').is_visible()
    assert page.errors == [] and page.requests == []


def test_several_runs_report_lists_flaky_fixtures(visit, reports, tmp_path):
    page = visit(reports / "multi.html")
    page.page.select_option("#filter-verdict", "flaky")
    flaky = page.page.locator("details.fixture:visible").evaluate_all("els => els.map(e => e.dataset.fixture)")
    listed = page.page.locator("table.flaky a").all_inner_texts()
    assert flaky and flaky == listed
    shot = tmp_path / "multi.png"
    page.page.screenshot(path=str(shot))
    assert png_colours(shot.read_bytes()) > 50
    assert page.errors == [] and page.requests == []


def test_compare_report_opens_on_the_lost_fixture(visit, reports, tmp_path):
    page = visit(reports / "compare.html")
    first = page.page.locator("details.fixture").first
    assert first.get_attribute("data-transition") == "lost"
    first.locator("> summary").click()
    assert first.locator('.evidence[data-run="1"]').is_visible() and first.locator('.evidence[data-run="2"]').is_visible()
    page.page.select_option("#filter-transition", "gained")
    gained = page.page.locator("details.fixture:visible").evaluate_all("els => els.map(e => e.dataset.transition)")
    assert gained and set(gained) == {"gained"}
    shot = tmp_path / "compare.png"
    page.page.screenshot(path=str(shot))
    assert png_colours(shot.read_bytes()) > 50
    assert page.errors == [] and page.requests == []


def test_calibrate_report_filters_disagreements_by_cause(visit, reports):
    page = visit(reports / "calibrate.html")
    causes = page.page.locator("details.fixture").evaluate_all("els => els.map(e => e.dataset.cause)")
    assert causes
    chosen = sorted({c for listed in causes for c in listed.split()})[0]
    page.page.select_option("#filter-cause", chosen)
    shown = page.page.locator("details.fixture:visible")
    assert 0 < shown.count() == sum(chosen in c.split() for c in causes)
    shown.first.locator("> summary").click()
    assert shown.first.locator(f'.disagreement[data-cause="{chosen}"]').first.is_visible()
    assert page.errors == [] and page.requests == []
