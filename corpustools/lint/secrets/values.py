"""Telling an assigned value from a reference to one: `${DB_PASS}`, `%env(APP_SECRET)%`,
`<your-token>`, `****` and `null` name or hide a secret, they do not contain one."""

from __future__ import annotations

import re

# A value starting with one of these is a variable, parameter, template, YAML tag/anchor/alias,
# block scalar, placeholder or structure, not a literal secret.
_REFERENCE_STARTS = ("$", "%", "@", "!", "&", "*", "|", ">", "<", "[", "{", "(", "#", "\\")
_REFERENCE_PARTS = ("(", "->", "::", "{{", "{%", "${", "%env")
# A quoted literal is a value even when it starts with `!`, `#`, `@`, `&`, `*`, `<`, `?` or `\` or
# holds `(`, `->` or `::` (`"!Xk9vQ2mL7pR4"`, `"S3cr3t(2024)!"`): only what names a variable,
# parameter or template inside quotes is a reference there (`"${DB_PASS}"`, `'%env(X)%'`,
# `'[site:name]'`, `"{{ token }}"`), and a whole `<placeholder>`.
_QUOTED_REFERENCE_STARTS = ("$", "%", "[", "{")
_QUOTED_REFERENCE_PARTS = ("{{", "{%", "${", "%env")
_PLACEHOLDER = re.compile(r"<[^<>]*>")
_MASK = re.compile(r"[xX*.\-_•…#?]+")  # xxxx, ****, ..., ???
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")  # DB_PASSWORD, YOUR_API_KEY
_NON_VALUES = frozenset({
    "true", "false", "null", "none", "nil", "undefined", "yes", "no", "on", "off", "~", "redacted",
    "required", "optional", "hidden", "masked",
    # type names: `token: string;` (TypeScript), `password: str` (Python), `api_key: String`
    "string", "str", "int", "integer", "number", "bool", "boolean", "bytes", "any", "object",
    "secretstr", "char", "text", "varchar",
})


def is_reference(value: str, *, quoted: bool = False) -> bool:
    """True when `value` (quotes already removed; `quoted` says there were some) names, hides or
    types a secret, or is empty."""
    value = value.strip()
    if not value or value.endswith(("…", "...")):  # elided, as every redacted value is (`hedg…`)
        return True
    if quoted:
        if (value.startswith(_QUOTED_REFERENCE_STARTS) or any(part in value for part in _QUOTED_REFERENCE_PARTS)
                or _PLACEHOLDER.fullmatch(value)):
            return True
    elif value.startswith(_REFERENCE_STARTS) or any(part in value for part in _REFERENCE_PARTS) \
            or value.startswith("?"):  # `?string`: a nullable type
        return True
    if value.lower().rstrip(";,") in _NON_VALUES:
        return True
    return bool(_MASK.fullmatch(value) or _ENV_NAME.fullmatch(value))
