"""A sidecar is not valid against the sidecar JSON Schema (each error at the offending key's line).

What: a sidecar has exactly `fixture_id`, `category`, `expect_empty`, `expected_points`,
`max_unexpected_proposals` and `notes`, and optionally `optional_points`; each point (of either
list) has `id`, `type` (`practice` or `map`), `must_match_all` (at least one string) and
optionally `must_not_match` and `notes` (a non-empty string). `corpustools schema sidecar`
prints the schema.

Why: the scorer reads sidecars by this schema; a misspelt key (`must_match` for `must_match_all`)
would otherwise be ignored and the point would check nothing.

Example (a misspelt key):

    expected_points:
      - id: expire-via-queue
        type: practice
        must_match: [queue worker]

    expected/admit-convention-01.yaml:4:5: CT005 [error] /expected_points/0/must_match: Additional properties are not allowed ('must_match' was unexpected)
"""

from corpustools.lint.fixes import unknown_key_fix
from corpustools.lint.structure import loader_problems
from corpustools.model.corpus import SIDECAR_SCHEMA

CODE = "CT005"
NAME = "sidecar-schema"
SEVERITY = "error"
OPTIONS = ()
SUPPRESSIBLE = True
FIXES = (unknown_key_fix("sidecar", "`must_match` -> `must_match_all`"),)


def check(ctx, options):
    yield from loader_problems(ctx.corpus, SIDECAR_SCHEMA)
