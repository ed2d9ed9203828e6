"""Word pools for the synthetic corpus generator.

Large pools are the point: two fixtures only share a sentence skeleton when they draw the same
words for most slots, so each pool is big enough that a 10,000-fixture corpus stays free of
template reuse. Words are plain lowercase ASCII, never a secret-ish key (token, password, key),
never one of the linter's generic label words, and never carry a dot (no host-name look-alikes).
The large pools of single words are word lists in bench/words/ (whitespace-separated, in the
order drawn from); the small pools, and the ones holding phrases, are written out below.
"""

from __future__ import annotations

import os


def words(name: str) -> tuple[str, ...]:
    """The words of bench/words/<name>.txt, in file order."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "words", f"{name}.txt")
    with open(path, encoding="utf-8") as handle:
        return tuple(handle.read().split())


NOUNS = words("nouns")
ADJECTIVES = words("adjectives")
VERBS = words("verbs")  # regular verbs only, so the past tense and third person are derived by rule
ADVERBS = words("adverbs")
PREPOSITIONS = words("prepositions") + ("next to", "instead of", "on top of", "ahead of", "in front of", "close to")

DETERMINERS = ("the", "the", "the", "a", "every", "each", "our", "this", "that", "some", "no",
               "any", "another", "one more", "their", "its", "my", "your", "either")

SUBJECTS = ("we", "I", "you", "they", "the team", "somebody", "nobody", "the night shift",
            "the editors", "our importer", "the front desk", "outreach", "the build", "the reviewer",
            "the scheduler", "staff", "the consortium", "everyone", "the previous owner", "marketing")

# Modals that agree with any subject (no "need to": "the build need to" is wrong).
MODALS = ("should", "must", "can", "might", "will", "would", "could", "may", "ought to", "had to",
          "needed to", "wanted to", "tried to", "forgot to", "planned to", "refused to", "used to")

CONNECTORS = ("because", "although", "so", "while", "after", "before", "unless", "since",
              "and then", "but", "whereas", "once", "until", "even though", "as soon as", "or else")

LINKING = ("is", "was", "seems", "looks", "stays", "became", "remains", "felt", "turned out",
           "appears", "sounded", "got")

OPENERS = ("Yesterday", "This morning", "Later", "Honestly", "For now", "Last week", "Meanwhile",
           "In practice", "Oddly", "By default", "On reflection", "Apparently", "Frankly", "Still",
           "Otherwise", "Right now", "At first", "Eventually", "Luckily", "Sadly")

# Capitalised place names: the template check masks them, so they vary freely.
PLACES = ("Ashgrove", "Cedar Row", "Elmfield", "Harbour Bend", "Millbrook", "Oakhurst", "Pinecrest",
          "Quarry Hill", "Riverside", "Stonegate", "Thornbury", "Willowmere", "Foxley", "Brackenridge")

SHORT_REPLIES = (
    "Sounds good.", "Done.", "Thanks.", "Go ahead.", "Yes, please.", "Not yet.", "Agreed.",
    "That works.", "Let me check.", "Good catch.", "Fair enough.", "Makes sense.", "Keep going.",
    "Perfect.", "Understood.", "Got it.", "Hold on.", "Try again.", "Much better.", "Okay.",
    "Right.", "Leave it.", "Ship it.", "Not quite.", "Close enough.", "Exactly.", "Noted.",
    "Please continue.", "All green.", "Still failing.", "No change.", "Looks fine.",
)
