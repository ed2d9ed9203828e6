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
bound to this module's `search`, each a copy of jsonschema's own: nothing process-wide is
patched, and jsonschema's semantics and messages are kept.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from functools import lru_cache

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


@lru_cache(maxsize=1024)  # a schema's few patterns, searched in every result
def compile_pattern(pattern: str):
    """The RE2 program of a schema pattern; PatternError when RE2 cannot compile it (a
    backreference, lookaround, a repetition over 1,000, a program over RE2's memory budget)."""
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print its reason on standard error: the reason is ours to say
    options.never_capture = True  # only "is there a match" is asked
    try:
        return re2.compile(to_re2(pattern), options)
    except re2.error as err:
        reason = err.args[0] if err.args else "cannot compile"
        raise PatternError(reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)) from None


def pattern_problem(pattern: str) -> str | None:
    """Why RE2 cannot evaluate `pattern` (its reason and what to do), or None."""
    try:
        compile_pattern(pattern)
    except PatternError as err:
        return (f"pattern {pattern!r} cannot be evaluated by RE2, the linear-time engine schema patterns run in "
                f"({err}); write it in RE2's syntax, without backreferences or lookaround (docs/contracts.md, "
                "The schema file)")
    return None


def search(pattern: str, text: str):
    """A match of `pattern` anywhere in `text` (JSON Schema patterns are not anchored), or None."""
    program = compile_pattern(pattern)
    try:
        return program.search(text)
    except UnicodeEncodeError:  # a lone surrogate (no JSON this package reads holds one): as bytes
        return program.search(text.encode("utf-8", "surrogatepass"))


# What jsonschema's copied keyword functions find as `re`: this module's search, nothing else.
_RE2_AS_RE = types.SimpleNamespace(search=search)


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


def _rebound(function: types.FunctionType, done: dict) -> types.FunctionType:
    """A copy of `function` whose globals give `re` as RE2, as do those of each jsonschema helper
    it calls (a recursive helper calls its own copy)."""
    if function in done:
        return done[function]
    namespace = dict(function.__globals__)
    copy = types.FunctionType(function.__code__, namespace, function.__name__, function.__defaults__,
                              function.__closure__)
    done[function] = copy
    namespace["re"] = _RE2_AS_RE
    for name in _names(function.__code__):
        helper = namespace.get(name)
        if isinstance(helper, types.FunctionType) and helper.__module__.startswith("jsonschema") \
                and _uses_re(helper, set()):
            namespace[name] = _rebound(helper, done)
    return copy


def re2_keywords(keywords: Mapping[str, Callable]) -> dict[str, Callable]:
    """The pattern keywords of a validator class's `VALIDATORS`, evaluated by RE2: pass the result
    to `jsonschema.validators.extend(cls, validators=...)`."""
    done: dict = {}
    return {name: _rebound(function, done) for name, function in keywords.items()
            if name in PATTERN_KEYWORDS and isinstance(function, types.FunctionType) and _uses_re(function, set())}
