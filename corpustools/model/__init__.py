"""The corpus model: the spec, sessions, sidecars and the loaded corpus, the one text
normalization, and the prompt's output contract. Built on corpustools.io only; every feature
(lint, score, calibrate, render, ...) reads the corpus through it (docs/architecture.md)."""
