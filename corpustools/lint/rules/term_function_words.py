"""A multi-word term containing function words: the label depends on grammar, not content.

What: each term of either list with two or more words (as CT610 counts them) is reported at the
term when one of its plain words (not an identifier) is on the function-word list, compared
normalized. The default list: articles and determiners (a, an, the, this, that, these, those,
some, any, each, every), place and order words (there, here, first, then, now), pronouns (i,
me, my, we, us, our, you, your, he, him, his, she, her, it, its, they, them, their), auxiliaries
and modals (is, are, was, were, be, been, being, am, do, does, did, done, has, have, had, will,
would, shall, should, can, could, may, might, must), prepositions (of, to, in, on, at, by, for,
with, from, into, as, through, about, over, after, before) and connectives (and, or, but, not, so, if).

Why: a paraphrase keeps the content words and rewrites the grammar around them: "declared there
first" becomes "must first be declared", "the content's UUID" becomes "its content UUID". A
term made of content words survives; one that spells the grammar fails a faithful output.

Example (flagged):

    must_match_all: [declared there first]   # use: [declared]
"""

from __future__ import annotations

from corpustools.lint.diagnostic import WARNING, Problem
from corpustools.lint.labels import is_identifier, labelled_terms, quoted, term_words
from corpustools.lint.options import Option
from corpustools.model.normalize import normalize

CODE = "CT611"
NAME = "term-function-words"
SEVERITY = WARNING
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
OPTIONS = (
    Option("function_words", tuple, _FUNCTION_WORDS, "a word of a multi-word term on this list (compared normalized) "
           "is reported; replaces the list"),
)
SUPPRESSIBLE = True


def check(ctx, options):
    function_words = {normalize(w) for w in options.function_words}
    for _, field, term in labelled_terms(ctx):
        words = term_words(term.text)
        if len(words) < 2:
            continue
        found = [part for word in words if not is_identifier(word)
                 for part in normalize(word).split() if part in function_words]
        if found:
            listed = ", ".join(repr(w) for w in dict.fromkeys(found))
            yield Problem(term.pos, f"{field} term {quoted(term.text)} contains function words "
                                    f"({listed}); a paraphrase rewrites them, keep the content words")
