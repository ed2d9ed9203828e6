"""Calibration: how far the scorer's verdicts agree with a careful human reading the same outputs.

`adjudicate` writes a blind worksheet (worksheet.py) a person fills in an editor; `calibrate`
reads the filled worksheets back (answers.py), compares them with the scorer's verdicts level by
level (agreement.py), and names the cause of every disagreement (causes.py). docs/calibration.md
describes the procedure and every format.
"""
