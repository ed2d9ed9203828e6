"""The rule registry: one line per rule module under corpustools.lint.rules, in code order."""

from __future__ import annotations

import importlib
from types import ModuleType

RULE_MODULES = (
    "session_parse",        # CT001
    "sidecar_parse",        # CT002
    "spec_invalid",         # CT003
    "frontmatter_schema",   # CT004
    "sidecar_schema",       # CT005
    "uuid_invalid",         # CT101
    "uuid_duplicate",       # CT102
    "uuid_fabricated",      # CT103
    "sidecar_missing",      # CT201
    "session_missing",      # CT202
    "fixture_id_mismatch",  # CT203
    "fixture_name",         # CT204
    "category_count",       # CT301
    "category_unknown",     # CT302
    "category_shape",       # CT303
    "turn_range",           # CT401
    "turn_malformed",       # CT402
    "turn_shape",           # CT403
    "session_lengths_few",  # CT404
    "session_shape_dominant",  # CT405
    "category_length_uniform",  # CT406
    "secret_token",         # CT501
    "secret_assignment",    # CT502
    "credential_url",       # CT503
    "hostname",             # CT504
    "ip_address",           # CT505
    "email",                # CT506
    "phone",                # CT507
    "term_unwinnable",      # CT601
    "term_agent_only",      # CT602
    "term_case",            # CT603
    "term_count",           # CT604
    "term_generic",         # CT605
    "term_empty",           # CT606
    "forbidden_vacuous",    # CT607
    "forbidden_conflict",   # CT608
    "point_id_duplicate",   # CT609
    "term_brittle",         # CT610
    "term_function_words",  # CT611
    "term_rare_phrase",     # CT612
    "term_contraction",     # CT613
    "template_reuse",       # CT701
    "template_near",        # CT702
    "prompt_leak",          # CT703
    "kb_verbatim",          # CT704
    "opening_skeleton_repeated",  # CT705
    "provenance_drift",     # CT801
)


def rule_modules() -> list[ModuleType]:
    """Every registered rule module, in code order. A module not yet written is skipped."""
    modules = []
    for name in RULE_MODULES:
        try:
            modules.append(importlib.import_module(f"corpustools.lint.rules.{name}"))
        except ModuleNotFoundError as err:
            if err.name != f"corpustools.lint.rules.{name}":
                raise
    return sorted(modules, key=lambda m: m.CODE)
