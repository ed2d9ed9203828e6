"""The status words a checked file can have, each defined once. They are contracts: they appear in
JSON reports and printed lines. A run's result file is OK, MISSING, UNREADABLE (there, but the
system would not give its bytes) or INVALID (corpustools.score.results), and a fixture's score is OK
when its result was (corpustools.score.fixture); a file checked against its schema can be INVALID
or UNREADABLE (corpustools.validation); a file the provenance record lists can be MISSING
(corpustools.provenance)."""

OK, MISSING, INVALID, UNREADABLE = "ok", "missing", "invalid", "unreadable"
