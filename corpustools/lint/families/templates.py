"""The sentence indexes the template rules (CT701-CT704) share, each built once per run.

Fixture sentences come from turns only (a sentence's position is where it starts in the session
file; a turn's first line starts after its tag). The prompt is read whole — prose, its inline
example transcripts and the text values of its JSON examples (see corpustools.lint.families.skeleton).
KB documents are read without their YAML frontmatter.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from corpustools.io.positions import Pos
from corpustools.lint.context import CacheKey, LintContext
from corpustools.lint.families.nearmatch import NearIndex, NearPair, near_pairs
from corpustools.lint.families.skeleton import Sentence, Skeleton, lines_sentences, strip_frontmatter, text_sentences
from corpustools.lint.options import Option
from corpustools.model.contract import EXPECT_EMPTY, USER
from corpustools.model.prompt import TextSource
from corpustools.model.session import Segment, Session

S = TypeVar("S", bound=Skeleton)


@dataclass(frozen=True, slots=True)
class Located(Generic[S]):
    """A sentence (its Skeleton, or the whole Sentence) and the fixture (or outside file) it is in."""

    source: str  # fixture id, or the outside file's path
    path: str
    sentence: S

    @property
    def pos(self) -> Pos:
        return Pos(self.path, self.sentence.line, self.sentence.col)

    def sort_key(self) -> tuple:
        return self.path, self.sentence.line, self.sentence.col


def turn_lines(session: Session, turn: Segment, body: list[str] | None = None) -> Iterator[tuple[int, int, str]]:
    """(file line, 0-based column, text) of each line of a turn; `body` is the session body's
    lines, when the caller has already split it."""
    body = session.body.split("\n") if body is None else body
    first = turn.pos.line - session.body_line
    tag_line = body[first]
    start = len(f"[{turn.tag}]:")
    if tag_line[start:start + 1] == " ":
        start += 1
    yield turn.pos.line, start, tag_line[start:]
    for offset in range(first + 1, min(turn.end_line - session.body_line + 1, len(body))):
        yield session.body_line + offset, 0, body[offset]


def turn_sentences(session: Session, role: str | None = None) -> Iterator[Sentence]:
    """Every sentence of the session's turns (of one role's turns when `role` is given)."""
    body = session.body.split("\n")
    for turn in session.turns:
        if role is None or turn.role == role:
            yield from lines_sentences(turn_lines(session, turn, body))


# A session split into sentences: (speaker, sentences) of each of its turns, in order.
SplitSession = tuple[tuple[str | None, tuple[Sentence, ...]], ...]
# The same with each sentence's skeleton only: what the rules comparing skeletons read.
SessionSkeletons = tuple[tuple[str | None, tuple[Skeleton, ...]], ...]

# What the template rules share in a run (keyed also by the sentence options or threshold they depend on).
SPLIT_SESSIONS: CacheKey[dict[str, SplitSession]] = CacheKey("templates.split_sessions")
SESSION_SKELETONS: CacheKey[dict[str, SessionSkeletons]] = CacheKey("templates.session_skeletons")
FIXTURE_SENTENCES: CacheKey[tuple[Located[Skeleton], ...]] = CacheKey("templates.fixture_sentences")
BY_SKELETON: CacheKey[dict[str, tuple[Located[Skeleton], ...]]] = CacheKey("templates.by_skeleton")
PROMPT_REFERENCE: CacheKey[Reference] = CacheKey("templates.prompt")
KB_REFERENCE: CacheKey[Reference] = CacheKey("templates.kb")


def split_session(session: Session) -> SplitSession:
    """(speaker, sentences) of each of the session's turns, in order."""
    body = session.body.split("\n")
    return tuple((turn.speaker, tuple(lines_sentences(turn_lines(session, turn, body)))) for turn in session.turns)


def split_of(ctx: LintContext, fixture_id: str) -> SplitSession:
    """The session of `fixture_id` split into sentences, once a run whoever asks first."""
    split = ctx.cached(SPLIT_SESSIONS, lambda _: {})
    if fixture_id not in split:
        split[fixture_id] = split_session(ctx.corpus.sessions[fixture_id])
    return split[fixture_id]


def split_sessions(ctx: LintContext) -> Mapping[str, SplitSession]:
    """fixture id -> (speaker, sentences) of each of its turns, in order: every session split into
    sentences once a run (CT704 reads the user's sentences of admit fixtures)."""
    return {fixture_id: split_of(ctx, fixture_id) for fixture_id in sorted(ctx.corpus.sessions)}


