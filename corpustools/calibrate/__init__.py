"""Calibration: how far the scorer's verdicts agree with a careful human reading the same outputs.

`adjudicate` writes a blind worksheet (worksheet.py) a person fills in an editor; `calibrate`
reads the filled worksheets back (answers.py), compares them with the scorer's verdicts level by
level (agreement.py), and names the cause of every disagreement (causes.py). `agree` compares two
raters' worksheets of one run (agree.py; its reports in report/agree/), and `reconcile` merges
them for a third reading (reconcile.py). docs/calibration.md
describes the procedure and every format.

- worksheet.py     the blind worksheet `adjudicate` writes
- answers.py       a filled worksheet read back, every problem one line
- agreement.py     the tables two raters (or the scorer and a rater) fill, and their statistics
- causes.py        one fixture, scorer against human: each disagreement and its cause
- calibration.py   `calibrate`: each run scored now against its worksheet (`Calibration`)
- agree.py         `agree`: two raters' worksheets of one run (`Agreement`)
- reconcile.py     `reconcile`: two raters' worksheets merged for a third reading
- report/          calibrate's reports and FORMATTERS; report/agree/: agree's
"""

from corpustools.calibrate.agree import Agreement, agree_worksheets, breaches, parse_fail_under
from corpustools.calibrate.calibration import Calibration, CalibrationProblems, RunCalibration, calibrate_runs
from corpustools.calibrate.reconcile import Reconciled, reconcile_worksheets
from corpustools.calibrate.worksheet import Worksheet, build_worksheet, refuse_answered, worksheet_yaml

# The public API (commands and corpustools.api use only these; the rest is internal). `report` is
# the subpackage of the calibration reports (its FORMATTERS).
__all__ = ["Agreement", "Calibration", "CalibrationProblems", "RunCalibration", "Worksheet", "agree_worksheets",
           "breaches", "build_worksheet", "calibrate_runs", "parse_fail_under", "reconcile_worksheets", "Reconciled",
           "refuse_answered", "report", "worksheet_yaml"]
