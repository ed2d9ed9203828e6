"""corpustools: lint, score and compare a labeled fixture corpus for an LLM prompt."""

__version__ = "0.1.0"