def session_skeletons(ctx: LintContext) -> Mapping[str, SessionSkeletons]:
    """fixture id -> (speaker, sentence skeletons) of each of its turns, in order, once a run: what
    the template rules (CT701-CT703) and the opening check (CT705) compare. With lint's cache, a
    session's skeletons are the ones held for its text (and corpus.yaml's, which says who speaks);
    the others are split now and held, unless the secret scan found or could not read something
    in the file (the cache then holds nothing of it: a skeleton keeps the words of a sentence)."""
    def build(c: LintContext) -> dict[str, SessionSkeletons]:
        cache, corpus = c.file_cache, c.corpus
        if cache is None:
            return dict(split_sessions(c))
        from corpustools.lint.secrets.findings import secret_findings  # secrets: the cache's only (what it may hold)
        from corpustools.lint.secrets.scan import unread_files  # secrets: the cache's only (what it may hold)

        unsafe = ({os.path.abspath(found.pos.path) for found in secret_findings(c)}
                  | {os.path.abspath(unread.pos.path) for unread in unread_files(c)})
        spec = hashlib.sha256((corpus.texts.get(corpus.spec_path) or "").encode("utf-8", "surrogatepass")).hexdigest()
        root = os.path.abspath(corpus.root)
        found: dict[str, SessionSkeletons] = {}
        for fixture_id, session in sorted(corpus.sessions.items()):
            text = corpus.texts.get(session.path)
            key = None if text is None else hashlib.sha256(
                f"skeletons {spec} {cache.key_of(root, session.path, text)}".encode()).hexdigest()
            held = cache.skeletons(key) if key is not None else None
            if held is not None:
                found[fixture_id] = tuple((speaker, tuple(Skeleton(*sentence) for sentence in sentences))
                                          for speaker, sentences in held)
                continue
            found[fixture_id] = split = split_of(c, fixture_id)
            if key is not None and os.path.abspath(session.path) not in unsafe:
                cache.note_skeletons(key, split)
        return found

    return ctx.cached(SESSION_SKELETONS, build)


def fixture_sentences(ctx: LintContext, min_tokens: int, min_words: int) -> tuple[Located[Skeleton], ...]:
    """Every counted sentence of every session's turns, by path, line and column."""
    def build(c: LintContext) -> tuple[Located[Skeleton], ...]:
        found = [Located(fixture_id, c.corpus.sessions[fixture_id].path, sentence)
                 for fixture_id, turns in session_skeletons(c).items() for _, sentences in turns
                 for sentence in sentences if sentence.counts(min_tokens, min_words)]
        return tuple(sorted(found, key=Located.sort_key))

    return ctx.cached(FIXTURE_SENTENCES, build, min_tokens, min_words)


def by_skeleton(ctx: LintContext, min_tokens: int, min_words: int) -> Mapping[str, tuple[Located[Skeleton], ...]]:
    """skeleton -> its occurrences in fixture turns (each list by position)."""
    def build(c: LintContext) -> dict[str, tuple[Located[Skeleton], ...]]:
        located_sentences = fixture_sentences(c, min_tokens, min_words)
        groups: dict[str, list[Located[Skeleton]]] = {}
        for located in located_sentences:
            groups.setdefault(located.sentence.skeleton, []).append(located)
        return {skeleton: tuple(groups[skeleton]) for skeleton in sorted(groups)}

    return ctx.cached(BY_SKELETON, build, min_tokens, min_words)


def held_near_pairs(ctx: LintContext, texts: Sequence[str], threshold: float) -> list[NearPair]:
    """nearmatch.near_pairs(texts, threshold), a pure function of its arguments (and of the code,
    which the cache's identity covers): with lint's cache, the pairs found last run for the same
    texts and threshold (a one-file change that leaves every session's skeletons as they were, a
    sidecar edited, searches nothing and never imports rapidfuzz); else searched, and held for the
    next run. Only indexes and scores are held, keyed by a digest of the texts: never a text."""
    cache = ctx.file_cache
    if cache is None:
        return near_pairs(texts, threshold)
    digest = hashlib.sha256(f"near {float(threshold)!r} {len(texts)}\0".encode())
    for text in texts:  # each text's length first: no two lists of texts share a digest's input
        digest.update(f"{len(text)}\0{text}".encode("utf-8", "surrogatepass"))
    key = digest.hexdigest()
    held = cache.near_pairs(key)
    if held is not None and all(a < len(texts) and b < len(texts) for a, b, _ in held):
        return [NearPair(a, b, score) for a, b, score in held]
    pairs = near_pairs(texts, threshold)
    cache.note_near_pairs(key, tuple((pair.a, pair.b, pair.score) for pair in pairs))
    return pairs


def elsewhere(found: Sequence[Located[S]]) -> Callable[[str], Located[S] | None]:
    """For occurrences sorted by position: source -> the first occurrence in another source.
    Computed once per group, so reporting every occurrence of a group stays linear."""
    first = found[0]
    second = next((other for other in found if other.source != first.source), None)
    return lambda source: first if source != first.source else second


