"""Running the rules: what each rule is given, and turning the Problems rules yield into sorted,
configured Diagnostics. A rule that raises is a RuleCrash, not a traceback, and the other rules
still run. Which corpora a command line means is corpustools.lint.targets; the prompt and KB are
read by corpustools.model.prompt."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import TypeVar

from corpustools.io.errors import InputError
from corpustools.io.positions import Pos, Problem
from corpustools.lint.cache import CorpusCache, FixtureFindings, open_corpus_cache
from corpustools.lint.config import ConfigError, LintConfig, check_cli_ignore, expand_codes, load_config, suppressible
from corpustools.lint.context import CacheKey, IgnoreUse, LintContext
from corpustools.lint.diagnostic import Diagnostic, Severity
from corpustools.lint.registry import CORPUS, FIXTURE
from corpustools.lint.secrets.findings import secret_values
from corpustools.lint.secrets.quoted import NO_VALUES, SecretValues
from corpustools.lint.secrets.redaction import redact_secrets
from corpustools.lint.targets import Target, resolve_targets, within
from corpustools.model.corpus import load_corpus
from corpustools.model.prompt import prompt_source, read_kb

T = TypeVar("T")


@dataclass(frozen=True)
class RuleCrash:
    code: str
    name: str
    error: str

    def __str__(self) -> str:
        return f"internal error in rule {self.code} ({self.name}): {self.error}"


@dataclass(frozen=True)
class LintRun:
    diagnostics: tuple[Diagnostic, ...] = ()
    crashes: tuple[RuleCrash, ...] = ()
    fixtures: int = 0  # fixtures (session or sidecar ids) of the corpora linted, for the summary
    # The secret values the corpora's scans found (every message of the run is masked with them all)
    # and their caches, saved by merged_runs once every corpus of the run has been linted.
    values: SecretValues = field(default=NO_VALUES, compare=False)
    caches: tuple[CorpusCache, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Selection:
    """Command-line choices that apply to every corpus."""

    select: frozenset[str] | None = None  # None: every rule
    ignore: frozenset[str] = frozenset()
    prompt: str | None = None  # --prompt FILE, overrides lint.prompt
    kb: str | None = None  # --kb DIR, overrides lint.kb


def choose(rules: list[ModuleType], *, select: str | None = None, ignore: str | None = None,
           prompt: str | None = None, kb: str | None = None, prefix: str = "--") -> Selection:
    """The Selection of `lint --select CODES --ignore CODES --prompt FILE --kb DIR` (or of the same
    keywords of corpustools.api.lint): CODES are comma-separated codes, prefixes or names. A
    ConfigError names the option as `prefix` + its name for an unknown rule or an ignored secret rule."""
    chosen = expand_codes(select, rules, option=f"{prefix}select") if select else None
    ignored = expand_codes(ignore, rules, option=f"{prefix}ignore") if ignore else frozenset()
    check_cli_ignore(ignored, rules, option=f"{prefix}ignore")
    return Selection(chosen, ignored, prompt, kb)


def _from_option(option: str, read: Callable[[str], T], path: str) -> T:
    """`read(path)` for a path given by `option` (--prompt, lint.kb, ...); a file that cannot be
    read is a ConfigError naming the option (usage, exit 2)."""
    try:
        return read(path)
    except InputError as err:
        raise ConfigError(Pos(""), f"{option}: {err}") from None


def corpus_config(corpus, rules: list[ModuleType]) -> LintConfig:
    spec = corpus.spec
    return load_config(spec.doc if spec else None, spec.lint if spec else None, rules)


def build_context(corpus, config: LintConfig, selection: Selection) -> LintContext:
    from corpustools.provenance import corpus_record_path  # a lint run only: --list-rules loads the engine

    prompt = selection.prompt or config.prompt
    kb = selection.kb or config.kb
    try:
        record = corpus_record_path(corpus.root, corpus.spec)
    except InputError as err:  # lint: provenance: names no file that can be (a NUL byte): a setting of lint's
        raise ConfigError(err.pos, err.message) from None
    return LintContext(
        corpus=corpus,
        prompt=(_from_option("--prompt" if selection.prompt else "lint.prompt", prompt_source, prompt)
                if prompt else None),
        kb=_from_option("--kb" if selection.kb else "lint.kb", read_kb, kb) if kb else None,
        provenance_record=record,
        secret_allow=config.secret_allow,
        point_ignores=config.per_point_ignores,
    )


def active_rules(rules: list[ModuleType], config: LintConfig, selection: Selection) -> list[ModuleType]:
    """Rules to run. Secret rules (SUPPRESSIBLE = False) always run, whatever is selected."""
    active = []
    for rule in rules:
        if not suppressible(rule):
            active.append(rule)
        elif rule.CODE not in config.ignore and rule.CODE not in selection.ignore and (
                selection.select is None or rule.CODE in selection.select):
            active.append(rule)
    return active


def _as_is(text: str) -> str:
    return text


def kept_problems(problems, rule: ModuleType, config: LintConfig, ctx: LintContext,
                  only: tuple[str, ...] | None = None):
    """The Problems of `rule` that are reported: not switched off at their point by the corpus's
    per_point_ignores (ctx.ignore_use notes each entry that switches one off, wherever it is),
    under `only` (None: everywhere) and not switched off for their file by its per_file_ignores.
    What lint reports and --fix fixes."""
    root = os.path.abspath(ctx.corpus.root)
    points = point_at(ctx) if config.per_point_ignores and suppressible(rule) else {}
    relative_of: dict[str, str] = {}  # one relpath per file, not one per finding
    for problem in problems:
        point = points.get(problem.pos)
        if point is not None and _ignored_at_point(point, rule.CODE, config, ctx):
            continue
        path = problem.pos.path
        if only is not None and not within(path, only):
            continue
        if suppressible(rule) and config.per_file_ignores:
            if (relative := relative_of.get(path)) is None:
                relative = relative_of[path] = os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")
            if any(f.covers(relative, rule.CODE) for f in config.per_file_ignores):
                continue
        yield problem


def _ignored_at_point(point: str, code: str, config: LintConfig, ctx: LintContext) -> bool:
    """Whether a per_point_ignores entry switches `code` off at the point `point` (noted as used)."""
    entries = [index for index, entry in enumerate(config.per_point_ignores)
               if entry.point == point and code in entry.codes]
    for index in entries:
        ctx.ignore_use.used.setdefault(index, set()).add(code)
    return bool(entries)


POINT_AT: CacheKey[dict[Pos, str]] = CacheKey("engine.point_at")


def point_at(ctx: LintContext) -> dict[Pos, str]:
    """Where each labelled point's keys and items are in its sidecar -> the point's id: a finding
    at one of these places is a finding at that point (per_point_ignores). Computed once a run."""
    def build(c: LintContext) -> dict[Pos, str]:
        found: dict[Pos, str] = {}
        for _, sidecar in sorted(c.corpus.sidecars.items()):
            ids = {point.keypath: point.id for point in sidecar.all_points}
            for keypath in sidecar.doc.positions:
                point_id = ids.get(tuple(keypath[:2]))
                if point_id is not None:
                    found.setdefault(sidecar.doc.pos(keypath), point_id)
        return found

    return ctx.cached(POINT_AT, build)


_Key = tuple[int, int, str]  # a finding in its file: line and column (0: the file, the line), message


class _FileFindings:
    """The findings of one rule in one file, as they arrive: the first `limit + 1` by position are
    kept (`limit` 0: every one), the others only counted, so that a rule finding something at every
    character of a 1 MB line costs a count each, not a diagnostic each, and memory in proportion to
    `limit`. A finding equal to one held (the same place and message twice) counts once."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.first: list[_Key] = []
        self.held: set[_Key] = set()  # the keys in `first`
        self.count = 0

    def add(self, key: _Key) -> None:
        if key in self.held:
            return
        self.first.append(key)
        self.held.add(key)
        self.count += 1
        if self.limit and len(self.first) > 2 * (self.limit + 1):  # one sort per `limit` findings
            self.first = sorted(self.first)[: self.limit + 1]
            self.held = set(self.first)

    def shown(self) -> tuple[list[_Key], int]:
        """The findings to list, in order, and how many findings the last one stands for when some
        are folded (0: none are): it is then the first finding not listed."""
        first = sorted(self.first)
        if not self.limit or self.count <= self.limit:
            return first, 0
        return first[: self.limit + 1], self.count - self.limit


