"""What the secret and personal-data rules (CT501-CT508) share: which files they scan, how those
files are read and folded, one line scanner that turns a match into a 1-based line and column, and
the finders the rules call.

Every file and folder under the corpus folder (loaded or not, whatever its name; `.git` excepted)
is read leniently (source.py: by its BOM, UTF-8/16/32) and each line is scanned in a folded view
that sees through invisible and look-alike characters (fold.py), and in the other views of
scan.View: as written, unescaped and base64-decoded (decode.py), multi-line YAML strings as parsed,
private-key blocks as one line, and every file and folder name; all computed once per file. The
lines a finder's hint points at are also read as a reader puts them back together (markup.py:
Markdown and HTML removed, words joined over line breaks), by the finders registered for that
(scan.reads_views), each such view made once. What could not be read in full is
CT508. Every finder takes one line of a view and returns `Finding`s; `scan.scan(ctx, finders)`
owns iterating the files, lines and views, runs each finder only on the lines its hint points at
(one search per batch of files joined together, and per batch of their views), and maps positions back to the
original columns, so all rules agree on where a match is. findings.py runs every finder once per
run, fingerprints each finding (fingerprints.py) and applies `lint: secrets: allow:`; redaction.py is the one
redaction of everything lint prints. Every pattern is bounded (no
nested unbounded repeats; quantifiers over classes that exclude the next token's first character),
and each rule starts from a cheap literal or class prefilter, so a 1 MB single-line turn is
scanned in linear time.

- source.py        reading a file for the scan, leniently; fold.py: the folded view and the way back
- decode.py        what a line's escapes, entities, percent-encoding and base64 stand for
- scan.py          the scan: every file, line and view, each finder where its hints point (hints.py)
- findings.py      every finder run once per run, fingerprinted, `lint: secrets: allow:` applied
- redaction.py     the one redaction of everything lint prints
- quoted.py        a secret value found by its context (CT502, CT503), masked wherever a message quotes it
- tokens.py        credential-shaped tokens (CT501); assignments.py: a secret-ish key's value (CT502),
                   told from a reference by values.py
- hosts.py         URLs, credentials in URLs and host names (CT503, CT504), top-level domains in tlds.py
- addresses.py     IP addresses (CT505); contact.py: e-mail addresses and phone numbers (CT506, CT507)
"""