def admit_user_sentences(ctx: LintContext, min_tokens: int, min_words: int) -> tuple[Located[Sentence], ...]:
    """Counted sentences of the user's turns of admit fixtures (whose category expects anything but
    `empty` in the spec; a fixture without a valid sidecar or spec has no known category)."""
    spec = ctx.corpus.spec
    if spec is None:
        return ()
    found = []
    for fixture_id, session in sorted(ctx.corpus.sessions.items()):
        sidecar = ctx.corpus.sidecars.get(fixture_id)
        category = spec.category(sidecar.category) if sidecar is not None else None
        if category is None or category.expect == EXPECT_EMPTY:
            continue
        found += [Located(fixture_id, session.path, sentence)
                  for speaker, sentences in split_of(ctx, fixture_id) if speaker == USER
                  for sentence in sentences if sentence.counts(min_tokens, min_words)]
    return tuple(sorted(found, key=Located.sort_key))


@dataclass(frozen=True)
class Reference:
    """Sentences of outside files, searchable by exact key and by near match."""

    keyed: Mapping[str, Located[Sentence]]  # key (skeleton or normalized text) -> its first occurrence
    keys: Sequence[str]  # distinct keys, sorted; NearIndex positions refer to this
    near: NearIndex

    def exact(self, key: str) -> Located[Sentence] | None:
        return self.keyed.get(key)

    def nearest(self, key: str) -> tuple[Located[Sentence], float] | None:
        """The most similar reference sentence at or over the threshold (first by key on ties)."""
        matches = self.near.matches(key)
        return (self.keyed[self.keys[matches[0][0]]], matches[0][1]) if matches else None

    def match(self, key: str) -> tuple[Located[Sentence], float | None] | None:
        """The reference sentence with this very key (score None), else the nearest one, else None."""
        same = self.exact(key)
        return (same, None) if same is not None else self.nearest(key)


def _reference(sources: Sequence[tuple[TextSource, Sequence[Sentence]]], key, threshold: float) -> Reference:
    keyed: dict[str, Located[Sentence]] = {}
    for source, sentences in sources:
        for sentence in sentences:
            keyed.setdefault(key(sentence), Located(source.path, source.path, sentence))
    keys = sorted(keyed)
    return Reference(keyed, keys, NearIndex(keys, threshold))


def prompt_reference(ctx: LintContext, options) -> Reference | None:
    """The prompt's counted sentences by skeleton (a rule's sentence_options and `threshold`
    option); None when no prompt is given."""
    min_tokens, min_words, threshold = options.min_tokens, options.min_words, float(options.threshold)
    prompt = ctx.prompt
    if prompt is None:
        return None

    def build(_ctx: LintContext) -> Reference:
        sentences = [s for s in text_sentences(prompt.text) if s.counts(min_tokens, min_words)]
        return _reference([(prompt, sentences)], lambda s: s.skeleton, threshold)

    return ctx.cached(PROMPT_REFERENCE, build, min_tokens, min_words, threshold)


def kb_reference(ctx: LintContext, options) -> Reference | None:
    """The KB documents' counted sentences by normalized text (a rule's sentence_options and
    `threshold` option); None when no KB is given."""
    min_tokens, min_words, threshold = options.min_tokens, options.min_words, float(options.threshold)
    kb = ctx.kb
    if kb is None:
        return None

    def build(_ctx: LintContext) -> Reference:
        sources = []
        for document in sorted(kb, key=lambda d: d.path):
            body, first_line = strip_frontmatter(document.text)
            sources.append((document, [s for s in text_sentences(body, first_line)
                                       if s.counts(min_tokens, min_words)]))
        return _reference(sources, lambda s: s.normalized, threshold)

    return ctx.cached(KB_REFERENCE, build, min_tokens, min_words, threshold)


def sentence_options(min_tokens: int, min_words: int) -> tuple[Option, Option]:
    """The options of a rule that counts only sentences long enough (Sentence.counts), with its defaults."""
    return (Option("min_tokens", int, min_tokens, "a sentence with fewer skeleton tokens is a stock phrase "
                   "and does not count", min=0),
            Option("min_words", int, min_words, "a sentence with fewer unmasked words does not count", min=0))


def similarity_options(threshold: int, doc: str) -> tuple[Option, Option, Option]:
    """The options of a rule that reports sentences at least `threshold` similar (rapidfuzz ratio,
    0-100; `doc` says what is compared), counting only sentences of 8 skeleton tokens and 3 words."""
    return (Option("threshold", int, threshold, doc, min=0, max=100), *sentence_options(8, 3))