def fold_message(code: str, folded: int, listed: int) -> str:
    """What the last finding of a rule in a file says when its first `listed` findings there are
    listed and `folded` more are not (docs/lint-rules.md, "Many findings in one file")."""
    return (f"… and {folded} more {code} findings in this file (the first {listed} are listed; "
            "corpus.yaml's lint: max_findings_per_file sets how many)")


REDACTION_CHUNK = 1_000_000  # characters of messages redacted in one pass: few passes, little memory


def redacted_messages(messages: Iterable[str]) -> dict[str, str]:
    """Each distinct message (one line each) -> itself redacted (redact_secrets). Any message can
    quote corpus text (a term, an id, a sentence, a file name), so each is redacted, once: the
    messages are joined by newlines and redacted a chunk at a time (the secret scan reads lines:
    every finder and view is line by line, and its quick tests run once per chunk instead of once
    per message), and only a message that pass changed is redacted again on its own, which is what
    it shows: exactly what redacting each message alone gives. (The secret values found by their
    context are masked over every corpus of the run: merged_runs.)"""
    shown: dict[str, str] = {}
    chunk: list[str] = []
    size = 0
    for message in sorted(set(messages)):
        shown[message] = message
        chunk.append(message)
        size += len(message) + 1
        if size >= REDACTION_CHUNK:
            _redact_chunk(chunk, shown)
            chunk, size = [], 0
    if chunk:
        _redact_chunk(chunk, shown)
    return shown


