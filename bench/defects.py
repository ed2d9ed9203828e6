"""Planting K defects of every lint rule kind into a generated corpus (make_corpus.py --defects K).

Each planter changes one fixture (or the spec) so that exactly its rule should fire there, and
says where the diagnostic is expected: (code, path relative to the output folder). Defects go to
distinct fixtures, and sentences copied for CT102/CT701/CT702 come from clean donor fixtures, so
one defect never hides another. Some defects cascade (an unknown category also changes its old
category's count); the list records only what was planted.

The corpus-level kinds (CT404-CT406: few lengths, one dominant shape, a uniform category) are
planted once, whatever K, by padding every session without a turn defect to 20 turns; CT705
(one opening frame) prepends one short sentence frame to three sessions per K.

The golden corpus (tests/test_golden.py) and the 10,000-fixture digest plant FROZEN_PLANTERS only:
that tuple never grows, so a new rule's planter (a `ct###` method of Planter, found by its name)
changes no golden file. It is planted only when asked for, `plant(..., codes=("CT901",))`, which
the rule's own test does (tests/support/bench.planted_but_not_reported).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace

from corpusgen import CORPUS, Category, Fixture, Turn, session_text, sidecar_text
from grammar import LONG_SENTENCE_TOKENS
from vocabulary import NOUNS, SHORT_REPLIES

from corpustools.lint.families.skeleton import text_sentences
from corpustools.lint.rules.term_sibling_form import stem
from corpustools.model.normalize import normalize

# What the golden corpus and the 10,000-fixture digest plant: the planters of the day the golden
# files were frozen (issue 35). Never add a code here, or every golden file moves: a new planter is
# planted when its code is asked for (see the module's docstring).
FROZEN_PLANTERS = (
    "CT001", "CT002", "CT004", "CT005", "CT101", "CT102", "CT103", "CT201", "CT202", "CT203", "CT204", "CT205",
    "CT301", "CT302", "CT303", "CT401", "CT402", "CT403", "CT404", "CT405", "CT406", "CT407",
    "CT501", "CT502", "CT503", "CT504", "CT505", "CT506", "CT507", "CT508",
    "CT601", "CT602", "CT603", "CT604", "CT605", "CT606", "CT607", "CT608", "CT609", "CT610", "CT611", "CT612",
    "CT613", "CT614", "CT701", "CT702", "CT703", "CT704", "CT705", "CT801",
)
# Planted across the corpus rather than by a Planter method: monotone turns (CT404-CT406), one
# opening frame (CT705), a drifted provenance hash (CT801), a category count (CT301).
CORPUS_LEVEL = ("CT301", "CT404", "CT405", "CT406", "CT705", "CT801")

NOT_PLANTED = (
    ("CT003", "a spec-invalid corpus.yaml switches off every rule that needs the spec (CT004's harness "
              "check, CT204, CT301-CT303, CT401), so it would hide the other planted defects; "
              "the fuzz tests cover it"),
    ("CT509", "an unused `lint: secrets: allow:` entry is a line of corpus.yaml, not a defect of a fixture; "
              "tests/adversarial/test_secret_findings.py covers it"),
    ("CT615", "an unused `lint: per_point_ignores:` entry is a line of corpus.yaml, not a defect of a fixture; "
              "tests/test_second_user.py covers it"),
)
# Nouns whose plural the stemmer joins to them (CT614's planted term is the plural).
_PLURAL_NOUNS = [noun for noun in NOUNS if stem(noun + "s") == stem(noun)]
UNWINNABLE = "quixotic marmalade"  # no vocabulary word: never in a transcript
RARE_WORD = "zephyrine"  # no vocabulary word: a phrase with it is said only where it is planted

# Short sentences (under the template check's 8 tokens) carrying each contact or secret shape.
SECRETS = {
    "CT501": lambda k: f"It printed AKIAIOSFODNN7EXAMPL{k % 10} again.",
    "CT502": lambda k: f'I set `password = "bramble{k}lantern"` there.',
    "CT503": lambda k: f"Clone https://deploy:hedge{k}moss@git.fernhollow.org/site.git first.",
    "CT504": lambda k: f"It serves staging{k}.fernhollow.org now.",
    "CT505": lambda k: f"It answers on 10.20.30.{k % 250 + 1} today.",
    "CT506": lambda k: f"Mail webteam{k}@fernhollow.org about it.",
    "CT507": lambda k: f"Call +44 20 7946 {k % 10000:04d} tomorrow.",
}


def _session(fixture: Fixture) -> str:
    return f"{CORPUS}/sessions/{fixture.id}.md"


def _sidecar(fixture: Fixture) -> str:
    return f"{CORPUS}/expected/{fixture.id}.yaml"


def _append(fixture: Fixture, sentence: str, tag: str = "USER") -> Fixture:
    """`sentence` appended to the last turn tagged `tag`."""
    turns = list(fixture.turns)
    index = max(i for i, turn in enumerate(turns) if turn.tag == tag)
    turns[index] = replace(turns[index], sentences=turns[index].sentences + (sentence,))
    return replace(fixture, turns=tuple(turns))


def _with_points(fixture: Fixture, points: list[dict]) -> Fixture:
    return replace(fixture, sidecar={**fixture.sidecar, "expected_points": points})


def _points(fixture: Fixture) -> list[dict]:
    return [dict(point, must_match_all=list(point["must_match_all"])) for point in fixture.sidecar["expected_points"]]


def _set_term(fixture: Fixture, term: str) -> Fixture:
    """`term` as the first point's last term, keeping 2-4 terms."""
    points = _points(fixture)
    terms = points[0]["must_match_all"]
    if len(terms) < 4:
        terms.append(term)
    else:
        terms[-1] = term
    return _with_points(fixture, points)


