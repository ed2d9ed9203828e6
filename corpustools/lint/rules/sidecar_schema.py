"""A sidecar is not valid against the sidecar JSON Schema (each error at the offending key's line).

What: a sidecar has exactly `fixture_id`, `category`, `expect_empty`, `expected_points`,
`max_unexpected_proposals` and `notes`, and optionally `optional_points`; each point (of either
list) has `id`, `type` (an item type of the output contract: `practice` or `map` in the built-in
one, see docs/contracts.md), `must_match_all` (at least one entry: a term, or a list of
alternative terms), `item_fields` (a key of the type's item objects -> its value, or a list of
acceptable values) or both, and optionally `must_not_match` (terms, or lists of terms forbidden
together) and `notes` (a non-empty string). A list inside an entry's list, or an empty list, is
reported at the entry. `item_fields` on a type whose items are strings (or a text answer) is
reported naming the type; with a declared output schema, an `item_fields` key its item objects
do not name is reported with the closest one, and a pinned value (`item_fields` or
`expected_fields`) of a JSON type the schema's `type` never allows there (`dose: 5` for a string
field) is reported: it could never match. The optional `expected_fields` maps a field
pointer the output contract declares (`output.fields`) to its expected value or a list of
acceptable values. `corpustools schema sidecar` prints the schema.

Why: the scorer reads sidecars by this schema; a misspelt key (`must_match` for `must_match_all`)
would otherwise be ignored and the point would check nothing.

Example (a misspelt key):

    expected_points:
      - id: expire-via-queue
        type: practice
        must_match: [queue worker]

    expected/admit-convention-01.yaml:4:5: CT005 [error] /expected_points/0/must_match: Additional properties are not allowed ('must_match' was unexpected)
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.structure import loader_problems
from corpustools.lint.fixes import unknown_key_fix
from corpustools.lint.options import NoOptions
from corpustools.model.corpus import SIDECAR_SCHEMA
from corpustools.model.sidecar import MUST_MATCH_ALL

CODE = "CT005"
NAME = "sidecar-schema"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = (unknown_key_fix("sidecar", "`must_match` -> `must_match_all`", preferred=(MUST_MATCH_ALL,)),)


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from loader_problems(ctx.corpus, SIDECAR_SCHEMA)
