"""The I/O layer: reading and writing files safely, source positions, the one YAML dialect, the
shipped JSON Schemas. It knows nothing of fixtures, scores or rules (docs/architecture.md).

- errors.py        the errors a user reads: one hierarchy, each with its lines and exit code
- positions.py     `Pos`, `Problem` and `printable`: where a thing is, and how a name is shown
- textfile.py      reading a file as text safely (no link, FIFO, BOM or bad UTF-8)
- documents.py     JSON and YAML documents as plain data, strictly; `dump_json`, the one JSON writer
- yamlload.py      the one YAML dialect; yamlwrite.py: YAML it reads back exactly; yamledit.py: in-place
                   edits for `lint --fix`
- schemastore.py   the shipped JSON Schemas and validation; schemacheck.py: a fast structural check;
                   schemaerrors.py: their errors, worded as jsonschema words them, without jsonschema
- userschema.py    a corpus's own output schema and its $refs; schemaregex.py: its patterns, in RE2
- writing.py       every write: atomic, never into a corpus's own files, never over an input
- inputs.py        what a command has read, so that no write lands on it
- paths.py         how a path is shown (working folder, repository root)
- layout.py        the names that make a folder a corpus (corpus.yaml, sessions/, expected/, gold/)
- suggest.py       did you mean
- gitstage.py      what git has staged (lint --staged); githistory.py: a folder's committed states
- lazy.py          imports on first use: `LazyFunction`, `format_table`, `lazy_names`"""

# Every module of the layer is public to the layers above it (docs/architecture.md).
__all__ = ["documents", "errors", "githistory", "gitstage", "inputs", "layout", "lazy", "paths", "positions",
           "schemacheck", "schemaerrors", "schemaregex", "schemastore", "suggest", "textfile", "userschema", "writing", "yamledit",
           "yamlload", "yamlwrite"]