def _frontmatter(fixture: Fixture, key: str, value: str) -> Fixture:
    return replace(fixture, frontmatter=tuple((k, value if k == key else v) for k, v in fixture.frontmatter))


def _long_sentences(fixture: Fixture, tag: str | None = None) -> list[str]:
    return [s for turn in fixture.turns if tag in (None, turn.tag) for s in turn.sentences
            if len(s.split()) >= LONG_SENTENCE_TOKENS]


@dataclass
class Planter:
    rng: random.Random
    prompt_sentences: list[str]
    kb_sentences: list[str]

    # -- parse and schema ----------------------------------------------------------------------
    def ct001(self, k, fixture, donor):
        broken = session_text(fixture).encode()
        broken = broken.split(b"---\n", 2)[2] if k % 2 else broken.replace(b"[AGENT]:", b"[AGENT]: \xff", 1)
        return replace(fixture, session_bytes=broken), _session(fixture)

    def ct508(self, k, fixture, donor):  # a stray non-UTF-8 byte: CT001 too, and the scan reads past it
        broken = session_text(fixture).encode().replace(b"[USER]:", b"[USER]: \xe9", 1)
        return replace(fixture, session_bytes=broken), _session(fixture)

    def ct407(self, k, fixture, donor):  # a zero-width space inside a word
        return _append(fixture, "It runs in the queue\u200bworker.", "USER"), _session(fixture)

    def ct002(self, k, fixture, donor):
        text = sidecar_text(fixture.sidecar)
        broken = text + f"category: {fixture.category}\n" if k % 2 else "- " + text.replace("\n", "\n  ")
        return replace(fixture, sidecar_bytes=broken.rstrip(" ").encode()), _sidecar(fixture)

    def ct004(self, k, fixture, donor):
        key, value = (("schema_version", "2"), ("harness", "gpt-shell"), ("captured_at", "'last tuesday'"))[k % 3]
        return _frontmatter(fixture, key, value), _session(fixture)

    def ct005(self, k, fixture, donor):
        sidecar = dict(fixture.sidecar)
        if k % 2:
            del sidecar["notes"]
        else:
            sidecar["max_unexpected_proposals"] = "two"
        return replace(fixture, sidecar=sidecar), _sidecar(fixture)

    # -- identity and naming ---------------------------------------------------------------------
    def ct101(self, k, fixture, donor):
        session_id = dict(fixture.frontmatter)["session_id"]
        bad = session_id.upper() if k % 2 else session_id[:14] + "1" + session_id[15:]
        return _frontmatter(fixture, "session_id", bad), _session(fixture)

    def ct102(self, k, fixture, donor):
        return _frontmatter(fixture, "session_id", dict(donor.frontmatter)["session_id"]), _session(fixture)

    def ct103(self, k, fixture, donor):  # a counter dressed as a UUID v4
        return _frontmatter(fixture, "session_id", f"10000000-0000-4000-8000-{k + 1:012x}"), _session(fixture)

    def ct201(self, k, fixture, donor):
        return replace(fixture, has_sidecar=False), _session(fixture)

    def ct202(self, k, fixture, donor):
        return replace(fixture, has_session=False), _sidecar(fixture)

    def ct203(self, k, fixture, donor):
        return replace(fixture, sidecar={**fixture.sidecar, "fixture_id": f"{fixture.id}-old"}), _sidecar(fixture)

    def ct204(self, k, fixture, donor):
        renamed = f"{fixture.category}-draft{k}"
        fixture = replace(fixture, id=renamed, sidecar={**fixture.sidecar, "fixture_id": renamed})
        return fixture, _sidecar(fixture)

    def ct205(self, k, fixture, donor):
        fixture = replace(fixture, sidecar_suffix=".yml")
        return fixture, f"{CORPUS}/expected/{fixture.id}.yml"

    def ct302(self, k, fixture, donor):
        category, renamed = f"unlisted-{k}", f"unlisted-{k}-01"
        fixture = replace(fixture, id=renamed, category=category,
                          sidecar={**fixture.sidecar, "fixture_id": renamed, "category": category})
        return fixture, _sidecar(fixture)

    def ct303(self, k, fixture, donor):  # a practice category whose points are all maps
        return _with_points(fixture, [dict(p, type="map") for p in _points(fixture)]), _sidecar(fixture)

    # -- turns -----------------------------------------------------------------------------------
    def ct401(self, k, fixture, donor):
        extra = [Turn("AGENT" if (len(fixture.turns) + i) % 2 else "USER", ("Noted.",))
                 for i in range(22 - len(fixture.turns))]
        return replace(fixture, turns=fixture.turns + tuple(extra)), _session(fixture)

    def ct402(self, k, fixture, donor):
        tag = ("SYSTEM", "user", "TOOL")[k % 3]
        turns = fixture.turns[:1] + (Turn(tag, ("Context follows.",)),) + fixture.turns[1:]
        return replace(fixture, turns=turns), _session(fixture)

    def ct403(self, k, fixture, donor):
        return replace(fixture, turns=(Turn("AGENT", ("Picking this up.",)),) + fixture.turns), _session(fixture)

    def secret(self, code):
        def plant(k, fixture, donor):
            return _append(fixture, SECRETS[code](k), self.rng.choice(("USER", "AGENT"))), _session(fixture)
        return plant

    # -- labels ----------------------------------------------------------------------------------
    def ct601(self, k, fixture, donor):
        return _set_term(fixture, UNWINNABLE), _sidecar(fixture)

    def ct602(self, k, fixture, donor):
        user = normalize(" ".join(s for t in fixture.turns if t.tag == "USER" for s in t.sentences))
        agent_only = [p for p in fixture.agent_phrases if normalize(p) not in user and len(p) >= 3]
        return _set_term(fixture, agent_only[0]), _sidecar(fixture)

    def ct603(self, k, fixture, donor):
        points = _points(fixture)
        points[0]["must_match_all"][0] = points[0]["must_match_all"][0].title()
        return _with_points(fixture, points), _sidecar(fixture)

    def ct604(self, k, fixture, donor):
        points = _points(fixture)
        points[0]["must_match_all"] = points[0]["must_match_all"][:1]
        return _with_points(fixture, points), _sidecar(fixture)

    def ct605(self, k, fixture, donor):
        word = ("config", "module", "test")[k % 3]
        return _set_term(_append(fixture, f"Check the {word} first."), word), _sidecar(fixture)

    def ct606(self, k, fixture, donor):
        return _set_term(fixture, "--"), _sidecar(fixture)

    def ct607(self, k, fixture, donor):
        points = _points(fixture)
        points[0]["must_not_match"] = list(points[0].get("must_not_match", [])) + [UNWINNABLE]
        return _with_points(fixture, points), _sidecar(fixture)

    def ct608(self, k, fixture, donor):
        points = _points(fixture)
        longest = max(points[0]["must_match_all"], key=len)  # a part of it: the point can never pass
        points[0]["must_not_match"] = [longest.split()[-1] if " " in longest else longest[:-1]]
        return _with_points(fixture, points), _sidecar(fixture)

    def ct609(self, k, fixture, donor):
        points = _points(fixture)
        return _with_points(fixture, points + [dict(points[0])]), _sidecar(fixture)

    def ct610(self, k, fixture, donor):
        for sentence in _long_sentences(fixture, "USER"):
            words = sentence.split()
            for start in range(1, len(words) - 3):
                if all(re.fullmatch(r"[a-z]+", w) for w in words[start:start + 4]):
                    return _set_term(fixture, " ".join(words[start:start + 4])), _sidecar(fixture)
        raise ValueError(f"{fixture.id}: no four plain words in a row")

    def ct611(self, k, fixture, donor):
        noun = NOUNS[k % len(NOUNS)]
        return _set_term(_append(fixture, f"Then move the {noun} aside."), f"the {noun}"), _sidecar(fixture)

    def ct612(self, k, fixture, donor):
        noun = NOUNS[k % len(NOUNS)]
        return _set_term(_append(fixture, f"It was a {RARE_WORD} {noun}."), f"{RARE_WORD} {noun}"), _sidecar(fixture)

    def ct613(self, k, fixture, donor):
        noun = NOUNS[k % len(NOUNS)]
        return _set_term(_append(fixture, f"Keep the {noun}, don't drop it."), "don't drop"), _sidecar(fixture)

    def ct614(self, k, fixture, donor):  # the plural as the term, the session saying the singular too
        noun = _PLURAL_NOUNS[k % len(_PLURAL_NOUNS)]
        return _set_term(_append(fixture, f"Stack the {noun}s by the other {noun}."), f"{noun}s"), _sidecar(fixture)

    # -- copied sentences ------------------------------------------------------------------------
    def ct701(self, k, fixture, donor):
        return _append(fixture, _long_sentences(donor)[0]), _session(fixture)

    def ct702(self, k, fixture, donor):
        """The donor's longest sentence with one noun swapped for another of the same length."""
        for sentence in sorted(_long_sentences(donor), key=len, reverse=True):
            words = sentence.split()
            nouns = [i for i in range(1, len(words)) if words[i] in NOUNS]
            if len(words) >= 12 and nouns:
                swapped = words[nouns[-1]]
                words[nouns[-1]] = next(n for n in NOUNS if len(n) == len(swapped) and n != swapped)
                return _append(fixture, " ".join(words)), _session(fixture)
        raise ValueError(f"{donor.id}: no long sentence to vary")

    def ct703(self, k, fixture, donor):
        return _append(fixture, self.prompt_sentences[k % len(self.prompt_sentences)]), _session(fixture)

    def ct704(self, k, fixture, donor):
        return _append(fixture, self.kb_sentences[k % len(self.kb_sentences)]), _session(fixture)


