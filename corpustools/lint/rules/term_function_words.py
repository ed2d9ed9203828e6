"""A multi-word term containing function words: the label depends on grammar, not content.

What: each term of either list with two or more words (as CT610 counts them; each alternative or
part of an entry written as a list on its own) is reported at the term when one of its plain
words (not an identifier) is on the function-word list, compared normalized. The default list: articles and determiners (a, an, the, this, that, these, those,
some, any, each, every), place and order words (there, here, first, then, now), pronouns (i,
me, my, we, us, our, you, your, he, him, his, she, her, it, its, they, them, their), auxiliaries
and modals (is, are, was, were, be, been, being, am, do, does, did, done, has, have, had, will,
would, shall, should, can, could, may, might, must), prepositions (of, to, in, on, at, by, for,
with, from, into, as, through, about, over, after, before) and connectives (and, or, but, not, so, if).

Not reported: a function word inside a compound whose function word carries the meaning (option
`compounds`): a phrasal verb (`log in`, `set up`, `opt out`, `fail over`, matched in its
inflections too: `logged in`, `failed over`) or a fixed phrase (`on call`, `in memory`,
`at rest`). A paraphrase keeps those whole; dropping the particle would change the meaning
(`on call` -> `call`). The report names what to keep: the term without its function words.

Why: a paraphrase keeps the content words and rewrites the grammar around them: "declared there
first" becomes "must first be declared", "the content's UUID" becomes "its content UUID". A
term made of content words survives; one that spells the grammar fails a faithful output.

Measured on tests/data/function-word-terms.tsv, a list written for this rule (80 terms): no
function word inside any of its 50 compounds is reported (2 of those terms are reported for a
function word around the compound: `log in with sso` for `with`, `the on call rota` for `the`),
and 29 of its 30 grammar phrases are reported for exactly the listed words; the 30th, `rather
than polling`, is built of words outside the default list and is not reported (a known gap).
Before compounds were recognised, 38 of the 48 other compound terms were reported.

Example (flagged):

    must_match_all: [declared there first]   # use: [declared]
    must_match_all: [on call rota]           # not flagged: `on call` is a compound
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import is_identifier, labelled_terms, quoted, term_words
from corpustools.lint.options import Option
from corpustools.model.normalize import normalize

CODE = "CT611"
NAME = "term-function-words"
SEVERITY = Severity.WARNING
_FUNCTION_WORDS = (
    "a", "an", "the", "this", "that", "these", "those", "some", "any", "each", "every",
    "there", "here", "first", "then", "now",
    "i", "me", "my", "we", "us", "our", "you", "your", "he", "him", "his", "she", "her", "it", "its",
    "they", "them", "their",
    "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "has", "have",
    "had", "will", "would", "shall", "should", "can", "could", "may", "might", "must",
    "of", "to", "in", "on", "at", "by", "for", "with", "from", "into", "as", "through", "about", "over",
    "after", "before",
    "and", "or", "but", "not", "so", "if",
)
# Phrasal verbs (the verb matched in its inflections) and fixed phrases whose function word is the
# meaning. Particles outside the default function words (up, out, down, back, off) are listed too,
# for a `function_words` list that adds them.
_COMPOUNDS = (
    "log in", "sign in", "check in", "opt in", "plug in", "fill in", "lock in", "phase in", "build in", "built in",
    "log on", "sign on", "on call", "on hold", "on demand", "on premises", "on prem",
    "in memory", "in place", "in flight", "in transit", "in progress", "at rest",
    "fail over", "roll over", "hand over", "take over", "carry over", "cut over", "switch over", "spill over",
    "fall through", "pass through",
    "set up", "sign up", "spin up", "back up", "clean up", "start up", "look up", "opt out", "log out", "sign out",
    "check out", "roll out", "time out", "roll back", "fall back", "tear down", "shut down", "hand off", "sign off",
)
OPTIONS = (
    Option("function_words", tuple, _FUNCTION_WORDS, "a word of a multi-word term on this list (compared normalized) "
           "is reported; replaces the list"),
    Option("compounds", tuple, _COMPOUNDS, "a compound whose function word carries the meaning (a phrasal verb, "
           "its first word matched in its inflections, or a fixed phrase): its words are never reported; "
           "replaces the list"),
)


class Options(NamedTuple):
    """What check is handed: OPTIONS, each set (lint/options.py)."""

    function_words: tuple[str, ...]
    compounds: tuple[str, ...]


SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def _inflections(verb: str) -> frozenset[str]:
    """`log` -> log, logs, logged, logging, ... (regular English inflections, doubled consonant too)."""
    stems: set[str] = {verb, verb + verb[-1]} if verb else {verb}
    if verb.endswith("e"):
        stems.add(verb[:-1])
    return frozenset({verb, verb + "s", verb + "es"} | {stem + ending for stem in stems for ending in ("ed", "ing")})


def _compound_patterns(compounds: Iterable[str]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Each inflection of a compound's first word -> the rest of every compound it starts: a part
    of a term is looked up once, not tried against every compound (a sidecar of 60,000 terms)."""
    index: dict[str, list[tuple[str, ...]]] = {}
    for compound in compounds:
        words = normalize(compound).split()
        if len(words) >= 2:
            for form in _inflections(words[0]):
                index.setdefault(form, []).append(tuple(words[1:]))
    return {form: tuple(rests) for form, rests in index.items()}


def function_words_in(text: str, function_words: frozenset[str],
                      compounds: Mapping[str, tuple[tuple[str, ...], ...]]) -> list[str]:
    """The function words CT611 reports in a term, in order, each once: parts of plain words (never
    of an identifier) on `function_words` and not inside one of `compounds` (_compound_patterns)."""
    parts = [(part, is_identifier(word)) for word in term_words(text) for part in normalize(word).split()]
    kept: set[int] = set()
    for i, (part, _) in enumerate(parts):
        for rest in compounds.get(part, ()):
            end = i + 1 + len(rest)
            if (end <= len(parts) and tuple(p for p, _ in parts[i + 1:end]) == rest
                    and not any(ident for _, ident in parts[i:end])):
                kept.update(range(i, end))
    found = [part for i, (part, ident) in enumerate(parts) if not ident and i not in kept and part in function_words]
    return list(dict.fromkeys(found))


def check(ctx: LintContext, options: Options) -> Iterator[Problem]:
    function_words = frozenset(normalize(w) for w in options.function_words)
    compounds = _compound_patterns(options.compounds)
    for _, field, term in labelled_terms(ctx):
        words = term_words(term.text)
        if len(words) < 2:
            continue
        found = function_words_in(term.text, function_words, compounds)
        if found:
            listed = ", ".join(repr(w) for w in found)
            content = [w for w in words if is_identifier(w) or not set(normalize(w).split()) <= set(found)]
            keep = f": keep {quoted(' '.join(content))}" if content else ""
            yield Problem(term.pos, f"{field} term {quoted(term.text)} contains function words "
                                    f"({listed}); a paraphrase rewrites them{keep}")
