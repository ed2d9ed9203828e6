"""The `lint:` section of corpus.yaml, and the --select/--ignore codes of the command line, as one
checked LintConfig. Every mistake is a ConfigError naming the file and line (exit 2), because a
misspelt code silently suppressing nothing is worse than a refusal."""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from corpustools.io.errors import ConfigError, InputError
from corpustools.io.positions import Pos
from corpustools.io.suggest import closest
from corpustools.io.textfile import refuse_nul
from corpustools.io.yamlload import YamlDoc
from corpustools.lint.options import declared, default_values, defaults, typed_options
from corpustools.lint.secrets.fingerprints import constant_parts
from corpustools.model.status import Severity

_CODE_OR_PREFIX = re.compile(r"CT[0-9]{0,3}")
MAX_FINDINGS_PER_FILE = 100  # `lint: max_findings_per_file:`'s default


@dataclass(frozen=True)
class FileIgnore:
    patterns: tuple[str, ...]  # fnmatch patterns over paths relative to the corpus root, POSIX
    codes: frozenset[str]  # (the entry's `reason` is for the reader of corpus.yaml: required, never shown)

    def covers(self, relative_path: str, code: str) -> bool:
        return code in self.codes and any(fnmatch.fnmatchcase(relative_path, p) for p in self.patterns)


@dataclass(frozen=True)
class PointIgnore:
    """One `lint: per_point_ignores:` entry: the findings of `codes` at the point `point` (inside its
    entry of a sidecar's expected_points or optional_points) are not reported, in every sidecar
    holding a point of that id (the entry's `reason` is for the reader of corpus.yaml: required)."""

    point: str
    codes: tuple[str, ...]  # in the order given, each once
    pos: Pos  # where the entry is in corpus.yaml (CT615 reports an unused one there)


@dataclass(frozen=True)
class SecretAllow:
    """One `lint: secrets: allow:` entry: the finding whose exact text hashes to `fingerprint`, in
    `file`, is not reported (the entry's `reason` is for the reader of corpus.yaml: required)."""

    file: str | None  # relative to the corpus root, POSIX, as the entry gives it; None: any file of the corpus
    fingerprint: str  # SHA-256 of the matched text, 64 lowercase hex digits, as the finding prints it
    pos: Pos  # where the entry is in corpus.yaml (CT509 reports an unused one there)


@dataclass(frozen=True)
class LintConfig:
    """What one corpus's lint run uses. Paths are resolved relative to corpus.yaml's folder."""

    ignore: frozenset[str] = frozenset()
    severity: Mapping[str, Severity] = field(default_factory=dict)  # code -> configured level
    per_file_ignores: tuple[FileIgnore, ...] = ()
    per_point_ignores: tuple[PointIgnore, ...] = ()
    # code -> every option, set, for each rule `lint: rules:` configures; options_of(rule) for any rule
    options: Mapping[str, Any] = field(default_factory=dict)
    prompt: str | None = None
    kb: str | None = None
    secret_allow: tuple[SecretAllow, ...] = ()
    # At most this many findings of one rule in one file are listed, then one saying how many more
    # (0: all of them): a rule firing at every character of a long line stays a few lines of report.
    max_findings_per_file: int = MAX_FINDINGS_PER_FILE
    # lint.provenance is read by corpustools.provenance.corpus_record_path, the one answer to
    # "where is this corpus's record" (CT801, provenance record and verify).

    def options_of(self, rule: ModuleType) -> Any:
        """What `rule` runs with: its options value (lint/options.py), every option it declares as
        `lint: rules:` sets it or by default. (Defaults are read when a rule runs, so a rule that
        does not run is never imported.)"""
        return self.options[rule.CODE] if rule.CODE in self.options else defaults(rule)


def rule_by_code(rules: list[ModuleType]) -> dict[str, ModuleType]:
    return {rule.CODE: rule for rule in rules}


def suppressible(rule: ModuleType) -> bool:
    return rule.SUPPRESSIBLE


def _never(rule: ModuleType, what: str) -> str:
    return f"{rule.CODE} ({rule.NAME}) is a secret rule and can never be {what}"


def expand_codes(text: str, rules: list[ModuleType], *, option: str) -> frozenset[str]:
    """'CT5,CT601,turn-shape' -> the codes of every loaded rule each item is a prefix of, or names
    (as --explain and corpus.yaml's `lint:` take them). Unknown -> ConfigError."""
    codes: set[str] = set()
    by_name = {rule.NAME: rule.CODE for rule in rules}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if item.lower() in by_name:
            codes.add(by_name[item.lower()])
            continue
        matched = {rule.CODE for rule in rules if rule.CODE.startswith(item.upper())}
        if not _CODE_OR_PREFIX.fullmatch(item.upper()) or not matched:
            raise ConfigError(Pos(""), f"{option}: unknown rule {item!r}: {_did_you_mean(item, rule_by_code(rules))} "
                              "(see --list-rules)")
        codes |= matched
    return frozenset(codes)


