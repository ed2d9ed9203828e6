"""`corpus.yaml` is missing, unreadable, or not valid against the corpus-spec schema.

What: the corpus folder must hold a `corpus.yaml` that is valid against the shipped `corpus-spec`
JSON Schema (`corpustools schema corpus-spec` prints it), declares no category twice, and has
`turns.min` <= `turns.max`. Each schema error is reported at the offending key. So is each
problem of the output contract (`output:`, `session:`), the output schema file included: a
`$ref` corpustools does not follow (a URL, a path outside the corpus, one naming nothing, a cycle)
or a pattern RE2 cannot evaluate is reported at `output.schema`, naming the schema file's line and
the JSON pointer (docs/contracts.md, "The schema file").

Why: the spec is the single machine-readable source of categories, counts, harnesses and the turn
range; the category, count and turn rules are inactive while it is invalid.

Example (`count` is not an integer):

    categories:
      - id: admit-convention
        count: two

    corpus.yaml:3:5: CT003 [error] /categories/0/count: 'two' is not of type 'integer'

or (an output schema that would fetch):

    corpus.yaml:12:3: CT003 [error] /output/schema: output.schema.json:13:7: /properties/queue/$ref: 'https://example.com/q.json' is not followed: corpustools never fetches a schema; ...
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.structure import loader_problems
from corpustools.lint.fixes import LINE_ENDS_FIX, unknown_key_fix
from corpustools.lint.options import NoOptions
from corpustools.model.corpus import SPEC_INVALID

CODE = "CT003"
NAME = "spec-invalid"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = (LINE_ENDS_FIX, unknown_key_fix("corpus-spec", "`corpus_verison` -> `corpus_version`"))


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from loader_problems(ctx.corpus, SPEC_INVALID)
