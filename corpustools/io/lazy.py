"""Imports on first use: a process pays at start-up only for the modules the command it runs needs.

- `LazyFunction(module, name)`: a function named by its module, imported when first called. A
  FORMATTERS table holds these (`format_table`), so its keys (a command's `--format` choices) are
  known when the command line is parsed while only the chosen format's module is ever imported.
- `lazy_names(package, table)`: a package's `__getattr__` and `__dir__` (PEP 562) for the public
  names it re-exports from its modules, each module imported when one of its names is first read.

A module that is missing or fails to import raises its ImportError at that first use (a bug, never
a format or a name silently missing). lint's rule registry (corpustools.lint.registry.LazyRule) is
the same idea for rule modules, which carry a row of data besides.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import inspect

__all__ = ["LazyFunction", "format_table", "lazy_names"]


@dataclass(frozen=True)
class LazyFunction:
    """The function `name` of `module`, imported on the first call (Python keeps the module)."""

    module: str
    name: str

    def loaded(self) -> Callable[..., Any]:
        return getattr(importlib.import_module(self.module), self.name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.loaded()(*args, **kwargs)

    @property
    def __signature__(self) -> inspect.Signature:  # inspect.signature(self): the function's own
        import inspect  # inspect: only for help() and the docs; a lint's replay imports this module

        return inspect.signature(self.loaded())


def format_table(package: str, *formats: str) -> dict[str, Callable[..., str]]:
    """A report family's FORMATTERS table, its keys `formats` in that order: each format is the
    function `render(report) -> str` of the module of its name in `package` (`json-summary` is
    `json_summary.py`), imported when the format is first used."""
    return {fmt: LazyFunction(f"{package}.{fmt.replace('-', '_')}", "render") for fmt in formats}


def lazy_names(package: str, table: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for `package`: each name of `table` (name -> its module) is read
    from its module, imported on first use (a name whose module is `package.name` is that
    submodule); any other name is the usual AttributeError."""

    def __getattr__(name: str) -> Any:
        if name in table:
            module = importlib.import_module(table[name])
            return module if module.__name__ == f"{package}.{name}" else getattr(module, name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        module = importlib.import_module(package)
        return sorted(set(vars(module)) | set(table))

    return __getattr__, __dir__
