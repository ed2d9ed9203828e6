"""The score reports: they only format a ScoreReport (corpustools.score.scoring), never score.

- text.py          the default, for a terminal: failures first, the verdict line last
- markdown.py      the report to paste into a pull request
- json.py          every number and reason, for scripts
- html.py          one self-contained page (html_fixture.py: one fixture's row and evidence;
                   history_html.py: the history section)
- drilldown.py     what a report shows under each reason of a failing fixture, and the reason in words
- compare/         the comparison's reports (text, markdown, json, html)
"""