def check_cli_ignore(codes: frozenset[str], rules: list[ModuleType], *, option: str = "--ignore") -> None:
    """ConfigError naming `option` when `codes` holds a rule that can never be switched off."""
    by_code = rule_by_code(rules)
    for code in sorted(codes):
        rule = by_code[code]
        if not suppressible(rule):
            raise ConfigError(Pos(""), f"{option}: {_never(rule, 'ignored')}")


def _did_you_mean(entry: str, rules: Mapping[str, ModuleType]) -> str:
    """What to write instead of an unknown entry: the closest code or name, as `CODE (name)`."""
    if _CODE_OR_PREFIX.fullmatch(entry.upper()):  # a code: a near number is another rule, not a typo
        rule = rules.get(entry.upper())
    else:
        names = {rule.NAME: rule for _, rule in sorted(rules.items())}
        close = closest(entry.lower(), names)
        rule = names[close] if close else None
    if rule is None:
        return "write a rule code such as CT403 or a name such as turn-shape"
    return f"did you mean {rule.CODE} ({rule.NAME})?"


def _code_at(doc: YamlDoc, keypath: tuple, entry: str, rules: Mapping[str, ModuleType]) -> ModuleType:
    """The rule a `lint:` entry names, by code (CT610) or by name (term-brittle), as --explain takes."""
    if entry in rules:
        return rules[entry]
    by_name = next((rule for rule in rules.values() if rule.NAME == entry), None)
    if by_name is None:
        section = ".".join(str(key) for key in keypath[:2])
        raise ConfigError(doc.pos(keypath), f"{section}: unknown rule {entry!r}: {_did_you_mean(entry, rules)} "
                          "(see corpustools lint --list-rules)")
    return by_name


def _resolve(doc: YamlDoc, lint: Mapping, key: str) -> str | None:
    """The path `lint: <key>:` names, relative to corpus.yaml; ConfigError at the key when it
    holds a NUL byte (a YAML "\\0" escape), which no file name can."""
    value = lint.get(key)
    if value is None:
        return None
    try:
        refuse_nul(value, f"lint.{key}")
    except InputError as err:
        raise ConfigError(doc.pos(("lint", key)), str(err)) from None
    return os.path.normpath(os.path.join(os.path.dirname(doc.path), value))


def _options(doc: YamlDoc, lint: Mapping, rules: Mapping[str, ModuleType]) -> dict[str, Any]:
    """The options of each rule `lint: rules:` configures: its declared defaults, with what is set
    there checked and applied (the other rules run with their defaults: LintConfig.options_of)."""
    given_by_code: dict[str, tuple[str, Mapping]] = {}
    for entry, given in sorted(lint.get("rules", {}).items()):
        rule = _code_at(doc, ("lint", "rules", entry), entry, rules)
        if rule.CODE in given_by_code:  # both its code and its name
            raise ConfigError(doc.pos(("lint", "rules", entry)), f"lint.rules: {rule.CODE} ({rule.NAME}) "
                              f"is given twice, as {given_by_code[rule.CODE][0]} and as {entry}")
        given_by_code[rule.CODE] = (entry, given)
    resolved = {}
    for code, (entry, given) in sorted(given_by_code.items()):
        rule = rules[code]
        values = default_values(rule)
        options = declared(rule)
        for name, value in sorted(given.items()):
            keypath = ("lint", "rules", entry, name)
            if name not in options:
                known = ", ".join(sorted(options)) or "none"
                raise ConfigError(doc.pos(keypath), f"lint.rules.{entry}: unknown option {name!r} (options: {known})")
            values[name], problem = options[name].resolve(value)
            if problem:
                raise ConfigError(doc.pos(keypath), f"lint.rules.{entry}.{name}: {problem}")
        resolved[code] = typed_options(rule, values)
    return resolved


