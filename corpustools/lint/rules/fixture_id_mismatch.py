"""A sidecar's `fixture_id` differs from its file's basename.

What: `expected/admit-convention-01.yaml` says `fixture_id: admit-convention-01`.

Why: the basename pairs the sidecar with its session; a `fixture_id` that says otherwise is a
copied sidecar whose id was not updated, and reports would name the wrong fixture.

Example:

    # expected/admit-convention-02.yaml
    fixture_id: admit-convention-01

    expected/admit-convention-02.yaml:1:1: CT203 [error] fixture_id 'admit-convention-01' differs from the file name 'admit-convention-02'
"""

from corpustools.lint.diagnostic import Problem

CODE = "CT203"
NAME = "fixture-id-mismatch"
SEVERITY = "error"
OPTIONS = ()
SUPPRESSIBLE = True


def check(ctx, options):
    for fixture_id, doc in sorted(ctx.corpus.sidecar_docs.items()):
        value = doc.data.get("fixture_id")
        if isinstance(value, str) and value != fixture_id:
            yield Problem(doc.pos(("fixture_id",)),
                          f"fixture_id {value!r} differs from the file name {fixture_id!r}")
