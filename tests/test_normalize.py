"""The one normalization shared by linter and scorer: NFKC, casefold, non-alphanumeric runs -> one
space, strip; and term matching, where a term that normalizes to nothing matches nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpustools.model.normalize import contains_term, normalize


@pytest.mark.parametrize("text, expected", [
    ("\ufb01le", "file"),                      # NFKC: the 'fi' ligature is two letters
    ("\uff21\uff22\uff23\uff11\uff12", "abc12"),  # NFKC: fullwidth letters and digits
    ("x\u00b2", "x2"),                         # NFKC: superscript two is a digit 2
    ("cafe\u0301", "caf\u00e9"),                # NFKC: a combining accent composes
    ("\u2460 item", "1 item"),                 # NFKC: circled one
])
def test_nfkc(text, expected):
    assert normalize(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Queue Worker", "queue worker"),
    ("STRASSE Stra\u00dfe", "strasse strasse"),  # casefold, not lower: sharp s folds to ss
    ("\u03a3\u0391\u03a3", "\u03c3\u03b1\u03c3"),  # Greek capital sigma folds to one form
])
def test_casefold(text, expected):
    assert normalize(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("location-code", "location code"),
    ("snake_case_name", "snake case name"),  # underscore is not a letter or digit
    ("a -- b __ c ... d", "a b c d"),        # a run of mixed punctuation and spaces is one space
    ("`config/sync`: fern_branch.branch.mob.yml", "config sync fern branch branch mob yml"),
    ("line\n\tbreak", "line break"),
    ("  ...padded!!  ", "padded"),
    ("caf\u00e9 \u65e5\u672c\u8a9e \u0663", "caf\u00e9 \u65e5\u672c\u8a9e \u0663"),  # non-ASCII letters/digits stay
])
def test_punctuation_runs_become_one_space_and_ends_are_stripped(text, expected):
    assert normalize(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "!!! --- ???", "\u2014\u2026", "_", "\n\t"])
def test_empty_result(text):
    assert normalize(text) == ""


def test_term_matches_across_case_and_punctuation():
    transcript = normalize("Every branch id is the branch's ILS LOCATION_CODE, lowercased.")
    assert contains_term(transcript, "location code")
    assert contains_term(transcript, "Location-Code")
    assert contains_term(transcript, "ils location")
    assert not contains_term(transcript, "location codes")


def test_term_is_a_substring_match():
    # Terms are substrings of the normalized text, so a stem matches inflected words.
    assert contains_term(normalize("The queue workers drain it."), "queue worker")
    assert not contains_term(normalize("The queue drains it."), "queue worker")


@pytest.mark.parametrize("term", ["", " ", "---", "!?", "\u2014"])
def test_empty_term_matches_nothing(term):
    assert not contains_term(normalize("any text at all, even --- punctuation"), term)
    assert not contains_term("", term)


_PUNCT = st.text(alphabet=" -_.,:;!?/()[]`'\"\n\t", min_size=1, max_size=4)
_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=60))
def test_output_is_alphanumeric_words_separated_by_single_spaces(text):
    out = normalize(text)
    assert out == out.strip()
    assert "  " not in out
    assert all(ch == " " or ch.isalnum() for ch in out)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_a_term_that_normalizes_to_nothing_never_matches(text, junk):
    term = "".join(ch for ch in junk if not ch.isalnum())
    if normalize(term):  # e.g. a compatibility character that NFKC turns into a letter
        return
    assert not contains_term(normalize(text), term)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(_WORD, min_size=1, max_size=4), st.lists(_PUNCT, min_size=5, max_size=5), st.booleans())
def test_term_found_whatever_the_case_and_separators(words, separators, upper):
    written = separators[0] + "".join(w + s for w, s in zip(words, separators[1:] + separators[:1], strict=False))
    written = written.upper() if upper else written.title()
    assert contains_term(normalize(f"Before. {written} After."), " ".join(words))


@pytest.mark.parametrize("text, expected", [
    ("the content's UUID", "the content uuid"),   # possessive: the term `content uuid` matches
    ("it's", "it"),                                # contraction 's
    ("James\u2019s car", "james car"),             # the typographic apostrophe too
    ("IT'S", "it"),                                # after casefold
    ("the 1990's", "the 1990"),                    # after a digit
    ("x's_y", "x y"),                              # ended by a non-letter/digit
    ("['s']", "s"),                                # a quoted 's is not after a letter or digit
    ("'sql'", "sql"),                              # not after a letter, and s does not end a word
    ("it'sql", "it sql"),                          # s does not end a word: the apostrophe is punctuation
    ("don't", "don t"),                            # other contractions keep their letters
])
def test_a_word_final_apostrophe_s_is_dropped(text, expected):
    assert normalize(text) == expected


def test_a_possessive_contains_the_plain_term():
    assert contains_term(normalize("Each row is keyed by the content's UUID."), "content uuid")
    assert contains_term(normalize("content uuid"), "content's uuid")
