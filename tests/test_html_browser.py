"""The HTML reports in a real browser: Debian's headless Chromium (/usr/bin/chromium), driven by
Playwright (never a browser Playwright downloads), with the network cut off. Every page must fit a
700 px and a 1,400 px wide window (no sideways scroll, nothing cut), show its verdict and then its
first failure on the first screen, load without a console error or a request, expand a fixture on
a click, show the scorer's found/absent/forbidden marks, filter, and paint a non-blank screenshot.
The pages are the ones tools/screenshots.py photographs for the docs. Skipped only when Debian's
chromium is not installed (.ci/run installs it; under CI its absence fails). Slow (a browser per
module): deselect with `-m "not slow"`."""

import os
import struct
import zlib
from pathlib import Path

import pytest

from corpustools.cli import main
from corpustools.score.evidence import forbidden_hits, point_evidence
from corpustools.score.scoring import open_corpus, score_report
from tools.screenshots import ARGS, CHROMIUM, render_pages

pytestmark = pytest.mark.slow

if not os.access(CHROMIUM, os.X_OK) and os.environ.get("CI"):  # .ci/run installs it: CI must not go green without
    pytest.fail(f"CI: no {CHROMIUM}; the HTML browser tests cannot run", pytrace=False)
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no {CHROMIUM} (.ci/run installs Debian's chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test dependency: pip install '.[test]'")

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "fixtures" / "prompt-eval"
RUNS = SHIPPED / "runs"


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    """The shipped corpus as HTML, every page tools/screenshots.py photographs for the docs (one
    run, two runs, a history, a comparison of one and of two runs a side, a calibration)."""
    return render_pages(tmp_path_factory.mktemp("html"))


# The first thing a failing page shows below its verdict: a failing fixture, a lost one, a disagreement.
FAILING, LOST = 'details.fixture[data-verdict~="FAIL"]', 'details.fixture[data-transition="lost"]'
FIRST_FAILURE = {"score-one-run": FAILING, "score-two-runs": FAILING, "score-history": FAILING,
                 "compare-one-run": LOST, "compare-two-runs": LOST, "calibrate": "details.fixture"}

# Every element whose content is wider than its box and is cut or scrolls (overflow not visible),
# and every element reaching past the right edge of the page: what a reader would have to scroll to.
CLIPPED = """() => {
  const width = document.documentElement.clientWidth, found = [];
  for (const e of document.querySelectorAll('body *')) {
    const style = getComputedStyle(e), box = e.getBoundingClientRect();
    if (style.overflowX !== 'visible' && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
      found.push(`${e.tagName.toLowerCase()}.${e.className}: content ${e.scrollWidth} px in ${e.clientWidth} px`);
    if (box.width > 0 && box.right > width + 1)
      found.push(`${e.tagName.toLowerCase()}.${e.className}: right edge at ${Math.round(box.right)} px of ${width}`);
  }
  return found;
}"""


class Visit:
    """A page opened offline; every request and console error it causes is recorded."""

    def __init__(self, browser, path: Path, *, javascript: bool = True, width: int = 1100, height: int = 800):
        self.context = browser.new_context(offline=True, java_script_enabled=javascript,
                                           viewport={"width": width, "height": height})
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

    def open_page(path, *, javascript=True, width=1100, height=800):
        opened.append(Visit(browser, path, javascript=javascript, width=width, height=height))
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
    page = visit(reports["score-one-run"])
    fixture_id = "admit-map-feature-01"  # fails on forbidden terms; an optional point missed, its terms partly found
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
    # a matched point in the proposal(s) that matched it; a missed one in every proposal of its type
    expected = [[p.point_id, e.proposal, t.term, t.found] for p in point_evidence(sidecar, fixture.proposals)
                for e in p.proposals if e.matched or not p.matched for t in e.terms]
    assert shown == expected and any(not found for *_, found in shown) and any(found for *_, found in shown)
    marks = details.locator("mark.forbidden").evaluate_all(
        "els => els.map(e => [e.closest('.output').dataset.proposal, e.dataset.term])")
    hits = forbidden_hits(sidecar, fixture.proposals)
    # each term, or each part of a forbidden combination, marked where the scorer found it
    assert marks and {tuple(m) for m in marks} == {(h.proposal, h.found) for h in hits}
    assert any(h.part for h in hits)  # version 5 forbids combinations here

    shot = tmp_path / "single.png"
    details.screenshot(path=str(shot))
    assert png_colours(shot.read_bytes()) > 50
    assert page.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.errors == [] and page.requests == []


def test_the_history_draws_every_row(visit, reports):
    page = visit(reports["score-history"])
    assert page.page.locator("table.history tr").count() == 5  # the header and four rows
    assert page.page.locator("table.history svg.bar").count() == 12  # pass rate, recall, phantoms of each row
    assert page.errors == [] and page.requests == []


def test_filters_hide_fixtures_that_do_not_match(visit, reports):
    page = visit(reports["score-one-run"])
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
    page = visit(reports["score-two-runs"], javascript=False)
    assert not page.page.locator("#filters").is_visible()
    assert page.page.locator("details.fixture:visible").count() == 24
    details = page.page.locator("details.fixture").first
    details.locator("> summary").click()
    assert details.locator('.evidence[data-run="2"]').is_visible()
    assert page.errors == [] and page.requests == []


def test_several_runs_report_lists_flaky_fixtures(visit, reports, tmp_path):
    page = visit(reports["score-two-runs"])
    page.page.select_option("#filter-verdict", "flaky")
    flaky = page.page.locator("details.fixture:visible").evaluate_all("els => els.map(e => e.dataset.fixture)")
    listed = page.page.locator("table.flaky a").all_inner_texts()
    assert flaky and flaky == listed
    shot = tmp_path / "multi.png"
    page.page.screenshot(path=str(shot))
    assert png_colours(shot.read_bytes()) > 50
    assert page.errors == [] and page.requests == []


def test_compare_report_opens_on_the_lost_fixture(visit, reports, tmp_path):
    page = visit(reports["compare-one-run"])
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
    page = visit(reports["calibrate"])
    causes = page.page.locator("details.fixture").evaluate_all("els => els.map(e => e.dataset.cause)")
    assert causes
    chosen = sorted({c for listed in causes for c in listed.split()})[0]
    page.page.select_option("#filter-cause", chosen)
    shown = page.page.locator("details.fixture:visible")
    assert 0 < shown.count() == sum(chosen in c.split() for c in causes)
    shown.first.locator("> summary").click()
    assert shown.first.locator(f'.disagreement[data-cause="{chosen}"]').first.is_visible()
    assert page.errors == [] and page.requests == []


@pytest.mark.parametrize("width", [700, 1400])
@pytest.mark.parametrize("name", list(FIRST_FAILURE))
def test_every_page_fits_its_width_and_leads_with_what_failed(visit, reports, name, width):
    page = visit(reports[name], width=width, height=900)
    sizes = page.page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert sizes[0] == sizes[1] == width  # no horizontal scroll
    assert page.page.evaluate(CLIPPED) == []  # nothing cut or scrolling inside the page either
    first = page.page.locator(FIRST_FAILURE[name]).first
    assert first.bounding_box()["y"] < 900  # the first failure is on the first screen
    assert page.page.locator("#verdict").bounding_box()["y"] < first.bounding_box()["y"]  # under the verdict
    page.page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert page.page.evaluate(CLIPPED) == []  # every fixture's evidence and transcript open: still nothing cut
    assert page.page.evaluate("document.documentElement.scrollWidth") == width
    assert page.errors == [] and page.requests == []


def test_long_unbroken_titles_and_names_wrap_instead_of_widening_the_page(visit, tmp_path):
    import json
    import shutil

    corpus = tmp_path / "prompt-eval"
    shutil.copytree(SHIPPED, corpus, ignore=shutil.ignore_patterns("runs", "calibration"))
    run = tmp_path / ("results-of-a-run-whose-folder-name-goes-on-" + "and-on-" * 12 + "end")
    shutil.copytree(corpus / "gold", run)
    output = json.loads((run / "admit-convention-01.json").read_text())
    output["map"].append({"type": "map", "tags": ["x" * 150], "title": "Unbroken" + "A" * 300,
                          "description": "B" * 400, "body": "C" * 2000, "kk_confidence": "low"})
    (run / "admit-convention-01.json").write_text(json.dumps(output))
    page_file = tmp_path / "long.html"
    assert main(["score", str(corpus), str(run), "--format", "html", "--output", str(page_file)]) == 0
    page = visit(page_file, width=700, height=900)
    page.page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert page.page.evaluate("document.documentElement.scrollWidth") == 700
    assert page.page.evaluate(CLIPPED) == []
