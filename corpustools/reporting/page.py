"""The page machinery every HTML report shares: escaping, the one stylesheet, the small filter
script, the Wilson-interval bar (inline SVG) and the fixture filter bar.

A page is one self-contained file: inline CSS and JS, no URL anywhere, a Content-Security-Policy
that forbids every fetch and every script and stylesheet but the page's own (allowed by their
sha256, so a missed escape could still not run a script, and the page stays byte-identical across
runs: no nonce), and readable without JS (fixtures are `<details>`; the script only adds the
filters). Everything a user wrote (names, titles, transcripts, paths) goes through `esc`.
Every style is in CSS (no `style` attribute, no event-handler attribute) and the one script is
SCRIPT: the policy allowing exactly those two by their hash covers the whole page.
"""

from __future__ import annotations

import base64
import hashlib
import html
from typing import TYPE_CHECKING

from corpustools.io.positions import printable
from corpustools.reporting.formatting import fraction, interval, percent

if TYPE_CHECKING:  # types only: reporting imports no feature at run time
    from corpustools.manifest import PromptRecord
    from corpustools.score.aggregate import Proportion
    from corpustools.score.scoring import CorpusInfo

CSS = """
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:80rem;padding:1rem 1.5rem;color:#1b1f24;background:#fff;overflow-wrap:break-word}
h1{font-size:1.5rem;margin:.2rem 0 .1rem}h2{font-size:1.2rem;margin:1.6rem 0 .5rem;border-bottom:1px solid #d0d7de}
h3{font-size:1.05rem;margin:1rem 0 .4rem}.subtitle{margin:0 0 .6rem}
table{border-collapse:collapse;margin:.5rem 0;max-width:100%}td,th{border:1px solid #d0d7de;padding:.2rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}.nowrap,table.about td:first-child{white-space:nowrap}code,pre{font-family:ui-monospace,"SFMono-Regular",Menlo,monospace;font-size:12.5px}
code{overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;padding:.5rem;border-radius:4px;max-height:30rem;overflow:auto}
.banner{border-left:6px solid #8c959f;background:#f6f8fa;padding:.6rem .8rem;margin:.6rem 0 .8rem;font-size:15px}
.banner strong{font-size:17px}.banner.bad{border-color:#cf222e;background:#ffebe9}.banner.good{border-color:#1a7f37;background:#dafbe1}
.banner .detail{display:block;font-size:13.5px;margin-top:.25rem}
.verdict{font-weight:600;padding:0 .35rem;border-radius:3px}.v-PASS{background:#dafbe1;color:#116329}
.v-FAIL{background:#ffebe9;color:#a40e26}.v-UNCHECKED{background:#fff8c5;color:#7d4e00}
.warn{background:#fff8c5;border-left:4px solid #d4a72c;padding:.4rem .6rem;margin:.4rem 0}
svg.bar{width:100%;max-width:250px;height:16px;vertical-align:middle;display:block}.muted{color:#57606a}
details.fixture{border:1px solid #d0d7de;border-radius:4px;margin:.35rem 0;padding:.2rem .6rem}
details.fixture>summary{cursor:pointer}details.fixture>summary .id{font-weight:600}details.fixture[open]>summary{margin-bottom:.4rem}
.reason{display:block;margin:.15rem 0 .1rem 1.1rem}.reason .code{display:inline-block;max-width:100%;font-size:11.5px;color:#57606a;background:#f6f8fa;padding:0 .25rem;border-radius:3px}
.reason .run-label{font-weight:600}
.term{display:inline-block;padding:0 .3rem;margin:0 .15rem .15rem 0;border-radius:3px;font-family:ui-monospace,Menlo,monospace;font-size:12.5px}
.term.found{background:#dafbe1;color:#116329}.term.found::before{content:"\\2713 "}
.term.absent{background:#ffebe9;color:#a40e26;text-decoration:line-through}.term.absent::before{content:"\\2717 "}
mark.forbidden{background:#ff8182;color:#000;padding:0 .1rem;border-radius:2px}
.point{margin:.4rem 0 .6rem}.output{border-top:1px dashed #d0d7de;margin-top:.5rem;padding-top:.3rem}.proposal{margin:.15rem 0 .15rem 1rem}
.filters{background:#f6f8fa;padding:.5rem .6rem;border-radius:4px;margin:.5rem 0}.filters label{margin-right:1rem;display:inline-block}
.filters select{max-width:100%}#filter-count{white-space:nowrap}
.transition-lost{color:#a40e26;font-weight:600}.transition-gained{color:#116329;font-weight:600}
.hidden{display:none}h4.run{background:#eef1f4;padding:.2rem .4rem;border-radius:3px;margin-top:1rem}
table.fixtures td:nth-child(-n+2){white-space:nowrap}
ul.runs{padding-left:1.2rem}ul.runs li{margin:.2rem 0}
details.note>summary{cursor:pointer}details.note[open] .more{display:none}details.run>summary{cursor:pointer}details.run>summary>h3{display:inline-block;margin:.8rem 0 .2rem}
"""

