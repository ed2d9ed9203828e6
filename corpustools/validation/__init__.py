"""`corpustools validate`: files against a shipped JSON Schema and the output contract, and answers
against a corpus's output contract as `score` reads them (docs/contracts.md).

- checks.py        each file's verdict and problems; `ValidationReport`
- report/          validate's reports (text, json) and their FORMATTERS
"""

from corpustools.validation.checks import (
    FileVerdict,
    ValidationProblem,
    ValidationReport,
    validate_file,
    validate_files,
    validate_results,
)

# The public API (commands and corpustools.api use only these; the rest is internal). `report` is
# the subpackage of validate's reports (its FORMATTERS).
__all__ = ["FileVerdict", "ValidationProblem", "ValidationReport", "report", "validate_file", "validate_files",
           "validate_results"]
