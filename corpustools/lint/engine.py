"""Running the rules: which corpora a command line means, what each rule is given, and turning the
Problems rules yield into sorted, configured Diagnostics. A rule that raises is a RuleCrash, not a
traceback, and the other rules still run."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import ModuleType

from corpustools.io.positions import InputError, Pos
from corpustools.lint.config import ConfigError, LintConfig, load_config, suppressible
from corpustools.lint.context import LintContext, TextSource
from corpustools.lint.diagnostic import Diagnostic
from corpustools.model.corpus import corpus_root_of, is_corpus_root
from corpustools.model.spec import SPEC_FILE

# Folders never searched for corpora: tool caches and virtual environments hold copies of
# packages (and their test fixtures) that are not this repository's corpora.
_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages", "venv", "build", "dist"})


@dataclass(frozen=True)
class Target:
    """One corpus to lint; `only` restricts the report to these files/folders (None: everything)."""

    root: str
    only: tuple[str, ...] | None = None


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


@dataclass(frozen=True)
class Selection:
    """Command-line choices that apply to every corpus."""

    select: frozenset[str] | None = None  # None: every rule
    ignore: frozenset[str] = frozenset()
    prompt: str | None = None  # --prompt FILE, overrides lint.prompt
    kb: str | None = None  # --kb DIR, overrides lint.kb


def discover_corpora(base: str) -> list[str]:
    """Every folder holding corpus.yaml under `base`, sorted; hidden folders and venvs are skipped."""
    found = []
    for folder, dirs, _files in os.walk(base):
        if is_corpus_root(folder):
            found.append(folder)
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS
                         and not os.path.isfile(os.path.join(folder, d, "pyvenv.cfg"))
                         and not os.path.islink(os.path.join(folder, d)))
    return sorted(os.path.normpath(f) for f in found)


def resolve_targets(paths: list[str], cwd: str = ".", skip_outside: bool = False,
                    whole_corpus: bool = False) -> list[Target]:
    """What `corpustools lint PATH...` lints: each corpus once, sorted. A bad PATH is a ConfigError
    (usage, exit 2).

    No PATH: the corpus the working folder is in (walking up), else every corpus below it. A PATH
    inside a corpus lints that whole corpus (corpus-wide rules need every fixture) and reports only
    what is under PATH, or the whole corpus with `whole_corpus`. With `skip_outside`, a PATH neither
    in nor holding a corpus is skipped instead of an error. The pre-commit hook asks for both: it
    passes every changed file its pattern matches, and an error anywhere in a corpus it touched counts."""
    if not paths:
        enclosing = corpus_root_of(cwd)
        if enclosing is not None:
            return [Target(enclosing)]
        roots = discover_corpora(cwd)
        if not roots:
            raise ConfigError(Pos(""), f"no corpus (a folder holding {SPEC_FILE}) found in, above "
                              f"or below {os.path.abspath(cwd)}")
        return [Target(root) for root in roots]
    whole: set[str] = set()
    parts: dict[str, set[str]] = {}
    for path in paths:
        if not os.path.exists(path):
            raise ConfigError(Pos(""), f"{path}: no such file or folder")
        root = corpus_root_of(path)
        if root is None:
            below = discover_corpora(path) if os.path.isdir(path) else []
            if not below and skip_outside:
                continue
            if not below:
                raise ConfigError(Pos(""), f"{path}: not a corpus and not inside one (no {SPEC_FILE} found)")
            whole.update(os.path.abspath(r) for r in below)
        elif whole_corpus or os.path.samefile(root, path):
            whole.add(root)
        else:
            parts.setdefault(root, set()).add(os.path.abspath(path))
    targets = {root: Target(root) for root in whole}
    for root, only in parts.items():
        if root not in whole:
            targets[root] = Target(root, tuple(sorted(only)))
    return [targets[root] for root in sorted(targets)]


def display_path(path: str, cwd: str | None = None) -> str:
    """`path` relative to the working directory, with forward slashes (identical on every OS)."""
    relative = os.path.relpath(os.path.abspath(path), cwd or os.getcwd())
    return relative.replace(os.sep, "/")


def repository_root(cwd: str) -> str:
    """The nearest ancestor-or-self of `cwd` holding `.git` (a folder, or the file a worktree or
    submodule has), else `cwd` itself: what SARIF and GitHub annotation paths are relative to.
    No subprocess: git need not be installed to write a report."""
    folder = os.path.abspath(cwd)
    while not os.path.lexists(os.path.join(folder, ".git")):
        parent = os.path.dirname(folder)
        if parent == folder:
            return os.path.abspath(cwd)
        folder = parent
    return folder


def root_relative(path: str, root: str, cwd: str) -> str:
    """A displayed (working-directory relative) path made relative to `root`, with forward
    slashes; a path outside `root` keeps its `..` segments."""
    return os.path.relpath(os.path.join(os.path.abspath(cwd), path), root).replace(os.sep, "/")


def read_source(path: str, option: str) -> TextSource:
    """A file given from outside the corpus (the prompt under eval) as a TextSource; a file that
    cannot be read is a ConfigError naming the `option` that gave it. (Reading the prompt to render
    it, placeholder checked, is corpustools.render.read_prompt.)"""
    from corpustools.io.textfile import read_text

    try:
        return TextSource(display_path(path), read_text(path, display=display_path(path)))
    except InputError as err:
        raise ConfigError(Pos(""), f"{option}: {err}") from None


def read_kb(folder: str, option: str) -> tuple[TextSource, ...]:
    """Every *.md file under `folder` (recursively), sorted by relative path; empty files skipped."""
    from corpustools.io.textfile import decode_text, read_bytes

    if not os.path.isdir(folder):
        raise ConfigError(Pos(""), f"{option}: {display_path(folder)}: not a folder")
    paths = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        paths += [os.path.join(here, name) for name in files if name.endswith(".md")]
    sources = []
    for path in sorted(paths, key=lambda p: os.path.relpath(p, folder).replace(os.sep, "/")):
        shown = display_path(path)
        try:
            data = read_bytes(path, display=shown)
            if data.strip():
                sources.append(TextSource(shown, decode_text(data, shown)))
        except InputError as err:
            raise ConfigError(Pos(""), f"{option}: {err}") from None
    return tuple(sources)


def corpus_config(corpus, rules: list[ModuleType]) -> LintConfig:
    spec = corpus.spec
    return load_config(spec.doc if spec else None, spec.lint if spec else None, rules)


def build_context(corpus, config: LintConfig, selection: Selection) -> LintContext:
    from corpustools.provenance import corpus_record_path

    prompt = selection.prompt or config.prompt
    kb = selection.kb or config.kb
    return LintContext(
        corpus=corpus,
        prompt=read_source(prompt, "--prompt" if selection.prompt else "lint.prompt") if prompt else None,
        kb=read_kb(kb, "--kb" if selection.kb else "lint.kb") if kb else None,
        provenance_record=corpus_record_path(corpus.root, corpus.spec),
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


def _within(path: str, only: tuple[str, ...]) -> bool:
    absolute = os.path.abspath(path)
    return any(absolute == o or absolute.startswith(o.rstrip(os.sep) + os.sep) for o in only)


def _diagnostic(rule: ModuleType, pos: Pos, message: str, config: LintConfig) -> Diagnostic:
    # Line 0 means "the file as a whole"; reports and SARIF want 1-based positions throughout.
    return Diagnostic(display_path(pos.path), max(pos.line, 1), max(pos.col, 1), rule.CODE, rule.NAME,
                      config.severity.get(rule.CODE, rule.SEVERITY), " ".join(str(message).split()))


def run_rules(context: LintContext, rules: list[ModuleType], config: LintConfig,
              only: tuple[str, ...] | None = None) -> LintRun:
    root = context.corpus.root
    diagnostics: set[Diagnostic] = set()
    crashes = []
    for rule in rules:
        try:
            problems = list(rule.check(context, config.options[rule.CODE]))
        except Exception as exc:  # a rule bug must not hide every other rule's findings
            detail = " ".join(str(exc).split())[:300]
            crashes.append(RuleCrash(rule.CODE, rule.NAME, f"{type(exc).__name__}: {detail}"))
            continue
        for problem in problems:
            if only is not None and not _within(problem.pos.path, only):
                continue
            relative = os.path.relpath(os.path.abspath(problem.pos.path), os.path.abspath(root)).replace(os.sep, "/")
            if suppressible(rule) and any(f.covers(relative, rule.CODE) for f in config.per_file_ignores):
                continue
            diagnostics.add(_diagnostic(rule, problem.pos, problem.message, config))
    return LintRun(tuple(sorted(diagnostics)), tuple(crashes))


def lint_target(target: Target, rules: list[ModuleType], selection: Selection,
                after_load: Callable[[], None] | None = None) -> LintRun:
    """Load one corpus and run the active rules on it. ConfigError for a bad `lint:` section.
    `after_load` runs between the two (the CLI freezes the loaded corpus there: corpustools.io.gcpause)."""
    from corpustools.model.corpus import load_corpus

    corpus = load_corpus(target.root)
    if after_load is not None:
        after_load()
    config = corpus_config(corpus, rules)
    context = build_context(corpus, config, selection)
    run = run_rules(context, active_rules(rules, config, selection), config, target.only)
    return replace(run, fixtures=len(set(corpus.session_paths) | set(corpus.sidecar_paths)))


def lint_paths(paths: list[str], rules: list[ModuleType], selection: Selection,
               after_load: Callable[[], None] | None = None, skip_outside: bool = False,
               whole_corpus: bool = False) -> LintRun:
    """Lint what `paths` name (see resolve_targets); diagnostics of all corpora, sorted together."""
    diagnostics: set[Diagnostic] = set()
    crashes: list[RuleCrash] = []
    fixtures = 0
    for target in resolve_targets(paths, skip_outside=skip_outside, whole_corpus=whole_corpus):
        run = lint_target(target, rules, selection, after_load)
        diagnostics.update(run.diagnostics)
        crashes += run.crashes
        fixtures += run.fixtures
    return LintRun(tuple(sorted(diagnostics)), tuple(crashes), fixtures)


def exit_code(run: LintRun, strict: bool = False) -> int:
    if run.crashes:
        return 2
    failing = ("error", "warning") if strict else ("error",)
    return 1 if any(d.severity in failing for d in run.diagnostics) else 0
