"""Number and Markdown formatting shared by the reporters: one fixed precision everywhere, so
output never depends on float repr or locale; and the one way user text enters Markdown.

Markdown reports are pasted into pull-request comments, which render HTML. Text corpustools did
not write (corpus.yaml, run.yaml, sidecars, model output, worksheets, paths) enters them through
`md` (prose and table cells: `&`, `<` and `>` become character references) or `code` (a code
span; one holding `<` or `&` becomes a `<code>` element with those escaped), so no `<img ...>`,
`</details>` or entity of a user's reaches the page. Control characters are escaped after that,
line by line, by io.positions.printable_lines.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from typing import TYPE_CHECKING

from corpustools.io.documents import dump_json

if TYPE_CHECKING:  # types only: reporting imports no feature at run time
    from corpustools.manifest import PromptRecord, RunManifest
    from corpustools.score.aggregate import Proportion
    from corpustools.score.scoring import CorpusInfo

# An absolute path: POSIX `/x`, a Windows drive `C:\x` or `C:/x`, a UNC `\\host`, or a home `~/x`.
_ABSOLUTE = re.compile(r"^(?:[/\\~]|[A-Za-z]:)")

JSON_DIGITS = 4


def rounded(value: float | None, digits: int = JSON_DIGITS) -> float | None:
    """A float for JSON: fixed precision, and never -0.0."""
    return None if value is None else round(value, digits) + 0.0


def percent(rate: float | None) -> str:
    return "n/a" if rate is None else f"{100 * rate:.1f}%"


def interval(p: Proportion) -> str:
    bounds = p.interval
    return "n/a" if bounds is None else f"{percent(bounds[0])}–{percent(bounds[1])}"


def fraction(p: Proportion) -> str:
    return f"{p.successes}/{p.total}"


def proportion(p: Proportion) -> str:
    """`17/20 (85.0%, 95% CI 64.0%–94.8%)`."""
    if not p.total:
        return f"{fraction(p)} (n/a)"
    return f"{fraction(p)} ({percent(p.rate)}, 95% CI {interval(p)})"


def metric_number(value: float | None, *, is_rate: bool) -> str:
    """A metric value: a rate as a percentage, a count with one decimal (it may be a mean)."""
    if value is None:
        return "n/a"
    return percent(value) if is_rate else f"{value:.1f}"


def run_value(value: float | None, *, is_rate: bool) -> str:
    """One run's value of a metric: a rate as a percentage, a count as the whole number it is."""
    return _whole_count(value, is_rate=is_rate) or metric_number(value, is_rate=is_rate)


def metric_spread(value: float | None, *, is_rate: bool) -> str:
    """A standard deviation or a delta's size: percentage points for rates."""
    if value is None:
        return "n/a"
    return f"{100 * value:.1f} pp" if is_rate else f"{value:.1f}"


def run_spread(value: float | None, *, is_rate: bool) -> str:
    """A spread as a page shows it: percentage points for rates; a count's, whole when it is."""
    return _whole_count(value, is_rate=is_rate) or metric_spread(value, is_rate=is_rate)


def _whole_count(value: float | None, *, is_rate: bool) -> str | None:
    """A count that is a whole number, as that number (`3`, not `3.0`); None for anything else."""
    if value is None or is_rate or not float(value).is_integer():
        return None
    return str(int(value))


def plural(count: int, noun: str) -> str:
    """`1 fixture`, `0 fixtures`, `3 fixtures`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def signed(value: float | None, *, is_rate: bool) -> str:
    """A delta with its sign: percentage points for rates; a count's whole when it is (`+2`);
    a delta that shows as zero has no sign."""
    if value is None:
        return "n/a"
    magnitude = run_spread(abs(value), is_rate=is_rate)
    if magnitude in ("0.0 pp", "0.0", "0"):
        return magnitude
    return ("+" if value > 0 else "−") + magnitude


_MARKUP = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_UNMARKUP = (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"))  # `&amp;` last: `&amp;lt;` is `&lt;`
# What starts Markdown inline syntax inside an HTML element (backslash escapes render literally).
_INLINE_SYNTAX = re.compile(r"([\\`*_\[\]~!])")


def md(text) -> str:
    """User text for Markdown prose or a table cell: `&`, `<` and `>` as character references
    (CommonMark renders them as the characters; nothing a user wrote opens HTML or an entity)."""
    return str(text).translate(_MARKUP)


def unmd(text: str) -> str:
    """The text `md` was given (for reading a cell back, e.g. a history row)."""
    for reference, char in _UNMARKUP:
        text = text.replace(reference, char)
    return text


def code(text: str) -> str:
    """A Markdown code span that survives backticks inside the text. A code span shows `<` and
    `&` as they are, and so would hand `<img ...>` to any renderer that is not exactly CommonMark:
    text holding either becomes a `<code>` element instead, with `&`, `<` and `>` as character
    references and Markdown syntax backslash-escaped (rendered the same, monospace)."""
    if "<" in text or "&" in text:
        return "<code>" + md(_INLINE_SYNTAX.sub(r"\\\1", text)) + "</code>"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def cell(text: str) -> str:
    """Text for a Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def row_line(cells) -> str:
    return "| " + " | ".join(cell(c) for c in cells) + " |"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return lines + [row_line(row) for row in rows]


