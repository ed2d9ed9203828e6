"""A multi-word term the transcript says only once, in only that wording.

What: each term of either list with two or more words (as CT610 counts them; an identifier is
one word; each alternative or part of an entry written as a list on its own) is counted in the session's normalized turns, found as the scorer finds it (the
corpus's matching: docs/scoring.md). A term that occurs exactly once is reported at the term (a
term that never occurs is CT601's).

Why: a phrase said once is the author's wording of the moment, not a name the session keeps
using, and a model that restates the rule rewrites it: "the UUID of the content" for
`content uuid`, "must first be declared" for `declared there first`. A phrase the session
repeats is how its people name the thing, and outputs repeat it too. Keep the one distinctive
word of a rare phrase, or use the phrase the session repeats.

Example (flagged), in a session that says "declared there first" once:

    must_match_all: [declared there first]   # use: [declared]
"""

from __future__ import annotations

from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import all_terms, matching, normalized, points_with_turns, quoted, term_words
from corpustools.lint.options import Option

CODE = "CT612"
NAME = "term-rare-phrase"
SEVERITY = Severity.WARNING
OPTIONS = (
    Option("max_occurrences", int, 1, "a term said this many times or fewer in the transcript is rare", min=0),
)
SUPPRESSIBLE = True


def check(ctx, options):
    most = options.max_occurrences
    by = matching(ctx)
    for point, turns in points_with_turns(ctx):
        for field, term in all_terms(point):
            if not normalized(term) or len(term_words(term.text)) < 2:
                continue
            count = by.count(turns.everything, term.text)
            if 1 <= count <= most:
                said = "once" if count == 1 else f"{count} times"
                yield Problem(term.pos, f"{field} term {quoted(term.text)} occurs {said} in the transcript, "
                                        f"only in this wording; a paraphrase will miss it")
