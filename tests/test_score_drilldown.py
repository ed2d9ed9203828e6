"""The drill-down of the Markdown and text score reports: under each reason the evidence a reader
needs (closest proposal and absent terms, the field holding a forbidden term), the failing
fixture's proposals by title, and the compact layout (verdict first, tables folded)."""

from __future__ import annotations

from tests.support.score import (
    ADMIT_ID,
    EMPTY,
    GOOD_ADMIT,
    REJECT_ID,
    admit_sidecar,
    output,
    proposal,
    run_cli,
    sidecar_text,
    write_results,
)

QUEUE = ("expire-via-queue", "practice", ["queue worker", "expired signups", "cron hook"])
MODULE = ("newsletter-module", "map", ["newsletter module"], ["vendor api key"])
OPTIONAL_MODULE = "\n  - id: newsletter-module\n    type: map\n    must_match_all:\n      - newsletter module\n"


def corpus_with(make_corpus, *points, max_unexpected=3, name="corpus"):
    return make_corpus({f"expected/{ADMIT_ID}.yaml": admit_sidecar(*points, max_unexpected=max_unexpected)},
                       name=name)


def reports(capsys, corpus, *folders):
    """(markdown, text) of one score."""
    markdown = run_cli(capsys, "score", corpus, *folders, "--format", "markdown")[1]
    return markdown, run_cli(capsys, "score", corpus, *folders, "--format", "text")[1]


def test_a_missed_point_names_the_closest_proposal_and_its_absent_terms(make_corpus, tmp_path, capsys):
    admit = output([proposal("Expired signups", "go to the cron hook"),  # two of three terms
                    proposal("The queue worker", "and expired signups")],  # two too: the tie goes to the first
                   [proposal("queue worker, expired signups, cron hook", type="map")])  # all three, other type
    run = write_results(tmp_path / "run", {ADMIT_ID: admit, REJECT_ID: EMPTY})
    markdown, text = reports(capsys, corpus_with(make_corpus, QUEUE), run)
    assert ("- `missed-point:expire-via-queue`\n"
            "  - closest: `practice[0]` `Expired signups` (`body` `\"go to the cron hook\"`); absent: `queue worker`\n"
            ) in markdown
    # the text report: the reason in words with its evidence (what the item's short match field
    # says beside its title), the code beside it, on one line
    assert (f"FAIL {ADMIT_ID} (admit-convention)\n  missed point expire-via-queue: no practice states it; closest "
            "practice[0] \"Expired signups\" (body \"go to the cron hook\") lacks \"queue worker\"  "
            "[missed-point:expire-via-queue]\n") in text


def test_most_terms_found_beats_output_order(make_corpus, tmp_path, capsys):
    admit = output([proposal("Expired signups"), proposal("The queue worker", "cron hook")])
    run = write_results(tmp_path / "run", {ADMIT_ID: admit, REJECT_ID: EMPTY})
    markdown, _ = reports(capsys, corpus_with(make_corpus, QUEUE), run)
    assert "  - closest: `practice[1]` `The queue worker` (`body` `\"cron hook\"`); absent: `expired signups`\n" in markdown


def test_a_missed_point_without_a_proposal_of_its_type(make_corpus, tmp_path, capsys):
    run = write_results(tmp_path / "run", {ADMIT_ID: output([proposal("Expired signups via the queue worker")]),
                                           REJECT_ID: EMPTY})
    markdown, text = reports(capsys, corpus_with(make_corpus, ("expire-via-queue", "practice", ["queue worker"]),
                                                 MODULE), run)
    assert "- `missed-point:newsletter-module`\n  - no `map` proposal in the output\n" in markdown
    assert "  missed point newsletter-module: the output has no map  [missed-point:newsletter-module]\n" in text


def test_a_forbidden_match_names_proposal_and_fields_tags_included(make_corpus, tmp_path, capsys):
    leak = proposal("The newsletter module", "Keep the vendor API key out of git.", type="map",
                    tags=("newsletter", "vendor-api-key"))
    run = write_results(tmp_path / "run", {ADMIT_ID: output(GOOD_ADMIT["practice"], [leak]), REJECT_ID: EMPTY})
    markdown, text = reports(capsys, corpus_with(make_corpus, QUEUE[:2] + (["queue worker"],), MODULE), run)
    assert ("- `forbidden-match:newsletter-module:vendor api key`\n"
            "  - in `map[0]` `The newsletter module`, fields `body`, `tags[1]`\n") in markdown
    assert ("  forbidden term \"vendor api key\" (point newsletter-module) in map[0] \"The newsletter module\", "
            "fields body, tags[1]  [forbidden-match:newsletter-module:vendor api key]\n") in text


