"""The calibration reports: they only format a Calibration (corpustools.calibrate.calibration).

- text.py          the default, for a terminal, in markdown.py's words
- markdown.py      the report to paste into a pull request
- json.py          every number, for scripts
- html.py          one self-contained page
"""
