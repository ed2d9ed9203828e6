"""`provenance verify --format json`."""

from __future__ import annotations

from corpustools.io.documents import dump_json
from corpustools.io.paths import display_path
from corpustools.provenance.records import VerifyReport


def render(report: VerifyReport) -> str:
    """One JSON object: the record and each drift's path and status."""
    return dump_json({"record": display_path(report.record),
                      "drifts": [{"path": display_path(d.path), "status": d.status} for d in report.drifts]},
                     indent=2) + "\n"
