"""`--format html`: one self-contained page, escaped, byte-identical, readable without JS, and its
found/absent/forbidden marks are the scorer's own. (In a real browser: test_html_browser.py.)"""

import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.score import admit_sidecar, output, proposal, run_cli, write_results

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "fixtures" / "prompt-eval"
RUNS = SHIPPED / "runs"
ADMIT = "admit-convention-01"
HOSTILE = '</script><img src=x onerror="alert(1)">&amp;'


def hostile_corpus(make_corpus, tmp_path):
    """A fixture whose proposal title and body are markup, one point half found, one forbidden hit."""
    sidecar = admit_sidecar(("expire-via-queue", "practice", ["queue worker", "expired signups"],
                             ["mailing vendor"]))
    corpus = make_corpus({f"expected/{ADMIT}.yaml": sidecar})
    results = write_results(tmp_path / "run", {
        ADMIT: output([proposal(HOSTILE + " queue worker", "Call the Mailing-Vendor's API.\r\n\tindented\x1b\n" + HOSTILE)]),
        "reject-noise-01": output()})
    return corpus, results


def render(capsys, *argv) -> str:
    code, out, err = run_cli(capsys, *argv, "--format", "html")
    assert code == 0, err
    return out


def fixture_block(page: str, fixture_id: str) -> str:
    """The HTML of one fixture's <details> block: up to the next fixture, heading or the script."""
    start = page.index(f'<details class="fixture" id="fixture-{fixture_id}"')
    ends = [page.find(marker, start + 1) for marker in ('\n<details class="fixture"', "\n<h2", "\n<h3", "<script>")]
    return page[start:min(end for end in ends if end != -1)]


def test_user_text_renders_as_text_never_as_markup(make_corpus, tmp_path, capsys):
    corpus, results = hostile_corpus(make_corpus, tmp_path)
    page = render(capsys, "score", corpus, results)
    assert "<img" not in page and "onerror=\"" not in page
    assert page.count("</script>") == 1  # the page's own script tag only
    assert html.escape(HOSTILE, quote=True) in page
    assert "API.\n\tindented\\x1b\n" in page  # line breaks and tabs kept, CR dropped, ESC shown escaped


def test_a_corpus_named_with_markup_titles_every_page_as_text(make_corpus, tmp_path, capsys):
    corpus, results = hostile_corpus(make_corpus, tmp_path)
    spec = corpus / "corpus.yaml"
    spec.write_text(spec.read_text().replace("name: tiny", "name: '</script><img src=x onerror=alert(1)>'"))
    for argv in (["score", corpus, results], ["compare", corpus, "--base", results, "--candidate", results]):
        page = render(capsys, *argv)
        assert "<img" not in page and page.count("</script>") == 1
        title = re.search(r"<title>(.*)</title>", page).group(1)
        assert f" · corpustools {argv[0]} · corpus &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;, " in title


def test_the_title_and_heading_name_the_prompt_and_its_version_first(capsys):
    pages = {
        "proposal-extract v5 · corpustools score · corpus prompt-eval, version 6":
            ("proposal-extract v5", ["score", SHIPPED, RUNS / "v5-run6"]),
        "proposal-extract v5 · corpustools score (2 runs) · corpus prompt-eval, version 6":
            ("proposal-extract v5", ["score", SHIPPED, RUNS / "v5-run6", RUNS / "v5-run7"]),
        "proposal-extract v8 vs v5 · corpustools compare · corpus prompt-eval, version 6":
            ("proposal-extract v8 vs v5", ["compare", SHIPPED, "--base", RUNS / "v5-run6", "--candidate",
                                           RUNS / "v8-run5"]),
        "proposal-extract v5, v8 · corpustools calibrate · corpus prompt-eval, version 6":
            ("proposal-extract v5, v8", calibrate_argv()),
    }
    for title, (h1, argv) in pages.items():
        page = render(capsys, *argv)
        assert f"<title>{title}</title>" in page and f"<h1>{h1}</h1>" in page


