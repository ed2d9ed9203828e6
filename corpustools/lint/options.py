"""Rule options as data (yamllint's CONF/DEFAULT/VALIDATE): each rule declares its options as a
tuple of `Option`s in `OPTIONS`; corpustools.lint.config checks corpus.yaml's `lint: rules:` values
against them, and every rule is handed its typed options value in which each option is set (the
corpus's value or the default), so no rule defaults, converts or range-checks an option itself.

That value is the rule's `Options`, a NamedTuple whose fields are its OPTIONS' names, each typed as
`option_annotation` says (`check(ctx: LintContext, options: Options)`, checked by mypy); a rule
without options declares none and is handed `NoOptions()`. OPTIONS stays the one source of truth:
`options_type_problems` says where a rule's Options disagrees with it (tests/test_lint_docs.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, get_type_hints

# What an option's `type` may be, and how a config error and the docs name it. A `dict` option is
# a mapping of names (item types) to integers, given to the rule as its (name, integer) pairs
# sorted by name, so that options stay hashable values.
_KINDS = {int: "an integer", float: "a number", bool: "true or false", str: "a string", tuple: "a list of words",
          dict: "a mapping of names to integers"}


@dataclass(frozen=True)
class Option:
    """One option of a rule: its name under `lint: rules: <rule>:`, its type, its default, its
    allowed range (`min`/`max` for numbers, `choices` otherwise), an optional `validate` callable
    (value -> why it is wrong, or None) and one line of documentation."""

    name: str
    type: type  # int | float | bool | str | tuple (a list of words) | dict (names to integers)
    default: Any
    doc: str
    min: float | None = None
    max: float | None = None
    choices: tuple | None = None
    validate: Callable[[Any], str | None] | None = None

    def __post_init__(self) -> None:
        if self.type not in _KINDS:
            raise TypeError(f"option {self.name}: type must be one of int, float, bool, str, tuple, dict")
        value, problem = self.resolve(self.default)
        if problem or value != self.default:
            raise ValueError(f"option {self.name}: default {self.default!r} is not a resolved valid value")

    def resolve(self, value: Any) -> tuple[Any, str | None]:
        """(the value a rule is given, None) for a YAML value, or (None, why it is not allowed)."""
        if not _is_kind(self.type, value):
            return None, f"expected {_KINDS[self.type]} like the default {self.shown(self.default)}, not {literal(value)}"
        if self.type is dict:
            return self._resolve_pairs(value)
        if self.type is float:
            value = float(value)
        elif self.type is tuple:
            value = tuple(str(word) for word in value)
        if self.min is not None and value < self.min:
            below = "is negative" if self.min == 0 else f"is under {literal(self.min)}"
            return None, f"{literal(value)} {below}"
        if self.max is not None and value > self.max:
            return None, f"{literal(value)} is over {literal(self.max)}"
        if self.choices is not None and value not in self.choices:
            return None, f"{literal(value)} is not one of {', '.join(literal(c) for c in self.choices)}"
        problem = self.validate(value) if self.validate is not None else None
        return (None, problem) if problem else (value, None)

    def _resolve_pairs(self, value: Any) -> tuple[Any, str | None]:
        """A dict option's value as sorted (name, integer) pairs, each integer in range."""
        pairs = tuple(sorted(value.items() if isinstance(value, dict) else value))
        for name, number in pairs:
            low = self.min is not None and number < self.min
            if low or (self.max is not None and number > self.max):
                bound = f"under {literal(self.min)}" if low else f"over {literal(self.max)}"
                return None, f"{name}: {literal(number)} is {bound}"
        return pairs, None

    def shown(self, value: Any) -> str:
        """A resolved value as corpus.yaml would spell it: a dict option's pairs as a mapping."""
        if self.type is dict:
            return "{" + ", ".join(f"{name}: {literal(number)}" for name, number in value) + "}"
        return literal(value)

    def allowed(self) -> str:
        """The type and range, for the docs: `an integer, 0 to 100`."""
        if self.choices is not None:
            return f"one of {', '.join(literal(c) for c in self.choices)}"
        if self.min is not None and self.max is not None:
            return f"{_KINDS[self.type]}, {literal(self.min)} to {literal(self.max)}"
        if self.min is not None:
            return f"{_KINDS[self.type]}, at least {literal(self.min)}"
        return _KINDS[self.type]


def _is_kind(kind: type, value: Any) -> bool:
    if kind is dict:  # a YAML mapping of names to integers, or the resolved pairs of one (a default)
        pairs = value.items() if isinstance(value, dict) else value if isinstance(value, tuple) else None
        return pairs is not None and all(
            isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str) and isinstance(pair[1], int)
            and not isinstance(pair[1], bool) for pair in pairs)
    if kind is bool or isinstance(value, bool):  # YAML's true is not the number 1
        return kind is bool and isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float))
    if kind is tuple:  # a YAML sequence of scalars; a word list's items are read as text
        return isinstance(value, (list, tuple)) and not any(isinstance(w, (list, tuple, dict)) for w in value)
    return isinstance(value, kind)


def literal(value: Any) -> str:
    """A value as corpus.yaml would spell it: `true`, `[a, b]`, `0.25`."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class NoOptions(NamedTuple):
    """The options value of a rule that declares no OPTIONS."""


# What an option's `type` is in a rule's Options: a list of words is a tuple of strings, a mapping
# of names to integers its sorted (name, integer) pairs (hashable, like every options value).
_ANNOTATIONS: dict[type, object] = {int: int, float: float, bool: bool, str: str, tuple: tuple[str, ...],
                                    dict: tuple[tuple[str, int], ...]}


def option_annotation(option: Option) -> object:
    """The type of `option`'s field in a rule's Options."""
    return _ANNOTATIONS[option.type]


def options_type(rule: Any) -> type:
    """The type of the value `rule` is handed: its Options, or NoOptions when it declares no OPTIONS."""
    return rule.Options if rule.OPTIONS else NoOptions


def options_type_problems(rule: Any) -> list[str]:
    """Where `rule`'s Options disagrees with its OPTIONS (names, order, types); none when they agree."""
    if not rule.OPTIONS:
        return [] if getattr(rule, "Options", NoOptions) is NoOptions else [
            f"{rule.CODE} declares Options but no OPTIONS: a rule without options declares no Options"]
    if not hasattr(rule, "Options"):
        return [f"{rule.CODE} declares OPTIONS but no Options NamedTuple of them"]
    wanted = {option.name: option_annotation(option) for option in rule.OPTIONS}
    fields = get_type_hints(rule.Options)
    if list(fields) != list(wanted):
        return [f"{rule.CODE}: Options has the fields {list(fields)}, OPTIONS declares {list(wanted)} (in this order)"]
    return [f"{rule.CODE}: Options.{name} is {fields[name]}, OPTIONS says {kind}"
            for name, kind in wanted.items() if fields[name] != kind]


def typed_options(rule: Any, values: Mapping[str, Any]) -> Any:
    """`values` (every option of `rule`, resolved) as the rule's options value."""
    return options_type(rule)(**values)


def declared(rule: Any) -> dict[str, Option]:
    """The rule's options by name."""
    return {option.name: option for option in rule.OPTIONS}


def default_values(rule: Any) -> dict[str, Any]:
    """Every option of `rule` at its default, by name."""
    return {option.name: option.default for option in rule.OPTIONS}


def defaults(rule: Any) -> Any:
    """The options a rule runs with when corpus.yaml sets none."""
    return typed_options(rule, default_values(rule))
