"""bench/vocabulary.py's word pools, read from bench/words/: what its docstring promises the generator."""

import vocabulary


def test_the_word_lists_hold_distinct_plain_lowercase_words():
    for name in ("NOUNS", "ADJECTIVES", "VERBS", "ADVERBS"):
        pool = getattr(vocabulary, name)
        assert len(pool) > 80, name  # large pools keep a big generated corpus free of template reuse
        assert len(set(pool)) == len(pool), name
        assert [w for w in pool if not (w.isascii() and w.isalpha() and w.islower())] == [], name
        assert [w for w in pool if w in ("token", "password", "key", "secret")] == [], name
    assert vocabulary.PREPOSITIONS[:3] == ("about", "above", "across")
    assert vocabulary.PREPOSITIONS[-1] == "close to"  # the phrases follow the word list
