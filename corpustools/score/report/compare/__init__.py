"""The comparison's reports: they only format a Comparison (corpustools.score.compare).

- text.py          the default, in markdown.py's words, the headline last
- markdown.py      the comparison to paste into a pull request
- html.py          one self-contained page
"""