# Only the filters: every fixture stays readable (and every <details> openable) without it.
SCRIPT = """
(function(){
  var bar=document.getElementById('filters');if(!bar){return;}
  bar.classList.remove('hidden');
  var selects=bar.querySelectorAll('select');
  function has(list,value){return (' '+(list||'')+' ').indexOf(' '+value+' ')>=0;}
  function apply(){
    var items=document.querySelectorAll('[data-fixture]'),shown=0;
    for(var i=0;i<items.length;i++){
      var ok=true;
      for(var j=0;j<selects.length;j++){
        var v=selects[j].value;
        if(v&&!has(items[i].getAttribute('data-'+selects[j].dataset.key),v)){ok=false;}
      }
      items[i].classList.toggle('hidden',!ok);
      if(ok&&items[i].tagName==='DETAILS'){shown++;}
    }
    document.getElementById('filter-count').textContent=shown+' shown';
  }
  for(var j=0;j<selects.length;j++){selects[j].addEventListener('change',apply);}
  apply();
})();
"""

def csp_source(text: str) -> str:
    """The CSP source allowing exactly the inline element whose text is `text`: `'sha256-...'`."""
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


CSP = (f"default-src 'none'; style-src {csp_source(CSS)}; script-src {csp_source(SCRIPT)}; img-src data:; "
       "base-uri 'none'; form-action 'none'")


def esc(text) -> str:
    """Text as HTML, quotes included; control characters shown escaped, as everywhere else."""
    return html.escape(printable(str(text)), quote=True)


def anchor(kind: str, ident: str) -> str:
    """A stable element id for `ident` (a fixture id may hold any character an id may not)."""
    return kind + "-" + "".join(c if c.isascii() and (c.isalnum() or c in "-_") else f"_{ord(c):x}_" for c in ident)


def heading(title: str, subtitle: str) -> list[str]:
    """The page's heading: what was evaluated (the prompt and its version) in the `<h1>`, and how
    (the command, the runs, the corpus) below it. Both are text, escaped here."""
    return [f"<h1>{esc(title)}</h1>", f'<p class="subtitle muted">{esc(subtitle)}</p>']


def banner(mood: str, headline: str, rest: str = "", detail: str = "") -> str:
    """The verdict, first thing under the heading: `headline` in bold, `rest` after it, `detail` on
    a line of its own; `mood` is `good`, `bad` or `neutral` (the banner's colour)."""
    return (f'<div class="banner {esc(mood)}" id="verdict"><strong>{esc(headline)}</strong>{esc(rest)}'
            + (f'<span class="detail">{esc(detail)}</span>' if detail else "") + "</div>")


def prompts_of(runs) -> list[PromptRecord | None]:
    """The prompt each run's manifest records (None for a run without one)."""
    return [None if run.manifest is None else run.manifest.prompt for run in runs]


def prompt_versions(prompts: list[PromptRecord | None], declared: tuple[str, str] | None = None
                    ) -> dict[str, list[str]]:
    """Prompt name -> its versions, distinct and in order, from run manifests' `prompt`;
    corpus.yaml's prompt_under_eval (`declared`) when no run recorded one."""
    named: dict[str, list[str]] = {}
    for prompt in prompts:
        if prompt is not None:
            versions = named.setdefault(str(prompt.name), [])
            version = "unknown" if prompt.version is None else str(prompt.version)
            versions += [] if version in versions else [version]
    return named or ({declared[0]: [declared[1]]} if declared is not None else {})


def versions_text(versions: list[str]) -> str:
    return ", ".join(f"v{v}" for v in versions)


def prompt_label(prompts: list[PromptRecord | None], declared: tuple[str, str] | None = None) -> str:
    """`proposal-extract v5` (`v5, v8` when one name has two versions): what a page is about."""
    named = prompt_versions(prompts, declared)
    return "; ".join(f"{name} {versions_text(versions)}" for name, versions in named.items()) or "prompt unrecorded"


def versus_label(candidate: list[PromptRecord | None], base: list[PromptRecord | None], declared: tuple[str, str] | None) -> str:
    """`proposal-extract v8 vs v5`; the names on both sides when they differ."""
    cand, old = prompt_versions(candidate, declared), prompt_versions(base, declared)
    if len(cand) == len(old) == 1 and set(cand) == set(old):
        name = next(iter(cand))
        return f"{name} {versions_text(cand[name])} vs {versions_text(old[name])}"
    return f"{prompt_label(candidate, declared)} vs {prompt_label(base, declared)}"


