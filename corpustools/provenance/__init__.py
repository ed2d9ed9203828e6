"""The provenance record of a corpus (`corpustools provenance record|freeze|verify`, lint's CT801):
who authored and reviewed it, the sha256 of every file it had then, its labels' freeze, and every
file changed since. records.py's docstring describes the record's format.

- records.py       writing, reading, freezing and verifying a record; `VerifyReport`
- report/          `provenance verify`'s reports (text, json) and their FORMATTERS
"""

from corpustools.provenance.records import (
    DEFAULT_RECORD,
    Drift,
    Freeze,
    Frozen,
    Record,
    State,
    VerifyReport,
    corpus_record_path,
    default_record,
    default_record_path,
    freeze,
    load_record,
    record,
    record_drift,
    threshold_warning,
    verify,
    verify_report,
)

# The public API (commands and corpustools.api use only these; the rest is internal). `report` is
# the subpackage of verify's reports (its FORMATTERS).
__all__ = ["DEFAULT_RECORD", "Drift", "Freeze", "Frozen", "Record", "State", "VerifyReport", "corpus_record_path",
           "default_record", "default_record_path", "freeze", "load_record", "record", "record_drift", "report",
           "threshold_warning", "verify", "verify_report"]
