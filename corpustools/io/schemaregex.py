"""The patterns of a corpus's own JSON Schema (`pattern`, `patternProperties`), evaluated by RE2:
in time linear in the text, whatever the pattern.

Python's `re` backtracks: `^([a-z]+ ?)+$`, a plausible "lowercase words" rule, takes minutes on
a 120-character answer that almost matches. RE2 (the `google-re2` package) never backtracks, and
refuses what it cannot do in linear time (backreferences, lookaround): such a pattern is a
contract error when the schema is read (corpustools.io.userschema), never a slow result.

The dialect is RE2's syntax (https://github.com/google/re2/wiki/Syntax), which covers the
ECMA-262 patterns JSON Schema recommends, plus ECMA-262's `\\uXXXX`, `\\u{X...}` and `\\cX`
escapes, which are rewritten to RE2's `\\x{...}` before compiling. What still differs from
ECMA-262 is listed in docs/contracts.md (`\\s` is ASCII whitespace, `.` stops only at a newline).

jsonschema evaluates these keywords by calling `re.search(pattern, text)` in its keyword
functions (and in the helpers `additionalProperties` and `unevaluatedProperties` use to find
the keys a pattern covers). `re2_keywords` gives a validator class those functions with `re`
bound to one schema's `Patterns.search`, each a copy of jsonschema's own: nothing process-wide
is patched, and jsonschema's semantics and messages are kept.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any

# The keywords whose functions jsonschema writes with `re.search` (draft 2020-12 and the older
# drafts' variants of the same names).
PATTERN_KEYWORDS = ("pattern", "patternProperties", "additionalProperties", "unevaluatedProperties")


class PatternError(ValueError):
    """A pattern RE2 cannot compile; str() is RE2's reason."""


def _hex(text: str) -> bool:
    return bool(text) and all(c in "0123456789abcdefABCDEF" for c in text)


def to_re2(pattern: str) -> str:
    """`pattern` with ECMA-262's `\\uXXXX` (a surrogate pair joined), `\\u{X...}` and `\\cX` escapes
    in RE2's spelling, `\\x{...}`; every other character as it is (RE2 judges the rest)."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char != "\\" or i + 1 == n:
            out.append(char)
            i += 1
            continue
        escaped = pattern[i + 1]
        if escaped == "u" and _hex(pattern[i + 2:i + 6]) and len(pattern[i + 2:i + 6]) == 4:
            code, i = int(pattern[i + 2:i + 6], 16), i + 6
            low = pattern[i + 2:i + 6] if pattern.startswith("\\u", i) else ""
            if 0xD800 <= code < 0xDC00 and len(low) == 4 and _hex(low) and 0xDC00 <= int(low, 16) < 0xE000:
                code, i = 0x10000 + ((code - 0xD800) << 10) + (int(low, 16) - 0xDC00), i + 6
            out.append(f"\\x{{{code:04X}}}")
        elif escaped == "u" and pattern.startswith("{", i + 2) and "}" in pattern[i + 3:i + 11]:
            digits = pattern[i + 3:pattern.index("}", i + 3)]
            if not _hex(digits):
                out.append(pattern[i:i + 2])
                i += 2
                continue
            out.append(f"\\x{{{digits}}}")
            i += 4 + len(digits)
        elif escaped == "c" and i + 2 < n and pattern[i + 2].isascii() and pattern[i + 2].isalpha():
            out.append(f"\\x{{{ord(pattern[i + 2]) % 32:02X}}}")
            i += 3
        else:
            out.append(pattern[i:i + 2])  # any other escape, `\\\\` included, is RE2's to read
            i += 2
    return "".join(out)


# RE2 never backtracks, but its work on a text is bounded by the text's length times the size of
# the pattern's program (when its DFA gives up, it simulates the program on each character):
# `\p{L}{400}!` is a 478,405-instruction program that takes 16 s on a 100 kB answer. So a pattern's
# program, and a schema's together, are capped when the schema is read (what a legitimate pattern
# needs is a few thousand: `^\p{L}+$` is 1,200), and every search is charged length x program size
# against the result's budget (corpustools.io.userschema).
MAX_PROGRAM = 50_000  # RE2 instructions of one pattern
MAX_PROGRAMS = 500_000  # of all the patterns of one schema together
# Memory: RE2 lets a program and its DFA cache grow to `max_mem` (8 MiB by default); at 2 MiB each,
# a schema's patterns hold at most 512 MiB, whatever the answers they search.
MAX_MEMORY = 2 << 20
MAX_PATTERNS = 256  # distinct patterns of one schema


def compile_pattern(pattern: str):
    """The RE2 program of a schema pattern; PatternError when RE2 cannot compile it (a
    backreference, lookaround, a repetition over 1,000, a program over RE2's memory budget)."""
    import re2  # re2: only a user schema's patterns

    options = re2.Options()
    options.log_errors = False  # RE2 would print its reason on standard error: the reason is ours to say
    options.never_capture = True  # only "is there a match" is asked
    options.max_mem = MAX_MEMORY
    try:
        return re2.compile(to_re2(pattern), options)
    except re2.error as err:
        reason = err.args[0] if err.args else "cannot compile"
        raise PatternError(reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)) from None


