"""A label word that the transcript also says in another form (`reversal` beside `reverses`).

What: for each `must_match_all` term the transcript says (each alternative of an entry on its
own), the term's last word (a one-word term's only word) is stemmed with the Snowball English
stemmer, and the session's turns are searched for other forms of that stem in the same place: the
word itself for a one-word term, the term's other words followed by the form for a phrase
(`duplicate refunds` beside "duplicate refund"). A form is reported, at the term, when no
alternative of the term's entry matches it as the scorer matches (so a form the term already finds
as a prefix, `reverse` in "reversed", is not one, nor is any form a shorter term like `revers`
finds, nor one an entry `[reversal, reverses]` already lists). The message names the forms and
suggests the shared prefix of the word and its forms (`revers`) when that prefix is at least 3
characters and matches no other word of the session, and the entry of alternatives listing them
(`[reversal, reverses]`) always. Not checked: a last word with a digit (a number, a version) or
an identifier (`branch_events`, `config:import`; a hyphenated word like `read-only` is a phrase),
forms with a digit, and a term the transcript never says (that is CT601's). One finding per form
and entry: a form two alternatives both miss is reported at the first.

The other form may be said by any speaker, also for a type with `taught_by`: an output's wording
is the model's, drawn from the whole session it reads, and CT602 already checks who says the term.

Why: the scorer matches a term as written: `reversal` misses an output that says "reverses the
duplicated refunds", though a reader counts it. When the session itself uses both forms, a
faithful output may use either, so the label fails correct outputs by chance (calibrate later
names such a term `brittle-term`; this rule says it before the run). A term cut to the shared
prefix, or an entry listing the forms, accepts both.

Example (flagged), in a session that says both "the reversal is yours" and "the script that
reverses the duplicated refunds":

    must_match_all: [nadia, reversal]   # use: [nadia, revers] or [nadia, [reversal, reverses]]

How often it fired before the shipped labels were fixed: once in 40 fixtures. On
fixtures/prompt-eval (version 5, 24 fixtures) the optional map term `entity` of
admit-convention-01 beside "branch entities" (version 6 writes `[entity, entities]`); on
fixtures/ticket-triage (16 fixtures) never. The stemmer also joins some words of different
meaning (`edition` and "edit", `designate` and "design", `animal` and "animate"): such a finding
is a false positive; switch the rule off for that point with a `per_point_ignores` entry and its
reason (`{point: <id>, codes: [CT614], reason: ...}`), not for the whole sidecar.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from corpustools.io.yamledit import YamlEdit
from corpustools.io.yamlwrite import flow_sequence
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import (
    entry_shown,
    labelled_points,
    matching,
    normalized_turns,
    point_name,
    quoted,
    term_words,
)
from corpustools.lint.fixes import UNSAFE, EditYaml, Fix, Planned, Unfixable, term_at
from corpustools.lint.options import NoOptions
from corpustools.model.normalize import Matching, normalize
from corpustools.model.sidecar import ExpectedPoint, Term, TermEntry

# A written word that is an identifier, not a word: normalization splits it into parts at anything
# but a hyphen between letters (`branch_events`, `a.b`, `config:import`; `read-only` is two words).
_HYPHENATED = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_DIGIT = re.compile(r"\d")
_ENDS = re.compile(r"^[\W_]+|[\W_]+$")  # punctuation around a written word: `(reversal),`
MIN_PREFIX = 3  # a shared prefix shorter than this matches too much to suggest


@dataclass(frozen=True)
class SiblingForms:
    """The forms of a term's last word the session says in the term's place and its entry misses."""

    term: Term
    entry: TermEntry
    phrases: tuple[str, ...]  # each form in the term's place (`duplicate refund`), normalized, first said first
    prefix: str | None  # the term's words with the last cut to the shared prefix, when that is safe to suggest


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """The Snowball English stem of a normalized word (`reversal`, `reverses` -> `revers`). The
    stemmer is imported when CT614 first runs, never by a lint that does not run it."""
    stemmed: str = _english_stemmer().stemWord(word)
    return stemmed


@functools.lru_cache(maxsize=1)
def _english_stemmer() -> Any:
    """What `snowballstemmer.stemmer("english")` returns, loaded alone: the package's own import
    loads the stemmers of its 35 languages (0.028 s of CPU, a tenth of the pre-commit hook's on the
    shipped corpus), and CT614 stems English. PyStemmer, when installed, is what snowballstemmer
    would return itself; a layout of the package this loader does not know falls back to it."""
    try:
        import Stemmer  # PyStemmer: snowballstemmer's own first choice, when CT614 first runs
    except ImportError:
        pass
    else:
        return Stemmer.Stemmer("english")
    try:
        return _snowball_module("english_stemmer").EnglishStemmer()
    except (ImportError, AttributeError):
        import snowballstemmer  # snowballstemmer: when CT614 first runs, not at import

        return snowballstemmer.stemmer("english")


_SNOWBALL = "corpustools._snowballstemmer"  # snowballstemmer's folder, under a name whose __init__ never runs


def _snowball_module(name: str) -> ModuleType:
    """snowballstemmer's module `name`, imported from the package's folder under the private
    package name _SNOWBALL, made without running snowballstemmer/__init__.py (which imports every
    language): `.basestemmer` and `.among` resolve in the same folder. ImportError when
    snowballstemmer is not an installed package."""
    import importlib.util  # importlib.util: when CT614 first runs, not at import

    if _SNOWBALL not in sys.modules:
        installed = importlib.util.find_spec("snowballstemmer")  # a top-level name: found, not imported
        if installed is None or not installed.submodule_search_locations:
            raise ImportError("snowballstemmer is not an installed package")
        spec = importlib.util.spec_from_loader(_SNOWBALL, None, is_package=True)
        assert spec is not None
        package = importlib.util.module_from_spec(spec)
        package.__path__ = list(installed.submodule_search_locations)
        sys.modules[_SNOWBALL] = package
    return importlib.import_module(f"{_SNOWBALL}.{name}")


class SessionWords:
    """One session's normalized turns, and its words by stem."""

    def __init__(self, turns: str) -> None:
        self.turns = turns  # normalized, joined by newlines (corpustools.lint.families.labels)

    @functools.cached_property
    def words(self) -> tuple[str, ...]:
        """Every distinct word, first said first."""
        return tuple(dict.fromkeys(self.turns.split()))

    @functools.cached_property
    def _by_first_letter(self) -> dict[str, list[str]]:
        """The distinct words by their first character, each list first said first."""
        by_first: dict[str, list[str]] = {}
        for word in self.words:
            by_first.setdefault(word[0], []).append(word)
        return by_first

    def forms(self, word_stem: str) -> tuple[str, ...]:
        """The distinct words whose stem is `word_stem`, first said first. (A stem keeps its
        word's first letter, so only words starting with it are stemmed.)"""
        return tuple(word for word in self._by_first_letter.get(word_stem[0], ()) if stem(word) == word_stem)