def _secret_allow(doc: YamlDoc, lint: Mapping) -> tuple[SecretAllow, ...]:
    """The `lint: secrets: allow:` entries (already schema-valid: fingerprint, reason, optional file)."""
    entries = []
    for index, entry in enumerate(lint.get("secrets", {}).get("allow", [])):
        keypath = ("lint", "secrets", "allow", index)
        if not entry["reason"].strip():
            raise ConfigError(doc.pos((*keypath, "reason")),
                              "lint.secrets.allow: reason must say why this text is not a secret")
        file = entry["file"].replace("\\", "/").removeprefix("./") if "file" in entry else None
        if file is not None and (os.path.isabs(file) or ".." in file.split("/")):
            raise ConfigError(doc.pos((*keypath, "file")), "lint.secrets.allow: file must be a path inside "
                              "the corpus, relative to corpus.yaml's folder (as lint reports it)")
        digest = entry["fingerprint"].lower()
        if (constant := constant_parts().get(digest)) is not None:
            raise ConfigError(doc.pos((*keypath, "fingerprint")), (
                f"lint.secrets.allow: this fingerprint is the SHA-256 of `{constant}` alone, a part every "
                "such secret shares: it allows no secret, and never every secret that starts so; allow each "
                "one by the fingerprint its finding prints (a private key's covers its whole block)"))
        entries.append(SecretAllow(file, digest, doc.pos(keypath)))
    return tuple(entries)


def _ignored_codes(doc: YamlDoc, keypath: tuple, entry: Mapping, rules: Mapping[str, ModuleType], how: str,
                   exempt: str) -> tuple[str, ...]:
    """The codes of a `per_file_ignores` or `per_point_ignores` entry (schema-valid), each once: a
    rule by code or name that can be switched off, and a reason that says something; else ConfigError."""
    section = ".".join(keypath[:2])
    codes: dict[str, None] = {}
    for j, code in enumerate(entry["codes"]):
        rule = _code_at(doc, (*keypath, "codes", j), code, rules)
        if not suppressible(rule):
            raise ConfigError(doc.pos((*keypath, "codes", j)), f"{section}: {_never(rule, f'ignored {how}')}")
        codes[rule.CODE] = None
    if not entry["reason"].strip():
        raise ConfigError(doc.pos((*keypath, "reason")), f"{section}: reason must say why {exempt}")
    return tuple(codes)


def load_config(doc: YamlDoc | None, lint: Mapping | None, rules: list[ModuleType]) -> LintConfig:
    """The checked `lint:` section (already schema-valid) of the spec document `doc`."""
    by_code = rule_by_code(rules)
    if doc is None or not lint:
        return LintConfig()
    ignore = set()
    for index, code in enumerate(lint.get("ignore", [])):
        rule = _code_at(doc, ("lint", "ignore", index), code, by_code)
        if not suppressible(rule):
            raise ConfigError(doc.pos(("lint", "ignore", index)), f"lint.ignore: {_never(rule, 'ignored')}")
        ignore.add(rule.CODE)
    severity: dict[str, Severity] = {}
    for code, given in sorted(lint.get("severity", {}).items()):
        level = Severity(given)  # the schema allows only error and warning
        rule = _code_at(doc, ("lint", "severity", code), code, by_code)
        if not suppressible(rule) and level != rule.SEVERITY:
            raise ConfigError(doc.pos(("lint", "severity", code)),
                              f"lint.severity: {_never(rule, f're-levelled to {level}')}")
        if severity.get(rule.CODE, level) != level:  # both its code and its name, levelled differently
            raise ConfigError(doc.pos(("lint", "severity", code)), f"lint.severity: {rule.CODE} ({rule.NAME}) "
                              f"is given twice, as {severity[rule.CODE]} and as {level}")
        severity[rule.CODE] = level
    file_ignores = [FileIgnore(tuple(entry["files"]), frozenset(_ignored_codes(doc, ("lint", "per_file_ignores", index),
                                                                         entry, by_code, "per file", "the files are exempt")))
                    for index, entry in enumerate(lint.get("per_file_ignores", []))]
    point_ignores = [PointIgnore(entry["point"], _ignored_codes(doc, ("lint", "per_point_ignores", index), entry,
                                                                by_code, "per point", "the point is exempt"),
                                 doc.pos(("lint", "per_point_ignores", index)))
                     for index, entry in enumerate(lint.get("per_point_ignores", []))]
    return LintConfig(
        secret_allow=_secret_allow(doc, lint),
        ignore=frozenset(ignore),
        severity=severity,
        per_file_ignores=tuple(file_ignores),
        per_point_ignores=tuple(point_ignores),
        options=_options(doc, lint, by_code),
        prompt=_resolve(doc, lint, "prompt"),
        kb=_resolve(doc, lint, "kb"),
        max_findings_per_file=lint.get("max_findings_per_file", MAX_FINDINGS_PER_FILE),
    )
