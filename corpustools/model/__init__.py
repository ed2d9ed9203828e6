"""The corpus model: the spec, sessions, sidecars and the loaded corpus, the hashes that name its
state (hashing), where corpora are (locate), the prompt under evaluation and its KB (prompt), the
one text normalization, the prompt's output contract and the status words. Built on corpustools.io only; every feature (lint,
score, calibrate, render, ...) reads the corpus through it (docs/architecture.md)."""

# Every module of the layer is public to the layers above it (docs/architecture.md).
__all__ = ["contract", "corpus", "hashing", "locate", "normalize", "prompt", "session", "sidecar", "spec", "status"]
