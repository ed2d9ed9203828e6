"""A deterministic synthetic corpus: spec, sessions, sidecars, results, a prompt and a small KB.

`generate(n, seed, defects)` builds everything in memory as {relative path: bytes} (relative to
the output folder: corpus/..., results/..., prompt.md, kb/...); `write_tree` writes it in a given
order. Only `random.Random` seeded from `seed` is used, so the same arguments give the same bytes.

Shared by bench/make_corpus.py (the command), bench/run.py (the benchmark) and the robustness
tests (bench/ is on pytest's pythonpath; see tests/support/bench.py), so the corpus the benchmark
measures and the one the tests mutate are built by the same code.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import uuid
from collections import Counter
from dataclasses import dataclass, field

from grammar import Sentence, content_words, long_sentence, short_sentence
from results import make_result, run_manifest
from vocabulary import ADJECTIVES, NOUNS, SHORT_REPLIES

from corpustools.lint.rules.term_sibling_form import stem
from corpustools.model.normalize import normalize

CORPUS, RESULTS, PROMPT, KB, PROVENANCE = "corpus", "results", "prompt.md", "kb", "provenance.yaml"
GENERIC_WORDS = frozenset(("use", "always", "never", "config", "code", "file", "test", "module"))
TURNS_MIN, TURNS_MAX = 8, 20
MAX_PER_CATEGORY = 99  # fixture names are <category>-<NN>; keep NN two digits
GROUP_SIZE = 900  # fixtures per copy of the base category table before another copy is added

# The category table of the hand-written corpus: (id, weight, expect, what it tests).
BASE_CATEGORIES = (
    ("admit-convention", 2, "practice", "the user teaches a project convention"),
    ("admit-prohibition", 2, "practice", "a corrective do-this-not-that pattern"),
    ("admit-gotcha", 2, "practice", "a brittle integration taught after a failure"),
    ("admit-rationale", 1, "practice", "a choice explained by what the alternative lacked"),
    ("admit-tooling", 1, "practice", "a non-obvious build or check invocation"),
    ("admit-map-feature", 1, "map", "a new system and its seams"),
    ("admit-map-vocab", 1, "map", "a project term is defined"),
    ("admit-map-location", 1, "map", "where a major system lives"),
    ("reject-abandoned", 2, "empty", "a reversal with no replacement rule"),
    ("reject-exploratory", 2, "empty", "options surveyed, nothing selected"),
    ("reject-unrelated", 1, "empty", "general help unrelated to the project"),
    ("reject-meta-only", 2, "empty", "planning talk only"),
    ("reject-noise", 2, "empty", "first-try work and typo fixes"),
    ("mixed-salvage", 2, "subset", "a durable rule inside ticket narration"),
    ("trap-phantom", 2, "empty", "an imperative inside meta talk"),
)


@dataclass(frozen=True)
class Category:
    id: str
    count: int
    expect: str
    tests: str


@dataclass(frozen=True)
class Turn:
    tag: str  # USER | AGENT (or a malformed tag planted as a defect)
    sentences: tuple[str, ...]
    paragraph_break: int = 0  # index of the sentence that starts a second paragraph; 0 = none

    @property
    def text(self) -> str:
        if not self.paragraph_break:
            return " ".join(self.sentences)
        return " ".join(self.sentences[: self.paragraph_break]) + "\n\n" + " ".join(
            self.sentences[self.paragraph_break:])


@dataclass(frozen=True)
class Fixture:
    id: str
    category: str
    expect: str
    frontmatter: tuple[tuple[str, str], ...]  # key, YAML value text
    turns: tuple[Turn, ...]
    sidecar: dict
    user_phrases: tuple[str, ...]
    agent_phrases: tuple[str, ...]
    result: bytes | None = None
    session_bytes: bytes | None = None  # a raw override, for planted parse defects
    sidecar_bytes: bytes | None = None
    has_session: bool = True
    has_sidecar: bool = True
    sidecar_suffix: str = ".yaml"  # another one plants a misnamed sidecar (CT205)


# Unmasked words drawn from the large pools that every long sentence needs. With fewer, a sentence
# full of code spans and names ("There used to be `x` between every spindle `y`.") has a skeleton
# so short that, among the ~300,000 long sentences of 10,000 fixtures, some pair comes out 90%
# alike and the template check (CT702) rightly flags it.
MIN_CONTENT_WORDS = 5


@dataclass
class SentenceSource:
    """Long sentences, never repeating an unmasked word sequence anywhere in the corpus."""

    rng: random.Random
    seen: set = field(default_factory=set)

    def long(self, *, question: bool = False) -> Sentence:
        while True:
            sentence = long_sentence(self.rng, question=question)
            key = skeleton_key(sentence.text)
            if content_words(key) >= MIN_CONTENT_WORDS and key not in self.seen:
                self.seen.add(key)
                return sentence


_CODE_SPAN = re.compile(r"`[^`]*`")


def skeleton_key(text: str) -> tuple[str, ...]:
    """The words a template check cannot mask: lowercase alphabetic words outside code spans."""
    words = (w.strip(",.?!") for w in _CODE_SPAN.sub(" ", text).split())
    return tuple(w for w in words if w.isalpha() and w.islower())


# -- the spec ----------------------------------------------------------------------------------

def scaled_categories(n: int) -> list[Category]:
    """The base table repeated in groups and scaled to n fixtures (largest remainder, <= 99 each)."""
    groups = max(1, -(-n // GROUP_SIZE))
    table = [(f"{cid}-g{g + 1}" if g else cid, weight, expect, tests)
             for g in range(groups) for cid, weight, expect, tests in BASE_CATEGORIES]
    total_weight = sum(weight for _, weight, _, _ in table)
    shares = [n * weight / total_weight for _, weight, _, _ in table]
    counts = [int(share) for share in shares]
    by_remainder = sorted(range(len(table)), key=lambda i: (-(shares[i] - counts[i]), i))
    for i in by_remainder[: n - sum(counts)]:
        counts[i] += 1
    assert max(counts) <= MAX_PER_CATEGORY
    return [Category(cid, count, expect, tests) for (cid, _, expect, tests), count in zip(table, counts, strict=True)]


def spec_text(name: str, categories: list[Category]) -> str:
    total = sum(c.count for c in categories)
    lines = [f"# Synthetic benchmark corpus ({total} fixtures), made by bench/make_corpus.py.",
             "corpus_version: 1", f"name: {name}", "prompt_under_eval:", "  name: synthetic-extract", "  version: 1",
             "harnesses: [claude]", "turns:", f"  min: {TURNS_MIN}", f"  max: {TURNS_MAX}",
             "lint:", f"  prompt: ../{PROMPT}", f"  kb: ../{KB}", f"  provenance: ../{PROVENANCE}", "categories:"]
    for category in categories:
        lines += [f"  - id: {category.id}", f"    count: {category.count}", f"    expect: {category.expect}",
                  f"    tests: {yaml_scalar(category.tests)}"]
    return "\n".join(lines) + "\n"


# -- YAML writing (a fixed, small shape; hand-written so the bytes never depend on a library) ---

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 _,.'()/-]*[A-Za-z0-9.)]|[A-Za-z]")
_YAML_WORDS = frozenset(("true", "false", "null", "yes", "no", "on", "off", "y", "n"))


def yaml_scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if _PLAIN.fullmatch(value) and ": " not in value and " #" not in value and value.lower() not in _YAML_WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)


def yaml_mapping(data: dict, indent: int = 0) -> list[str]:
    pad, lines = " " * indent, []
    for key, value in data.items():
        if isinstance(value, list) and not value:
            lines.append(f"{pad}{key}: []")
        elif isinstance(value, list):
            lines.append(f"{pad}{key}:")
            for item in value:
                if isinstance(item, dict):
                    inner = yaml_mapping(item, indent + 4)
                    lines.append(f"{pad}  - {inner[0].lstrip()}")
                    lines += inner[1:]
                else:
                    lines.append(f"{pad}  - {yaml_scalar(item)}")
        else:
            lines.append(f"{pad}{key}: {yaml_scalar(value)}")
    return lines


def sidecar_text(data: dict) -> str:
    return "\n".join(yaml_mapping(data)) + "\n"


def session_text(fixture: Fixture) -> str:
    lines = ["---"] + [f"{key}: {value}" for key, value in fixture.frontmatter] + ["---"]
    lines += [f"[{turn.tag}]: {turn.text}" for turn in fixture.turns]
    return "\n".join(lines) + "\n"


# -- sessions and labels -------------------------------------------------------------------------

def frontmatter(rng: random.Random) -> tuple[tuple[str, str], ...]:
    session_id = uuid.UUID(int=rng.getrandbits(128), version=4)
    captured = (f"'{rng.choice((2025, 2026))}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
                f"T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.000Z'")
    return (("schema_version", "1"), ("session_id", str(session_id)), ("harness", "claude"),
            ("captured_at", captured))


def make_turns(rng: random.Random, source: SentenceSource) -> tuple[list[Turn], list[str], list[str]]:
    """8-20 turns starting with USER; -> (turns, phrases said by the user, phrases said by the agent)."""
    count = rng.randint(TURNS_MIN, TURNS_MAX)
    tags = ["USER"]
    while len(tags) < count:
        tags.append("AGENT" if tags[-1] == "USER" or rng.random() < 0.2 else "USER")
    turns: list[Turn] = []
    phrases: dict[str, list[str]] = {"USER": [], "AGENT": []}
    for tag in tags:
        sentences: list[str] = []
        for _ in range(rng.randint(1, 3) if tag == "USER" else rng.randint(1, 5)):
            # a session opens with a long sentence, unique like all of them: short ones repeat
            # across thousands of fixtures, and a repeated opening is CT705's finding
            if (turns or sentences) and rng.random() < 0.25:
                sentence = short_sentence(rng)
            else:
                sentence = source.long(question=tag == "USER" and rng.random() < 0.15)
            sentences.append(sentence.text)
            phrases[tag].extend(sentence.phrases)
        paragraph = rng.randrange(1, len(sentences)) if len(sentences) > 2 and rng.random() < 0.3 else 0
        turns.append(Turn(tag, tuple(sentences), paragraph))
    return turns, phrases["USER"], phrases["AGENT"]


def usable_term(phrase: str, said: Counter) -> bool:
    """One or two words (CT610), not generic (CT605); two words only when the session says the
    phrase more than once (CT612), as a label author keeps the phrases a session repeats."""
    words = phrase.split()
    return (len(words) == 1 or (len(words) == 2 and said[phrase] >= 2)) and len(normalize(phrase)) >= 3 \
        and not GENERIC_WORDS & set(words)


def has_other_form(phrase: str, words: frozenset[str]) -> bool:
    """Whether the session says another form of the phrase's last word, one the phrase does not
    find (`signups` beside "signup"): CT614's finding, which a label author follows by choosing
    another term. Stricter than the rule (the phrase's other words are not looked for)."""
    last = normalize(phrase).split()[-1]
    return any(word[0] == last[0] and not word.startswith(last) and stem(word) == stem(last) for word in words)


def pick_terms(rng: random.Random, pool: list[str], taken: set[str], count: int, said: Counter,
               words: frozenset[str]) -> list[str]:
    """`count` distinct terms from `pool`, none inside another or inside one already taken, none
    with another form in the session's `words`."""
    terms: list[str] = []
    for phrase in rng.sample(pool, len(pool)):
        chosen = terms + sorted(taken)
        if usable_term(phrase, said) and not any(phrase in t or t in phrase for t in chosen) \
                and not has_other_form(phrase, words):
            terms.append(phrase)
            if len(terms) == count:
                break
    return terms


def make_sidecar(rng: random.Random, fixture_id: str, category: Category, user: list[str],
                 agent: list[str], words: frozenset[str]) -> dict | None:
    """Labels any faithful extraction can satisfy, or None if the transcript has too few phrases
    (`words`: the session's normalized words)."""
    points = []
    types = {"practice": ["practice"], "map": ["map"], "subset": ["practice"], "empty": []}[category.expect]
    if types and rng.random() < 0.25:
        types = types + [rng.choice(("practice", "map")) if category.expect == "practice" else types[0]]
    taken: set[str] = set()
    said = Counter(user + agent)
    for index, point_type in enumerate(types):
        terms = pick_terms(rng, user, taken, rng.randint(2, 4), said, words)
        if len(terms) < 2:
            return None
        taken.update(terms)
        points.append({"id": f"{terms[0].split()[-1]}-{('rule', 'map')[point_type == 'map']}-{index + 1}",
                       "type": point_type, "must_match_all": terms})
    if category.expect == "subset":
        # A forbidden term overlapping any point's terms would make the fixture unwinnable.
        labels = [normalize(t) for t in taken]
        forbidden = [p for p in dict.fromkeys(agent)
                     if usable_term(p, said) and not any(normalize(p) in t or t in normalize(p) for t in labels)]
        if not forbidden:
            return None
        points[0]["must_not_match"] = rng.sample(forbidden, min(len(forbidden), rng.randint(1, 2)))
    return {"fixture_id": fixture_id, "category": category.id, "expect_empty": not points,
            "expected_points": points,
            "max_unexpected_proposals": 0 if not points else rng.choice((0, 1, 1, 2)),
            "notes": rng.choice(("Synthetic fixture. ", "Generated. ", "")) + long_sentence(rng).text}


def make_fixture(rng: random.Random, fixture_id: str, category: Category, source: SentenceSource) -> Fixture:
    fm = frontmatter(rng)
    while True:
        turns, user, agent = make_turns(rng, source)
        # the short replies too: a session may be padded with them after it is labelled (defects.py)
        words = frozenset(normalize(" ".join([s for turn in turns for s in turn.sentences] + list(SHORT_REPLIES))).split())
        sidecar = make_sidecar(rng, fixture_id, category, user, agent, words)
        if sidecar is not None:
            break
    result = make_result(rng, sidecar, agent)
    return Fixture(fixture_id, category.id, category.expect, fm, tuple(turns), sidecar, tuple(user), tuple(agent),
                   result)


# -- prompt and knowledge base (for CT703/CT704; sentences unique like the sessions') ----------

PLACEHOLDER = "[TRANSCRIPT PLACEHOLDER, substituted at runtime]"


def prompt_text(source: SentenceSource) -> str:
    paragraphs = [" ".join(source.long().text for _ in range(4)) for _ in range(6)]
    return ("# Synthetic extraction prompt\n\nVersion: 1\n\n" + "\n\n".join(paragraphs)
            + f"\n\n## Transcript\n\n{PLACEHOLDER}\n")


def kb_files(rng: random.Random, source: SentenceSource) -> dict[str, str]:
    files = {}
    for name in sorted(rng.sample(NOUNS, 5)):
        body = "\n\n".join(" ".join(source.long().text for _ in range(3)) for _ in range(4))
        files[f"{KB}/{name}.md"] = f"# The {rng.choice(ADJECTIVES)} {name}\n\n{body}\n"
    return files


# -- the whole tree ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Generated:
    files: dict  # relative path -> bytes
    planted: tuple  # (code, relative path) of every planted defect
    unplanted: tuple  # (code, why) of rule kinds --defects cannot plant


def build_fixtures(n: int, seed: int) -> tuple[list[Category], list[Fixture], SentenceSource, random.Random]:
    master = random.Random(seed)
    source = SentenceSource(random.Random(master.getrandbits(64)))
    categories = scaled_categories(n)
    fixtures = []
    for category in categories:
        for number in range(1, category.count + 1):
            fixture_rng = random.Random(master.getrandbits(64))
            fixtures.append(make_fixture(fixture_rng, f"{category.id}-{number:02d}", category, source))
    return categories, fixtures, source, master


def render(categories: list[Category], fixtures: list[Fixture], name: str) -> dict[str, bytes]:
    files = {f"{CORPUS}/corpus.yaml": spec_text(name, categories).encode()}
    for fixture in fixtures:
        if fixture.has_session:
            files[f"{CORPUS}/sessions/{fixture.id}.md"] = fixture.session_bytes or session_text(fixture).encode()
        if fixture.has_sidecar:
            sidecar = fixture.sidecar_bytes or sidecar_text(fixture.sidecar).encode()
            files[f"{CORPUS}/expected/{fixture.id}{fixture.sidecar_suffix}"] = sidecar
        if fixture.result is not None:
            files[f"{RESULTS}/{fixture.id}.json"] = fixture.result
    return files


def generate(n: int, seed: int = 0, defects: int = 0, codes: tuple[str, ...] | None = None) -> Generated:
    """The corpus of `n` fixtures; with `defects`, that many defects of each kind in `codes`
    (default: defects.FROZEN_PLANTERS, the golden corpus's kinds)."""
    categories, fixtures, source, master = build_fixtures(n, seed)
    prompt = prompt_text(source)
    kb = kb_files(random.Random(master.getrandbits(64)), source)
    planted: list[tuple[str, str]] = []  # (code, path)
    unplanted: tuple = ()
    if defects:
        from defects import FROZEN_PLANTERS, plant

        categories, fixtures, planted, unplanted = plant(
            random.Random(master.getrandbits(64)), categories, fixtures, defects, prompt, kb, codes or FROZEN_PLANTERS)
    files = render(categories, fixtures, f"synthetic-{n}")
    files[PROMPT] = prompt.encode()
    files.update({path: text.encode() for path, text in kb.items()})
    drifted = {path for code, path in planted if code == "CT801"}
    files[PROVENANCE] = provenance_record(files, drifted).encode()
    return Generated(files, tuple(planted), tuple(unplanted))


def provenance_record(files: dict, drifted: set) -> str:
    """The record of review (CT801) as corpustools writes it; `drifted` files get another hash, as
    if edited after review."""
    from corpustools.provenance.records import RECORD_VERSION, render_record

    prefix = CORPUS + "/"
    hashes = {path[len(prefix):]: hashlib.sha256(data if path not in drifted else b"reviewed " + data).hexdigest()
              for path, data in files.items() if path.startswith(prefix)}
    return render_record({
        "record_version": RECORD_VERSION, "recorded": "2026-01-01",
        "corpus": {"path": CORPUS, "name": "synthetic", "version": 1},
        "authoring_prompt": {"path": PROMPT, "sha256": hashlib.sha256(files[PROMPT]).hexdigest()},
        "authored_by": "bench/make_corpus.py", "reviewed_by": "nobody (synthetic)", "files": hashes})


def write_tree(out: str, files: dict, order: list[str] | None = None) -> None:
    """Write `files` under `out` in `order` (default: sorted), then results/run.yaml for the corpus."""
    for relative in order or sorted(files):
        path = os.path.join(out, *relative.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(files[relative])
    manifest = os.path.join(out, RESULTS, "run.yaml")
    os.makedirs(os.path.dirname(manifest), exist_ok=True)
    with open(manifest, "wb") as handle:
        handle.write(run_manifest(out, files[PROMPT]).encode())