def page(title: str, body: list[str]) -> str:
    head = ['<!DOCTYPE html>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f'<title>{esc(title)}</title>', f'<style>{CSS}</style>', '</head>', '<body>']
    return "\n".join(head + body + [f'<script>{SCRIPT}</script>', '</body>', '</html>']) + "\n"


def verdict_badge(verdict: str) -> str:
    """A verdict (a scorer's Verdict, or a human's PASS | FAIL) as a coloured badge."""
    return f'<span class="verdict v-{esc(verdict)}">{esc(verdict)}</span>'


FOLD_AT = 160  # characters: a longer free text (a run's notes) is folded to its first words


def folded(text: str) -> str:
    """User text as HTML, escaped; over FOLD_AT characters, a closed <details> whose summary is the
    text's first words and a "more" cue, opening to the rest (readable without JS)."""
    if len(text) <= FOLD_AT:
        return esc(text)
    head = text[:FOLD_AT].rsplit(" ", 1)[0]
    return (f'<details class="note"><summary>{esc(head)}<span class="more"> … (more)</span></summary>'
            f'{esc(text[len(head):].lstrip())}</details>')


def table(header: list[str], rows: list[list[str]], cls: str = "") -> list[str]:
    """A table of cells that are ALREADY HTML (escape them when building the rows)."""
    attr = f' class="{cls}"' if cls else ""
    lines = [f"<table{attr}>"] + (["<tr>" + "".join(f"<th>{h}</th>" for h in header) + "</tr>"] if any(header) else [])
    lines += ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows]
    return lines + ["</table>"]


BAR_WIDTH, BAR_HEIGHT = 240, 16


def interval_bar(p: Proportion) -> str:
    """The rate as a dot on a 0-100% track, its 95% Wilson interval as the band around it."""
    bounds, rate = p.interval, p.rate
    if bounds is None or rate is None:
        return range_bar(None, None, None, 1.0, "n/a")
    return range_bar(rate, bounds[0], bounds[1], 1.0, f"{percent(rate)}, 95% CI {interval(p)}")


def range_bar(value: float | None, low: float | None, high: float | None, scale: float, label: str) -> str:
    """`value` as a dot on a track from 0 to `scale`, the band [low, high] around it (clipped to
    the track); an empty track when `value` is None."""
    track = f'<rect x="0" y="6" width="{BAR_WIDTH}" height="4" fill="#d0d7de"/>'
    marks = ""
    if value is not None:
        def x(v: float) -> float:
            return round(min(max(v, 0.0), scale) / scale * BAR_WIDTH, 1) if scale > 0 else 0.0

        if low is not None and high is not None:
            marks += (f'<rect class="ci" x="{x(low)}" y="3" width="{round(x(high) - x(low), 1)}" height="10" rx="2" '
                      'fill="#54aeff" fill-opacity="0.55"/>')
        marks += f'<circle cx="{x(value)}" cy="8" r="4" fill="#0969da"/>'
    pad = 5  # room for the dot at 0% and 100%
    # Its width follows the cell (CSS: at most BAR_WIDTH + 2 * pad px), so a narrow page shrinks it
    # instead of scrolling sideways; the attributes are its size where CSS does not apply.
    return (f'<svg class="bar" role="img" aria-label="{esc(label)}" width="{BAR_WIDTH + 2 * pad}" '
            f'height="{BAR_HEIGHT}" viewBox="-{pad} 0 {BAR_WIDTH + 2 * pad} {BAR_HEIGHT}">'
            f'<title>{esc(label)}</title>{track}{marks}</svg>')


def metric_rows(proportions: list[tuple[str, Proportion]]) -> list[list[str]]:
    """label | count | rate | interval and its bar, one row per proportion."""
    return [[esc(label), esc(fraction(p)), esc(percent(p.rate)), drawn(interval(p), p)] for label, p in proportions]


def drawn(text: str, p: Proportion) -> str:
    """A cell: `text` (escaped), with the Wilson interval bar of `p` under it."""
    return f"{esc(text)}{interval_bar(p)}"


def select(key: str, options: list[str]) -> str:
    items = "".join(f'<option value="{esc(o)}">{esc(o)}</option>' for o in options)
    return (f'<label>{esc(key)} <select id="filter-{esc(key)}" data-key="{esc(key)}"><option value="">all</option>'
            f'{items}</select></label>')


def filter_bar(filters: list[tuple[str, list[str]]]) -> str:
    """One select per (key, choices): it keeps the `[data-fixture]` elements whose space-separated
    `data-KEY` holds the choice. Hidden until the script shows it: without JS nothing filters."""
    return ('<div id="filters" class="filters hidden">' + "".join(select(key, options) for key, options in filters)
            + '<span id="filter-count" class="muted"></span></div>')


def warnings(lines) -> list[str]:
    return [f'<div class="warn">{esc(w)}</div>' for w in lines]


def corpus_text(c: CorpusInfo) -> str:
    return f"corpus {c.name}, version {'unknown' if c.version is None else c.version}"


def corpus_header(c: CorpusInfo) -> list[list[str]]:
    """The corpus's rows of a page's `table.about`: name, version, path and hash."""
    version = "unknown" if c.version is None else str(c.version)
    return [["corpus", f"{esc(c.name)}, version {esc(version)} (<code>{esc(c.path)}</code>)"],
            ["corpus sha256", f"<code>{esc(c.sha256)}</code>"]]