def scalar(value) -> str:
    if value is None:
        return "unrecorded"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def shown_path(path) -> str | None:
    """`path` when a report may print it: relative and not climbing out with `..`; else None.
    A report never names a file outside the tree it was run in (a run.yaml records the prompt
    path as given, e.g. `../shared/prompt.md` or `/home/me/prompt.md`)."""
    if not isinstance(path, str) or not path or _ABSOLUTE.match(path):
        return None
    normal = posixpath.normpath(path.replace("\\", "/"))
    return None if normal == ".." or normal.startswith("../") else path


def public_manifest(manifest: RunManifest | None) -> dict | None:
    """run.yaml as a JSON report prints it, as written: the prompt's path is null unless shown_path allows it."""
    if manifest is None:
        return None
    document = manifest.document
    return {**document, "prompt": {**document["prompt"], "path": shown_path(manifest.prompt.path)}}


def prompt_field(prompt: PromptRecord) -> str:
    """`proposal-extract, version 5 (prompts/p.md, sha256 a52ec9274a49)`: name, version and hash
    always, the path only when shown_path allows it."""
    path = shown_path(prompt.path)
    return (f"{prompt.name}, version {scalar(prompt.version)} ("
            + (f"{path}, " if path else "") + f"sha256 {prompt.sha256[:12]})")


def manifest_fields(manifest: RunManifest | None) -> list[tuple[str, str]]:
    """What the report header says about how a run was produced (label, value)."""
    if manifest is None:
        return [(label, "unrecorded") for label in ("prompt", "model", "temperature", "harness", "date")]
    fields = [
        ("prompt", prompt_field(manifest.prompt)),
        ("model", scalar(manifest.model)),
        ("temperature", scalar(manifest.temperature)),
        ("harness", scalar(manifest.harness)),
        ("operator", scalar(manifest.operator)),
        ("date", scalar(manifest.started_at)),
    ]
    cost = manifest.cost
    if cost:
        parts = [f"{cost[k]} {k.replace('_', ' ')}" for k in ("input_tokens", "output_tokens") if k in cost]
        if "usd" in cost:
            parts.append(f"{cost['usd']:.2f} USD" if isinstance(cost["usd"], (int, float)) else str(cost["usd"]))
        fields.append(("cost", ", ".join(parts)))
    if manifest.notes.strip():
        fields.append(("notes", manifest.notes))
    return fields


def markdown_opening(command: str, c: CorpusInfo, summary: str) -> list[str]:
    """A Markdown report's first lines: `# corpustools COMMAND: <corpus> v<version>`, its summary
    line, and the corpus table (name, version and path; sha256)."""
    version = "unknown" if c.version is None else str(c.version)
    return ([f"# corpustools {command}: {md(c.name)}" + ("" if c.version is None else f" v{c.version}"), "",
             summary, ""]
            + table(["", ""], [["corpus", f"{md(c.name)}, version {version} ({code(c.path)})"],
                               ["corpus sha256", code(c.sha256)]]) + [""])


def corpus_line(c: CorpusInfo) -> str:
    version = "unknown" if c.version is None else str(c.version)
    return f"corpus: {c.name}, version {version} ({c.path}, sha256 {c.short_sha})"


def formats_hint(output: str) -> str:
    """The line naming the other forms of the same report: add an option to the same command."""
    return (f"more: add --format markdown (for a pull request) or --format html --output {shlex.quote(output)} "
            "(a page to open in a browser)")


def dumps(data) -> str:
    """A JSON report: indented, non-ASCII as is, one final newline."""
    return dump_json(data, indent=2) + "\n"


def proportion_dict(p: Proportion) -> dict:
    bounds = p.interval
    return {"successes": p.successes, "total": p.total, "rate": rounded(p.rate),
            "low": rounded(bounds[0]) if bounds else None, "high": rounded(bounds[1]) if bounds else None}


def corpus_dict(info: CorpusInfo) -> dict:
    return {"name": info.name, "version": info.version, "sha256": info.sha256, "path": info.path}
