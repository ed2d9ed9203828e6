"""What every report family shares (score, compare, calibrate): one fixed precision for numbers,
the one way user text enters Markdown, and the HTML page shell. It formats values and decides
nothing; it imports no feature at run time (their types only, for the type checker).

- formatting.py    numbers at fixed precision, Markdown escaping and tables, a run's manifest fields,
                   the corpus line, JSON dumping
- page.py          the HTML page shell: escaping, the stylesheet, the filter script, the CSP, tables,
                   bars and banners, the corpus header
"""

__all__ = ["formatting", "page"]
