"""The one normalization shared by linter and scorer: NFKC, casefold, non-alphanumeric runs -> one
space, strip; words matching's normalization (a number is one token, a letter beside a digit a word
boundary); and the two rules of what a term matches (words, the default, and substring), where a
term that normalizes to nothing matches nothing."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpustools.model.normalize import MATCHINGS, SUBSTRING, WORDS, normalize, normalize_words

BOTH = pytest.mark.parametrize("matching", [WORDS, SUBSTRING], ids=lambda m: m.name)


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


@BOTH
def test_term_matches_across_case_and_punctuation(matching):
    transcript = matching.normalize("Every branch id is the branch's ILS LOCATION_CODE, lowercased.")
    assert matching.contains(transcript, "location code")
    assert matching.contains(transcript, "Location-Code")
    assert matching.contains(transcript, "ils location")
    assert not matching.contains(transcript, "location codes")


@BOTH
def test_a_term_may_end_inside_a_word(matching):
    # A stem matches inflected words under either rule.
    assert matching.contains(matching.normalize("The queue workers drain it."), "queue worker")
    assert not matching.contains(matching.normalize("The queue drains it."), "queue worker")
    assert matching.contains(matching.normalize("the cache tags"), "cache tag")


@BOTH
@pytest.mark.parametrize("term", ["", " ", "---", "!?", "\u2014"])
def test_empty_term_matches_nothing(matching, term):
    assert not matching.contains(matching.normalize("any text at all, even --- punctuation"), term)
    assert not matching.contains("", term)
    assert matching.count("a b c", term) == 0 and matching.spans("a b c", term) == ()


def test_the_matchings_by_name():
    assert MATCHINGS == {"words": WORDS, "substring": SUBSTRING}


# --- words: the default -------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("2.5 mg", "2.5 mg"),               # a number is one token: never `2 5`
    ("1,000 units", "1,000 units"),
    ("4.400 mg", "4.400 mg"),
    ("10mg", "10 mg"),                  # a letter beside a digit is a word boundary
    ("5MG", "5 mg"),
    ("mp3s", "mp 3 s"),
    ("v2.1.3", "v 2.1.3"),
    ("It costs 5. Then 6, 7", "it costs 5 then 6 7"),  # a `.` or `,` not between digits separates
    ("2024-01-05 12:30", "2024 01 05 12 30"),
    ("the content's UUID", "the content uuid"),  # the same folding as normalize()
    ("\uff11\uff10\uff4d\uff47", "10 mg"),    # NFKC first: fullwidth digits and letters
    ("", ""), ("--- ...", ""),
])
def test_words_normalization(text, expected):
    assert normalize_words(text) == expected
    assert WORDS.normalize(text) == expected


@pytest.mark.parametrize("text, term, found", [
    # a term ending in a digit matches only where that number ends, and starts at a word start
    ("amlodipine 2.5 mg daily", "5 mg", False),
    ("amlodipine 25 mg daily", "5 mg", False),
    ("amlodipine 0.5 mg daily", "5 mg", False),
    ("amlodipine 5 mg daily", "5 mg", True),
    ("amlodipine 5mg daily", "5 mg", True),
    ("amlodipine 5MG daily", "5 mg", True),
    ("lisinopril 10mg", "10 mg", True),
    ("lisinopril 10 mg", "10mg", True),
    ("1400 mg", "400 mg", False),
    ("4.400 mg", "400 mg", False),
    ("400mg", "400 mg", True),
    ("400 mg", "400mg", True),
    ("a 1,000 unit bag", "1,000", True),
    ("a 1,000 unit bag", "1", False),
    ("a 1,000 unit bag", "000", False),
    ("a 1,000,000 unit bag", "1,000", False),
    ("version 2.1", "version 2", False),
    ("take 5, then 6", "5", True),
    # a term starts at a word start, and may end inside a word
    ("the hashtag is set", "tag", False),
    ("the tag is set", "tag", True),
    ("a nonlatex glove", "latex", False),
    ("a latex allergy", "latex", True),
    ("invalidates the cache tags", "cache tag", True),
    ("the reversal is yours", "revers", True),
    ("the script that reverses the refunds", "revers", True),
    ("the reversal is yours", "reverses", False),
    # scripts written without spaces: any character may start a word
    ("\u79c1\u306f\u6771\u4eac\u306b\u884c\u304f", "\u6771\u4eac", True),
])
def test_what_a_term_matches_under_words(text, term, found):
    assert WORDS.contains(WORDS.normalize(text), term) is found
    assert bool(WORDS.spans(text, term)) is found


@pytest.mark.parametrize("text, term", [
    ("amlodipine 2.5 mg daily", "5 mg"), ("amlodipine 25 mg daily", "5 mg"), ("the hashtag is set", "tag"),
    ("a nonlatex glove", "latex"), ("1400 mg", "400 mg"),
])
def test_substring_keeps_the_old_rule(text, term):
    # what `output: {matching: substring}` keeps: any substring of normalize()'s text
    assert SUBSTRING.contains(SUBSTRING.normalize(text), term)
    assert SUBSTRING.normalize(text) == normalize(text)
    assert not WORDS.contains(WORDS.normalize(text), term)


def test_substring_and_words_see_digits_beside_letters_differently():
    assert not SUBSTRING.contains(SUBSTRING.normalize("lisinopril 10mg"), "10 mg")
    assert WORDS.contains(WORDS.normalize("lisinopril 10mg"), "10 mg")


@pytest.mark.parametrize("expected, got, same", [
    ("5 mg", "5mg", True), ("5 mg", "5 MG", True), ("5 mg", "2.5 mg", False), ("5 mg", "5 mg daily", False),
    ("1,000", "1,000", True), ("1,000", "1 000", False), (5, 5.0, True), (5, "5", False), (True, 1, False),
    (None, None, True), (None, "", False),
])
def test_same_value_is_exact_after_normalization(expected, got, same):
    assert WORDS.same_value(expected, got) is same


def test_count_counts_places_never_overlapping():
    text = WORDS.normalize("5 mg, 2.5 mg, 5mg and 25 mg; 5 mg")
    assert WORDS.count(text, "5 mg") == 3
    assert SUBSTRING.count(SUBSTRING.normalize("5 mg, 2.5 mg, 25 mg"), "5 mg") == 3


@pytest.mark.parametrize("matching", [WORDS, SUBSTRING])
def test_occurrences_are_the_places_count_counts(matching):
    text = matching.normalize("5 mg, 2.5 mg, 5mg and 25 mg; 5 mg")
    places = matching.occurrences(text, "5 mg")
    assert len(places) == matching.count(text, "5 mg")
    assert all(text[start:end] == matching.needle("5 mg") for start, end in places)
    assert matching.occurrences(text, "?!") == ()


_PUNCT = st.text(alphabet=" -_.,:;!?/()[]`'\"\n\t", min_size=1, max_size=4)
_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=60))
def test_output_is_alphanumeric_words_separated_by_single_spaces(text):
    out = normalize(text)
    assert out == out.strip()
    assert "  " not in out
    assert all(ch == " " or ch.isalnum() for ch in out)


_NUMBER_OR_LETTERS = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.one_of(st.text(max_size=60), st.text(alphabet="ab12.,- ", max_size=30)))
def test_words_output_is_numbers_and_words_separated_by_single_spaces(text):
    out = normalize_words(text)
    assert out == out.strip() and "  " not in out
    assert all(_NUMBER_OR_LETTERS.fullmatch(token) for token in out.split(" ") if out)
    # the same characters as normalize() keeps, but for the `.` and `,` inside numbers
    assert out.replace(".", "").replace(",", "").replace(" ", "") == normalize(text).replace(" ", "")


@BOTH
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(text=st.text(max_size=40), junk=st.text(max_size=40))
def test_a_term_that_normalizes_to_nothing_never_matches(matching, text, junk):
    term = "".join(ch for ch in junk if not ch.isalnum())
    if normalize(term):  # e.g. a compatibility character that NFKC turns into a letter
        return
    assert not matching.contains(matching.normalize(text), term)


@BOTH
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(words=st.lists(_WORD, min_size=1, max_size=4), separators=st.lists(_PUNCT, min_size=5, max_size=5),
       upper=st.booleans())
def test_term_found_whatever_the_case_and_separators(matching, words, separators, upper):
    if matching is WORDS:
        # a lone `.` or `,` between two digits joins them into one number: not a separator there
        separators = [s + " " if s.strip(".,") == "" else s for s in separators]
    written = separators[0] + "".join(w + s for w, s in zip(words, separators[1:] + separators[:1], strict=False))
    written = written.upper() if upper else written.title()
    assert matching.contains(matching.normalize(f"Before. {written} After."), " ".join(words))


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.sampled_from(["", ".", ","]), st.sampled_from(["", " "]),
       st.sampled_from(["mg", "MG", "mcg", "units"]))
def test_a_number_is_found_only_whole(before, number, joiner, space, unit):
    written = f"take {before}{joiner}{number}{space}{unit} daily"
    # the whole number, spaced or not, is found; its digits after another number's never are
    assert WORDS.contains(WORDS.normalize(written), f"{before}{joiner}{number} {unit}")
    assert WORDS.contains(WORDS.normalize(written), f"{before}{joiner}{number}{unit}")
    assert not WORDS.contains(WORDS.normalize(written), f"{number} {unit}")
    assert not WORDS.contains(WORDS.normalize(written), f"{before}{joiner}{number}0 {unit}")
    if joiner:  # the digits before the `.` or `,` are no number of their own
        assert not WORDS.contains(WORDS.normalize(written), f"{before} {unit}")


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


@BOTH
def test_a_possessive_contains_the_plain_term(matching):
    assert matching.contains(matching.normalize("Each row is keyed by the content's UUID."), "content uuid")
    assert matching.contains(matching.normalize("content uuid"), "content's uuid")


@settings(max_examples=500, deadline=None, derandomize=True, database=None)
@given(st.one_of(st.text(alphabet=st.characters(max_codepoint=127)), st.text(alphabet="aZ09.,'\u2019_- \n")))
def test_words_in_an_ascii_text_are_the_unicode_patterns_words(text):
    # normalize_words reads a folded ASCII text with ASCII character sets (faster): the same words.
    from corpustools.model import normalize as normalization

    assert normalize_words(text) == " ".join(normalization._WORD_OR_NUMBER.findall(normalization._fold(text)))


@pytest.mark.parametrize(("text", "term", "found"), [
    ("患者は東京の病院に入院した", "東京", True),  # Han inside a sentence of Han and kana: no spaces
    ("ผู้ป่วยได้รับยาแล้ว", "ได้รับยา", True),  # Thai
    ("the pancreas", "creas", False),  # a spaced script: a term starts at a word start
    ("Ωmega", "mega", False),  # Greek (before U+0E00): spaced
])
def test_words_matching_finds_a_term_inside_an_unspaced_script_only(text, term, found):
    words = WORDS.normalize(text)
    assert WORDS.contains(words, term) is found


def test_unspaced_scripts_are_those_of_the_class_at_every_code_point():
    # _is_unspaced skips compiling the class for characters before U+0E00: the same answer everywhere
    from corpustools.model.normalize import _UNSPACED_CLASS, _is_unspaced

    unspaced = re.compile(_UNSPACED_CLASS)
    assert all((unspaced.match(char) is not None) == _is_unspaced(char)
               for char in map(chr, range(0, 0x32000)))