def test_the_page_leads_with_the_verdict_then_the_failing_fixtures_in_words(capsys):
    page = render(capsys, "score", SHIPPED, RUNS / "v5-run6")
    body = page[page.index("<body>"):]
    banner = body.index('<div class="banner bad" id="verdict"><strong>13/24 fixtures passed</strong> (54.2%, 95% CI')
    # the run was made against corpus version 4: one line says it is scored under the current labels
    revised = body.index('<p class="labels-revised">labels revised since this run (corpus version 4 → 6): scored '
                         "under the current labels</p>")
    failing = body.index("<h2>Failing fixtures (11 of 24)</h2>")
    first = body.index('<details class="fixture" id="fixture-admit-convention-02"')
    assert banner < revised < failing < first < body.index("<h2>Passing fixtures (13)</h2>") < body.index(
        "<h2>Metrics</h2>")
    summary = body[first:body.index("</summary>", first)]
    # each reason in words first, names and terms as code, titles quoted, its code beside it
    assert ('<span class="reason" data-reason="forbidden-match"><span class="words">forbidden term <code>kestrel'
            '</code> (point <code>every-notice-key-ships-sms-twin</code>) in <code>map[2]</code> <q>SmsMail (fern_sms) - '
            'SMS mail plugin for text-preference patrons</q>, field <code>body</code></span> <code class="code">'
            'forbidden-match:every-notice-key-ships-sms-twin:kestrel</code></span>') in summary
    assert '<span class="words">3 proposals match no point (budget 0): <code>map[0]</code> <q>' in summary
    # a passing fixture's summary says no reason
    passing = body[body.index('id="fixture-admit-convention-01"'):]
    assert '<span class="reason"' not in passing[:passing.index("</summary>")]


def test_a_matched_point_shows_only_the_item_that_matched(capsys):
    block = fixture_block(render(capsys, "score", SHIPPED, RUNS / "v5-run6"), "admit-convention-02")
    point = block[block.index('data-point="fern-sms-mail-plugin"'):]
    point = point[:point.index('<div class="point"') if '<div class="point"' in point else point.index("<h4")]
    assert re.findall(r'<div class="proposal" data-proposal="([^"]+)"', point) == ["map[2]"]  # not map[0], map[1], map[3]


def test_integers_are_printed_as_integers(capsys):
    page = render(capsys, "compare", SHIPPED, "--base", RUNS / "v5-run6", "--candidate", RUNS / "v8-run5")
    assert "<td>phantoms (lower is better)</td><td>16</td><td>4</td><td>−12</td>" in page
    multi = render(capsys, "score", SHIPPED, RUNS / "v5-run6", RUNS / "v5-run4")
    assert "<tr><td>phantoms</td><td>15</td><td>1.4</td><td>16, 14</td></tr>" in multi  # a mean that is whole
    assert not re.search(r">\d+\.0<", page + multi)


def test_the_page_fetches_nothing_and_names_no_url(capsys):
    page = render(capsys, "score", SHIPPED, RUNS / "v5-run6")
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"""<[^>]*\s(?:src|href|action)\s*=\s*(?!"#)""", page)  # only in-page links
    assert not re.search(r"url\(|@import", page)
    assert "default-src 'none'" in page and "img-src data:" in page


def test_every_style_is_in_the_stylesheet_and_the_one_script_is_the_pages_own(capsys):
    # A content policy that allows the page's one <style> and one <script> by hash covers it all.
    for argv in (["score", SHIPPED, RUNS / "v5-run6", RUNS / "v5-run7"], calibrate_argv(),
                 ["compare", SHIPPED, "--base", RUNS / "v5-run6", "--candidate", RUNS / "v8-run5"]):
        page = render(capsys, *argv)
        assert not re.search(r"<[^>]*\s(?:style|on[a-z]+)\s*=", page), argv[0]
        assert page.count("<script>") == page.count("<style>") == 1


def test_identical_input_gives_identical_bytes_whatever_the_hash_seed(tmp_path):
    pages = []
    for seed in ("1", "2"):
        target = tmp_path / f"report-{seed}.html"
        subprocess.run([sys.executable, "-m", "corpustools", "score", str(SHIPPED), str(RUNS / "v5-run6"),
                        str(RUNS / "v5-run7"), "--format", "html", "--output", str(target)], check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}, cwd=ROOT)
        pages.append(target.read_bytes())
    assert pages[0] == pages[1]


def test_terms_are_marked_as_the_scorer_found_them(make_corpus, tmp_path, capsys):
    corpus, results = hostile_corpus(make_corpus, tmp_path)
    block = fixture_block(render(capsys, "score", corpus, results), ADMIT)
    assert '<span class="term found" data-term="queue worker">' in block
    assert '<span class="term absent" data-term="expired signups">' in block
    assert 'data-point="expire-via-queue" data-matched="false"' in block
    # the forbidden term is marked at the very characters the scorer matched, in the body only
    marks = re.findall(r'<mark class="forbidden" data-term="([^"]*)"[^>]*>([^<]*)</mark>', block)
    assert marks == [("mailing vendor", "Mailing-Vendor")]
    assert "forbidden-match:expire-via-queue:mailing vendor" in block