def _redact_chunk(chunk: list[str], shown: dict[str, str]) -> None:
    joined = "\n".join(chunk)
    passed = redact_secrets(joined)
    if passed == joined:
        return
    lines = passed.split("\n")
    for index, message in enumerate(chunk):
        # a finding that spanned lines would shift them: then every message is redacted alone
        if len(lines) != len(chunk) or lines[index] != message:
            shown[message] = redact_secrets(message)


def _diagnostics(rule: ModuleType, by_file: dict[str, _FileFindings], config: LintConfig,
                 shown: Callable[[str], str]) -> Iterator[Diagnostic]:
    """The Diagnostics of `rule`'s findings, file by file: its configured severity, each message on
    one line (not yet redacted), and past max_findings_per_file a last one saying how many more
    there are. Line 0 means "the file as a whole"; reports and SARIF want 1-based positions
    throughout. The path is the file as found, which the reporters show (relative to the working
    folder or the repository root) and redact (lint/report.py); `shown` names a file read from a
    copy (lint --staged) by its real path, in the path and the message."""
    severity = config.severity.get(rule.CODE, rule.SEVERITY)
    for path, found in by_file.items():
        listed, folded = found.shown()
        for index, (line, col, message) in enumerate(listed):
            line, col = max(line, 1), max(col, 1)
            if folded and index == len(listed) - 1:
                yield Diagnostic(shown(path), line, col, rule.CODE, rule.NAME, severity,
                                 fold_message(rule.CODE, folded, found.limit), folded)
            else:
                yield Diagnostic(shown(path), line, col, rule.CODE, rule.NAME, severity,
                                 " ".join(shown(str(message)).split()))


FIXTURE_KEYS: CacheKey[dict[str, str | None]] = CacheKey("engine.fixture_keys")
FIXTURE_FILES: CacheKey[dict[str, str]] = CacheKey("engine.fixture_files")
FIXTURE_CONTEXTS: CacheKey[dict[frozenset[str], LintContext]] = CacheKey("engine.fixture_contexts")


def fixture_keys(ctx: LintContext) -> dict[str, str | None]:
    """fixture id -> its key in lint's cache: the sha256 of its session's and its sidecar's file
    keys (lint/cache.file_key; "-" for a file it does not have); None when one of its files could
    not be read (such a fixture is checked every run). In the order of corpus.fixture_ids; computed
    once a run."""
    def build(c: LintContext) -> dict[str, str | None]:
        corpus, cache = c.corpus, c.file_cache
        assert cache is not None
        keys: dict[str, str | None] = {}
        root = os.path.abspath(corpus.root)
        for fixture_id in corpus.fixture_ids:
            files = corpus.fixture_files(fixture_id)
            if any(path is not None and path not in corpus.texts for path in files):
                keys[fixture_id] = None
                continue
            parts = ["-" if path is None else cache.key_of(root, path, corpus.texts[path]) for path in files]
            keys[fixture_id] = hashlib.sha256(" ".join(parts).encode()).hexdigest()
        return keys

    return ctx.cached(FIXTURE_KEYS, build)


def fixture_of_file(ctx: LintContext) -> dict[str, str]:
    """path -> the id of the fixture it is a file of (its session or its sidecar), for every
    fixture's files; computed once a run."""
    def build(c: LintContext) -> dict[str, str]:
        corpus = c.corpus
        return {path: fixture_id for fixture_id in corpus.fixture_ids
                for path in corpus.fixture_files(fixture_id) if path is not None}

    return ctx.cached(FIXTURE_FILES, build)


