"""Running the rules: which corpora a command line means, what each rule is given, and turning the
Problems rules yield into sorted, configured Diagnostics. A rule that raises is a RuleCrash, not a
traceback, and the other rules still run."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from types import ModuleType

from corpustools.corpus import corpus_root_of, is_corpus_root
from corpustools.lint.config import ConfigError, LintConfig, load_config, suppressible
from corpustools.lint.context import LintContext, TextSource
from corpustools.lint.diagnostic import Diagnostic
from corpustools.positions import InputError, Pos
from corpustools.spec import SPEC_FILE

# Folders never searched for corpora: tool caches and virtual environments hold copies of
# packages (and their test fixtures) that are not this repository's corpora.
_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages", "venv", "build", "dist"})


@dataclass(frozen=True)
class Target:
    """One corpus to lint, whole."""

    root: str


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


def resolve_targets(paths: list[str], cwd: str = ".", skip_outside: bool = False) -> list[Target]:
    """What `corpustools lint PATH...` lints: the corpus each PATH is in or is (a file or folder
    inside a corpus means that whole corpus: corpus-wide rules need every fixture), else every
    corpus below a folder PATH; each corpus once, sorted. A bad PATH is a ConfigError (exit 2);
    with `skip_outside`, a PATH neither in nor holding a corpus is skipped instead (the pre-commit
    hook passes every changed file its pattern matches, corpus or not)."""
    if not paths:
        roots = discover_corpora(cwd)
        if not roots:
            raise ConfigError(Pos(""), f"no corpus (a folder holding {SPEC_FILE}) found under {os.path.abspath(cwd)}")
        return [Target(root) for root in roots]
    found: set[str] = set()
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
            found.update(os.path.abspath(r) for r in below)
        else:
            found.add(root)
    return [Target(root) for root in sorted(found)]


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


def read_prompt(path: str, option: str) -> TextSource:
    from corpustools.textfile import read_text

    try:
        return TextSource(display_path(path), read_text(path, display=display_path(path)))
    except InputError as err:
        raise ConfigError(Pos(""), f"{option}: {err}") from None


def read_kb(folder: str, option: str) -> tuple[TextSource, ...]:
    """Every *.md file under `folder` (recursively), sorted by relative path; empty files skipped."""
    from corpustools.textfile import decode_text, read_bytes

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
    from corpustools.provenance import default_record_path

    prompt = selection.prompt or config.prompt
    kb = selection.kb or config.kb
    return LintContext(
        corpus=corpus,
        prompt=read_prompt(prompt, "--prompt" if selection.prompt else "lint.prompt") if prompt else None,
        kb=read_kb(kb, "--kb" if selection.kb else "lint.kb") if kb else None,
        provenance_record=config.provenance or default_record_path(corpus.root),
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


def _diagnostic(rule: ModuleType, pos: Pos, message: str, config: LintConfig) -> Diagnostic:
    # Line 0 means "the file as a whole"; reports and SARIF want 1-based positions throughout.
    return Diagnostic(display_path(pos.path), max(pos.line, 1), max(pos.col, 1), rule.CODE, rule.NAME,
                      config.severity.get(rule.CODE, rule.SEVERITY), " ".join(str(message).split()))


def run_rules(context: LintContext, rules: list[ModuleType], config: LintConfig) -> LintRun:
    root = context.corpus.root
    diagnostics: set[Diagnostic] = set()
    crashes = []
    for rule in rules:
        try:
            problems = list(rule.check(context, config.options.get(rule.CODE, getattr(rule, "OPTIONS", {}))))
        except Exception as exc:  # a rule bug must not hide every other rule's findings
            detail = " ".join(str(exc).split())[:300]
            crashes.append(RuleCrash(rule.CODE, rule.NAME, f"{type(exc).__name__}: {detail}"))
            continue
        for problem in problems:
            relative = os.path.relpath(os.path.abspath(problem.pos.path), os.path.abspath(root)).replace(os.sep, "/")
            if suppressible(rule) and any(f.covers(relative, rule.CODE) for f in config.per_file_ignores):
                continue
            diagnostics.add(_diagnostic(rule, problem.pos, problem.message, config))
    return LintRun(tuple(sorted(diagnostics)), tuple(crashes))


def lint_target(target: Target, rules: list[ModuleType], selection: Selection) -> LintRun:
    """Load one corpus and run the active rules on it. ConfigError for a bad `lint:` section."""
    from corpustools.corpus import load_corpus
    from corpustools.gcpause import freeze_loaded

    corpus = load_corpus(target.root)
    freeze_loaded()  # the rules below allocate a lot; never rescan the loaded corpus
    config = corpus_config(corpus, rules)
    context = build_context(corpus, config, selection)
    run = run_rules(context, active_rules(rules, config, selection), config)
    return replace(run, fixtures=len(set(corpus.session_paths) | set(corpus.sidecar_paths)))


def lint_paths(paths: list[str], rules: list[ModuleType], selection: Selection,
               skip_outside: bool = False) -> LintRun:
    """Lint what `paths` name (see resolve_targets); diagnostics of all corpora, sorted together."""
    diagnostics: set[Diagnostic] = set()
    crashes: list[RuleCrash] = []
    fixtures = 0
    for target in resolve_targets(paths, skip_outside=skip_outside):
        run = lint_target(target, rules, selection)
        diagnostics.update(run.diagnostics)
        crashes += run.crashes
        fixtures += run.fixtures
    return LintRun(tuple(sorted(diagnostics)), tuple(crashes), fixtures)


def exit_code(run: LintRun, strict: bool = False) -> int:
    if run.crashes:
        return 2
    failing = ("error", "warning") if strict else ("error",)
    return 1 if any(d.severity in failing for d in run.diagnostics) else 0
