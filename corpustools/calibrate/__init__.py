"""Calibration: how far the scorer's verdicts agree with a careful human reading the same outputs.

`adjudicate` writes a blind worksheet (worksheet.py) a person fills in an editor; `calibrate`
reads the filled worksheets back (answers.py), compares them with the scorer's verdicts level by
level (agreement.py), and names the cause of every disagreement (causes.py). docs/calibration.md
describes the procedure and every format.
"""

from corpustools.calibrate.calibration import Calibration, CalibrationProblems, RunCalibration, calibrate_runs
from corpustools.calibrate.worksheet import Worksheet, build_worksheet, refuse_answered, worksheet_yaml

# The public API (commands and corpustools.api use only these; the rest is internal). `report` is
# the subpackage of the calibration reports (its FORMATTERS).
__all__ = ["Calibration", "CalibrationProblems", "RunCalibration", "Worksheet", "build_worksheet", "calibrate_runs",
           "refuse_answered", "report", "worksheet_yaml"]
