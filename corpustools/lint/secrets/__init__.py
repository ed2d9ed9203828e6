"""What the secret and personal-data rules (CT501-CT508) share: which files they scan, how those
files are read and folded, one line scanner that turns a match into a 1-based line and column, and
the finders the rules call.

Every corpus file (corpus.yaml, sessions, sidecars, gold/*.json; loaded or not) is read leniently
(source.py) and each line is scanned in a folded view that sees through invisible and look-alike
characters (fold.py); what could not be read in full is CT508. Every finder takes one folded line
and returns `Finding`s; `scan.scan(ctx, finder, hint)` owns iterating the files and lines, runs the
finder only on the lines its hint points at (one search over each whole file), and maps positions
back to the original columns, so all rules agree on where a match is. Every pattern is bounded (no
nested unbounded repeats; quantifiers over classes that exclude the next token's first character),
and each rule starts from a cheap literal or class prefilter, so a 1 MB single-line turn is
scanned in linear time.
"""