class Patterns:
    """The RE2 programs of one schema's patterns, and the searches made with them: each charged
    (length of the text + 1) x program size to `charge`, when one is set."""

    def __init__(self) -> None:
        self.programs: dict[str, Any] = {}
        self.size = 0  # instructions of every pattern added
        self.charge: Callable[[int], None] | None = None

    def add(self, pattern: str) -> str | None:
        """Compile a pattern of the schema; why it cannot be evaluated (RE2's reason, or its
        program's size over the caps), or None."""
        if pattern in self.programs:
            return None
        if len(self.programs) == MAX_PATTERNS:
            return f"pattern {pattern!r} is one more than the {MAX_PATTERNS} distinct patterns a schema may have"
        try:
            program = compile_pattern(pattern)
        except PatternError as err:
            if str(err).startswith("pattern too large"):
                return (f"pattern {pattern!r} is too large to evaluate: its RE2 program is over the {MAX_MEMORY >> 20} "
                        "MiB a pattern may take (a repetition of a large class, such as \\p{L}{400}?)")
            return (f"pattern {pattern!r} cannot be evaluated by RE2, the linear-time engine schema patterns run in "
                    f"({err}); write it in RE2's syntax, without backreferences or lookaround (docs/contracts.md, "
                    "The schema file)")
        size = program.programsize
        if size > MAX_PROGRAM:
            return (f"pattern {pattern!r} is too large to evaluate: its RE2 program has {size:,} instructions, over "
                    f"the {MAX_PROGRAM:,} a pattern may have (a repetition of a large class, such as \\p{{L}}{{400}}?)")
        if self.size + size > MAX_PROGRAMS:
            return (f"pattern {pattern!r} brings the schema's patterns to {self.size + size:,} RE2 instructions, over "
                    f"the {MAX_PROGRAMS:,} a schema's patterns may have together")
        self.programs[pattern] = program
        self.size += size
        return None

    def search(self, pattern: str, text: str):
        """A match of `pattern` anywhere in `text` (JSON Schema patterns are not anchored), or None.
        A pattern not added (jsonschema joins a schema's patternProperties with `|`) is compiled
        here, once."""
        program = self.programs.get(pattern)
        if program is None:
            program = self.programs[pattern] = compile_pattern(pattern)
        if self.charge is not None:
            self.charge((len(text) + 1) * program.programsize)
        try:
            return program.search(text)
        except UnicodeEncodeError:  # a lone surrogate (no JSON this package reads holds one): as bytes
            return program.search(text.encode("utf-8", "surrogatepass"))

    def searcher(self, pattern: str):
        """An object whose `search(text)` is this pattern's (for corpustools.io.schemacheck)."""
        return types.SimpleNamespace(search=lambda text: self.search(pattern, text))


def _names(code: types.CodeType) -> set[str]:
    """Every global name `code` and the code nested in it (generator expressions) may read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _uses_re(function: types.FunctionType, seen: set) -> bool:
    """Whether `function`, or a jsonschema function it calls, reads the global `re`."""
    if function in seen:
        return False
    seen.add(function)
    names = _names(function.__code__)
    if "re" in names:
        return True
    helpers = (function.__globals__.get(name) for name in names)
    return any(isinstance(helper, types.FunctionType) and helper.__module__.startswith("jsonschema")
               and _uses_re(helper, seen) for helper in helpers)


def _rebound(function: types.FunctionType, as_re, done: dict) -> types.FunctionType:
    """A copy of `function` whose globals give `re` as RE2, as do those of each jsonschema helper
    it calls (a recursive helper calls its own copy)."""
    if function in done:
        return done[function]
    namespace = dict(function.__globals__)
    copy = types.FunctionType(function.__code__, namespace, function.__name__, function.__defaults__,
                              function.__closure__)
    done[function] = copy
    namespace["re"] = as_re
    for name in _names(function.__code__):
        helper = namespace.get(name)
        if isinstance(helper, types.FunctionType) and helper.__module__.startswith("jsonschema") \
                and _uses_re(helper, set()):
            namespace[name] = _rebound(helper, as_re, done)
    return copy


def re2_keywords(keywords: Mapping[str, Callable], patterns: Patterns) -> dict[str, Callable]:
    """The pattern keywords of a validator class's `VALIDATORS`, evaluated by `patterns`: pass the
    result to `jsonschema.validators.extend(cls, validators=...)`."""
    done: dict = {}
    as_re = types.SimpleNamespace(search=patterns.search)  # what the copies find as `re`
    return {name: _rebound(function, as_re, done) for name, function in keywords.items()
            if name in PATTERN_KEYWORDS and isinstance(function, types.FunctionType) and _uses_re(function, set())}