def test_proposals_of_a_failing_fixture_are_listed_by_title_collapsed(make_corpus, tmp_path, capsys):
    phantom = proposal("Run the linter before committing")
    run = write_results(tmp_path / "run", {ADMIT_ID: output(GOOD_ADMIT["practice"] + [phantom]),
                                           REJECT_ID: EMPTY})
    markdown, text = reports(capsys, corpus_with(make_corpus, QUEUE[:2] + (["queue worker"],), max_unexpected=0),
                             run)
    assert ("- `phantom-over-budget:1>0`\n  - matching no point: `practice[1]` `Run the linter before committing`\n\n"
            "<details><summary>Proposals (2)</summary>\n\n"
            "- `practice[0]` `Expired signups go through the queue worker` (matches `expire-via-queue`)\n"
            "- `practice[1]` `Run the linter before committing` (matches no point)\n\n</details>\n") in markdown
    # the terminal's report is concise: the phantom by name and title, not the whole output
    assert ("  1 proposal matches no point (budget 0): practice[1] \"Run the linter before committing\"  "
            "[phantom-over-budget:1>0]\n") in text and "Expired signups go through" not in text
    assert "### reject-noise-01" not in markdown  # a passing fixture has no drill-down


def test_hostile_titles_are_escaped(make_corpus, tmp_path, capsys):
    title = "Use `rm -rf` | <script>alert(1)</script>\n# not a heading"
    run = write_results(tmp_path / "run", {ADMIT_ID: output([proposal(title, "a \"quoted\" body")]),
                                           REJECT_ID: EMPTY})
    markdown, text = reports(capsys, corpus_with(make_corpus, QUEUE), run)
    # Markup in the title: a <code> element, every `<` a character reference, Markdown syntax
    # backslash-escaped (the table's pipe stays: GFM reads `|` in a bullet as text); the newline
    # folded to a space. No `<script>` anywhere, not even inside a code span.
    assert ("closest: `practice[0]` <code>Use \\`rm -rf\\` | &lt;script&gt;alert(1)&lt;/script&gt; # not a "
            "heading</code> (`body` `\"a \\\"quoted\\\" body\"`);") in markdown
    assert "\n# not a heading" not in markdown and "<script>" not in markdown
    assert ('closest practice[0] "Use `rm -rf` | <script>alert(1)</script> # not a heading" (body "a \\"quoted\\" body") '
            'lacks') in text


def test_each_phantom_is_named_with_its_escaped_title(make_corpus, tmp_path, capsys):
    hostile = "Ship `it` now\n# not a heading \x1b[31m"
    phantoms = [proposal(hostile), proposal("Run the linter")]
    run = write_results(tmp_path / "run", {ADMIT_ID: output(GOOD_ADMIT["practice"] + phantoms), REJECT_ID: EMPTY})
    corpus = corpus_with(make_corpus, QUEUE[:2] + (["queue worker"],), max_unexpected=1)
    markdown, text = reports(capsys, corpus, run)
    assert ("- `phantom-over-budget:2>1`\n"
            "  - matching no point: `practice[1]` ``Ship `it` now # not a heading \\x1b[31m``\n"
            "  - matching no point: `practice[2]` `Run the linter`\n") in markdown
    assert ('  2 proposals match no point (budget 1): practice[1] "Ship `it` now # not a heading \\u001b[31m", '
            'practice[2] "Run the linter"  [phantom-over-budget:2>1]\n') in text
    assert "\x1b" not in markdown + text


def test_compact_layout_verdict_first_then_failing_fixtures_then_folded_tables(make_corpus, tmp_path, capsys):
    run = write_results(tmp_path / "run", {ADMIT_ID: output([proposal("Expired signups")]), REJECT_ID: EMPTY})
    corpus = corpus_with(make_corpus, QUEUE)
    markdown, text = reports(capsys, corpus, run)
    lines = markdown.split("\n")
    assert lines[0].startswith("**1/2 fixtures passed** (50.0%, 95% CI 9.5%–90.5%); recall 0/1")
    failing = lines.index("## Failing fixtures (1 of 2)")
    first_table = next(i for i, line in enumerate(lines) if line.startswith("|"))
    assert failing < first_table
    assert lines[first_table - 2].startswith("<details><summary>")  # every table is folded
    assert lines[-2] == (f"Full report: `corpustools score {corpus} {run} --format html --output report.html`, "
                         "then open report.html in a browser.")
    # the terminal's: the failing fixtures first, the warnings and the verdict line last
    text_lines = text.splitlines()
    assert text_lines[0] == f"FAIL {ADMIT_ID} (admit-convention)"
    assert text_lines[-1].startswith("1/2 fixtures passed (50.0%, 95% CI 9.5%–90.5%); recall 0/1")
    assert f"warning: {run}: no run.yaml: model and temperature unrecorded" in text_lines[-4:]
    assert not any(mark in text for mark in ("<details>", "**", "|---", "`practice", "## "))