def _checked_words(term: Term) -> list[str] | None:
    """The term's normalized words when its last word can have forms (not a number or identifier)."""
    written = term_words(term.text)
    if not written or not _HYPHENATED.fullmatch(_ENDS.sub("", written[-1])):
        return None
    words = normalize(term.text).split()
    return words if words and not _DIGIT.search(words[-1]) else None


def _forms_said(words: list[str], session: SessionWords, word_stem: str) -> list[str]:
    """Each phrase of the term's other words and a word of `word_stem` that a turn says, first said first."""
    forms = session.forms(word_stem)
    if len(forms) < 2 or len(words) == 1:  # one form: the word's own at most
        return list(forms) if len(forms) >= 2 else []
    head, said = words[:-1], dict[str, None]()
    for turn in session.turns.split("\n"):
        said_words = turn.split()
        for i in range(len(head), len(said_words)):
            if said_words[i] in forms and said_words[i - len(head):i] == head:
                said[" ".join(said_words[i - len(head):i + 1])] = None
    return list(said)


def _prefix(words: list[str], forms: list[str], session: SessionWords, word_stem: str, by: Matching) -> str | None:
    """The term's words with the last cut to what it shares with its forms, when that is at least
    MIN_PREFIX characters and finds no word of the session of another stem (as the scorer matches)."""
    shared = os.path.commonprefix([words[-1]] + [phrase.split()[-1] for phrase in forms])
    if len(shared) < MIN_PREFIX:
        return None
    if any(by.contains(word, shared) and stem(word) != word_stem for word in session.words):
        return None
    return " ".join(words[:-1] + [shared])


