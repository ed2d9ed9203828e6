"""The agreement report as one self-contained HTML page: the verdict line as a banner, each
disagreeing fixture (filterable by level, category and pair), then the agreement per level with
its Wilson interval drawn, the threshold, the confusion tables and the pairs."""

from __future__ import annotations

from corpustools.calibrate.agree import LEVEL_BY_KEY, Agreement, FixtureDisagreement
from corpustools.calibrate.report.agree.markdown import (
    AGREEMENT_HEADER,
    agreement_rows,
    answer_text,
    fixture_heading,
    per_pair_rows,
    side_text,
    summary_parts,
    table_rows,
    threshold_text,
    why_lines,
)
from corpustools.reporting.formatting import plural
from corpustools.reporting.page import (
    anchor,
    banner,
    corpus_header,
    corpus_text,
    drawn,
    esc,
    filter_bar,
    heading,
    page,
    table,
    warnings,
)


def fixture_block(d: FixtureDisagreement, raters: tuple[str, str], *, several: bool) -> list[str]:
    levels = sorted({a.level for a in d.answers})
    lines = [f'<details class="fixture" id="{anchor(f"pair{d.pair}", d.fixture)}" data-fixture="{esc(d.fixture)}" '
             f'data-pair="{d.pair}" data-category="{esc(d.category)}" data-level="{esc(" ".join(levels))}">',
             f'<summary><span class="id">{esc(fixture_heading(d, raters, several=several))}</span>'
             + "".join(f'<span class="reason disagreement" data-level="{esc(a.level)}"><span class="words">'
                       f'{esc(answer_text(a, raters))}</span></span>' for a in d.answers if a.level != "verdicts")
             + "</summary>"]
    lines += [f'<p class="muted">{esc(line)}</p>' for line in why_lines(d, raters)]
    return lines + ["</details>"]


def render(agreement: Agreement) -> str:
    c = agreement.corpus
    raters = agreement.raters
    several = len(agreement.pairs) > 1
    how = (f"corpustools agree: {raters[0]} against {raters[1]} on {plural(len(agreement.pairs), 'pair')} of "
           f"worksheets, {corpus_text(c)}")
    head, tail = summary_parts(agreement)
    failed = any(not gate.passed for gate in agreement.gates)
    body = heading(f"{raters[0]} and {raters[1]}", how)
    body.append(banner("bad" if failed else "good" if not agreement.disagreements else "neutral", head, tail))
    body += warnings(agreement.warnings)
    found = agreement.disagreements
    filters = [("level", sorted({a.level for d in found for a in d.answers})),
               ("category", sorted({d.category for d in found})),
               ("pair", [str(i) for i in range(1, len(agreement.pairs) + 1)])]
    body += [f"<h2>Disagreements ({plural(len(found), 'fixture')})</h2>", filter_bar(filters)]
    if not found:
        body.append("<p>None: the raters agree on every answer.</p>")
    for d in found:
        body += fixture_block(d, raters, several=several)
    rows = agreement_rows(agreement)
    body += ["<h2>Agreement</h2>", f"<p>{esc(raters[0])} against {esc(raters[1])}, pooled over every pair.</p>"]
    body += table([esc(h) for h in AGREEMENT_HEADER],
                  [[esc(row[0]), esc(row[1]), esc(row[2]), drawn(row[3], level.percent), *(esc(x) for x in row[4:])]
                   for row, level in zip(rows, agreement.levels, strict=True)], "metrics")
    body += ["<h2>Threshold</h2>", f"<p>{esc(threshold_text(agreement))}.</p>"]
    for level in agreement.levels:
        categories, counts, other_point = table_rows(level)
        body += [f"<h3>{esc(LEVEL_BY_KEY[level.level.key].label)}</h3>"]
        body += table([esc(f"{raters[0]} \\ {raters[1]}"), *(esc(x) for x in categories)],
                      [[esc(category), *(str(n) for n in row)] for category, row in zip(categories, counts, strict=True)])
        if other_point:
            body.append(f"<p>Of the pairs on the diagonal, {other_point} named two different points of one kind.</p>")
    if several:
        body += ["<h3>Per pair</h3>"] + table(["pair", "run"] + [esc(level.level.label) for level in agreement.levels],
                                              [[esc(cell) for cell in row] for row in per_pair_rows(agreement)])
    body += ["<h2>The corpus and the pairs</h2>"] + table(["", ""], corpus_header(c), "about")
    body += table(["pair", "run", esc(raters[0]), esc(raters[1]), "fixtures compared"],
                  [[str(i), f"<code>{esc(p.results)}</code>", esc(side_text(p.first)), esc(side_text(p.second)),
                    str(p.fixtures)] for i, p in enumerate(agreement.pairs, 1)])
    return page(f"{raters[0]} and {raters[1]} · corpustools agree · {corpus_text(c)}", body)
