"""What the secret and personal-data rules (CT501-CT507) share: which files they scan, one line
scanner that turns a match into a 1-based line and column, and the finders the rules call.

Every finder takes one line and returns `Finding`s; `scan.scan(ctx, finder)` owns iterating the
corpus files and lines and computing positions, so all seven rules agree on where a match is.
Every pattern is bounded (no nested unbounded repeats; quantifiers over classes that exclude the
next token's first character), and each rule starts from a cheap literal or class prefilter, so a
1 MB single-line turn is scanned in linear time.
"""