def test_fixtures_are_details_so_the_page_reads_without_js(capsys):
    page = render(capsys, "score", SHIPPED, RUNS / "v5-run6")
    assert page.count('<details class="fixture"') == 24
    assert '<div id="filters" class="filters hidden">' in page  # shown by the script only
    for option in ('value="FAIL"', 'value="trap-phantom"', 'value="forbidden-match"'):
        assert option in page
    assert "<svg" in page and 'class="ci"' in page  # the Wilson intervals, drawn


def test_several_runs_show_flaky_fixtures_and_point_stability(capsys):
    page = render(capsys, "score", SHIPPED, RUNS / "v5-run6", RUNS / "v5-run7")
    assert "Repeated runs (k = 2)" in page and "Noise floor" in page
    flaky = page[page.index('<table class="flaky">'):]
    flaky = flaky[:flaky.index("</table>")]
    assert re.search(r"admit-\w+-0\d</a></td><td>[\w-]+</td><td>1/2</td>", flaky)
    assert 'value="flaky"' in page and "data-verdict=\"FAIL PASS flaky\"" in page
    assert "Expected-point stability" in page
    assert page.count('<div class="evidence" data-run="2">') == 24


def test_compare_puts_lost_then_gained_fixtures_first(capsys):
    page = render(capsys, "compare", SHIPPED, "--base", RUNS / "v5-run6", "--candidate", RUNS / "v8-run5")
    assert ("regressed: 5 fixtures gained, 1 lost (admit-convention-01); recall dropped 100.0% → 96.0%"
            in page)  # the headline, as every format says it
    order = re.findall(r'<details class="fixture" id="fixture-[^"]*" data-fixture="[^"]*" [^>]*'
                       r'data-transition="(\w+)"', page)
    assert len(order) == 24 and order[0] == "lost" and order[1] == "gained" and order[-1] == "same"
    assert order == sorted(order, key=["lost", "gained", "same"].index)
    block = fixture_block(page, "admit-convention-01")
    assert block.count('<div class="evidence"') == 2  # base, then candidate
    assert block.index("<h4 class=\"run\">base:") < block.index("<h4 class=\"run\">candidate:")
    assert 'value="flaky"' not in page  # base and candidate differing is a change, not flakiness


def history_file(tmp_path, capsys) -> Path:
    """A history of three scorings: v5 one run, v5 two runs, v8 two runs."""
    history = tmp_path / "history.md"
    for runs in (["v5-run6"], ["v5-run4", "v5-run5"], ["v8-run5", "v8-run6"]):
        code, _, err = run_cli(capsys, "score", SHIPPED, *(RUNS / r for r in runs), "--append-history", history)
        assert code == 0, err
    return history


def history_rows(page: str) -> list[str]:
    section = page[page.index('<table class="history">'):]
    return re.findall(r"<tr><td>\d+</td>.*?</tr>", section[:section.index("</table>")])


def test_history_draws_each_row_with_its_interval(tmp_path, capsys):
    history = history_file(tmp_path, capsys)
    page = render(capsys, "score", SHIPPED, RUNS / "v8-run5", "--history", history)
    rows = history_rows(page)
    assert len(rows) == 3 and "proposal-extract v5" in rows[0] and "proposal-extract v8" in rows[2]
    assert 'aria-label="54.2%, 95% CI 35.1%–72.1%"' in rows[0]  # one run: Wilson of 13/24
    assert 'aria-label="58.3% ± 5.9 pp (mean ± 1 sd)"' in rows[1]  # two runs: mean ± sd
    assert 'aria-label="7.5 ± 4.9 (mean ± 1 sd)"' in rows[2]
    assert history.read_text().count("\n| 20") == 3  # read, never written


def test_append_history_draws_the_history_with_the_new_row(tmp_path, capsys):
    history = history_file(tmp_path, capsys)
    page = render(capsys, "score", SHIPPED, RUNS / "v8-run6", "--append-history", history)
    rows = history_rows(page)
    assert len(rows) == 4 and "proposal-extract v8" in rows[3] and "<td>1</td>" in rows[3]
    assert len(history_rows(render(capsys, "score", SHIPPED, RUNS / "v8-run6", "--append-history", history))) == 4


