"""lint/secrets/quoted.py: a secret value found by its context, masked wherever a message quotes it,
known only by a key that shows no more of it than its finding's message."""

from __future__ import annotations

import json

import pytest

from corpustools.lint.secrets.quoted import SecretValues, ValueKey, is_value_key, value_keys
from corpustools.lint.secrets.scan import redact


def _masking(*values: str) -> SecretValues:
    return SecretValues.of(key for value in values for key in value_keys(value))


@pytest.mark.parametrize("message, shown", [
    ("term 'Tq7vLm2pXz9wKr4s' is not lowercase", "term 'Tq7v…' is not lowercase"),
    ("write 'tq7vlm2pxz9wkr4s'", "write 'tq7v…'"),  # lowercased by the rule: still the value
    ("TQ7VLM2PXZ9WKR4S.", "TQ7V….") ,
    ("the term 'db Tq7vLm2pXz9wKr4s, staging' occurs once", "the term 'db Tq7v…, staging' occurs once"),
    ("Tq7vLm2pXz9wKr4s", "Tq7v…"),
    ("two: Tq7vLm2pXz9wKr4s and Tq7vLm2pXz9wKr4s", "two: Tq7v… and Tq7v…"),
])
def test_a_quoted_value_is_cut_as_redaction_cuts_a_secret(message, shown):
    assert _masking("Tq7vLm2pXz9wKr4s").mask(message) == shown


@pytest.mark.parametrize("message", [
    "term 'Tq7vLm2pXz9wKr4sX' is not lowercase",  # another word that starts with the value
    "term 'xTq7vLm2pXz9wKr4s' is not lowercase",  # and one that ends with it
    "term 'Tq7vLm2pXz9wKr4' is not lowercase",  # the value cut short is not the value
    "term 'Tq7vLm2pXz9wKr5s' is not lowercase",  # one character off
    "nothing like it here",
])
def test_a_word_that_only_looks_like_the_value_is_left_alone(message):
    assert _masking("Tq7vLm2pXz9wKr4s").mask(message) == message


def test_a_password_is_cut_as_a_word_not_inside_other_words():
    values = _masking("cache42")
    assert values.mask("term 'cache42 tag' occurs once") == "term 'cac… tag' occurs once"
    assert values.mask("term 'cache42tag' and 'pagecache42'") == "term 'cache42tag' and 'pagecache42'"


def test_one_plain_word_or_a_short_value_is_no_value_to_mask_but_random_letters_and_a_phrase_are():
    """`password: drupal` is CT502's, but `drupal` is the word a host name, a term, a sentence says:
    masking it would cut it out of every message (`host name `drupal.org``); `v1` is in paths."""
    assert value_keys("drupal") == () and value_keys("-----BEGIN") == () and value_keys("v1") == ()
    assert _masking("drupal").mask("host name `drupal.org`") == "host name `drupal.org`"
    assert _masking("v1").mask("prompt.v1.md:29") == "prompt.v1.md:29"
    assert _masking("ZmXkQpLrTwVbNcHd").mask("term 'ZmXkQpLrTwVbNcHd'") == "term 'ZmXk…'"
    assert _masking("qzxvkwpmtrhbnlfd").mask("term 'qzxvkwpmtrhbnlfd'") == "term 'qzxv…'"
    for value in ("gravel-orbit-tundra-mango", "P@ssword!", "83920174"):  # symbols, digits alone
        assert _masking(value).mask(f"term '{value}'") == f"term '{value[:4]}…'", value
    phrase = _masking("correct horse battery staple")
    assert phrase.mask("term 'correct horse battery staple' occurs once") == "term 'corr…' occurs once"
    assert phrase.mask("term 'correct horse' occurs once") == "term 'correct horse' occurs once"


@pytest.mark.parametrize("value, message, shown", [
    ("Tq7v\\Lm2p\\Xz9wKr4s", "term 'Tq7v\\\\Lm2p\\\\Xz9wKr4s' is not lowercase", "term 'Tq7v…' is not lowercase"),  # repr doubles \\
    ("correct  horse battery staple", "term 'correct horse battery staple'", "term 'corr…'"),  # blanks collapsed
    ("Tq7v.Lm2p-Xz9wKr4s", "write 'tq7v lm2p xz9wkr4s'", "write 'tq7v…'"),  # normalized as terms are matched
    ("Tq7vLm2pXz9wKr4s", "'…shared login Tq7vLm2pXz9w...'", "'…shared login Tq7v…'"),  # shortened by the message
    ("Tq7vLm2pXz9wKr4İ", "term 'Tq7vLm2pXz9wKr4İ'", "term 'Tq7v…'"),  # a letter whose lowercase is longer
    ("Tq7v%40Lm2pXz9wKr4s", "term 'Tq7v@Lm2pXz9wKr4s'", "term 'Tq7v…'"),  # a URL's password, percent-encoded
    ("Tq7v\\/Lm2pXz9wKr4s", "term 'Tq7v/Lm2pXz9wKr4s'", "term 'Tq7v…'"),  # a JSON string's escape
    ("Tq7v\\u0040Lm2pXz9wKr4s", "term 'Tq7v@Lm2pXz9wKr4s'", "term 'Tq7v…'"),
])
def test_a_value_is_cut_in_every_form_a_message_quotes_it_in(value, message, shown):
    assert _masking(value).mask(message) == shown


def test_short_and_overlapping_values():
    values = _masking("ab1cd2", "Tq7vLm2p", "Tq7vLm2pXz9wKr4s")
    assert values.mask("'ab1cd2' 'Tq7vLm2pXz9wKr4s' 'Tq7vLm2p'") == "'ab1…' 'Tq7v…' 'Tq7v…'"


def test_a_letter_whose_lowercase_is_longer_does_not_shift_what_is_cut():
    # 'İ'.lower() is two characters: the message is then matched as written
    values = _masking("Tq7vLm2pXz9wKr4s")
    assert values.mask("İ term 'Tq7vLm2pXz9wKr4s'") == "İ term 'Tq7v…'"


def test_the_keys_show_no_more_than_the_findings_message():
    keys = value_keys("Tq7vLm2pXz9wKr4s")
    assert keys and all("tq7v".startswith(key.probe.replace(" ", "")) for key in keys)
    assert keys[0].probe == redact("Tq7vLm2pXz9wKr4s")[:-1].lower()
    assert "Tq7vLm2pXz9wKr4s".lower() not in json.dumps(keys)
    assert value_keys("") == ()
    assert _masking().mask("Tq7vLm2pXz9wKr4s") == "Tq7vLm2pXz9wKr4s" and not _masking()


def test_a_key_read_back_must_be_one_value_keys_could_make():
    key = value_keys("Tq7vLm2pXz9wKr4s")[0]
    assert is_value_key(*json.loads(json.dumps(key)))
    assert not is_value_key("tq7vl", 16, key.digest)  # shows more than the message
    assert not is_value_key("tq", 4, key.digest)  # shorter than any value masked
    assert not is_value_key("tq7v", True, key.digest)
    assert not is_value_key("tq7v", 16, key.digest.upper())
    assert not is_value_key("tq7v", 16, key.digest[:-1])
    assert ValueKey(*json.loads(json.dumps(key))) == key
