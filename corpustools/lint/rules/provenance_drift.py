"""A corpus file changed, appeared or disappeared since the corpus's provenance record.

What: when a provenance record for this corpus exists (`lint: provenance: PATH` in corpus.yaml,
relative to the corpus folder, else `authoring/provenance.yaml` at the top of the git repository
holding the corpus, or in the corpus folder outside any repository: the path
`corpustools provenance record` writes and `provenance verify` reads by default),
every corpus file - corpus.yaml, sessions, sidecars, gold outputs - and the authoring prompt still
have the sha256 the record lists: the same files `corpustools provenance verify` checks. A changed
or new corpus file is reported at the file; a missing one, or a changed or missing authoring
prompt, at its line in the record. Inactive when there is no record, or the record is of another
corpus.

Why: the record says who reviewed exactly these files. An edit after review must come with a
review, a `corpus_version` bump and a new record, or scores from before and after the edit would
be compared as if they measured the same corpus.

Example (a session edited after recording):

    fixtures/prompt-eval/sessions/admit-convention-01.md:1:1: CT801 [warning] changed since the provenance record authoring/provenance.yaml; review it, bump corpus_version and re-record
"""

import os
from collections.abc import Iterator

from corpustools.io.errors import InputError
from corpustools.io.inputs import note_probe
from corpustools.io.positions import Pos
from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.model.status import FileStatus

CODE = "CT801"
NAME = "provenance-drift"
SEVERITY = Severity.WARNING
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it

_ADVICE = "review it, bump corpus_version and re-record"


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    from corpustools.provenance import load_record, record_drift  # a lint run only: --list-rules loads rules

    path = ctx.provenance_record
    if path:
        note_probe(path)  # the record may be outside the corpus: its absence is an input too
    if not path or not os.path.isfile(path):
        return
    try:
        record = load_record(path)
    except InputError as error:
        yield Problem(error.pos, f"provenance record unreadable: {error.message}")
        return
    root = ctx.corpus.root
    note_probe(record.corpus_root)
    if not os.path.isdir(record.corpus_root) or not os.path.samefile(record.corpus_root, root):
        return  # a record of another corpus
    try:
        drifts = record_drift(record, ctx.corpus.digests)
    except InputError as error:  # a corpus file name that is not UTF-8 (CT001/CT002 say so too)
        yield Problem(error.pos, f"cannot check the provenance record: {error.message}")
        return
    for drift in drifts:
        if drift.path == record.prompt_path:
            yield Problem(record.doc.pos(("authoring_prompt", "sha256")),
                          f"authoring prompt {drift.relative} is {drift.status} since this record; "
                          f"re-review the corpus it authors and re-record")
        elif drift.status == FileStatus.MISSING:
            yield Problem(record.doc.pos(("files", drift.relative)),
                          f"{drift.relative} is in the provenance record but missing from the corpus; {_ADVICE}")
        else:
            yield Problem(Pos(drift.path, 1, 1), f"{drift.status} since the provenance record "
                          f"{os.path.relpath(path).replace(os.sep, '/')}; {_ADVICE}")