def test_history_is_refused_in_one_line_when_it_cannot_be_drawn(tmp_path, capsys):
    history = history_file(tmp_path, capsys)
    code, _, err = run_cli(capsys, "score", SHIPPED, RUNS / "v8-run5", "--history", history)
    assert code == 2 and "use it with --format html" in err
    foreign = tmp_path / "other.md"
    foreign.write_text("# notes\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    for path, message in ((foreign, "other.md:3:1: the table here has columns (a, b)"),
                          (tmp_path / "absent.md", "absent.md: no such history file")):
        code, out, err = run_cli(capsys, "score", SHIPPED, RUNS / "v8-run5", "--format", "html", "--history", path)
        assert (code, out) == (2, "") and err.count("\n") == 1 and message in err, err


def calibrate_argv():
    pairs = []
    for run in ("v5-run6", "v8-run5"):
        pairs += [RUNS / run, "--verdicts", SHIPPED / "calibration" / "held-out-corpus-v4" / f"{run}.yaml"]
    return ["calibrate", SHIPPED, *pairs]


def test_calibrate_page_lists_every_disagreement_by_cause(capsys):
    code, markdown, _ = run_cli(capsys, *calibrate_argv(), "--format", "markdown")
    assert code == 0
    page = render(capsys, *calibrate_argv())
    blocks = re.findall(r'<details class="fixture" id="[^"]*" data-fixture="([^"]*)" data-run="(\d)"', page)
    headed = re.findall(r"\*\*([a-z0-9-]+) \([a-z-]+\): scorer", markdown)  # the Markdown's fixture headings
    assert blocks and [fixture for fixture, _ in blocks] == headed
    assert page.count('<span class="reason disagreement"') == sum(1 for line in markdown.splitlines()
                                                                if line.startswith("- `"))
    assert 'value="missing-forbidden"' in page and "Cohen" in page and 'class="ci"' in page


def test_a_history_written_before_the_results_column_is_drawn_too(tmp_path, capsys):
    history = history_file(tmp_path, capsys)
    lines = history.read_text().split("\n")
    assert "| results |" in lines[2]
    legacy = ["|".join(cell for i, cell in enumerate(line.split("|")) if i != 6) if line.startswith("|") else line
              for line in lines]  # drop the results column, as tables written before it look
    old = tmp_path / "old.md"
    old.write_text("\n".join(legacy))
    rows = history_rows(render(capsys, "score", SHIPPED, RUNS / "v8-run5", "--history", old))
    assert len(rows) == 3 and "results:" not in rows[0]
    current = history_rows(render(capsys, "score", SHIPPED, RUNS / "v8-run5", "--history", history))
    assert "; results: " in current[0] and "v5-run6" in current[0]


def test_a_runs_long_notes_are_folded_and_short_ones_are_not(capsys, tmp_path):
    page = render(capsys, "score", SHIPPED, RUNS / "v5-run6")
    notes = re.search(r"<tr><td>notes</td><td>(.*?)</td></tr>", page).group(1)
    assert notes.startswith('<details class="note"><summary>Held-out blind run against corpus version 4')
    assert '<span class="more"> … (more)</span></summary>' in notes and notes.endswith("none was edited.</details>")
    text = html.unescape(re.sub(r"<span class=\"more\">.*?</span>|<[^>]+>", "", notes))
    assert " ".join(text.split()).endswith("no sub-agent saw the sidecars, gold outputs, other fixtures or this "
                                           "repository, and each ran once with no retry and no follow-up message. The "
                                           "96 contexts of the four held-out runs (prompt v5 twice, v8 twice) were "
                                           "interleaved in a shuffled order. The sub-agents run the model of the "
                                           "assistant that dispatched them, under the assistant's own system prompt, "
                                           "so this is not a bare API call. Every answer was a bare JSON object saved "
                                           "byte for byte as <fixture_id>.json; none needed extraction from prose or "
                                           "a code fence, and none was edited.")
    # a short note stays plain text
    run = tmp_path / "run"
    shutil.copytree(RUNS / "v5-run6", run)
    manifest = run / "run.yaml"
    manifest.write_text(re.sub(r'(?m)^notes: .*$', 'notes: "One try, by hand."', manifest.read_text()))
    page = render(capsys, "score", SHIPPED, run)
    assert "<tr><td>notes</td><td>One try, by hand.</td></tr>" in page
