"""The corpus model: the spec, sessions, sidecars and the loaded corpus, the hashes that name its
state (hashing), where corpora are (locate), the prompt under evaluation and its KB (prompt), the
one text normalization, the prompt's output contract and the status words. Built on corpustools.io only; every feature (lint,
score, calibrate, render, ...) reads the corpus through it (docs/architecture.md).

- spec.py          corpus.yaml: categories, counts, the prompt under evaluation, thresholds
- session.py       session files: frontmatter, then role-tagged turns
- sidecar.py       expected/<fixture_id>.yaml: one fixture's labels
- corpus.py        loading a corpus folder, every problem kept as a value (`Corpus`, `ScoringCorpus`)
- hashing.py       the corpus, inputs and labels hashes
- locate.py        the corpus a path belongs to; every corpus below a folder
- prompt.py        the prompt under evaluation and its knowledge base
- normalize.py     the one text normalization, and what a term matches
- contract.py      the output contract and session format corpus.yaml declares
- status.py        the status words, each an enum whose members are their text"""

# Every module of the layer is public to the layers above it (docs/architecture.md).
__all__ = ["contract", "corpus", "hashing", "locate", "normalize", "prompt", "session", "sidecar", "spec", "status"]
