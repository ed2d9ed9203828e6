"""The rule registry: one row per rule module under corpustools.lint.rules, in code order, saying
its code, its name, the module's name and whether it can be switched off. A rule module is imported
only when something needs more than those: running it (its `check`), its severity, options, fixes or
documentation. So `--select CT1` never imports CT6's modules (nor rapidfuzz or numpy behind CT702),
while `--select`, `--ignore` and corpus.yaml's `lint:` entries are checked, with their did-you-mean,
against the table alone. A module that is missing or fails to import is an ImportError when it is
first used: `corpustools lint` then stops with an internal error (exit 2), never a rule silently
left out.

Adding a rule is one module under rules/ and one row below (with its tests/rules/test_<name>.py and
the generated docs: docs/architecture.md, "Where to add"). tests/test_rule_registry.py checks that
every module under rules/ has a row and that each row says what its module declares (CODE, NAME,
SUPPRESSIBLE)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:  # for the annotations only: the registry itself stays cheap to import
    from corpustools.lint.context import LintContext
    from corpustools.lint.diagnostic import Problem
    from corpustools.lint.fixes import Fix
    from corpustools.lint.options import Option
    from corpustools.model.status import Severity

RULES_PACKAGE = "corpustools.lint.rules"

# What a rule's findings depend on (its SCOPE): "fixture" -- its findings in a fixture's session and
# sidecar depend only on those two files, corpus.yaml (with the output schema it names), the rule's
# options and the prompt and KB, and it finds nothing anywhere else; so lint's cache keeps them per
# fixture (engine.fixture_problems) and a test runs each such rule on one fixture at a time
# (tests/test_rule_scope.py). "corpus": anything else (counts, duplicates, templates across
# fixtures, the secret scan of every file, the loader's problems of folders and names).
Scope = Literal["fixture", "corpus"]
FIXTURE: Scope = "fixture"
CORPUS: Scope = "corpus"
SCOPES: tuple[Scope, ...] = (FIXTURE, CORPUS)


@runtime_checkable
class Rule(Protocol):
    """What every rule module declares (docs/architecture.md, "Protocols"). Its `check` is typed
    `check(ctx: LintContext, options: Options) -> Iterator[Problem]` with its own options value
    (lint/options.py: the rule's Options NamedTuple, NoOptions for a rule without OPTIONS), which
    mypy checks under its strict flags in every module of corpustools/lint/rules/;
    tests/test_lint_docs.py holds each registered module to this protocol and those annotations."""

    CODE: str
    NAME: str
    SEVERITY: Severity
    OPTIONS: tuple[Option, ...]
    SUPPRESSIBLE: bool
    SCOPE: Scope  # "fixture" or "corpus": what its findings depend on (SCOPES above)
    FIXES: tuple[Fix, ...]

    def check(self, ctx: LintContext, options: Any) -> Iterator[Problem]: ...


@dataclass(frozen=True)
class Registered:
    """A rule as the registry knows it without importing it."""

    code: str
    name: str
    module: str  # under corpustools.lint.rules
    suppressible: bool = True  # False for the secret rules (CT5xx): they always run


REGISTERED: tuple[Registered, ...] = (
    Registered("CT001", "session-parse", "session_parse"),
    Registered("CT002", "sidecar-parse", "sidecar_parse"),
    Registered("CT003", "spec-invalid", "spec_invalid"),
    Registered("CT004", "frontmatter-schema", "frontmatter_schema"),
    Registered("CT005", "sidecar-schema", "sidecar_schema"),
    Registered("CT101", "uuid-invalid", "uuid_invalid"),
    Registered("CT102", "uuid-duplicate", "uuid_duplicate"),
    Registered("CT103", "uuid-fabricated", "uuid_fabricated"),
    Registered("CT201", "sidecar-missing", "sidecar_missing"),
    Registered("CT202", "session-missing", "session_missing"),
    Registered("CT203", "fixture-id-mismatch", "fixture_id_mismatch"),
    Registered("CT204", "fixture-name", "fixture_name"),
    Registered("CT205", "file-extension", "file_extension"),
    Registered("CT301", "category-count", "category_count"),
    Registered("CT302", "category-unknown", "category_unknown"),
    Registered("CT303", "category-shape", "category_shape"),
    Registered("CT401", "turn-range", "turn_range"),
    Registered("CT402", "turn-malformed", "turn_malformed"),
    Registered("CT403", "turn-shape", "turn_shape"),
    Registered("CT404", "session-lengths-few", "session_lengths_few"),
    Registered("CT405", "session-shape-dominant", "session_shape_dominant"),
    Registered("CT406", "category-length-uniform", "category_length_uniform"),
    Registered("CT407", "invisible-character", "invisible_character"),
    Registered("CT501", "secret-token", "secret_token", suppressible=False),
    Registered("CT502", "secret-assignment", "secret_assignment", suppressible=False),
    Registered("CT503", "credential-url", "credential_url", suppressible=False),
    Registered("CT504", "hostname", "hostname", suppressible=False),
    Registered("CT505", "ip-address", "ip_address", suppressible=False),
    Registered("CT506", "email", "email", suppressible=False),
    Registered("CT507", "phone", "phone", suppressible=False),
    Registered("CT508", "secret-scan-incomplete", "secret_scan_incomplete", suppressible=False),
    Registered("CT509", "secret-allow-unused", "secret_allow_unused", suppressible=False),
    Registered("CT601", "term-unwinnable", "term_unwinnable"),
    Registered("CT602", "term-agent-only", "term_agent_only"),
    Registered("CT603", "term-case", "term_case"),
    Registered("CT604", "term-count", "term_count"),
    Registered("CT605", "term-generic", "term_generic"),
    Registered("CT606", "term-empty", "term_empty"),
    Registered("CT607", "forbidden-vacuous", "forbidden_vacuous"),
    Registered("CT608", "forbidden-conflict", "forbidden_conflict"),
    Registered("CT609", "point-id-duplicate", "point_id_duplicate"),
    Registered("CT610", "term-brittle", "term_brittle"),
    Registered("CT611", "term-function-words", "term_function_words"),
    Registered("CT612", "term-rare-phrase", "term_rare_phrase"),
    Registered("CT613", "term-contraction", "term_contraction"),
    Registered("CT614", "term-sibling-form", "term_sibling_form"),
    Registered("CT615", "point-ignore-unused", "point_ignore_unused"),
    Registered("CT701", "template-reuse", "template_reuse"),
    Registered("CT702", "template-near", "template_near"),
    Registered("CT703", "prompt-leak", "prompt_leak"),
    Registered("CT704", "kb-verbatim", "kb_verbatim"),
    Registered("CT705", "opening-skeleton-repeated", "opening_skeleton_repeated"),
    Registered("CT801", "provenance-drift", "provenance_drift"),
)


class LazyRule(ModuleType):
    """A registered rule module, imported on first use. CODE, NAME and SUPPRESSIBLE are the
    registry's row; any other attribute (SEVERITY, OPTIONS, FIXES, check, the docstring) imports
    the module and is read from it. Everything that takes a rule module takes one of these.

    The same idea as corpustools.io.lazy (import on first use), not built on it: a rule is a module
    stand-in that answers its row's attributes without importing, where LazyFunction is one
    callable and lazy_names a package's missing names."""

    def __init__(self, row: Registered) -> None:
        super().__init__(f"{RULES_PACKAGE}.{row.module}")
        self.CODE, self.NAME, self.SUPPRESSIBLE = row.code, row.name, row.suppressible

    def loaded(self) -> ModuleType:
        """The rule module itself (imported once; Python keeps it in sys.modules)."""
        return importlib.import_module(self.__name__)

    def __getattr__(self, attribute: str):
        return getattr(self.loaded(), attribute)

    @property  # read from the module, like every attribute but the row's
    def __doc__(self) -> str | None:  # type: ignore[override]
        return self.loaded().__doc__


RULE_MODULES: tuple[LazyRule, ...] = tuple(LazyRule(row) for row in REGISTERED)


def rule_modules() -> list[ModuleType]:
    """Every registered rule, in code order; none of them imported yet."""
    return list(RULE_MODULES)
