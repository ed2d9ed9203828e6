"""One fixture in an HTML report: its table row and its `<details>` block of evidence.

The summary of a fixture that did not pass gives each reason in words, its code beside it
(`span.reason`). The evidence is the scorer's own (corpustools.score.evidence): each point's
must_match_all terms marked found (`class="term found"`) or absent (`class="term absent"`) in the
proposal(s) that matched it, or, for a point not matched, in every proposal of its type; each
must_not_match hit highlighted (`<mark class="forbidden">`) at the very characters the scorer
matched (Matching.spans) in the field where it occurred; phantoms with their text; advisory
diagnostics; the transcript. Nothing here matches terms itself.
"""

from __future__ import annotations

from corpustools.model.contract import Item
from corpustools.model.corpus import ScoringCorpus
from corpustools.model.normalize import Matching
from corpustools.model.sidecar import Sidecar
from corpustools.model.status import FixtureStatus
from corpustools.reporting.formatting import plural
from corpustools.reporting.page import anchor, esc, table, verdict_badge
from corpustools.score.evidence import FieldCheck, ForbiddenHit, PointEvidence, TermCheck
from corpustools.score.fixture import FixtureScore
from corpustools.score.reasons import Verdict
from corpustools.score.report.drilldown import json_text, reason_details, reason_words
from corpustools.score.scoring import RunScore

FLAKY = "flaky"
LINE_FIELD = 160  # a string field longer than this (or of several lines) is shown as a block


def fixture_filters(runs, *, flaky: bool = True) -> list[tuple[str, list[str]]]:
    """The filter choices over `runs`: verdicts (plus `flaky` with several runs of one prompt),
    categories, reason kinds."""
    verdicts = sorted({f.verdict.value for run in runs for f in run.fixtures})
    if flaky and len(runs) > 1:
        verdicts.append(FLAKY)
    declared = list(dict.fromkeys(c.category for c in runs[0].categories))
    reasons = sorted({r.kind.value for run in runs for f in run.fixtures for r in f.reasons})
    return [("verdict", verdicts), ("category", declared), ("reason", reasons)]


def filter_data(fixtures: list[FixtureScore], *, flaky: bool = True, **extra: str) -> str:
    """The data attributes the filter script reads, over every run of one fixture (`flaky` when
    the runs are of one prompt and the fixture passed in some, not all)."""
    verdicts = sorted({f.verdict.value for f in fixtures})
    if flaky and len(fixtures) > 1 and 0 < sum(f.verdict is Verdict.PASS for f in fixtures) < len(fixtures):
        verdicts.append(FLAKY)
    reasons = sorted({r.kind.value for f in fixtures for r in f.reasons})
    attributes = {"verdict": " ".join(verdicts), "category": fixtures[0].category, "reason": " ".join(reasons),
                  **extra}
    return f'data-fixture="{esc(fixtures[0].id)}" ' + " ".join(f'data-{k}="{esc(v)}"' for k, v in attributes.items())


