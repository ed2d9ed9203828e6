"""The rule registry: every rule module under corpustools.lint.rules, imported statically, in code
order. A rule module that is missing or fails to import is an ImportError here, never a rule
silently left out: `corpustools lint` then stops with an internal error (exit 2). Adding a rule is
one line in each list below; tests/test_lint_docs.py checks that every module under rules/ is in
both."""

from __future__ import annotations

from types import ModuleType

from corpustools.lint.rules import (
    category_count,  # CT301
    category_length_uniform,  # CT406
    category_shape,  # CT303
    category_unknown,  # CT302
    credential_url,  # CT503
    email,  # CT506
    file_extension,  # CT205
    fixture_id_mismatch,  # CT203
    fixture_name,  # CT204
    forbidden_conflict,  # CT608
    forbidden_vacuous,  # CT607
    frontmatter_schema,  # CT004
    hostname,  # CT504
    invisible_character,  # CT407
    ip_address,  # CT505
    kb_verbatim,  # CT704
    opening_skeleton_repeated,  # CT705
    phone,  # CT507
    point_id_duplicate,  # CT609
    prompt_leak,  # CT703
    provenance_drift,  # CT801
    secret_allow_unused,  # CT509
    secret_assignment,  # CT502
    secret_scan_incomplete,  # CT508
    secret_token,  # CT501
    session_lengths_few,  # CT404
    session_missing,  # CT202
    session_parse,  # CT001
    session_shape_dominant,  # CT405
    sidecar_missing,  # CT201
    sidecar_parse,  # CT002
    sidecar_schema,  # CT005
    spec_invalid,  # CT003
    template_near,  # CT702
    template_reuse,  # CT701
    term_agent_only,  # CT602
    term_brittle,  # CT610
    term_case,  # CT603
    term_contraction,  # CT613
    term_count,  # CT604
    term_empty,  # CT606
    term_function_words,  # CT611
    term_generic,  # CT605
    term_rare_phrase,  # CT612
    term_unwinnable,  # CT601
    turn_malformed,  # CT402
    turn_range,  # CT401
    turn_shape,  # CT403
    uuid_duplicate,  # CT102
    uuid_fabricated,  # CT103
    uuid_invalid,  # CT101
)

RULE_MODULES: tuple[ModuleType, ...] = (
    session_parse,
    sidecar_parse,
    spec_invalid,
    frontmatter_schema,
    sidecar_schema,
    uuid_invalid,
    uuid_duplicate,
    uuid_fabricated,
    sidecar_missing,
    session_missing,
    fixture_id_mismatch,
    fixture_name,
    file_extension,
    category_count,
    category_unknown,
    category_shape,
    turn_range,
    turn_malformed,
    turn_shape,
    session_lengths_few,
    session_shape_dominant,
    category_length_uniform,
    invisible_character,
    secret_token,
    secret_assignment,
    credential_url,
    hostname,
    ip_address,
    email,
    phone,
    secret_scan_incomplete,
    secret_allow_unused,
    term_unwinnable,
    term_agent_only,
    term_case,
    term_count,
    term_generic,
    term_empty,
    forbidden_vacuous,
    forbidden_conflict,
    point_id_duplicate,
    term_brittle,
    term_function_words,
    term_rare_phrase,
    term_contraction,
    template_reuse,
    template_near,
    prompt_leak,
    kb_verbatim,
    opening_skeleton_repeated,
    provenance_drift,
)


def rule_modules() -> list[ModuleType]:
    """Every registered rule module, in code order."""
    return sorted(RULE_MODULES, key=lambda m: m.CODE)
