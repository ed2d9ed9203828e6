"""The agreement report as plain text, for a terminal, in the Markdown report's words: the
disagreements first, then the pairs, each level's statistics and counts, the threshold, warnings,
and the verdict line LAST."""

from __future__ import annotations

from corpustools.calibrate.agree import Agreement
from corpustools.calibrate.report.agree.markdown import (
    answer_text,
    fixture_heading,
    pair_text,
    statistics_text,
    summary_parts,
    table_rows,
    threshold_text,
    why_lines,
)
from corpustools.io.positions import printable_lines
from corpustools.reporting.formatting import corpus_line, formats_hint


def render(agreement: Agreement) -> str:
    raters = agreement.raters
    several = len(agreement.pairs) > 1
    lines = []
    for d in agreement.disagreements:
        lines.append(fixture_heading(d, raters, several=several))
        lines += [f"  {answer_text(a, raters)}" for a in d.answers if a.level != "verdicts"]
        lines += [f"  {line}" for line in why_lines(d, raters)]
    lines += [""] if lines else []
    lines.append(corpus_line(agreement.corpus))
    lines += [pair_text(i, pair) for i, pair in enumerate(agreement.pairs, 1)]
    lines.append(f"agreement ({raters[0]} vs {raters[1]}):")
    for level in agreement.levels:
        categories, counts, _ = table_rows(level)
        cells = ", ".join(f"{a}/{b} {counts[i][j]}" for i, a in enumerate(categories) for j, b in enumerate(categories)
                          if counts[i][j] or level.level.answers is not None)
        lines.append(f"  {level.level.label}: {statistics_text(level)}; {cells or 'no pairs'}")
    lines.append(threshold_text(agreement))
    lines += [f"warning: {w}" for w in agreement.warnings]
    head, tail = summary_parts(agreement)
    lines += [formats_hint("agreement.html"), head + tail]
    return printable_lines(lines)