def sibling_forms(ctx: LintContext, only: str | None = None) -> Iterator[tuple[ExpectedPoint, SiblingForms]]:
    """(point, its finding) for every term with forms its entry misses, in point and term order
    (`only`: of that sidecar's points only)."""
    known, by = normalized_turns(ctx), matching(ctx)
    session_of, session = None, SessionWords("")
    for fixture_id, sidecar, point in labelled_points(ctx):
        if fixture_id not in known or (only is not None and os.path.abspath(sidecar.path) != only):
            continue
        turns = known[fixture_id]
        if fixture_id != session_of:  # a sidecar's points come together: one session's words alive at a time
            session_of, session = fixture_id, SessionWords(turns.everything)
        for entry in point.must_match_all:
            reported: set[str] = set()
            for term in entry.terms:
                words = _checked_words(term)
                if words is None or not by.contains(turns.everything, term.text):
                    continue
                word_stem = stem(words[-1])
                missed = [phrase for phrase in _forms_said(words, session, word_stem)
                          if phrase not in reported and not _DIGIT.search(phrase.split()[-1])
                          and entry.found_in(phrase, by) is None]
                if missed:
                    reported.update(missed)
                    yield point, SiblingForms(term, entry, tuple(missed), _prefix(words, missed, session, word_stem, by))


def _alternatives(found: SiblingForms) -> list[str]:
    """The entry's terms as written, then the forms it misses: what the fix writes."""
    return list(found.entry.texts) + list(found.phrases)


def _write_entry(ctx: LintContext, problem: Problem) -> Planned | Unfixable | None:
    term = term_at(ctx, problem.pos)
    if term is None or term.field != "must_match_all":
        return None
    found = next((f for _, f in sibling_forms(ctx, os.path.abspath(term.path)) if f.term.pos == problem.pos), None)
    if found is None:
        return None
    alternatives = _alternatives(found)
    if term.siblings:  # a term of an entry written as a list: the entry gains the forms
        written = list(found.entry.texts)
        return Planned((EditYaml(term.path, YamlEdit("set", term.entry_keypath, written, alternatives)),),
                       f"entry {entry_shown(found.entry)} extended with {', '.join(map(quoted, found.phrases))}")
    if not isinstance(term.value, str):
        return Unfixable(f"{term.text!r} is not a single term")
    return Planned((EditYaml(term.path, YamlEdit("set", term.keypath, term.value, alternatives)),),
                   f"term {quoted(term.text)} written as the entry {flow_sequence(alternatives)}")


CODE = "CT614"
NAME = "term-sibling-form"
SEVERITY = Severity.WARNING
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = (Fix(UNSAFE, "writes the term as an entry of alternatives listing it and the forms the transcript says "
             "(`reversal` -> `[reversal, reverses]`; a term already in an entry written on one line: the entry "
             "gains the forms); unsafe because the point then accepts more outputs", _write_entry),)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    for point, found in sibling_forms(ctx):
        forms = ", ".join(quoted(phrase) for phrase in found.phrases)
        other = "another form" if len(found.phrases) == 1 else "other forms"
        listed = flow_sequence(_alternatives(found))
        if found.entry.listed:
            advice = f"add {'it' if len(found.phrases) == 1 else 'them'} to its entry: {listed}"
        else:
            advice = f"write the entry {listed}"
        if found.prefix is not None:
            advice = f"write the shared prefix {quoted(found.prefix)}, or {advice.removeprefix('write ')}"
        yield Problem(found.term.pos, f"must_match_all term {quoted(found.term.text)} of {point_name(point)}: the "
                                      f"transcript also says {forms}, {other} the term does not match; {advice}")