def rule_digest(ctx: LintContext, rule: ModuleType, options: object) -> str:
    """What the findings of a rule of fixture scope depend on besides the fixture's own files: its
    code and options, corpus.yaml's text, the output schema's digest (its $refs' too), the prompt's
    and KB's paths and texts (registry.SCOPES). Its held findings are used only under this digest."""
    corpus = ctx.corpus
    digest = hashlib.sha256(f"{rule.CODE}\0{options!r}\0".encode())
    for text in (corpus.texts.get(corpus.spec_path), corpus.contract.schema_digest if corpus.contract else None):
        digest.update(b"-" if text is None else hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
    for source in ((ctx.prompt,) if ctx.prompt else ()) + (ctx.kb or ()):
        digest.update(hashlib.sha256(f"{source.path}\0{source.text}".encode("utf-8", "surrogatepass")).digest())
    digest.update(b"kb" if ctx.kb is not None else b"no kb")
    return digest.hexdigest()


def fixture_context(ctx: LintContext, fixture_ids: Sequence[str]) -> LintContext:
    """What a rule of fixture scope is given to check only `fixture_ids`: the corpus restricted to
    them (model/corpus.Corpus.restricted_to), the rest as `ctx` has it, its own analyses; one per run
    for each set of fixtures, so the rules that check the same fixtures share their analyses."""
    chosen = frozenset(fixture_ids)
    if len(chosen) == len(ctx.corpus.fixture_ids):
        return ctx
    contexts = ctx.cached(FIXTURE_CONTEXTS, lambda _: {})
    if chosen not in contexts:
        contexts[chosen] = replace(ctx, corpus=ctx.corpus.restricted_to(chosen), ignore_use=IgnoreUse(),
                                   file_cache=None, _cache={})
    return contexts[chosen]


def fixture_problems(ctx: LintContext, rule: ModuleType, options: object) -> list[Problem]:
    """The Problems of a rule of fixture scope with lint's cache (ctx.file_cache): the ones held for
    each fixture whose key and the rule's digest the cache holds, and the rule run on the corpus
    restricted to the others (fixture_context), whose findings are then held, unless redaction
    would change one of a fixture's messages (a message quoting a secret is never written to the
    cache; one quoting a secret value found by its context is dropped as the cache is saved:
    CorpusCache.save) or the rule found something outside those fixtures' files (then none is held)."""
    cache, corpus = ctx.file_cache, ctx.corpus
    assert cache is not None
    keys, digest = fixture_keys(ctx), rule_digest(ctx, rule, options)
    problems: list[Problem] = []
    missing: list[str] = []
    if not cache.holds_rule(rule.CODE, digest):  # a cold run, or the rule's options changed: none is held
        missing = list(keys)
    else:
        for fixture_id, key in keys.items():
            held = cache.fixture_findings(rule.CODE, digest, key) if key is not None else None
            if held is None:
                missing.append(fixture_id)
                continue
            files = corpus.fixture_files(fixture_id)
            problems += [Problem(Pos(files[which] or "", line, col), message) for which, line, col, message in held]
    if not missing:
        cache.rule_done(rule.CODE, digest)
        return problems
    every = len(missing) == len(keys)  # a cold run: the rule checks the corpus as loaded
    fresh = list(rule.check(ctx if every else fixture_context(ctx, missing), options))
    fixture_of = fixture_of_file(ctx)  # path -> the id of the fixture it is a file of
    checked = None if every else set(missing)  # None: every fixture
    found: dict[str, list[tuple[int, int, int, str]]] = {}
    stray = False
    for problem in fresh:
        path = problem.pos.path
        owner = fixture_of.get(path)
        if owner is None or (checked is not None and owner not in checked):
            stray = True
        else:
            which = 0 if corpus.session_paths.get(owner) == path else 1  # its session, or its sidecar
            found.setdefault(owner, []).append((which, problem.pos.line, problem.pos.col, problem.message))
    shown = redacted_messages(problem.message for problem in fresh) if fresh else {}
    clean: list[str] = []
    for fixture_id in missing:
        key = keys[fixture_id]
        if key is None:
            continue
        raw = found.get(fixture_id)
        if stray or (raw is not None and any(shown[message] != message for *_, message in raw)):
            cache.drop_fixture(key)
        elif raw is None:
            clean.append(key)
        else:
            held_now: FixtureFindings = tuple(sorted(set(raw)))
            cache.note_fixture(rule.CODE, key, held_now)
    cache.note_clean_fixtures(rule.CODE, clean)
    cache.rule_done(rule.CODE, digest)
    return problems + fresh


def run_rules(context: LintContext, rules: list[ModuleType], config: LintConfig,
              only: tuple[str, ...] | None = None, shown: Callable[[str], str] = _as_is) -> LintRun:
    """Every rule's findings as Diagnostics; `shown` maps each path and message (see _diagnostics)."""
    found: list[Diagnostic] = []
    crashes = []
    # A rule that reads what the others found (CT615: which per_point_ignores switched one off) runs last.
    for rule in sorted(rules, key=lambda r: getattr(r, "AFTER_OTHER_RULES", False)):
        by_file: dict[str, _FileFindings] = {}
        options = config.options_of(rule)
        try:
            checked = (fixture_problems(context, rule, options) if context.file_cache is not None
                       and getattr(rule, "SCOPE", CORPUS) == FIXTURE else rule.check(context, options))
            for problem in kept_problems(checked, rule, config, context, only):
                pos = problem.pos
                if (in_file := by_file.get(pos.path)) is None:
                    in_file = by_file[pos.path] = _FileFindings(config.max_findings_per_file)
                in_file.add((pos.line, pos.col, problem.message))
        except Exception as exc:  # a rule bug must not hide every other rule's findings
            detail = redact_secrets(" ".join(shown(str(exc)).split()))[:300]
            crashes.append(RuleCrash(rule.CODE, rule.NAME, f"{type(exc).__name__}: {detail}"))
            continue
        context.ignore_use.ran.add(rule.CODE)
        found += _diagnostics(rule, by_file, config, shown)
    # Every message is redacted here, once (a fold's message is ours: it quotes nothing).
    redacted = redacted_messages(d.message for d in found if not d.folded)
    diagnostics = {d if d.folded or redacted[d.message] == d.message else replace(d, message=redacted[d.message])
                   for d in found}
    return LintRun(tuple(sorted(diagnostics, key=Diagnostic.sort_key)), tuple(crashes))


def lint_target(target: Target, rules: list[ModuleType], selection: Selection, *,
                shown: Callable[[str], str] = _as_is, cache_dir: str | None = None) -> LintRun:
    """Load one corpus and run the active rules on it. ConfigError for a bad `lint:` section.
    `shown`: how a path read is named in what is reported (lint --staged lints a copy).
    `cache_dir`: lint's cache folder (corpustools.lint.cache), None for none."""
    # The cache is opened (and the folder checked) before anything is read: a refused folder stops here.
    cache = open_corpus_cache(cache_dir, shown(os.path.abspath(target.root))) if cache_dir is not None else None
    corpus = load_corpus(target.root)
    config = corpus_config(corpus, rules)
    context = replace(build_context(corpus, config, selection), file_cache=cache)
    run = run_rules(context, active_rules(rules, config, selection), config, target.only, shown)
    return replace(run, fixtures=len(set(corpus.session_paths) | set(corpus.sidecar_paths)),
                   values=secret_values(context), caches=(cache,) if cache is not None else ())


def lint_paths(paths: list[str], rules: list[ModuleType], selection: Selection, *, skip_outside: bool = False,
               whole_corpus: bool = False, cache_dir: str | None = None) -> LintRun:
    """Lint what `paths` name (see resolve_targets); diagnostics of all corpora, sorted together.
    `lint --staged` is corpustools.lint.staged.lint_staged. `cache_dir`: see lint_target."""
    return merged_runs(lint_target(target, rules, selection, cache_dir=cache_dir)
                       for target in resolve_targets(paths, skip_outside=skip_outside, whole_corpus=whole_corpus))


def merged_runs(runs: Iterable[LintRun]) -> LintRun:
    """One LintRun of several corpora's (or one's): diagnostics sorted together, crashes and
    fixtures added up; every message masked with the secret values the scans found by their
    context in every corpus (one corpus's password quoted by another's term is the same secret:
    secrets/quoted.py; a fold's message is ours), then each corpus's cache saved holding nothing
    that quotes one (lint_target leaves the saving here)."""
    done = list(runs)
    values = SecretValues.union(run.values for run in done)
    diagnostics: set[Diagnostic] = set()
    crashes: list[RuleCrash] = []
    fixtures = 0
    for run in done:
        diagnostics.update(run.diagnostics)
        crashes += run.crashes
        fixtures += run.fixtures
    if values:
        diagnostics = {d if d.folded or (shown := values.mask(d.message)) == d.message else replace(d, message=shown)
                       for d in diagnostics}
    for run in done:
        for cache in run.caches:
            cache.save(values)
    return LintRun(tuple(sorted(diagnostics, key=Diagnostic.sort_key)), tuple(crashes), fixtures, values)


def exit_code(run: LintRun, *, strict: bool = False) -> int:
    if run.crashes:
        return 2
    failing = (Severity.ERROR, Severity.WARNING) if strict else (Severity.ERROR,)
    return 1 if any(d.severity in failing for d in run.diagnostics) else 0
