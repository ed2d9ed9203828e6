"""A seeded sentence grammar: varied English-looking sentences with no shared template.

Every sentence is composed from optional parts (opener, one or two clauses of several shapes,
prepositional phrases, adverbs) filled from large word pools, so the shapes multiply as well as
the words. Each sentence also reports the noun phrases it contains: the corpus generator draws
its labels from them, which is what makes every label winnable.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from vocabulary import (
    ADJECTIVES,
    ADVERBS,
    CONNECTORS,
    DETERMINERS,
    LINKING,
    MODALS,
    NOUNS,
    OPENERS,
    PLACES,
    PREPOSITIONS,
    SHORT_REPLIES,
    SUBJECTS,
    VERBS,
)

LONG_SENTENCE_TOKENS = 8  # the linter's template check only looks at sentences this long


def _verb_forms() -> frozenset:
    return frozenset(form for verb in VERBS for form in (verb, past(verb), third_person(verb), _ing(verb)))


@dataclass(frozen=True)
class Sentence:
    text: str
    phrases: tuple[str, ...]  # lowercase noun phrases (1-3 words) that occur verbatim in `text`

    @property
    def tokens(self) -> int:
        return len(self.text.split())


def plural(noun: str) -> str:
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


# One-syllable verbs ending consonant-vowel-consonant double the consonant (plan -> planned).
_DOUBLING = frozenset(("crop", "drag", "flip", "log", "pin", "plan", "skip", "swap", "tag", "trim", "wrap"))


def past(verb: str) -> str:
    if verb in _DOUBLING:
        return verb + verb[-1] + "ed"
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def third_person(verb: str) -> str:
    return plural(verb)


def content_words(words) -> int:
    """How many of `words` come from the large pools (the words that tell two sentences apart)."""
    return sum(1 for word in words if word in CONTENT_WORDS)


class _Builder:
    """Collects words and label phrases for one sentence."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.words: list[str] = []
        self.phrases: list[str] = []

    def say(self, *words: str) -> None:
        self.words.extend(w for w in words if w)

    def noun_phrase(self, *, subject: bool = False) -> None:
        """A noun phrase; as a `subject` it is singular (the verb that follows agrees with it)."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.07:
            self.say(f"`{rng.choice(NOUNS)}_{rng.choice(NOUNS)}`")
            return
        if roll < 0.11 and not subject:
            self.say(str(rng.randint(2, 999)), plural(rng.choice(NOUNS)))
            return
        if roll < 0.14:
            self.say(rng.choice(PLACES))
            return
        adjectives = rng.sample(ADJECTIVES, rng.choice((0, 0, 1, 1, 1, 2)))
        nouns = [rng.choice(NOUNS)] + ([rng.choice(NOUNS)] if rng.random() < 0.3 else [])
        determiner = rng.choice(DETERMINERS)
        if determiner == "a" and (adjectives + nouns)[0][0] in "aeiou":
            determiner = "an"
        self.say(determiner, *adjectives, *nouns)
        content = adjectives + nouns
        self.phrases.append(" ".join(content[-3:]))
        if len(content) > 1:
            self.phrases.append(content[-1])

    def prepositional(self) -> None:
        self.say(self.rng.choice(PREPOSITIONS))
        self.noun_phrase()

    def maybe(self, probability: float, part) -> None:
        if self.rng.random() < probability:
            part()

    def adverb(self) -> None:
        self.say(self.rng.choice(ADVERBS))

    def clause(self) -> None:
        rng = self.rng
        shape = rng.randrange(8)
        if shape == 0:  # we should rebuild the stale ledger
            self.say(rng.choice(SUBJECTS), rng.choice(MODALS), rng.choice(VERBS))
            self.noun_phrase()
            self.maybe(0.6, self.prepositional)
        elif shape == 1:  # I trimmed every bucket quietly
            self.say(rng.choice(SUBJECTS), past(rng.choice(VERBS)))
            self.noun_phrase()
            self.maybe(0.5, self.prepositional)
            self.maybe(0.4, self.adverb)
        elif shape == 2:  # the loader rejects any parcel
            self.noun_phrase(subject=True)
            self.maybe(0.3, self.adverb)
            self.say(third_person(rng.choice(VERBS)))
            self.noun_phrase()
            self.maybe(0.4, self.prepositional)
        elif shape == 3:  # the ledger stays brittle near the gate
            self.noun_phrase(subject=True)
            self.say(rng.choice(LINKING), rng.choice(("", "", "rather", "too", "very", "still", "oddly")),
                     rng.choice(ADJECTIVES))
            self.maybe(0.7, self.prepositional)
        elif shape == 4:  # there was a stray parcel under the bench
            self.say("there", rng.choice(("is", "was", "will be", "used to be", "might be")))
            self.noun_phrase()
            self.prepositional()
            self.maybe(0.3, self.adverb)
        elif shape == 5:  # fold the ledger into the archive
            self.say(rng.choice(VERBS))
            self.noun_phrase()
            self.prepositional()
            self.maybe(0.3, self.adverb)
        elif shape == 6:  # the parcel got archived during the sweep
            self.noun_phrase(subject=True)
            self.say(rng.choice(("was", "got", "is", "will be", "has been", "keeps being")), past(rng.choice(VERBS)))
            self.maybe(0.7, self.prepositional)
            self.maybe(0.3, self.adverb)
        else:  # nobody wants to audit the banner twice
            self.say(rng.choice(SUBJECTS), rng.choice(("kept", "stopped", "started", "avoided", "enjoyed", "hated")),
                     _ing(rng.choice(VERBS)))
            self.noun_phrase()
            self.maybe(0.5, self.prepositional)

    def text(self, end: str) -> str:
        first, rest = self.words[0], self.words[1:]
        if first[:1].isalpha():
            first = first[0].upper() + first[1:]
        return " ".join([first] + rest) + end


def _ing(verb: str) -> str:
    if verb in _DOUBLING:
        return verb + verb[-1] + "ing"
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    return verb + "ing"


def long_sentence(rng: random.Random, *, question: bool = False) -> Sentence:
    """A sentence of at least LONG_SENTENCE_TOKENS tokens."""
    while True:
        builder = _Builder(rng)
        if rng.random() < 0.25:
            builder.say(rng.choice(OPENERS) + ",")
        builder.clause()
        if rng.random() < 0.55:
            builder.words[-1] += "," if rng.random() < 0.4 else ""
            builder.say(rng.choice(CONNECTORS))
            builder.clause()
        sentence = Sentence(builder.text("?" if question else "."), tuple(dict.fromkeys(builder.phrases)))
        if LONG_SENTENCE_TOKENS <= sentence.tokens <= 30:
            return sentence


def short_sentence(rng: random.Random) -> Sentence:
    """A sentence under LONG_SENTENCE_TOKENS tokens; the template check ignores these."""
    roll = rng.random()
    if roll < 0.4:
        return Sentence(rng.choice(SHORT_REPLIES), ())
    noun, adjective = rng.choice(NOUNS), rng.choice(ADJECTIVES)
    if roll < 0.6:
        return Sentence(f"The {noun} {rng.choice(LINKING)} {adjective}.", (noun,))
    if roll < 0.8:
        verb = rng.choice(VERBS)
        return Sentence(f"{verb.capitalize()} the {adjective} {noun} {rng.choice(ADVERBS)}.",
                        (f"{adjective} {noun}", noun))
    return Sentence(f"{rng.choice(('Then', 'Now', 'Next', 'Also'))} {_ing(rng.choice(VERBS))} the {noun}.", (noun,))


CONTENT_WORDS = frozenset(NOUNS) | frozenset(ADJECTIVES) | frozenset(ADVERBS) | _verb_forms()