def fixture_rows(runs: tuple[RunScore, ...]) -> list[str]:
    header = ["fixture", "category"] + (["verdict"] if len(runs) == 1 else [f"run {i}" for i in range(1, len(runs) + 1)])
    lines = ['<table class="fixtures">', "<tr>" + "".join(f"<th>{h}</th>" for h in header + ["reasons"]) + "</tr>"]
    for index, first in enumerate(runs[0].fixtures):
        same = [run.fixtures[index] for run in runs]
        reasons = sorted({str(r) for f in same for r in f.reasons})
        cells = ([f'<a href="#{anchor("fixture", first.id)}">{esc(first.id)}</a>', esc(first.category)]
                 + [verdict_badge(f.verdict) for f in same]
                 + [", ".join(f"<code>{esc(r)}</code>" for r in reasons)])
        lines.append(f"<tr {filter_data(same)}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return lines + ["</table>"]


def marked(text: str, terms: list[tuple[str, str, str]], matching: Matching) -> str:
    """`text` escaped, with every span where one of `terms` ((point id, entry, what was found: the
    term or one part of a forbidden combination)) was found by `matching` wrapped in
    `<mark class="forbidden">`; overlapping spans merge into one mark."""
    spans = sorted((start, end, point, entry, found) for point, entry, found in terms
                   for start, end in matching.spans(text, found))
    merged: list[list] = []
    for start, end, point, entry, found in spans:
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
            merged[-1][2].append((point, found, entry))
        else:
            merged.append([start, end, [(point, found, entry)]])
    out, at = [], 0
    for start, end, hits in merged:
        names = sorted(set(hits))
        out.append(block_text(text[at:start]))
        out.append(f'<mark class="forbidden" data-term="{esc(names[0][1])}" data-point="{esc(names[0][0])}" '
                   f'title="{esc("; ".join(f"forbidden by {p}: {e}" for p, _, e in names))}">'
                   f"{block_text(text[start:end])}</mark>")
        at = end
    out.append(block_text(text[at:]))
    return "".join(out)


def block_text(text: str) -> str:
    """Multi-line text escaped, line breaks (CRLF too) and tabs kept; any other control character
    shown escaped, as every report shows text."""
    return "\n".join("\t".join(esc(part) for part in line.split("\t"))
                     for line in text.replace("\r\n", "\n").split("\n"))


def html_code(text: str) -> str:
    return f"<code>{esc(text)}</code>"


def html_title(text: str) -> str:
    """A proposal's title in prose: quoted, in the page's font (names and terms are code)."""
    return f'<q>{esc(text)}</q>'


def reason_spans(fixture: FixtureScore, label: str = "") -> list[str]:
    """Each reason of `fixture` in words (names, terms and titles as code), its code beside it;
    one `span.reason` each (phrasing content: they stand in a `<summary>`), `label` before each."""
    prefix = f'<span class="run-label">{esc(label)}:</span> ' if label else ""
    return [f'<span class="reason" data-reason="{esc(d.reason.kind.value)}">{prefix}'
            f'<span class="words">{reason_words(d, html_code, html_code, esc, html_title)}</span> '
            f'<code class="code">{esc(str(d.reason))}</code></span>' for d in reason_details(fixture)]


def point_block(point: PointEvidence, notes: str | None) -> list[str]:
    """One point: its state, then its terms in the proposals of its type (a matched point: only in
    the proposal(s) that matched it; a missed one: in every proposal, the closest among them)."""
    state = "matched" if point.matched else ("not matched (optional)" if point.optional else "missed")
    lines = [f'<div class="point" data-point="{esc(point.point_id)}" data-matched="{str(point.matched).lower()}">',
             f"<div><code>{esc(point.point_id)}</code> <span class=\"muted\">{esc(point.type)}"
             f"{', optional' if point.optional else ''}</span> — <strong>{esc(state)}</strong>"
             + (f' <span class="muted">{esc(notes)}</span>' if notes else "") + "</div>"]
    if not point.proposals:
        lines.append(f'<div class="proposal muted">no {esc(point.type)} proposal in the output</div>')
    for proposal in (p for p in point.proposals if p.matched or not point.matched):
        terms = "".join(f'<span class="term {"found" if t.found else "absent"}" data-term="{esc(t.term)}">'
                        f"{term_label(t)}</span>" for t in proposal.terms)
        terms += "".join(f'<span class="term {"found" if f.matched else "absent"}" data-field="{esc(f.field)}">'
                         f"{field_label(f)}</span>" for f in proposal.fields)
        lines.append(f'<div class="proposal" data-proposal="{esc(proposal.proposal)}">'
                     f"<code>{esc(proposal.proposal)}</code> {esc(proposal.title)}: {terms}</div>")
    return lines + ["</div>"]


def field_label(check: FieldCheck) -> str:
    """One of a point's item_fields as shown: `dose: "2.5 mg"`, and what was expected when that is
    another value."""
    got = esc(json_text(check.got)) if check.present else "absent"
    shown = f"{esc(check.field)}: {got}"
    if check.matched:
        return shown
    return shown + " (expected " + " or ".join(esc(json_text(v)) for v in check.expected) + ")"


def term_label(check: TermCheck) -> str:
    """A must_match_all entry as shown: the term, or its alternatives with the one found in bold."""
    if len(check.alternatives) < 2:
        return esc(check.term)
    return " | ".join(f"<strong>{esc(a)}</strong>" if a == check.found_term else esc(a) for a in check.alternatives)


def proposal_block(proposal: Item, *, phantom: bool, hits: list[ForbiddenHit]) -> list[str]:
    """The item's title, then each field the output contract shows: a one-line string as a line,
    a longer one as a block, a list as codes; forbidden hits marked where the scorer found them."""
    def field(name: str, text: str) -> str:
        return marked(text, [(h.point_id, h.term, h.found) for h in hits
                             if h.proposal == proposal.name and h.field == name], proposal.matching)

    badge = ' <span class="verdict v-FAIL">phantom</span>' if phantom else ""
    title_field = proposal.title_field
    lines = [f'<div class="output" data-proposal="{esc(proposal.name)}" data-phantom="{str(phantom).lower()}">',
             f"<div><code>{esc(proposal.name)}</code>{badge} <strong>"
             f"{field(title_field, proposal.title) if title_field else esc(proposal.title)}</strong></div>"]
    for name, value in proposal.fields:
        if name == title_field:
            continue  # shown as the title
        if isinstance(value, list):
            codes = ", ".join(f"<code>{field(f'{name}[{i}]', v if isinstance(v, str) else json_text(v))}</code>"
                              for i, v in enumerate(value))
            lines.append(f'<div class="muted">{esc(name)}: {codes or "none"}</div>')
        elif isinstance(value, str) and ("\n" in value or len(value) > LINE_FIELD):
            lines.append(f"<pre>{field(name, value)}</pre>")
        elif isinstance(value, str):
            lines.append(f"<div>{field(name, value)}</div>")
        else:
            lines.append(f'<div class="muted">{esc(name)}: <code>{field(name, json_text(value))}</code></div>')
    return lines + ["</div>"]


def forbidden_label(hit: ForbiddenHit) -> str:
    """The term found, and for a part of a forbidden combination, the combination it belongs to."""
    if hit.found == hit.term:
        return esc(hit.term)
    return f'{esc(hit.found)} <span class="muted">(part of {esc(hit.term)})</span>'


def run_evidence(fixture: FixtureScore, sidecar: Sidecar | None, *, show_reasons: bool = True) -> list[str]:
    """One run's evidence of one fixture: its reasons (unless the summary shows them), points,
    fields, forbidden hits, the output and the diagnostics."""
    lines = []
    if show_reasons:
        lines.append(f"<p>{verdict_badge(fixture.verdict)}</p>" if fixture.verdict is Verdict.PASS
                     else "<p>" + verdict_badge(fixture.verdict) + "".join(reason_spans(fixture)) + "</p>")
    if fixture.status is not FixtureStatus.OK or sidecar is None:
        return lines
    notes = {p.id: p.notes for p in sidecar.all_points}
    points = fixture.evidence  # what the scorer decided on: the page never re-matches
    if points:
        lines.append("<h4>Points</h4>")
    for point in points:
        lines += point_block(point, notes.get(point.point_id))
    if fixture.fields:
        lines += ["<h4>Fields</h4>"]
        lines += table(["field", "expected", "got", ""], [
            [f"<code>{esc(f.pointer)}</code>", " or ".join(f"<code>{esc(json_text(v))}</code>" for v in f.expected),
             f"<code>{esc(json_text(f.got))}</code>" if f.present else '<span class="muted">absent</span>',
             "matched" if f.matched else "<strong>mismatch</strong>"] for f in fixture.fields], "fields")
    hits = list(fixture.forbidden)
    if hits:
        lines += ["<h4>Forbidden terms found</h4>"]
        lines += table(["point", "term", "proposal", "field"],
                       [[f"<code>{esc(h.point_id)}</code>", forbidden_label(h), f"<code>{esc(h.proposal)}</code>",
                         esc(h.field)] for h in hits], "forbidden")
    phantoms = set(fixture.unexpected)
    lines.append(f"<h4>Output ({plural(len(fixture.proposals), 'proposal')}, {plural(len(phantoms), 'phantom')})</h4>")
    if not fixture.proposals:
        lines.append('<p class="muted">The output is empty.</p>')
    for proposal in fixture.proposals:
        lines += proposal_block(proposal, phantom=proposal.name in phantoms, hits=hits)
    if fixture.advisories:
        lines += ["<h4>Advisory diagnostics (never change a verdict)</h4>", "<ul>"]
        lines += [f"<li><code>{esc(str(d))}</code></li>" for d in fixture.advisories] + ["</ul>"]
    return lines


def fixture_block(index: int, runs: list[tuple[str, RunScore]], corpus: ScoringCorpus, *, flaky: bool = True,
                  explained: tuple[str, ...] | None = None, sides: int | None = None, **extra: str) -> list[str]:
    """Fixture `index` of every (label, run): its summary (id, one verdict badge per run, category,
    then the reasons in words of the runs labelled in `explained` — by default every run it did
    not pass in), then one evidence block per run (labelled when there are several) and the
    transcript. `sides`: the runs are a comparison's, the first `sides` of them the base's (the
    badges then say which side is which)."""
    same = [run.fixtures[index] for _, run in runs]
    first = same[0]
    sidecar = corpus.sidecars.get(first.id)
    badges = " ".join(verdict_badge(f.verdict) for f in same)
    if sides is not None:
        badges = ('<span class="muted">base</span> ' + " ".join(verdict_badge(f.verdict) for f in same[:sides])
                  + ' <span class="muted">→ candidate</span> '
                  + " ".join(verdict_badge(f.verdict) for f in same[sides:]))
    shown = [(label, f) for (label, _), f in zip(runs, same, strict=True)
             if f.verdict is not Verdict.PASS and (explained is None or label in explained)]
    reasons = [span for label, f in shown for span in reason_spans(f, label if len(runs) > 1 else "")]
    lines = [f'<details class="fixture" id="{anchor("fixture", first.id)}" {filter_data(same, flaky=flaky, **extra)}>',
             f'<summary><span class="id">{esc(first.id)}</span> {badges} <span class="muted">{esc(first.category)}'
             f"</span>{''.join(reasons)}</summary>"]
    if sidecar is not None and sidecar.notes.strip():
        lines.append(f'<p class="muted">{esc(" ".join(sidecar.notes.split()))}</p>')
    for i, ((label, run), fixture) in enumerate(zip(runs, same, strict=True), 1):
        if len(runs) > 1:
            lines.append(f'<h4 class="run">{esc(label)}: <code>{esc(run.folder)}</code></h4>')
        lines.append(f'<div class="evidence" data-run="{i}">')
        lines += run_evidence(fixture, sidecar, show_reasons=len(runs) > 1) + ["</div>"]
    transcript = corpus.transcripts.get(first.id)
    if transcript is not None:
        lines += ['<details class="transcript"><summary>transcript</summary>',
                  f"<pre>{block_text(transcript)}</pre>", "</details>"]
    return lines + ["</details>"]
