"""corpustools: lint, score and compare a labeled fixture corpus for an LLM prompt.

Layers, lowest first (docs/architecture.md): io/ (files, positions, YAML, schemas), model/ (the
corpus model), the features (lint/, score/, calibrate/, render, manifest, provenance, validation,
scaffold), commands/ and cli (parsing and printing only)."""

__version__ = "0.2.0"

__all__ = ["__version__"]