def _has_points(f: Fixture) -> bool:
    return bool(f.sidecar["expected_points"])


def _eligible(code: str):
    """Which fixtures a code can be planted in."""
    if code == "CT303":
        return lambda f: f.expect == "practice"
    if code == "CT602":
        return lambda f: f.expect == "practice" and f.sidecar["expected_points"][0]["type"] == "practice" and any(
            normalize(p) not in normalize(" ".join(s for t in f.turns if t.tag == "USER" for s in t.sentences))
            for p in f.agent_phrases)
    if code == "CT704":
        return lambda f: f.expect in ("practice", "map", "subset")
    if code in ("CT403", "CT401"):
        return lambda f: len(f.turns) < 20
    if code.startswith("CT6"):
        return _has_points
    return lambda f: True


# Planted defects that change a session's turns: a monotone corpus leaves those sessions alone.
TURN_DEFECTS = ("CT001", "CT202", "CT401", "CT402", "CT403")
MONOTONE_TURNS = 20


def _padded(rng: random.Random, fixture: Fixture) -> Fixture:
    """The fixture with short turns appended up to MONOTONE_TURNS (never removed), as close to
    10 user + 10 agent turns as its turns allow: most padded sessions have that one shape."""
    user = sum(1 for turn in fixture.turns if turn.tag == "USER")
    agent = len(fixture.turns) - user
    want_user = max(user, MONOTONE_TURNS - max(agent, MONOTONE_TURNS // 2))
    want_agent = MONOTONE_TURNS - want_user
    extra: list[Turn] = []
    while user < want_user or agent < want_agent:
        tag = "USER" if user < want_user and (agent >= want_agent or (extra and extra[-1].tag == "AGENT")) \
            else "AGENT"
        user, agent = user + (tag == "USER"), agent + (tag == "AGENT")
        extra.append(Turn(tag, (rng.choice(SHORT_REPLIES),)))
    return replace(fixture, turns=fixture.turns + tuple(extra))


def plant_monotone(rng: random.Random, categories: list[Category], fixtures: list[Fixture],
                   planted: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """CT404, CT405 and CT406 are facts about the whole corpus, so they are planted by making
    the whole corpus monotone: every session without a turn defect is padded to
    MONOTONE_TURNS turns (one length, mostly one shape, every such category uniform). Returns
    the planted (code, path) pairs, at corpus.yaml."""
    skipped = {path for code, path in planted if code in TURN_DEFECTS}
    padded_ids = set()
    for position, fixture in enumerate(fixtures):
        if fixture.has_session and fixture.session_bytes is None and _session(fixture) not in skipped \
                and len(fixture.turns) <= MONOTONE_TURNS:
            fixtures[position] = _padded(rng, fixture)
            padded_ids.add(fixture.id)
    by_category: dict[str, list[Fixture]] = {}
    for fixture in fixtures:
        by_category.setdefault(fixture.category, []).append(fixture)
    uniform = [c.id for c in categories
               if len(by_category.get(c.id, [])) >= 3 and all(f.id in padded_ids for f in by_category[c.id])]
    if not uniform:
        raise ValueError("CT406: no category of 3 or more fixtures is left without a turn defect; use a larger N")
    spec = f"{CORPUS}/corpus.yaml"
    return [("CT404", spec), ("CT405", spec), ("CT406", spec)]


def plant_openings(k: int, fixtures: list[Fixture], free: list[int]) -> list[tuple[str, str]]:
    """CT705: three sessions (per K) open with one short sentence frame, a code span swapped."""
    planted = []
    for number in range(k):
        group = [free.pop() for _ in range(3)]
        for index, position in enumerate(group):
            fixture = fixtures[position]
            opening = f"Quick question about the `{NOUNS[number % len(NOUNS)]}_{index}` module."
            first = replace(fixture.turns[0], sentences=(opening,) + fixture.turns[0].sentences)
            fixtures[position] = replace(fixture, turns=(first,) + fixture.turns[1:])
        planted.append(("CT705", _session(min((fixtures[p] for p in group), key=lambda f: f.id))))
    return planted


def _sentences_of(text: str) -> list[str]:
    return [s.text for s in text_sentences(text) if s.tokens >= LONG_SENTENCE_TOKENS and s.words >= 3]


def planter_codes() -> tuple[str, ...]:
    """Every code bench/defects.py can plant, frozen or not, in code order."""
    methods = {f"CT{name[2:]}" for name in vars(Planter) if re.fullmatch(r"ct\d{3}", name)}
    return tuple(sorted(methods | set(SECRETS) | set(CORPUS_LEVEL)))


def _planters(planter: Planter, codes: tuple[str, ...]) -> list:
    """(code, plant function) for each code asked for that a Planter method plants, in code order."""
    return [(code, planter.secret(code) if code in SECRETS else getattr(planter, code.lower()))
            for code in planter_codes() if code in codes and code not in CORPUS_LEVEL]


def plant(rng: random.Random, categories: list[Category], fixtures: list[Fixture], k: int, prompt: str,
          kb: dict, codes: tuple[str, ...] = FROZEN_PLANTERS,
          ) -> tuple[list[Category], list[Fixture], list[tuple[str, str]], tuple]:
    """-> (categories, fixtures, planted (code, path) pairs, codes not planted with why). `codes`
    says which kinds to plant: the frozen ones (the golden corpus) unless told otherwise."""
    unknown = sorted(set(codes) - set(planter_codes()))
    if unknown:
        raise ValueError(f"no planter for {', '.join(unknown)} in bench/defects.py")
    planter = Planter(rng, _sentences_of(prompt), [s for text in kb.values() for s in _sentences_of(text)])
    table = _planters(planter, codes)
    needed = (len(table) + 7) * k  # a donor each for CT102, CT701 and CT702; CT801's fixture; CT705's three
    if len(fixtures) < needed:
        raise ValueError(f"--defects {k} needs at least {needed} fixtures, not {len(fixtures)}")
    free = list(range(len(fixtures)))
    rng.shuffle(free)
    donors = [free.pop() for _ in range(3 * k)]
    planted: list[tuple[str, str]] = []
    fixtures = list(fixtures)
    # The choosiest kinds pick first, so a small corpus still has a fixture left for each.
    choosy = ("CT602", "CT303", "CT704")
    for code, planter_of in sorted(table, key=lambda entry: (entry[0] not in choosy, not entry[0].startswith("CT6"))):
        eligible = _eligible(code)
        for number in range(k):
            position = next((p for p in free if eligible(fixtures[p])), None)
            if position is None:
                raise ValueError(f"{code}: no fixture left to plant it in; use a larger N")
            free.remove(position)
            donor = fixtures[donors[(number * 3 + ("CT102", "CT701", "CT702").index(code)) % len(donors)]] \
                if code in ("CT102", "CT701", "CT702") else None
            fixtures[position], path = planter_of(number, fixtures[position], donor)
            planted.append((code, path))
    if "CT705" in codes:
        planted += plant_openings(k, fixtures, free)
    if k and "CT404" in codes:
        planted += plant_monotone(rng, categories, fixtures, planted)
    for _ in range(k if "CT801" in codes else 0):  # the provenance record has another hash for this session
        position = next(p for p in free if fixtures[p].has_session)
        free.remove(position)
        planted.append(("CT801", _session(fixtures[position])))
    categories = list(categories)
    for number in range(min(k, len(categories)) if "CT301" in codes else 0):  # the spec promises one fixture more
        index = number * len(categories) // max(k, 1)
        categories[index] = replace(categories[index], count=categories[index].count + 1)
        planted.append(("CT301", f"{CORPUS}/corpus.yaml"))
    return categories, fixtures, sorted(planted), NOT_PLANTED
