"""`lint --format sarif`: SARIF 2.1.0, for GitHub code scanning and other SARIF readers."""

from __future__ import annotations

from types import ModuleType
from urllib.parse import quote

from corpustools import __version__
from corpustools.io.documents import dump_json
from corpustools.lint.reported import LintReport
from corpustools.lint.ruledoc import rule_body, rule_summary
from corpustools.lint.secrets.redaction import redact_secrets

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

# What %SRCROOT% stands for. No `uri`: an absolute path would make the log differ from machine to
# machine; GitHub code scanning resolves relative URIs against the checkout root anyway.
SRCROOT_DESCRIPTION = ("The repository root: the nearest folder holding .git, at or above the folder "
                       "corpustools lint ran in (that folder itself outside a repository).")


def artifact_uri(path: str) -> str:
    """A root-relative POSIX path as a SARIF relative URI reference (RFC 3986): every byte outside
    the unreserved set and `/` percent-encoded (UTF-8; a name that is not UTF-8 keeps its bytes)."""
    return quote(path.encode("utf-8", "surrogateescape"), safe="/")


def _sarif_rule(rule: ModuleType) -> dict:
    # The documentation passes through the same redaction as every diagnostic: an example key in
    # it is cut too (no SARIF log carries a whole credential-shaped token).
    summary = redact_secrets(rule_summary(rule))
    # The long documentation (What / Why / Example) appears once, as help.markdown: what code
    # scanning shows beside an alert, under the rule's one-line summary as its title.
    body = redact_secrets(rule_body(rule)) or summary
    return {
        "id": rule.CODE,
        "name": rule.NAME,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": summary},
        "help": {"text": f"corpustools lint --explain {rule.CODE}", "markdown": body},
        "defaultConfiguration": {"level": rule.SEVERITY},
        "properties": {"suppressible": rule.SUPPRESSIBLE},
    }


def render(report: LintReport) -> str:
    """SARIF 2.1.0: one run; every rule with its documentation; results located relative to
    %SRCROOT%, the repository root."""
    rules, crashes = report.rules, [str(crash) for crash in report.run.crashes]
    index = {rule.CODE: i for i, rule in enumerate(rules)}
    driver = {"name": "corpustools", "version": __version__, "rules": [_sarif_rule(rule) for rule in rules]}
    results = []
    for d in report.from_root():
        result: dict[str, object] = {
            "ruleId": d.code,
            "level": d.severity,
            "message": {"text": d.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(d.path), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": d.line, "startColumn": d.col},
            }}],
        }
        if d.code in index:
            result["ruleIndex"] = index[d.code]
        if d.folded:
            result["properties"] = {"folded": d.folded}
        results.append(result)
    invocation: dict[str, object] = {"executionSuccessful": not crashes}
    if crashes:
        invocation["toolExecutionNotifications"] = [
            {"level": "error", "message": {"text": crash}} for crash in crashes]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "invocations": [invocation],
                  "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": SRCROOT_DESCRIPTION}}},
                  "results": results}],
    }
    return dump_json(log, indent=2) + "\n"