def test_every_fixture_passing_says_so(make_corpus, tmp_path, capsys):
    run = write_results(tmp_path / "run", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    markdown, text = reports(capsys, make_corpus(), run)
    assert markdown.split("\n")[2:7] == ["**Warnings**", "", f"- {run}: no run.yaml: model and temperature unrecorded",
                                         "", "Every fixture passed."]
    assert text.startswith("corpus: ") and text.splitlines()[-1].startswith("2/2 fixtures passed")


def test_several_runs_show_each_failing_run_and_the_optional_points_column(make_corpus, tmp_path, capsys):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": sidecar_text(optional=OPTIONAL_MODULE)})
    good = write_results(tmp_path / "run1", {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    bad = write_results(tmp_path / "run2", {ADMIT_ID: output([proposal("Expired signups")]), REJECT_ID: EMPTY})
    markdown, text = reports(capsys, corpus, good, bad)
    assert markdown.startswith("**2/2, 1/2 fixtures passed in 2 runs** (mean 75.0%")
    assert (f"### {ADMIT_ID} (admit-convention): passed in 1/2 runs\n\n"
            f"- run 1 (`{good}`): PASS\n- run 2 (`{bad}`): FAIL\n  - `missed-point:expire-via-queue`\n"
            "    - closest: `practice[0]` `Expired signups` (`body` `\"\"`); absent: `queue worker`\n") in markdown
    assert "| run | results | passed | recall | phantoms | gate accuracy | false rejects | optional points matched |" \
        in markdown
    assert f"| 2 | `{bad}` | 1/2 | 0/1 | 1 | 1/1 | 0 | 0/1 |" in markdown
    assert text.startswith(f"FAIL {ADMIT_ID} (admit-convention): passed in 1/2 runs\n  run 2 ({bad}): FAIL\n"
                           "    missed point expire-via-queue: no practice states it; closest practice[0] ")
    assert "optional points matched 0/1" in text


def test_compare_leads_with_lost_fixtures_and_counts_optional_points(make_corpus, tmp_path, capsys):
    corpus = make_corpus({f"expected/{ADMIT_ID}.yaml": sidecar_text(optional=OPTIONAL_MODULE, max_unexpected=1)})
    module = proposal("The newsletter module", type="map")
    base = write_results(tmp_path / "base", {ADMIT_ID: output(GOOD_ADMIT["practice"], [module]), REJECT_ID: EMPTY})
    cand = write_results(tmp_path / "cand", {ADMIT_ID: output([proposal("Expired signups")]),
                                             REJECT_ID: output([proposal("Noise")])})
    out = run_cli(capsys, "compare", corpus, "--base", base, "--candidate", cand, "--format", "markdown")[1]
    lines = out.split("\n")
    assert lines[0] == f"## regressed: 0 fixtures gained, 2 lost ({ADMIT_ID}, {REJECT_ID}); fixture pass rate " \
        "dropped 100.0% → 0.0%; recall dropped 100.0% → 0.0%; gate accuracy dropped 100.0% → 0.0%"
    assert "**Optional points matched** (never in recall): base 1/1 (100.0%), candidate 0/1 (0.0%)." in lines
    lost = lines.index("## Lost fixtures (2)")
    assert lost < next(i for i, line in enumerate(lines) if line.startswith("|"))
    assert (f"### {ADMIT_ID} (admit-convention): base PASS, candidate FAIL\n\nCandidate:\n\n"
            f"- run 1 (`{cand}`): FAIL\n  - `missed-point:expire-via-queue`\n"
            "    - closest: `practice[0]` `Expired signups` (`body` `\"\"`); absent: `queue worker`\n") in out
    assert "<details><summary>Metrics and the McNemar test</summary>" in out


def test_json_carries_the_evidence_and_validates(make_corpus, tmp_path, capsys):
    import json

    from corpustools.io.schemastore import validate

    leak = proposal("The newsletter module", "Keep the vendor API key out of git.", type="map",
                    tags=("newsletter", "vendor-api-key"))
    run = write_results(tmp_path / "run", {ADMIT_ID: output([proposal("Expired signups")], [leak]),
                                           REJECT_ID: EMPTY})
    corpus = corpus_with(make_corpus, QUEUE, ("other-map", "map", ["ftp"]), MODULE)
    data = json.loads(run_cli(capsys, "score", corpus, run, "--format", "json")[1])
    assert validate("score-report", data) == []
    admit = next(f for f in data["fixtures"] if f["id"] == ADMIT_ID)
    assert admit["missed"] == [
        {"point": "expire-via-queue", "type": "practice",
         "closest": {"proposal": "practice[0]", "title": "Expired signups", "absent": ["queue worker", "cron hook"]}},
        {"point": "other-map", "type": "map",
         "closest": {"proposal": "map[0]", "title": "The newsletter module", "absent": ["ftp"]}}]
    assert admit["forbidden"] == [
        {"point": "newsletter-module", "term": "vendor api key", "proposal": "map[0]", "field": "body"},
        {"point": "newsletter-module", "term": "vendor api key", "proposal": "map[0]", "field": "tags[1]"}]
    reject = next(f for f in data["fixtures"] if f["id"] == REJECT_ID)
    assert (reject["missed"], reject["forbidden"]) == ([], [])
